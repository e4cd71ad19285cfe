package e2e

import (
	"context"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/require"
)

// payReason returns the text shown next to the disabled pay buttons ("" when none).
func payReason(ctx context.Context, t *testing.T) string {
	t.Helper()
	var reason string
	require.NoError(t, chromedp.Run(ctx, chromedp.Evaluate(`(document.getElementById('pay-reason')||{}).textContent||''`, &reason)))
	return reason
}

// formError waits for the form's server message and returns it, dismissing the error toast that
// comes with it (it covers the pay buttons).
func formError(ctx context.Context, t *testing.T) string {
	t.Helper()
	var msg string
	require.NoError(t, chromedp.Run(ctx, chromedp.WaitVisible(`.form-error`, chromedp.ByQuery), chromedp.Text(`.form-error`, &msg, chromedp.ByQuery),
		waitFor(`!document.getElementById('toast').hidden`), chromedp.Click("#toast", chromedp.ByQuery),
		waitFor(`document.getElementById('toast').hidden`)))
	return msg
}

func TestBuyingRules_Browser(t *testing.T) {
	a := startApp(t)
	ctx := newBrowser(t)
	require.NoError(t, chromedp.Run(ctx, dismissCookies(a.URL)))

	t.Run("PerPersonMaxAcrossOrders", func(t *testing.T) {
		buy := func() {
			openForm(t, ctx, a.URL+"/b/codm-campus-clash-iloilo-free")
			require.NoError(t, chromedp.Run(ctx, typeInto("email", "once@example.ph"), typeInto("firstName", "Juan"),
				typeInto("lastName", "Dela Cruz"), typeInto("companyName", "UP Visayas"), typeInto("designation", "Student"),
				pay("Submit")))
		}
		buy()
		waitPath(t, ctx, "/payment/success/")
		buy() // the same person, a second order of a one-per-person ticket
		require.Equal(t, "Maximum ticket limit per user is 1.", formError(ctx, t))
		screenshot(t, ctx, "buy-max-per-person")
	})

	t.Run("ExistingUserWithoutHistoryGetsTheFieldsBack", func(t *testing.T) {
		openForm(t, ctx, a.URL+"/b/valorant-night-market-bgc-watch")
		require.NoError(t, chromedp.Run(ctx, typeInto("email", "newcomer@example.ph"),
			chromedp.Click(`input[name="existingUser"]`, chromedp.ByQuery), pay("Submit")))
		require.Equal(t, "We have no details for this e-mail address yet. Please fill in your details.", formError(ctx, t))
		require.NoError(t, chromedp.Run(ctx, chromedp.WaitVisible(`#fullName`, chromedp.ByQuery)))
		require.Equal(t, "Full Name is required", fieldError(ctx, t, "fullName"))
		require.Equal(t, "Full Name is required", payReason(ctx, t))
		screenshot(t, ctx, "buy-existing-user-unknown")
		require.NoError(t, chromedp.Run(ctx, typeInto("fullName", "Nina Cruz"), typeInto("mobileNumber", "09171234567")))
		require.NoError(t, chromedp.Run(ctx, pay("Submit")))
		waitPath(t, ctx, "/payment/success/")
		// control: now the details are known, the e-mail alone is enough
		openForm(t, ctx, a.URL+"/b/valorant-night-market-bgc-watch")
		require.NoError(t, chromedp.Run(ctx, typeInto("email", "newcomer@example.ph"),
			chromedp.Click(`input[name="existingUser"]`, chromedp.ByQuery), pay("Submit")))
		waitPath(t, ctx, "/payment/success/")
	})

	t.Run("UnknownPromoCode", func(t *testing.T) {
		openForm(t, ctx, a.URL+"/b/dota-2-visayas-major-gen")
		require.NoError(t, chromedp.Run(ctx, typeInto("email", "promo@example.ph"), typeInto("source", "NOSUCHCODE"),
			chromedp.Poll(`(document.getElementById('source-error')||{}).textContent === 'Unknown promo code'`, nil)))
		require.True(t, buttonsDisabled(ctx, t))
		require.Equal(t, "Unknown promo code", payReason(ctx, t))
		screenshot(t, ctx, "buy-unknown-promo")
		// control: a real code is accepted and says what it gives
		require.NoError(t, chromedp.Run(ctx, typeInto("source", "PALARO10"),
			chromedp.Poll(`!document.querySelector('.pay-buttons button').disabled`, nil)))
		require.Contains(t, evalString(t, ctx, `document.querySelector('#source').closest('.field').textContent`), "10% off")
		// a source from a link that is no promo code stays a referral: no message
		openForm(t, ctx, a.URL+"/b/dota-2-visayas-major-gen?source=FRIEND42")
		require.NoError(t, chromedp.Run(ctx, typeInto("email", "promo@example.ph")))
		require.False(t, buttonsDisabled(ctx, t))
		require.Equal(t, "", fieldError(ctx, t, "source"))
	})

	t.Run("DisabledButtonSaysWhy", func(t *testing.T) {
		openForm(t, ctx, a.URL+"/b/valorant-night-market-bgc-team")
		require.NoError(t, chromedp.Run(ctx, typeInto("email", "team@example.ph"), typeInto("fullName", "Team Captain"),
			typeInto("mobileNumber", "09171234567")))
		require.True(t, buttonsDisabled(ctx, t))
		require.Equal(t, "Please answer the survey question", payReason(ctx, t))
		require.NoError(t, chromedp.Run(ctx, chromedp.Evaluate(`document.querySelector('.pay-buttons').scrollIntoView({block: 'center'})`, nil)))
		screenshot(t, ctx, "buy-disabled-reason")
		require.NoError(t, chromedp.Run(ctx, chromedp.Click(`//button[contains(@class,'survey-answer')][normalize-space(.)='Iron to Gold']`, chromedp.BySearch)))
		require.False(t, buttonsDisabled(ctx, t), "control: with the answer the buttons work")
		require.Equal(t, "", payReason(ctx, t))

		openForm(t, ctx, a.URL+"/b/dota-2-visayas-major-vip")
		require.NoError(t, chromedp.Run(ctx, typeInto("email", "vip@example.ph")))
		require.Equal(t, "Please accept the disclaimer to continue", payReason(ctx, t))
	})

	t.Run("QuantityZeroAndDecimalRefused", func(t *testing.T) {
		openForm(t, ctx, a.URL+"/b/dota-2-visayas-major-gen")
		require.NoError(t, chromedp.Run(ctx, typeInto("email", "qty@example.ph"), typeInto("quantity", "0")))
		require.Equal(t, "Please input no. of tickets to be purchased", fieldError(ctx, t, "quantity"))
		require.NotContains(t, evalString(t, ctx, `document.querySelector('[data-total]').textContent`), "FREE")
		require.Equal(t, "Pay by QR PH,Pay by Card,Pay with GCash,Pay with Maya", evalString(t, ctx, `[...document.querySelectorAll('.pay-buttons button')].map(b => b.textContent).join(',')`),
			"no 'Submit' for a paid ticket")
		require.True(t, buttonsDisabled(ctx, t))
		require.Equal(t, "Please input no. of tickets to be purchased", payReason(ctx, t))
		require.NoError(t, chromedp.Run(ctx, typeInto("quantity", "2.5")))
		require.Equal(t, "2.5", evalString(t, ctx, `document.getElementById('quantity').value`), "not 25")
		require.Equal(t, "Please input no. of tickets to be purchased", fieldError(ctx, t, "quantity"))
		require.True(t, buttonsDisabled(ctx, t))
		require.NoError(t, chromedp.Run(ctx, typeInto("quantity", "3")))
		require.False(t, buttonsDisabled(ctx, t), "control: a whole number within the limit")
	})

	t.Run("MobileNumberRule", func(t *testing.T) {
		openForm(t, ctx, a.URL+"/b/valorant-night-market-bgc-watch")
		require.NoError(t, chromedp.Run(ctx, typeInto("email", "mobile@example.ph"), typeInto("fullName", "Ana Reyes"), typeInto("mobileNumber", "123")))
		require.Equal(t, "Invalid Mobile Number", fieldError(ctx, t, "mobileNumber"))
		require.True(t, buttonsDisabled(ctx, t))
		require.NoError(t, chromedp.Run(ctx, typeInto("mobileNumber", "09171234567")))
		require.Equal(t, "", fieldError(ctx, t, "mobileNumber"), "control: a Philippine mobile number")
		require.False(t, buttonsDisabled(ctx, t))
	})

	t.Run("NoBuyAddOnsWithoutAddOns", func(t *testing.T) {
		openForm(t, ctx, a.URL+"/b/tekken-tuesdays-cubao-spectator")
		require.NoError(t, chromedp.Run(ctx, typeInto("email", "fan@example.ph"), pay("Submit")))
		waitPath(t, ctx, "/payment/success/")
		require.NoError(t, chromedp.Run(ctx, chromedp.Click(`.ticket-link`, chromedp.ByQuery)))
		waitPath(t, ctx, "/t/")
		actions := evalString(t, ctx, `document.querySelector('.ticket-actions-list').textContent`)
		require.Contains(t, actions, "Show QR full screen")
		require.NotContains(t, actions, "Buy add-ons")
	})

	t.Run("AddOnSteppers", func(t *testing.T) {
		openForm(t, ctx, a.URL+"/b/dota-2-visayas-major-gen")
		count := func(name string) string {
			return evalString(t, ctx, `[...document.querySelectorAll('.addon-qty')].find(c => c.textContent.includes('`+name+`')).querySelector('output').textContent`)
		}
		require.NoError(t, chromedp.Run(ctx, typeInto("email", "group@example.ph"), typeInto("quantity", "3")))
		require.Equal(t, "3", count("Lanyard"), "a free add-on goes with every ticket")
		require.Equal(t, "0", count("Parking"))
		require.NoError(t, chromedp.Run(ctx, chromedp.Click(`button[aria-label="One more Parking pass"]`, chromedp.ByQuery)))
		require.Equal(t, "1", count("Parking"))
		require.Equal(t, "₱1,200.00", evalString(t, ctx, `document.querySelector('[data-total]').textContent`), "3 × ₱350.00 + ₱150.00 parking")
		require.NoError(t, chromedp.Run(ctx, chromedp.Evaluate(`document.querySelector('.addons').scrollIntoView()`, nil)))
		screenshot(t, ctx, "buy-addons-390")
		require.NoError(t, chromedp.Run(ctx, chromedp.EmulateViewport(360, 780, chromedp.EmulateScale(2), chromedp.EmulateMobile),
			chromedp.Evaluate(`document.querySelector('.addons').scrollIntoView()`, nil)))
		screenshot(t, ctx, "buy-addons-360")
		require.NoError(t, chromedp.Run(ctx, chromedp.EmulateViewport(390, 844, chromedp.EmulateScale(2), chromedp.EmulateMobile)))
	})
}
