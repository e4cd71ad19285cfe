package e2e

import (
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/require"

	"palaro/store"
)

// TestSeriesDates_Browser: on a phone, an organizer opens the Dates page from the event's console
// page, adds every Friday and Saturday for two weeks, postpones one date from its form, and deletes
// another (nothing sold); the list shows the postponed badge and the three dates left.
func TestSeriesDates_Browser(t *testing.T) {
	a := startApp(t)
	b := newBrowser(t)
	const event = "lan-party-baguio"
	var text string
	require.NoError(t, chromedp.Run(b, organizerOnPhone(a.URL),
		chromedp.Navigate(a.URL+"/organizer/events/"+event),
		clickAndLoad(`a[href="/organizer/events/`+event+`/dates"]`, chromedp.ByQuery),
		chromedp.Text("main", &text, chromedp.ByQuery)))
	require.Contains(t, text, "No dates yet")

	require.NoError(t, chromedp.Run(b,
		chromedp.Click("#f-weekdays-4", chromedp.ByQuery), chromedp.Click("#f-weekdays-5", chromedp.ByQuery),
		chromedp.SetValue("#f-startTime", "19:00", chromedp.ByQuery), chromedp.SetValue("#f-endTime", "23:00", chromedp.ByQuery),
		chromedp.SetValue("#f-from", "2027-01-08", chromedp.ByQuery), chromedp.SetValue("#f-weeks", "2", chromedp.ByQuery),
		clickAndLoad(`button[formaction$="/dates/rule"]`, chromedp.ByQuery),
		chromedp.Text("main", &text, chromedp.ByQuery)))
	require.Contains(t, text, "Saved.")
	for _, day := range []string{"Fri 8 Jan 2027", "Sat 9 Jan 2027", "Fri 15 Jan 2027", "Sat 16 Jan 2027"} {
		require.Contains(t, text, day)
	}
	screenshot(t, b, "series-dates")
	assertTouchTargets(t, b)
	require.NoError(t, chromedp.Run(b, chromedp.ScrollIntoView("form.org-form", chromedp.ByQuery)))
	screenshot(t, b, "series-dates-add-form")

	require.NoError(t, chromedp.Run(b,
		clickAndLoad(`a[href$="?edit=2027-01-09"]`, chromedp.ByQuery),
		chromedp.ScrollIntoView("form.org-form", chromedp.ByQuery)))
	screenshot(t, b, "series-dates-edit-form")
	require.NoError(t, chromedp.Run(b,
		chromedp.SetValue("#f-status", "postponed", chromedp.ByQuery),
		clickAndLoad(`form[action$="/dates/2027-01-09"] button[type="submit"]`, chromedp.ByQuery),
		clickAndLoad(`form[action$="/dates/2027-01-16/delete"] button`, chromedp.ByQuery),
		chromedp.Text("main", &text, chromedp.ByQuery)))
	require.Contains(t, strings.ToLower(text), "postponed")
	require.NotContains(t, text, "Sat 16 Jan 2027")
	screenshot(t, b, "series-dates-changed")

	_, page := newVisitor(t, a).get("/e/" + event + "/2027-01-09")
	require.Contains(t, page, "This date is postponed")

	// a refused change shows the form again with what was sent and the field's message
	org := signedIn(t, a, store.DemoOrganizerEmail)
	status, body := org.post("/organizer/events/"+event+"/dates/2027-01-15", url.Values{"startsAt": {"2027-01-15T20:00"},
		"endsAt": {"2027-01-15T19:00"}, "status": {"scheduled"}})
	require.Equal(t, http.StatusUnprocessableEntity, status)
	require.Contains(t, body, "The date must end after it starts.")
	require.Contains(t, body, `value="2027-01-15T20:00"`)
}
