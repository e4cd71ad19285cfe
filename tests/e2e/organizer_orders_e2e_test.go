package e2e

import (
	"context"
	"testing"

	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/require"

	"palaro"
	"palaro/store"
)

// blockScripts makes the tab fail every script of the site: what it does must work with the
// server's pages and forms alone.
func blockScripts() chromedp.Action {
	return chromedp.Tasks{network.Enable(), network.SetBlockedURLs().WithURLPatterns([]*network.BlockPattern{
		{URLPattern: "*://*:*/static/js/*", Block: true}, {URLPattern: "*://*:*/static/dist/*", Block: true}})}
}

// TestOrganizerOrderActions_Browser: at phone size and without the site's scripts, an organizer's
// 'Cancel this ticket' and 'Mark refunded' each open a confirmation page first ('Keep' changes
// nothing); confirmed, the ticket is cancelled, an order left without a ticket goes to the refund
// queue (no longer paid), 'Mark refunded' says that no money moves, and the buyer is e-mailed each time.
func TestOrganizerOrderActions_Browser(t *testing.T) {
	a := startApp(t)
	ctx := newBrowser(t)
	bg := context.Background()
	const buyer = "ligaya@example.ph"
	o := paidOrder(t, a, buyer, 2)
	orderPath := "/organizer/events/" + demoOwnedEvent + "/orders/" + o.PublicID
	require.NoError(t, chromedp.Run(ctx, dismissCookies(a.URL), blockScripts(), chromedp.Navigate(a.URL+"/sign-in"),
		setField("email", store.DemoOrganizerEmail), setField("password", store.DemoOrganizerPassword), submitAndLoad(),
		chromedp.Navigate(a.URL+orderPath), chromedp.WaitVisible(".org-types", chromedp.ByQuery)))
	require.Contains(t, textOf(t, ctx, "main"), "Palaro does not return the money", "the order page says what 'Mark refunded' does not do")

	status := func() (order string, tickets []string) {
		got, err := a.Purchases().FindOrderByPublicID(bg, o.PublicID)
		require.NoError(t, err)
		for _, tk := range got.Tickets {
			tickets = append(tickets, tk.Status)
		}
		return got.Status, tickets
	}
	cancelFirst := clickAndLoad(`//button[normalize-space(.)='Cancel this ticket']`, chromedp.BySearch)
	first := o.Tickets[0].Code

	t.Run("Keep", func(t *testing.T) {
		require.NoError(t, chromedp.Run(ctx, cancelFirst))
		require.Equal(t, "Cancel ticket "+first+"?", textOf(t, ctx, "h1"))
		require.Contains(t, textOf(t, ctx, "main"), "This cannot be undone")
		screenshot(t, ctx, "organizer-cancel-ticket-confirm")
		order, tickets := status()
		require.Equal(t, palaro.OrderPaid, order, "the first tap changes nothing")
		require.Equal(t, []string{"valid", "valid"}, tickets)
		require.NoError(t, chromedp.Run(ctx, clickAndLoad(`//a[normalize-space(.)='Keep the ticket']`, chromedp.BySearch)))
		waitPath(t, ctx, orderPath)
		order, tickets = status()
		require.Equal(t, palaro.OrderPaid, order)
		require.Equal(t, []string{"valid", "valid"}, tickets)
	})

	t.Run("CancelBoth", func(t *testing.T) {
		require.NoError(t, chromedp.Run(ctx, cancelFirst,
			clickAndLoad(`//button[normalize-space(.)='Cancel ticket `+first+`']`, chromedp.BySearch)))
		waitPath(t, ctx, orderPath)
		require.Contains(t, textOf(t, ctx, ".form-notice"), "cancelled")
		order, tickets := status()
		require.Equal(t, palaro.OrderPaid, order, "one ticket left: still paid")
		require.ElementsMatch(t, []string{"cancelled", "valid"}, tickets)

		require.NoError(t, chromedp.Run(ctx, cancelFirst))
		require.Contains(t, textOf(t, ctx, "main"), "It is the order's last ticket: the order moves to the refund queue.")
		require.NoError(t, chromedp.Run(ctx, clickAndLoad(`//form//button[starts-with(normalize-space(.), 'Cancel ticket ')]`, chromedp.BySearch)))
		waitPath(t, ctx, orderPath)
		order, tickets = status()
		require.Equal(t, palaro.OrderRefund, order, "no ticket left: the order is no longer paid, it waits for its refund")
		require.Equal(t, []string{"cancelled", "cancelled"}, tickets)
		require.Equal(t, palaro.OrderRefund, textOf(t, ctx, ".org-badge"))
		screenshot(t, ctx, "organizer-order-refund-queue")
	})

	t.Run("MarkRefunded", func(t *testing.T) {
		require.NoError(t, chromedp.Run(ctx, clickAndLoad(`//button[normalize-space(.)='Mark refunded']`, chromedp.BySearch)))
		require.Equal(t, "Mark this order refunded?", textOf(t, ctx, "h1"))
		require.Contains(t, textOf(t, ctx, "main"), "Order "+o.PublicID+" of "+buyer)
		require.Contains(t, textOf(t, ctx, "main"), "Palaro does not return the money")
		screenshot(t, ctx, "organizer-mark-refunded-confirm")
		order, _ := status()
		require.Equal(t, palaro.OrderRefund, order, "the first tap changes nothing")
		require.NoError(t, chromedp.Run(ctx, clickAndLoad(`//main//form//button[normalize-space(.)='Mark refunded']`, chromedp.BySearch)))
		order, _ = status()
		require.Equal(t, palaro.OrderRefunded, order)
	})

	kinds := outboxKinds(t, a, buyer)
	require.Equal(t, []string{palaro.MessageOrderConfirmation, palaro.MessageTicketCancelled, palaro.MessageTicketCancelled,
		palaro.MessageOrderRefunded}, kinds, "the buyer hears of each change")
}
