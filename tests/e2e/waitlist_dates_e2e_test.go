package e2e

import (
	"context"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/require"

	"palaro"
	"palaro/store"
)

// TestWaitlistDate_Browser: at phone size (360 px), the demo league's THIRD match day is sold out
// for day tickets; a visitor joins the waiting list of that date from the date's page; a paid day
// ticket of that date is refunded, and the e-mailed offer (naming the date) buys for that date.
func TestWaitlistDate_Browser(t *testing.T) {
	a := startApp(t)
	bg := context.Background()
	day := demoLeague + "-day"
	ev, err := store.NewEventService(a.DB()).FindEventByCode(bg, demoLeague)
	require.NoError(t, err)
	dates, err := store.NewSeriesService(a.DB()).ListEventDates(bg, ev.ID)
	require.NoError(t, err)
	third := dates[2]

	// a paid day-ticket order of the third date, then the date sold out for day tickets
	var refunded string
	require.NoError(t, a.DB().Reader().QueryRow(`SELECT o.public_id FROM orders o JOIN ticket_types tt ON tt.id = o.ticket_type_id
		WHERE tt.code = ? AND o.date_id = ? AND o.status = 'paid' ORDER BY o.id LIMIT 1`, day, third.ID).Scan(&refunded))
	_, err = a.DB().Writer().Exec(`UPDATE date_stock SET capacity = sold + held, own_capacity = 1 WHERE date_id = ?
		AND ticket_type_id = (SELECT id FROM ticket_types WHERE code = ?)`, third.ID, day)
	require.NoError(t, err)
	a.Server().EventsChanged()
	// the second date is sold out too, with its own list: it must not get the third date's place
	_, err = a.DB().Writer().Exec(`UPDATE date_stock SET capacity = sold + held, own_capacity = 1 WHERE date_id = ?
		AND ticket_type_id = (SELECT id FROM ticket_types WHERE code = ?)`, dates[3].ID, day)
	require.NoError(t, err)

	b := newBrowser(t)
	require.NoError(t, chromedp.Run(b, chromedp.EmulateViewport(360, 780, chromedp.EmulateScale(2), chromedp.EmulateMobile), dismissCookies(a.URL)))
	button := `.ticket-list a[href="/waitlist/` + day + `?date=` + third.Slug + `"]`
	require.NoError(t, chromedp.Run(b, chromedp.Navigate(a.URL+"/e/"+demoLeague+"/"+third.Slug),
		chromedp.WaitVisible(button, chromedp.ByQuery), chromedp.ScrollIntoView(button, chromedp.ByQuery)))
	screenshot(t, b, "waitlist-date-event")
	require.NoError(t, chromedp.Run(b, chromedp.Click(button, chromedp.ByQuery)))
	waitPath(t, b, "/waitlist/"+day)
	var text string
	require.NoError(t, chromedp.Run(b, chromedp.WaitVisible(`#waitlist-form`, chromedp.ByQuery), chromedp.Text(`main`, &text, chromedp.ByQuery)))
	require.Contains(t, text, "You wait for Sat 21 Mar 2026 only.")
	screenshot(t, b, "waitlist-date-join")
	assertTouchTargets(t, b)
	require.NoError(t, chromedp.Run(b, typeInto("f-email", "third-night@example.ph"), submitAndLoad(),
		chromedp.Text(`main`, &text, chromedp.ByQuery)))
	require.Contains(t, text, "You are on the waiting list")
	require.Contains(t, text, "on Sat 21 Mar 2026")
	require.Contains(t, text, "#1")
	screenshot(t, b, "waitlist-date-joined")
	// someone waits for the fourth date too
	joinWaitlistOn(t, a, day, dates[3].Slug, "fourth-night@example.ph")

	// the refund of a third-date order frees its places: the offer goes to the third date's list
	order, err := a.Purchases().FindOrderByPublicID(bg, refunded)
	require.NoError(t, err)
	require.NoError(t, store.NewOrganizerService(a.DB(), nil).MarkRefunded(bg, ev.ID, order.PublicID, "owner@example.ph"))
	a.Server().EventsChanged()
	require.Equal(t, "third-night@example.ph", lastMail(t, a, "third-night@example.ph", palaro.MessageWaitlistOffer).To)
	var offers int
	require.NoError(t, a.DB().Reader().QueryRow(`SELECT count(*) FROM waitlist_offers WHERE date_id = ?`, dates[3].ID).Scan(&offers))
	require.Zero(t, offers, "the fourth date's list got nothing")

	link := outboxLink(t, a, "third-night@example.ph", "/waitlist/offer/")
	require.NoError(t, chromedp.Run(b, chromedp.Navigate(link), chromedp.WaitVisible(`.waitlist-offer`, chromedp.ByQuery),
		chromedp.Text(`main`, &text, chromedp.ByQuery)))
	require.Contains(t, text, "1 ticket of Match Day Ticket on Sat 21 Mar 2026 is held for you (third-night@example.ph)")
	screenshot(t, b, "waitlist-date-offer")
	assertTouchTargets(t, b)

	require.NoError(t, chromedp.Run(b, chromedp.Click(`//a[normalize-space(.)='Buy your tickets']`, chromedp.BySearch)))
	waitPath(t, b, "/b/"+day)
	require.NoError(t, chromedp.Run(b, chromedp.WaitVisible(`[data-island="purchase"][data-mounted] form`, chromedp.ByQuery),
		typeInto("fullName", "Rica Santos")))
	screenshot(t, b, "waitlist-date-offer-buy")
	bought := payByQRWallet(t, a, b)
	require.Equal(t, "third-night@example.ph", bought.Email)
	require.NotNil(t, bought.Date)
	require.Equal(t, third.Slug, bought.Date.Slug, "the offer bought for the third date")

	// the console lists each date's waiting list under its own heading
	base := "/organizer/events/" + demoLeague
	console := newBrowser(t)
	require.NoError(t, chromedp.Run(console, chromedp.EmulateViewport(360, 780, chromedp.EmulateScale(2), chromedp.EmulateMobile),
		dismissCookies(a.URL), chromedp.Navigate(a.URL+"/sign-in?next="+base+"/waitlist"),
		setField("email", store.DemoOrganizerEmail), setField("password", store.DemoOrganizerPassword), submitAndLoad()))
	waitPath(t, console, base+"/waitlist")
	require.NoError(t, chromedp.Run(console, chromedp.Text(`main`, &text, chromedp.ByQuery)))
	require.Regexp(t, `(?s)Match Day Ticket · Sat 21 Mar 2026.*third-night@example.ph.*Match Day Ticket · Sat 28 Mar 2026.*#1\s*fourth-night@example.ph`, text)
	screenshot(t, console, "waitlist-date-console")
}

// joinWaitlistOn puts an address on a day ticket's waiting list for one date of its series.
func joinWaitlistOn(t *testing.T, a *testApp, code, slug, email string) {
	t.Helper()
	status, page := newVisitor(t, a).post("/waitlist/"+code+"?date="+slug, map[string][]string{"email": {email}, "quantity": {"1"}})
	require.Equal(t, 200, status, page)
}
