package e2e

import (
	"context"
	"net/http"
	"net/url"
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

// sellOutOn sells out a day ticket on one date of its series (its capacity there set to what is
// sold and held).
func sellOutOn(t *testing.T, a *testApp, code string, dateID int64) {
	t.Helper()
	_, err := a.DB().Writer().Exec(`UPDATE date_stock SET capacity = sold + held, own_capacity = 1 WHERE date_id = ?
		AND ticket_type_id = (SELECT id FROM ticket_types WHERE code = ?)`, dateID, code)
	require.NoError(t, err)
	a.Server().EventsChanged()
}

// TestWaitlistDateSoldOut_Browser: at 390x844, the last day tickets of a date go while a buyer is
// on the purchase form, then on the quick-buy sheet: each says so with a link to that date's
// waiting list. The date is then cancelled: the person offered tickets and the one waiting are
// told by e-mail, and the offer's page says the date is cancelled instead of offering tickets.
func TestWaitlistDateSoldOut_Browser(t *testing.T) {
	a := startApp(t)
	bg := context.Background()
	day := demoLeague + "-day"
	ev, err := store.NewEventService(a.DB()).FindEventByCode(bg, demoLeague)
	require.NoError(t, err)
	series := store.NewSeriesService(a.DB())
	dates, err := series.ListEventDates(bg, ev.ID)
	require.NoError(t, err)
	form, sheet := dates[3], dates[4]
	b := newBrowser(t)
	require.NoError(t, chromedp.Run(b, chromedp.EmulateViewport(390, 844, chromedp.EmulateScale(2), chromedp.EmulateMobile), dismissCookies(a.URL)))

	// the purchase form: sold out between opening and paying
	require.NoError(t, chromedp.Run(b, chromedp.Navigate(a.URL+"/b/"+day+"?date="+form.Slug),
		chromedp.WaitVisible(`[data-island="purchase"][data-mounted] form`, chromedp.ByQuery),
		typeInto("fullName", "Rica Santos"), typeInto("email", "late@example.ph")))
	sellOutOn(t, a, day, form.ID)
	link := `.form-error a[href="/waitlist/` + day + `?date=` + form.Slug + `"]`
	require.NoError(t, chromedp.Run(b, pay("Pay by QR PH"), chromedp.WaitVisible(link, chromedp.ByQuery), chromedp.ScrollIntoView(link, chromedp.ByQuery)))
	screenshot(t, b, "waitlist-date-form-sold-out")
	require.NoError(t, chromedp.Run(b, chromedp.Click(link, chromedp.ByQuery)))
	waitPath(t, b, "/waitlist/"+day)
	var text string
	require.NoError(t, chromedp.Run(b, chromedp.WaitVisible(`#waitlist-form`, chromedp.ByQuery), chromedp.Text(`main`, &text, chromedp.ByQuery)))
	require.Contains(t, text, "You wait for "+palaro.DateSlugLabel(form.Slug)+" only.")

	// the quick-buy sheet (a day ticket that asks only for an e-mail address), sold out the same way
	_, err = a.DB().Writer().Exec(`UPDATE events SET required_fields = '["email"]' WHERE id = ?`, ev.ID)
	require.NoError(t, err)
	a.Server().EventsChanged()
	require.NoError(t, chromedp.Run(b, chromedp.Navigate(a.URL+"/e/"+demoLeague+"/"+sheet.Slug),
		chromedp.Click(`[data-quick-buy="`+day+`"]`, chromedp.ByQuery),
		chromedp.WaitVisible(`[data-island="quickbuy"][data-mounted] .sheet-backdrop.open #quick-email`, chromedp.ByQuery)))
	sellOutOn(t, a, day, sheet.ID)
	link = `.sheet a[href="/waitlist/` + day + `?date=` + sheet.Slug + `"]`
	require.NoError(t, chromedp.Run(b, typeInto("quick-email", "quick@example.ph"), pay("Pay by QR PH"), chromedp.WaitVisible(link, chromedp.ByQuery)))
	screenshot(t, b, "waitlist-date-quick-buy")
	require.NoError(t, chromedp.Run(b, chromedp.Click(link, chromedp.ByQuery)))
	waitPath(t, b, "/waitlist/"+day)
	require.NoError(t, chromedp.Run(b, chromedp.WaitVisible(`#waitlist-form`, chromedp.ByQuery), chromedp.Text(`main`, &text, chromedp.ByQuery)))
	require.Contains(t, text, "You wait for "+palaro.DateSlugLabel(sheet.Slug)+" only.")

	// two wait for the sheet's date; a place comes back and is offered to the first; the date is cancelled
	joinWaitlistOn(t, a, day, sheet.Slug, "first@example.ph")
	joinWaitlistOn(t, a, day, sheet.Slug, "second@example.ph")
	_, err = a.DB().Writer().Exec(`UPDATE date_stock SET capacity = capacity + 1 WHERE date_id = ?
		AND ticket_type_id = (SELECT id FROM ticket_types WHERE code = ?)`, sheet.ID, day)
	require.NoError(t, err)
	_, _, err = a.Waitlist().Advance(bg, a.Now())
	require.NoError(t, err)
	offer := outboxLink(t, a, "first@example.ph", "/waitlist/offer/")
	in := sheet.InputOf()
	in.Status = palaro.DateCancelled
	_, err = series.UpdateDate(bg, ev.ID, sheet.Slug, in, "owner@example.ph", a.Now())
	require.NoError(t, err)
	a.Server().EventsChanged()
	require.Contains(t, lastMail(t, a, "second@example.ph", palaro.MessageWaitlistDateOff).Text, "is cancelled")
	require.Contains(t, lastMail(t, a, "first@example.ph", palaro.MessageWaitlistDateOff).Text, "held for you was released")
	require.NoError(t, chromedp.Run(b, chromedp.Navigate(offer), chromedp.WaitVisible(`.waitlist-offer`, chromedp.ByQuery),
		chromedp.Text(`main`, &text, chromedp.ByQuery)))
	require.Contains(t, text, "This date is cancelled")
	require.Contains(t, text, "Your offer has ended")
	require.NotContains(t, text, "Buy your tickets")
	require.NotContains(t, text, " left", "no places counted for sale on a cancelled date")
	screenshot(t, b, "waitlist-date-offer-cancelled")
}

// TestWaitlistDate_PickADate: the waiting list of a series' day ticket opened without a date (an
// old link, an address typed by hand) says each date has its own list and links the dates to
// come: a sold-out date to its list, a date still on sale to its buy page, the dates played to
// nothing. A join posted without a date is refused (422) and nobody is put on a list.
func TestWaitlistDate_PickADate(t *testing.T) {
	a := startApp(t)
	day := demoLeague + "-day"
	ev, err := store.NewEventService(a.DB()).FindEventByCode(t.Context(), demoLeague)
	require.NoError(t, err)
	dates, err := store.NewSeriesService(a.DB()).ListEventDates(t.Context(), ev.ID)
	require.NoError(t, err)
	sellOutOn(t, a, day, dates[2].ID)

	v := newVisitor(t, a)
	status, page := v.get("/waitlist/" + day)
	require.Equal(t, http.StatusOK, status)
	require.Contains(t, page, "Each date has its own waiting list: pick the date you want to wait for.")
	require.NotContains(t, page, `id="waitlist-form"`, "no list to join without a date")
	require.Contains(t, page, `href="/waitlist/`+day+`?date=`+dates[2].Slug+`"`, "the sold-out date links its list")
	require.Contains(t, page, `href="/b/`+day+`?date=`+dates[3].Slug+`"`, "a date on sale links its buy page")
	require.NotContains(t, page, "date="+dates[0].Slug, "a date played is not offered")

	status, page = v.post("/waitlist/"+day, url.Values{"email": {"nodate@example.ph"}, "quantity": {"1"}})
	require.Equal(t, http.StatusUnprocessableEntity, status)
	require.Contains(t, page, "pick the date you want to wait for")
	var entries int
	require.NoError(t, a.DB().Reader().QueryRow(`SELECT count(*) FROM waitlist_entries WHERE email = ?`, "nodate@example.ph").Scan(&entries))
	require.Zero(t, entries)
}
