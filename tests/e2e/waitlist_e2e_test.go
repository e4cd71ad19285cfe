package e2e

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/require"

	"palaro"
	"palaro/store"
)

// TestWaitlist_Browser is a visitor on a phone: the type they want is sold out, so they join its
// waiting list from the event page (a plain form), another buyer's unpaid hold expires, and the
// e-mailed offer link lets them buy exactly the tickets held for them.
func TestWaitlist_Browser(t *testing.T) {
	a := startApp(t)
	const event, code = "dota-2-visayas-major", "dota-2-visayas-major-gen"
	ctx := context.Background()
	held, err := a.Purchases().CreateOrder(ctx, palaro.PurchaseRequest{TicketCode: code, Quantity: 2, Email: "slow@example.ph",
		PaymentType: palaro.PaymentQR}, a.Now())
	require.NoError(t, err)
	require.Equal(t, palaro.OrderPending, held.Status)

	// the last tickets go while the quick-buy sheet is open: the sheet offers the waiting list
	var text string
	b := newBrowser(t)
	require.NoError(t, chromedp.Run(b, dismissCookies(a.URL),
		emulation.SetFocusEmulationEnabled(true),
		chromedp.Navigate(a.URL+"/e/"+event),
		chromedp.Click(`[data-quick-buy="`+code+`"]`, chromedp.ByQuery),
		chromedp.WaitVisible(`.sheet-backdrop.open #quick-email`, chromedp.ByQuery)))
	sellOut(t, a, code)
	require.NoError(t, chromedp.Run(b, typeInto("quick-email", "visitor@example.ph"), pay("Pay by QR PH"),
		chromedp.WaitVisible(`.sheet a[href="/waitlist/`+code+`"]`, chromedp.ByQuery)))
	// the sheet says 'sold out' itself: no toast covers its button, which takes a tap at once
	var onTop, toast bool
	require.NoError(t, chromedp.Run(b,
		chromedp.Evaluate(`(() => { const a = document.querySelector('.sheet a[href="/waitlist/`+code+`"]'); const r = a.getBoundingClientRect();
			return document.elementFromPoint(r.x + r.width / 2, r.y + r.height / 2) === a; })()`, &onTop),
		chromedp.Evaluate(`[...document.querySelectorAll('.toast')].some(e => e.offsetParent !== null)`, &toast)))
	require.True(t, onTop, "the waiting-list button is not covered")
	require.False(t, toast, "no toast over the sheet")
	require.NoError(t, chromedp.Run(b, chromedp.Text(`.sheet .form-error`, &text, chromedp.ByQuery)))
	require.Contains(t, text, "sold out")
	screenshot(t, b, "waitlist-quick-buy")

	// the event page's button for the sold-out type leads to the waiting list
	button := `.ticket-list a[href="/waitlist/` + code + `"]`
	require.NoError(t, chromedp.Run(b, chromedp.Navigate("about:blank"), chromedp.Navigate(a.URL+"/e/"+event),
		chromedp.ScrollIntoView(button, chromedp.ByQuery)))
	screenshot(t, b, "waitlist-event")
	require.NoError(t, chromedp.Run(b, chromedp.Click(button, chromedp.ByQuery)))
	waitPath(t, b, "/waitlist/"+code)
	require.NoError(t, chromedp.Run(b, chromedp.WaitVisible(`#waitlist-form`, chromedp.ByQuery)))
	screenshot(t, b, "waitlist-join")
	assertTouchTargets(t, b)

	require.NoError(t, chromedp.Run(b, typeInto("f-email", "visitor@example.ph"), typeInto("f-quantity", "2"), submitAndLoad()))
	require.NoError(t, chromedp.Run(b, chromedp.Text(`main`, &text, chromedp.ByQuery)))
	require.Contains(t, text, "You are on the waiting list")
	require.Contains(t, text, "#1")
	screenshot(t, b, "waitlist-joined")
	assertTouchTargets(t, b)

	// the other buyer never pays: their hold ends and the two tickets are offered to the visitor
	a.SettleOnce(ctx, a.Now().Add(16*time.Minute))
	link := outboxLink(t, a, "visitor@example.ph", "/waitlist/offer/")
	require.NoError(t, chromedp.Run(b, chromedp.Navigate(link), chromedp.WaitVisible(`.waitlist-offer`, chromedp.ByQuery),
		chromedp.Text(`main`, &text, chromedp.ByQuery)))
	require.Contains(t, text, "2 tickets of General Admission are held for you (visitor@example.ph)")
	screenshot(t, b, "waitlist-offer")
	assertTouchTargets(t, b)

	require.NoError(t, chromedp.Run(b, chromedp.Click(`//a[normalize-space(.)='Buy your tickets']`, chromedp.BySearch)))
	waitPath(t, b, "/b/"+code)
	require.NoError(t, chromedp.Run(b, chromedp.WaitVisible(`[data-island="purchase"][data-mounted] form`, chromedp.ByQuery)))
	var email, quantity string
	var readOnly bool
	require.NoError(t, chromedp.Run(b,
		chromedp.Value(`#email`, &email, chromedp.ByQuery), chromedp.Value(`#quantity`, &quantity, chromedp.ByQuery),
		chromedp.Evaluate(`document.getElementById('email').readOnly && document.getElementById('quantity').readOnly`, &readOnly)))
	require.Equal(t, "visitor@example.ph", email)
	require.Equal(t, "2", quantity)
	require.True(t, readOnly, "the offer fixes the address and the quantity")
	screenshot(t, b, "waitlist-offer-buy")

	order := payByQRWallet(t, a, b)
	require.Equal(t, "visitor@example.ph", order.Email)
	require.Len(t, order.Tickets, 2)
}

// payByQRWallet pays the purchase form on the page by QR PH in the sandbox wallet and returns the
// paid order.
func payByQRWallet(t *testing.T, a *testApp, b context.Context) *palaro.Order {
	t.Helper()
	require.NoError(t, chromedp.Run(b, pay("Pay by QR PH")))
	waitPath(t, b, "/sandbox/")
	require.NoError(t, chromedp.Run(b, chromedp.Click(`#wallet-pay`, chromedp.ByQuery)))
	done := strings.SplitN(waitPath(t, b, "/payment/success/"), "?", 2)[0]
	order, err := a.Purchases().FindOrderByPublicID(context.Background(), done[strings.LastIndex(done, "/")+1:])
	require.NoError(t, err)
	require.Equal(t, palaro.OrderPaid, order.Status)
	return order
}

// TestWaitlistConsole_Browser is the organizer on a phone: the console lists the waiting list in
// order, and a ticket that came back is offered by hand to the second person.
func TestWaitlistConsole_Browser(t *testing.T) {
	a := startApp(t)
	const code = demoOwnedType
	base := "/organizer/events/" + demoOwnedEvent
	sellOut(t, a, code)
	joinWaitlist(t, a, code, "2", "first@example.ph", "second@example.ph")
	addCapacity(t, a, code, 1) // one place: both asked for two, so the job offers it to nobody

	b := newBrowser(t)
	require.NoError(t, chromedp.Run(b, dismissCookies(a.URL),
		chromedp.Navigate(a.URL+"/sign-in?next="+base+"/waitlist"),
		setField("email", store.DemoOrganizerEmail), setField("password", store.DemoOrganizerPassword), submitAndLoad()))
	waitPath(t, b, base+"/waitlist")
	var list string
	require.NoError(t, chromedp.Run(b, chromedp.Text(`.org-waitlist`, &list, chromedp.ByQuery)))
	require.Regexp(t, `(?s)#1\s*first@example.ph.*#2\s*second@example.ph`, list)
	screenshot(t, b, "waitlist-console")

	require.NoError(t, chromedp.Run(b,
		chromedp.SetValue(`(//li[contains(., 'second@example.ph')]//select)[1]`, "1", chromedp.BySearch),
		chromedp.Evaluate(`window.palaroOldPage = true`, nil),
		chromedp.Click(`//li[contains(., 'second@example.ph')]//button[normalize-space(.)='Offer by hand']`, chromedp.BySearch),
		waitFor(`window.palaroOldPage === undefined && document.readyState === 'complete'`),
		chromedp.Text(`main`, &list, chromedp.ByQuery)))
	require.Contains(t, list, "Offered. The e-mail with the link is on its way.")
	require.Contains(t, list, "Offered by hand 1 ticket")
	require.NotEmpty(t, outboxLink(t, a, "second@example.ph", "/waitlist/offer/"))
	screenshot(t, b, "waitlist-console-offered")
}
