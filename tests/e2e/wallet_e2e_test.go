package e2e

import (
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/require"
)

// visualButtons are the buy form's payment buttons in the order a person sees them, top to bottom.
const visualButtons = `[...document.querySelectorAll('.pay-buttons button')]
	.sort((a, b) => a.getBoundingClientRect().top - b.getBoundingClientRect().top).map(b => b.textContent).join(',')`

// ticketsHeading tells whether the order page lists tickets.
const ticketsHeading = `String([...document.querySelectorAll('h2')].some(h => h.textContent === 'Your tickets'))`

// TestWalletPurchase_Browser: a buyer on a 360 px phone pays with GCash in the sandbox: the
// wallets come first, and approving issues the tickets, declining leaves the order waiting for a
// retry, letting it expire ends the order and gives its tickets back.
func TestWalletPurchase_Browser(t *testing.T) {
	a := startApp(t)
	ctx := newBrowser(t)
	require.NoError(t, chromedp.Run(ctx, chromedp.EmulateViewport(360, 740, chromedp.EmulateScale(2), chromedp.EmulateMobile), dismissCookies(a.URL)))
	held := func() int {
		var n int
		require.NoError(t, a.DB().Writer().QueryRow(`SELECT held FROM ticket_types WHERE code = 'dota-2-visayas-major-gen'`).Scan(&n))
		return n
	}
	payWithGCash := func(t *testing.T, email string) {
		t.Helper()
		openForm(t, ctx, a.URL+"/b/dota-2-visayas-major-gen")
		require.NoError(t, chromedp.Run(ctx, typeInto("email", email), typeInto("quantity", "2")))
		require.Equal(t, "Pay with GCash,Pay with Maya,Pay by QR PH,Pay by Card", evalString(t, ctx, visualButtons),
			"a phone cannot scan its own QR code: the wallets come first")
		require.NoError(t, chromedp.Run(ctx, chromedp.Evaluate(`document.querySelector('.pay-buttons').scrollIntoView({block: 'center'})`, nil)))
		screenshot(t, ctx, "wallet-buy-buttons")
		require.NoError(t, chromedp.Run(ctx, pay("Pay with GCash")))
		waitPath(t, ctx, "/sandbox/checkout/")
		require.Equal(t, "Authorize ₱700.00 to Palaro — GCash", evalString(t, ctx, `document.querySelector('h1').textContent`))
	}
	pageText := func() string { return evalString(t, ctx, `document.body.innerText`) }

	t.Run("Approve", func(t *testing.T) {
		payWithGCash(t, "gcash-approve@example.ph")
		screenshot(t, ctx, "wallet-authorize")
		require.NoError(t, chromedp.Run(ctx, chromedp.Click(`#wallet-approve`, chromedp.ByQuery)))
		waitPath(t, ctx, "/payment/success/")
		require.NoError(t, chromedp.Run(ctx, chromedp.WaitVisible(`.paid-with`, chromedp.ByQuery)))
		require.Regexp(t, `^GCash ending \d{4}$`, evalString(t, ctx, `document.querySelector('.paid-with dd').textContent`))
		require.Contains(t, pageText(), "You're in!")
		screenshot(t, ctx, "wallet-paid")
		openTicketAndQR(t, ctx, "wallet")
	})

	t.Run("DeclineThenRetry", func(t *testing.T) {
		payWithGCash(t, "gcash-decline@example.ph")
		require.NoError(t, chromedp.Run(ctx, chromedp.Click(`#wallet-decline`, chromedp.ByQuery)))
		waitPath(t, ctx, "/payment/success/")
		require.NoError(t, chromedp.Run(ctx, chromedp.WaitVisible(`//a[normalize-space(.)='Try again']`, chromedp.BySearch)))
		text := pageText()
		require.Contains(t, text, "Your GCash payment did not go through, and no money was taken.")
		require.Equal(t, "false", evalString(t, ctx, ticketsHeading), "no tickets for a declined payment")
		require.Equal(t, 2, held(), "the tickets stay held while the buyer may retry")
		screenshot(t, ctx, "wallet-declined")

		require.NoError(t, chromedp.Run(ctx, chromedp.Click(`//a[normalize-space(.)='Try again']`, chromedp.BySearch)))
		waitPath(t, ctx, "/sandbox/checkout/")
		require.NoError(t, chromedp.Run(ctx, chromedp.Click(`#wallet-approve`, chromedp.ByQuery)))
		waitPath(t, ctx, "/payment/success/")
		require.NoError(t, chromedp.Run(ctx, chromedp.WaitVisible(`.paid-with`, chromedp.ByQuery)))
		require.Equal(t, "true", evalString(t, ctx, ticketsHeading))
		require.Zero(t, held())
	})

	t.Run("Expire", func(t *testing.T) {
		payWithGCash(t, "gcash-expire@example.ph")
		require.Equal(t, 2, held())
		require.NoError(t, chromedp.Run(ctx, chromedp.Click(`#wallet-expire`, chromedp.ByQuery)))
		waitPath(t, ctx, "/payment/success/")
		require.NoError(t, chromedp.Run(ctx, chromedp.WaitVisible(`//a[normalize-space(.)='Try again']`, chromedp.BySearch)))
		text := pageText()
		require.Contains(t, text, "Your order expired before the payment was confirmed, and its tickets were released.")
		require.NotContains(t, text, "Paid with")
		require.Zero(t, held(), "the stock is back on sale")
		screenshot(t, ctx, "wallet-expired")
	})
}
