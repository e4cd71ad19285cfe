package e2e

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/require"

	"palaro"
	"palaro/store"
)

// TestWaitlistSeated_Browser is a visitor on a phone who wants two seats of a sold-out seated
// type: the seat page offers the waiting list, another buyer's unpaid seats come back when their
// hold ends, and the e-mailed link shows the two seats held and buys exactly them.
func TestWaitlistSeated_Browser(t *testing.T) {
	a := startApp(t)
	ctx := context.Background()
	seats := adjacentFreeSeats(t, a, seatedType, 2)
	held, err := a.Purchases().CreateOrder(ctx, palaro.PurchaseRequest{TicketCode: seatedType, Quantity: 2, Email: "slow@example.ph",
		Seats: seats, PaymentType: palaro.PaymentQR}, a.Now())
	require.NoError(t, err)
	require.Equal(t, palaro.OrderPending, held.Status)
	sellOutSeats(t, a, seatedType)

	b := newBrowser(t)
	button := `.ticket-list a[href="/waitlist/` + seatedType + `"]`
	require.NoError(t, chromedp.Run(b, dismissCookies(a.URL), chromedp.Navigate(a.URL+"/e/"+seatedEvent),
		chromedp.ScrollIntoView(button, chromedp.ByQuery)))
	var label string
	require.NoError(t, chromedp.Run(b, chromedp.Text(button, &label, chromedp.ByQuery)))
	require.Equal(t, "Join the waiting list", strings.TrimSpace(label))

	// the seat page, reached by its own link, says the same and has the form
	require.NoError(t, chromedp.Run(b, chromedp.Navigate(a.URL+"/s/"+seatedType),
		chromedp.WaitVisible(`#waitlist-form`, chromedp.ByQuery)))
	screenshot(t, b, "waitlist-seated-join")
	assertTouchTargets(t, b)
	require.NoError(t, chromedp.Run(b, typeInto("f-email", "seatfan@example.ph"), typeInto("f-quantity", "2"), submitAndLoad()))
	var text string
	require.NoError(t, chromedp.Run(b, chromedp.Text(`main`, &text, chromedp.ByQuery)))
	require.Contains(t, text, "You are on the waiting list")
	require.Contains(t, text, "#1")

	// the slow buyer's hold ends: their two seats are held for the visitor
	a.SettleOnce(ctx, a.Now().Add(16*time.Minute))
	link := outboxLink(t, a, "seatfan@example.ph", "/waitlist/offer/")
	require.NoError(t, chromedp.Run(b, chromedp.Navigate(link), chromedp.WaitVisible(`.waitlist-offer`, chromedp.ByQuery),
		chromedp.Text(`main`, &text, chromedp.ByQuery)))
	require.Contains(t, text, "Seats "+seats[0]+", "+seats[1]+" of Lower Box are held for you (seatfan@example.ph)")
	var shown []string
	require.NoError(t, chromedp.Run(b, chromedp.Evaluate(`[...document.querySelectorAll('.offer-seats li')].map(l => l.textContent)`, &shown)))
	require.Equal(t, seats, shown)
	screenshot(t, b, "waitlist-seated-offer")
	assertTouchTargets(t, b)

	// another visitor cannot take those seats: on the map they are held
	other := newBrowser(t)
	var disabled bool
	require.NoError(t, chromedp.Run(other, dismissCookies(a.URL), chromedp.Navigate(a.URL+"/b/"+seatedType+"?seats="+seats[0])))
	waitPath(t, other, "/s/")
	require.NoError(t, chromedp.Run(other, chromedp.Text(`.seat-notice`, &text, chromedp.ByQuery)))
	require.Equal(t, "Seat "+seats[0]+" was just taken. Please choose another seat.", text)
	require.NoError(t, chromedp.Run(other, chromedp.Evaluate(`!!document.querySelector('#waitlist-form')`, &disabled)))
	require.True(t, disabled, "still sold out for everyone else")

	require.NoError(t, chromedp.Run(b, chromedp.Click(`//a[normalize-space(.)='Buy your tickets']`, chromedp.BySearch)))
	waitPath(t, b, "/b/"+seatedType)
	require.NoError(t, chromedp.Run(b, chromedp.WaitVisible(`[data-island="purchase"][data-mounted] form`, chromedp.ByQuery)))
	var email, quantity, hint string
	require.NoError(t, chromedp.Run(b,
		chromedp.Value(`#email`, &email, chromedp.ByQuery), chromedp.Value(`#quantity`, &quantity, chromedp.ByQuery),
		chromedp.Evaluate(`document.getElementById('quantity').closest('.field').querySelector('.field-hint').textContent`, &hint)))
	require.Equal(t, "seatfan@example.ph", email)
	require.Equal(t, "2", quantity)
	require.Equal(t, "Seats "+seats[0]+", "+seats[1], hint)
	var change bool
	require.NoError(t, chromedp.Run(b, chromedp.Evaluate(`!!document.querySelector('.change-seats')`, &change)))
	require.False(t, change, "the offer's seats cannot be changed")
	screenshot(t, b, "waitlist-seated-buy")

	order := payByQRWallet(t, a, b)
	require.Equal(t, "seatfan@example.ph", order.Email)
	require.ElementsMatch(t, seats, order.Seats, "the claim bought exactly the offered seats")
	require.Len(t, order.Tickets, 2)

	// the organizer's console shows the offer with its seats, claimed
	base := "/organizer/events/" + seatedEvent
	require.NoError(t, chromedp.Run(other, chromedp.Navigate(a.URL+"/sign-in?next="+base+"/waitlist"),
		setField("email", store.DemoOrganizerEmail), setField("password", store.DemoOrganizerPassword), submitAndLoad()))
	waitPath(t, other, base+"/waitlist")
	require.NoError(t, chromedp.Run(other, chromedp.Text(`.org-waitlist`, &text, chromedp.ByQuery)))
	require.Contains(t, text, "seatfan@example.ph")
	require.Contains(t, text, "Offered 2 tickets (seats "+seats[0]+", "+seats[1]+")")
	require.Contains(t, text, "claimed")
	screenshot(t, other, "waitlist-seated-console")
	assertTouchTargets(t, other)
}
