package e2e

import (
	"net/http"
	"net/url"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/require"

	"palaro"
	"palaro/store"
)

// TestSeriesDateCancel_Browser: on a phone, the organizer of the demo league taps Cancel on its
// third match day: a confirmation page says how many holders are e-mailed and what is refunded
// (the day orders in full, the season passes their share), and only its button cancels the date,
// whose refunds the job then writes with the date named, as the refund queue page says. Posting the date's form with the status
// cancelled, unconfirmed, or opening the cancel address (GET) shows the same step and changes
// nothing; a cancelled date has no such step.
func TestSeriesDateCancel_Browser(t *testing.T) {
	a := startApp(t)
	const day = "2026-03-21"
	org := signedIn(t, a, store.DemoOrganizerEmail)
	status, body := org.post("/organizer/events/"+demoLeague+"/dates/2026-03-28", url.Values{"startsAt": {"2026-03-28T19:00"},
		"endsAt": {"2026-03-28T23:00"}, "status": {palaro.DateCancelled}})
	require.Equal(t, http.StatusOK, status)
	require.Contains(t, body, "Cancel Sat 28 Mar 2026 · Match day 4?")
	require.Contains(t, body, `name="startsAt" value="2026-03-28T19:00"`, "the confirmation posts the form again")
	ev, err := store.NewEventService(a.DB()).FindEventByCode(t.Context(), demoLeague)
	require.NoError(t, err)
	d, err := store.NewSeriesService(a.DB()).FindEventDate(t.Context(), ev.ID, "2026-03-28")
	require.NoError(t, err)
	require.Equal(t, palaro.DateScheduled, d.Status, "not cancelled without the confirmation")
	// the cancel address opened again (GET, even with confirm=yes) shows the step and changes nothing
	status, body = org.get("/organizer/events/" + demoLeague + "/dates/2026-03-28/cancel?confirm=yes")
	require.Equal(t, http.StatusOK, status)
	require.Contains(t, body, "Cancel Sat 28 Mar 2026 · Match day 4?")
	d, err = store.NewSeriesService(a.DB()).FindEventDate(t.Context(), ev.ID, "2026-03-28")
	require.NoError(t, err)
	require.Equal(t, palaro.DateScheduled, d.Status, "a GET cancels nothing")

	b := newBrowser(t)
	var text string
	require.NoError(t, chromedp.Run(b, chromedp.EmulateViewport(360, 800, chromedp.EmulateScale(2), chromedp.EmulateMobile),
		dismissCookies(a.URL),
		chromedp.Navigate(a.URL+"/sign-in"),
		chromedp.SendKeys("#f-email", store.DemoOrganizerEmail, chromedp.ByQuery),
		chromedp.SendKeys("#f-password", store.DemoOrganizerPassword, chromedp.ByQuery),
		submitAndLoad(),
		chromedp.Navigate(a.URL+"/organizer/events/"+demoLeague+"/dates")))
	screenshot(t, b, "series-dates")
	require.NoError(t, chromedp.Run(b, clickAndLoad(`form[action$="/dates/`+day+`/cancel"] button`, chromedp.ByQuery),
		chromedp.Text("main", &text, chromedp.ByQuery)))
	require.Contains(t, text, "Cancel Sat 21 Mar 2026 · Match day 3?")
	require.Contains(t, text, "ticket holders are e-mailed that the date is cancelled")
	require.Contains(t, text, "refunded in full, add-ons included")
	require.Contains(t, text, "season passes get back their share for this date")
	screenshot(t, b, "series-date-cancel-confirm")
	assertTouchTargets(t, b)

	require.NoError(t, chromedp.Run(b,
		clickAndLoad(`form[action$="/dates/`+day+`/cancel"] button`, chromedp.ByQuery),
		chromedp.Text("main", &text, chromedp.ByQuery)))
	require.Contains(t, text, "Saved.")
	d, err = store.NewSeriesService(a.DB()).FindEventDate(t.Context(), ev.ID, day)
	require.NoError(t, err)
	require.Equal(t, palaro.DateCancelled, d.Status)
	screenshot(t, b, "series-date-cancelled")
	status, body = org.get("/organizer/events/" + demoLeague + "/dates/" + day + "/cancel")
	require.Equal(t, http.StatusConflict, status, "a cancelled date has no confirmation step")
	require.Contains(t, body, "it cannot change again")

	a.RefundOnce(t.Context(), a.DB().Now())
	var reason string
	var passes int
	require.NoError(t, a.DB().Reader().QueryRow(`SELECT min(reason), count(DISTINCT p.ticket_id) FROM refunds r
		LEFT JOIN pass_date_refunds p ON p.refund_id = r.id WHERE r.date_id = ?`, d.ID).Scan(&reason, &passes))
	require.Equal(t, palaro.RefundDateCancelled, reason)
	require.Positive(t, passes, "the season passes got their share")

	// the refund queue says which date was cancelled and how far its refunds are
	require.NoError(t, chromedp.Run(b, chromedp.Navigate(a.URL+"/organizer/events/"+demoLeague+"/refunds"),
		chromedp.Text("main", &text, chromedp.ByQuery)))
	require.Contains(t, text, "Palaro League Season 1, Sat 21 Mar 2026, 7:00 PM was cancelled: ")
	screenshot(t, b, "series-date-refund-queue")

	// a pass's order page names the date and the pass refunded in part, still valid
	var passOrder string
	require.NoError(t, a.DB().Reader().QueryRow(`SELECT o.public_id FROM refunds r JOIN orders o ON o.id = r.order_id
		WHERE r.date_id = ? AND EXISTS (SELECT 1 FROM pass_date_refunds p WHERE p.refund_id = r.id) ORDER BY r.id LIMIT 1`, d.ID).Scan(&passOrder))
	require.NoError(t, chromedp.Run(b, chromedp.Navigate(a.URL+"/organizer/events/"+demoLeague+"/orders/"+passOrder),
		chromedp.Text("main", &text, chromedp.ByQuery)))
	require.Contains(t, text, "Palaro League Season 1, Sat 21 Mar 2026, 7:00 PM was cancelled")
	require.Contains(t, text, "(still valid)")
	screenshot(t, b, "series-date-refund-order")
}
