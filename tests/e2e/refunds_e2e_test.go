package e2e

import (
	"context"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/require"

	"palaro"
	"palaro/store"
)

// TestOrganizerRefundOneTicket_Browser: at phone size, an organizer refunds one ticket of a
// two-ticket order from its console page: the other ticket's box is unchecked, a confirmation
// page comes first ('Keep' changes nothing), and once confirmed the sandbox refunds that ticket
// alone, at once: the page shows it refunded, the gate refuses it, the other ticket still admits.
func TestOrganizerRefundOneTicket_Browser(t *testing.T) {
	a := startApp(t)
	ctx := newBrowser(t)
	const buyer = "dalisay@example.ph"
	o := sandboxPaidOrder(t, a, buyer, 2)
	first, second := o.Tickets[0].Code, o.Tickets[1].Code
	orderPath := "/organizer/events/" + demoOwnedEvent + "/orders/" + o.PublicID
	require.NoError(t, chromedp.Run(ctx, dismissCookies(a.URL), chromedp.Navigate(a.URL+"/sign-in"),
		setField("email", store.DemoOrganizerEmail), setField("password", store.DemoOrganizerPassword), submitAndLoad(),
		chromedp.Navigate(a.URL+orderPath), chromedp.WaitVisible(".org-refund-form", chromedp.ByQuery),
		chromedp.ScrollIntoView(".org-refund-form", chromedp.ByQuery)))
	screenshot(t, ctx, "organizer-order-refund-form")

	refundSecondUnchecked := chromedp.Tasks{
		chromedp.Click(`//label[.//code[normalize-space(.)='`+second+`']]`, chromedp.BySearch),
		clickAndLoad(`//button[normalize-space(.)='Refund…']`, chromedp.BySearch),
	}
	t.Run("Keep", func(t *testing.T) {
		require.NoError(t, chromedp.Run(ctx, refundSecondUnchecked))
		require.Equal(t, "Refund order "+o.PublicID+"?", textOf(t, ctx, "h1"))
		require.Contains(t, textOf(t, ctx, "main"), "1 ticket ("+first+")")
		screenshot(t, ctx, "organizer-refund-confirm")
		require.NoError(t, chromedp.Run(ctx, clickAndLoad(`//a[normalize-space(.)='Keep the order as it is']`, chromedp.BySearch)))
		waitPath(t, ctx, orderPath)
		require.Zero(t, sandboxRefunds(t, a), "the first tap changes nothing")
	})
	t.Run("Refund", func(t *testing.T) {
		require.NoError(t, chromedp.Run(ctx, refundSecondUnchecked,
			clickAndLoad(`//main//form//button[normalize-space(.)='Refund 1 ticket']`, chromedp.BySearch)))
		waitPath(t, ctx, orderPath)
		require.Contains(t, textOf(t, ctx, ".form-notice"), "The refund is on its way")
		require.Contains(t, textOf(t, ctx, ".org-refunds"), "refunded", "the sandbox confirms at once")
		require.Contains(t, textOf(t, ctx, ".org-refunds"), first)
		require.NoError(t, chromedp.Run(ctx, chromedp.ScrollIntoView(".org-refunds", chromedp.ByQuery)))
		screenshot(t, ctx, "organizer-order-refunded-one")
		require.Equal(t, 1, sandboxRefunds(t, a))

		got, err := a.Purchases().FindOrderByPublicID(context.Background(), o.PublicID)
		require.NoError(t, err)
		require.Equal(t, palaro.OrderPaid, got.Status, "one ticket still admits")
		require.Equal(t, []string{palaro.TicketCancelled, palaro.TicketValid}, []string{got.Tickets[0].Status, got.Tickets[1].Status})
		require.Empty(t, ticketStatus(t, a, demoOwnedEvent, first), "off the gate list: the gate refuses it")
		require.Equal(t, "valid", ticketStatus(t, a, demoOwnedEvent, second))
		require.Contains(t, outboxKinds(t, a, buyer), palaro.MessageRefundStarted)
	})
}
