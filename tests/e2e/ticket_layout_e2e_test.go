package e2e

import (
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/require"

	"palaro"
)

// TestTicketPageAt360_Browser: on a 360 px phone the ticket page's labels (Holder, E-mail, Seat,
// Add-ons) stay on one line beside a long address and name, and nothing overflows the page.
func TestTicketPageAt360_Browser(t *testing.T) {
	a := startApp(t)
	o, err := a.Purchases().CreateOrder(t.Context(), palaro.PurchaseRequest{TicketCode: "valorant-night-market-bgc-watch", Quantity: 1,
		Email: "maria.dela-cruz.santos.reyes@sub.example-long-domain.ph", FullName: "Maria Concepcion Dela Cruz Santos-Reyes",
		MobileNumber: "0917-123-4567"}, a.Now())
	require.NoError(t, err)
	require.NotEmpty(t, o.Tickets)
	ctx := newBrowser(t)
	require.NoError(t, chromedp.Run(ctx, dismissCookies(a.URL), chromedp.EmulateViewport(360, 780),
		chromedp.Navigate(a.URL+palaro.TicketPath(o.Tickets[0].PublicID)), chromedp.WaitVisible(`.ticket-facts`, chromedp.ByQuery)))
	var wrapped []string
	var overflow bool
	require.NoError(t, chromedp.Run(ctx,
		chromedp.Evaluate(`[...document.querySelectorAll('.ticket-facts dt')].filter(dt => {
			const r = document.createRange(); r.selectNodeContents(dt);
			return new Set([...r.getClientRects()].map(x => Math.round(x.top))).size > 1;
		}).map(dt => dt.textContent)`, &wrapped),
		chromedp.Evaluate(`document.documentElement.scrollWidth > document.documentElement.clientWidth`, &overflow),
	))
	screenshot(t, ctx, "ticket-360")
	require.NoError(t, chromedp.Run(ctx, chromedp.ScrollIntoView(`.ticket-facts`, chromedp.ByQuery)))
	screenshot(t, ctx, "ticket-360-facts")
	require.Empty(t, wrapped, "labels that wrap at 360 px")
	require.False(t, overflow, "the page scrolls sideways")
}
