package e2e

import (
	"context"
	"regexp"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/require"

	"palaro"
	"palaro/store"
)

// TestMobileChange_Browser changes the mobile number on /profile in a phone-sized browser: the
// number waits for the code sent to it by SMS, which the visitor enters on the same page.
func TestMobileChange_Browser(t *testing.T) {
	a := startApp(t)
	ctx := newBrowser(t)
	watchCSP(t, ctx)
	dismissCookieNotice(t, ctx, a.URL+"/")
	require.NoError(t, chromedp.Run(ctx,
		chromedp.Navigate(a.URL+"/sign-up"),
		chromedp.SendKeys("#f-email", "mobile@example.ph", chromedp.ByQuery),
		chromedp.SendKeys("#f-password", "Secret123", chromedp.ByQuery),
		chromedp.SendKeys("#f-repeatPassword", "Secret123", chromedp.ByQuery),
		chromedp.SendKeys("#f-firstName", "Maria", chromedp.ByQuery),
		chromedp.SendKeys("#f-lastName", "Santos", chromedp.ByQuery),
		chromedp.SendKeys("#f-mobileNumber", "09175550101", chromedp.ByQuery),
		chromedp.Click(`input[name="terms"]`, chromedp.ByQuery),
		chromedp.Click(`#sign-up button[type="submit"]`, chromedp.ByQuery),
		chromedp.WaitVisible("#profile-form", chromedp.ByQuery),
		// A new account's number is its own once the code sent at sign-up is entered.
		chromedp.WaitVisible("#mobile-form", chromedp.ByQuery),
	))
	require.NoError(t, chromedp.Run(ctx,
		chromedp.SendKeys("#f-code", smsCodeTo(t, a, "+639175550101"), chromedp.ByQuery),
		chromedp.Click(`#mobile-form button[type="submit"]`, chromedp.ByQuery),
		chromedp.WaitNotPresent("#mobile-form", chromedp.ByQuery),
		chromedp.SetValue("#f-mobileNumber", "0917 555 0102", chromedp.ByQuery),
		chromedp.Click(`#profile-form button[type="submit"]`, chromedp.ByQuery),
		chromedp.WaitVisible("#mobile-form", chromedp.ByQuery),
	))
	screenshot(t, ctx, "profile-mobile-code")
	msgs, err := store.NewOutboxService(a.DB()).ListOutbox(context.Background(), palaro.OutboxFilter{To: "+639175550102"})
	require.NoError(t, err)
	require.NotEmpty(t, msgs)
	code := regexp.MustCompile(`is ([0-9]{6})\.`).FindStringSubmatch(msgs[0].Text)[1]
	var notice, number string
	require.NoError(t, chromedp.Run(ctx,
		chromedp.SendKeys("#f-code", code, chromedp.ByQuery),
		chromedp.Click(`#mobile-form button[type="submit"]`, chromedp.ByQuery),
		chromedp.WaitNotPresent("#mobile-form", chromedp.ByQuery),
		chromedp.Text(".form-notice", &notice, chromedp.ByQuery),
		chromedp.Value("#f-mobileNumber", &number, chromedp.ByQuery),
	))
	require.Contains(t, notice, "Your mobile number is confirmed and saved.")
	require.Equal(t, "+639175550102", number)
	require.Empty(t, cspViolations(t, ctx))
}
