package e2e

import (
	"context"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/require"

	"palaro"
	"palaro/store"
)

// refundRows counts an order's refunds rows of a reason, and sums their amounts.
func refundRows(t *testing.T, a *testApp, o *palaro.Order, reason string) (n int, amount int64) {
	t.Helper()
	require.NoError(t, a.DB().Writer().QueryRow(`SELECT count(*), coalesce(sum(amount), 0) FROM refunds WHERE order_id = ? AND reason = ?`,
		o.ID, reason).Scan(&n, &amount))
	return
}

// submitIn submits the form inside selector and waits for the page it answers with.
func submitIn(selector string) chromedp.Action {
	return chromedp.Tasks{
		chromedp.Evaluate(`window.palaroOldPage = true`, nil),
		chromedp.Click(selector+` button[type="submit"]`, chromedp.ByQuery),
		waitFor(`window.palaroOldPage === undefined && document.readyState === 'complete'`),
	}
}

// TestReturns_Browser is two buyers on their phones who cannot go. The first returns their ticket
// of a sold-out type from the order page: it is offered to the waiting list, and only when the
// waiting buyer has paid for it is the first buyer's refund written (their order page says so).
// The second buyer cancels their order before the organizer's deadline, after the organizer set a
// fee in the console; the confirmation page states what they get back and what is kept.
func TestReturns_Browser(t *testing.T) {
	a := startApp(t)
	ctx := context.Background()
	// the demo organizer's event runs today: move it to three days from now, so tickets can be returned
	start := a.Now().Add(72 * time.Hour)
	_, err := a.DB().Writer().Exec(`UPDATE events SET starts_at = ?, ends_at = ? WHERE code = ?`,
		start.UTC().Format(time.RFC3339), start.Add(4*time.Hour).UTC().Format(time.RFC3339), demoOwnedEvent)
	require.NoError(t, err)
	a.DB().ChangedElsewhere()
	a.Server().EventsChanged()
	first := paidOrder(t, a, "first@example.ph", 1)
	second := paidOrder(t, a, "second@example.ph", 2)
	sellOut(t, a, demoOwnedType)
	joinWaitlist(t, a, demoOwnedType, "1", "waiting@example.ph")

	b := newBrowser(t)
	var text string
	returned := first.Tickets[0]
	require.NoError(t, chromedp.Run(b, dismissCookies(a.URL), chromedp.Navigate(a.URL+palaro.OrderPath(first.PublicID)),
		chromedp.WaitVisible(`#order-returns`, chromedp.ByQuery)))
	screenshot(t, b, "returns-order")
	assertTouchTargets(t, b)
	require.NoError(t, chromedp.Run(b,
		chromedp.Click(`//button[normalize-space(.)='Return ticket `+returned.Code+`']`, chromedp.BySearch),
		waitFor(`document.querySelector('.return-state') !== null`),
		chromedp.Text(`#order-returns`, &text, chromedp.ByQuery)))
	require.Contains(t, text, "Returned: on sale again. You get ₱")
	require.Contains(t, text, "Take ticket "+returned.Code+" back")
	screenshot(t, b, "returns-returned")
	n, _ := refundRows(t, a, first, "returned")
	require.Zero(t, n, "no refund before someone pays")

	// the waiting buyer gets the offer, opens it and pays; only then is the first buyer refunded
	link := outboxLink(t, a, "waiting@example.ph", "/waitlist/offer/")
	w := newBrowser(t)
	require.NoError(t, chromedp.Run(w, dismissCookies(a.URL), chromedp.Navigate(link),
		chromedp.WaitVisible(`.waitlist-offer`, chromedp.ByQuery),
		chromedp.Click(`//a[normalize-space(.)='Buy your tickets']`, chromedp.BySearch)))
	waitPath(t, w, "/b/"+demoOwnedType)
	require.NoError(t, chromedp.Run(w, chromedp.WaitVisible(`[data-island="purchase"][data-mounted] form`, chromedp.ByQuery)))
	n, _ = refundRows(t, a, first, "returned")
	require.Zero(t, n, "an offer taken is not yet a sale")
	var fields []string
	require.NoError(t, chromedp.Run(w, chromedp.Evaluate(`[...document.querySelectorAll('form input[id]')].filter(i => i.type !== 'hidden' && !i.readOnly && i.offsetParent !== null).map(i => i.id)`, &fields)))
	for _, f := range fields {
		value := map[string]string{"firstName": "Waiting", "lastName": "Buyer", "fullName": "Waiting Buyer", "mobileNumber": "09171234567"}[f]
		if value != "" {
			require.NoError(t, chromedp.Run(w, typeInto(f, value)))
		}
	}
	bought := payByQRWallet(t, a, w)
	require.Len(t, bought.Tickets, 1)
	require.NotEqual(t, returned.Code, bought.Tickets[0].Code, "the new buyer's ticket has a new code")
	n, amount := refundRows(t, a, first, "returned")
	require.Equal(t, 1, n, "paid: the first buyer's refund is written, once")
	require.Equal(t, int64(first.Total), amount, "the face value paid")
	require.NoError(t, chromedp.Run(b, chromedp.Navigate(a.URL+palaro.OrderPath(first.PublicID)),
		chromedp.Text(`#order-returns`, &text, chromedp.ByQuery)))
	require.Contains(t, text, "Bought by someone else. Your refund of "+first.Total.String()+": on its way.")
	screenshot(t, b, "returns-sold")
	lastMail(t, a, "first@example.ph", palaro.MessageReturnSold)

	// the organizer lets buyers cancel until 2 hours before the start, keeping ₱50.00 + 10%
	org := newBrowser(t)
	base := "/organizer/events/" + demoOwnedEvent
	require.NoError(t, chromedp.Run(org, dismissCookies(a.URL),
		chromedp.Navigate(a.URL+"/sign-in?next="+base+"/cancellations"),
		setField("email", store.DemoOrganizerEmail), setField("password", store.DemoOrganizerPassword), submitAndLoad()))
	waitPath(t, org, base+"/cancellations")
	require.NoError(t, chromedp.Run(org, chromedp.Text(`main`, &text, chromedp.ByQuery)))
	require.Contains(t, text, "Ticket "+returned.Code+" (", "the console lists the return")
	require.Contains(t, text, "sold again")
	require.NoError(t, chromedp.Run(org, setField("percent", "150"), chromedp.Click(`#f-enabled`, chromedp.ByQuery), submitIn("#self-cancel-form"),
		chromedp.Text(`main`, &text, chromedp.ByQuery)))
	require.Contains(t, text, "Enter a percentage from 0 to 100")
	require.NoError(t, chromedp.Run(org, setField("hoursBefore", "2"), setField("fee", "50"), setField("percent", "10"), submitIn("#self-cancel-form"),
		chromedp.Text(`main`, &text, chromedp.ByQuery)))
	require.Contains(t, text, "Saved.")
	screenshot(t, org, "returns-console")

	// the second buyer cancels from the order page, through the confirmation page
	paid := second.Total
	fee := 5000 + (paid*1000+5000)/10000
	require.NoError(t, chromedp.Run(b, chromedp.Navigate(a.URL+palaro.OrderPath(second.PublicID)),
		chromedp.Text(`#order-returns`, &text, chromedp.ByQuery)))
	require.Contains(t, text, "You can cancel this order until")
	require.NoError(t, chromedp.Run(b, chromedp.Click(`//a[normalize-space(.)='Cancel this order']`, chromedp.BySearch)))
	waitPath(t, b, palaro.OrderPath(second.PublicID)+"/cancel")
	require.NoError(t, chromedp.Run(b, chromedp.Text(`main`, &text, chromedp.ByQuery)))
	require.Contains(t, text, "You get back")
	require.Contains(t, text, (paid - fee).String())
	require.Contains(t, text, fee.String())
	screenshot(t, b, "returns-self-cancel")
	assertTouchTargets(t, b)
	require.NoError(t, chromedp.Run(b, submitIn(".self-cancel"), chromedp.Text(`main`, &text, chromedp.ByQuery)))
	require.Contains(t, text, "Order cancelled")
	require.Contains(t, text, "Refund of "+(paid-fee).String()+" (the organizer kept "+fee.String()+" as their fee): on its way.")
	screenshot(t, b, "returns-cancelled")
	n, amount = refundRows(t, a, second, "buyer_cancelled")
	require.Equal(t, [2]int64{1, int64(paid - fee)}, [2]int64{int64(n), amount})
	got, err := a.Purchases().FindOrderByPublicID(ctx, second.PublicID)
	require.NoError(t, err)
	for _, tk := range got.Tickets {
		require.Equal(t, palaro.TicketCancelled, tk.Status, "void at once")
	}
	lastMail(t, a, "second@example.ph", palaro.MessageSelfCancelled)
}
