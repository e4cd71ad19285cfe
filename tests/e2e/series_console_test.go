package e2e

import (
	"encoding/csv"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/require"

	"palaro/store"
)

// TestSeriesConsoleAPI_PassesAndDateFilters: the event's day tickets answer their places over the
// dates as sold (the sums of GET …/dates; a pass its own count); the organizer API creates a pass of the demo league
// (a number of dates of the day ticket), edits it into a pass of every date, and refuses by field
// a count beyond the eight dates, a pass of a pass, a pass on a single-date event and a change of
// the sold season pass; the orders list, orders.csv and attendees.csv of one date keep that
// date's orders and tickets with their date column ("Season pass" for a pass), and an unknown
// date is a 400 naming the field.
func TestSeriesConsoleAPI_PassesAndDateFilters(t *testing.T) {
	a := startApp(t)
	tok := organizerToken(t, a, store.DemoOrganizerEmail, "--organization", "2")
	v := newVisitor(t, a)
	api := orgAPI(t, v, tok)
	const base = "/v1/organizer/events/" + demoLeague

	status, body := api(http.MethodPost, base+"/ticket-types", `{"code":"league-three","name":"Three-match pass","price":60000,
		"capacity":50,"passKind":"count","passDates":3,"passOf":"`+demoLeague+`-day"}`)
	require.Equal(t, http.StatusCreated, status, body)
	require.Equal(t, "count", body["passKind"])
	require.EqualValues(t, 3, body["passDates"])
	require.Equal(t, demoLeague+"-day", body["passOf"])
	require.EqualValues(t, 50, body["capacity"], "a pass has its own capacity")

	status, body = api(http.MethodPatch, base+"/ticket-types/league-three", `{"passDates":9}`)
	require.Equal(t, http.StatusBadRequest, status, body)
	require.Contains(t, body["message"], "passDates: A pass for 9 dates needs as many dates: this event has 8.")
	status, body = api(http.MethodPatch, base+"/ticket-types/league-three", `{"passKind":"every"}`)
	require.Equal(t, http.StatusOK, status, body)
	require.Equal(t, "every", body["passKind"])
	require.EqualValues(t, 0, body["passDates"])
	require.Equal(t, demoLeague+"-day", body["passOf"], "what the PATCH leaves out stays")

	status, body = api(http.MethodPost, base+"/ticket-types", `{"code":"league-pp","name":"Pass of a pass","price":100,
		"capacity":5,"passKind":"every","passOf":"`+demoLeague+`-season"}`)
	require.Equal(t, http.StatusBadRequest, status, body)
	require.Contains(t, body["message"], "passOf: A pass takes the places of a day ticket, not of another pass.")
	status, body = api(http.MethodPost, "/v1/organizer/events/mlbb-manila-showdown/ticket-types", `{"code":"showdown-pass",
		"name":"Pass","price":100,"capacity":5,"passKind":"every","passOf":"mlbb-manila-showdown-gen"}`)
	require.Equal(t, http.StatusBadRequest, status, body)
	require.Contains(t, body["message"], "passKind: A pass needs dates")
	status, body = api(http.MethodPatch, base+"/ticket-types/"+demoLeague+"-season", `{"passKind":"count","passDates":4}`)
	require.Equal(t, http.StatusBadRequest, status, body)
	require.Contains(t, body["message"], "passKind: The pass settings cannot change once tickets of this type are sold or held.")

	status, event := api(http.MethodGet, base, "")
	require.Equal(t, http.StatusOK, status, event)
	require.Contains(t, fmt.Sprint(event["ticketTypes"]), "passOf:"+demoLeague+"-box", "the event lists its passes' settings")
	status, dates := api(http.MethodGet, base+"/dates", "")
	require.Equal(t, http.StatusOK, status, dates)
	overDates := map[string]float64{}
	for _, d := range dates["dates"].([]any) {
		for _, st := range d.(map[string]any)["stock"].([]any) {
			st := st.(map[string]any)
			overDates[st["ticketType"].(string)] += st["sold"].(float64)
		}
	}
	for _, tt := range event["ticketTypes"].([]any) {
		tt := tt.(map[string]any)
		perDate := map[string]int{demoLeague + "-day": 300, demoLeague + "-box": 120}
		switch code := tt["code"].(string); {
		case perDate[code] > 0:
			require.Positive(t, tt["sold"], "%s: a day ticket's sold is its places over the dates, never 0", code)
			require.Equal(t, overDates[code], tt["sold"], "%s: the sum of GET …/dates", code)
			require.EqualValues(t, perDate[code], tt["capacity"], "%s: the capacity stays the per-date setting", code)
		case code == demoLeague+"-season":
			require.EqualValues(t, 16, tt["sold"], "a pass counts its own tickets")
		}
	}
	status, body = api(http.MethodPatch, base+"/ticket-types/"+demoLeague+"-day", `{"description":"One match day."}`)
	require.Equal(t, http.StatusOK, status, body)
	require.Equal(t, overDates[demoLeague+"-day"], body["sold"], "a PATCH answers with the same sold as GET")

	const day = "2026-03-07" // the first match day, over at the seed's clock
	status, body = api(http.MethodGet, base+"/orders?date="+day, "")
	require.Equal(t, http.StatusOK, status, body)
	orders := body["orders"].([]any)
	require.NotEmpty(t, orders)
	passes := 0
	for _, o := range orders {
		o := o.(map[string]any)
		if o["ticketType"] == demoLeague+"-season" {
			passes++
			require.Nil(t, o["date"], "a pass has no one date")
		} else {
			require.Equal(t, day, o["date"])
		}
	}
	require.Equal(t, 16, passes, "the season passes hold a place on every date")
	status, all := api(http.MethodGet, base+"/orders", "")
	require.Equal(t, http.StatusOK, status)
	require.Greater(t, len(all["orders"].([]any)), len(orders), "a date keeps its own orders only")
	status, body = api(http.MethodGet, base+"/orders?date=2026-03-08", "")
	require.Equal(t, http.StatusBadRequest, status, body)
	require.Contains(t, body["message"], "date: This event has no such date.")

	for _, path := range []string{"orders.csv", "attendees.csv"} {
		status, text := v.send(http.MethodGet, "/organizer/events/"+demoLeague+"/"+path+"?date="+day, "", "", tok)
		require.Equal(t, http.StatusOK, status, text)
		rows, err := csv.NewReader(strings.NewReader(strings.TrimPrefix(text, "\uFEFF"))).ReadAll()
		require.NoError(t, err)
		col := slices.Index(rows[0], "date")
		require.Equal(t, slices.Index(rows[0], "ticket type")+1, col, "%s: the date follows the ticket type", path)
		seasons := 0
		for _, r := range rows[1:] {
			switch r[col] {
			case "Season pass":
				seasons++
			case day:
			default:
				t.Errorf("%s: a row of %q in the export of %s", path, r[col], day)
			}
		}
		require.Equal(t, 16, seasons, path)
		require.Greater(t, len(rows)-1, seasons, "%s has the date's day tickets", path)
		status, text = v.send(http.MethodGet, "/organizer/events/"+demoLeague+"/"+path+"?date=someday", "", "", tok)
		require.Equal(t, http.StatusBadRequest, status, text)
	}
}

// TestSeriesConsole_Browser: at phone size (360 px) the demo league's console pages show each
// date's places per ticket type and check-ins (event page and dashboard), the day ticket's sold
// summed over its dates (never 0), the orders of one date with their date, and the ticket type
// form's season pass part; an organizer turns a new ticket type into a pass from that form, and
// the sold season pass's form shows its settings and refuses a change of them.
func TestSeriesConsole_Browser(t *testing.T) {
	a := startApp(t)
	b := newBrowser(t)
	base := "/organizer/events/" + demoLeague
	var text string
	require.NoError(t, chromedp.Run(b, organizerOnPhone(a.URL),
		chromedp.Navigate(a.URL+base),
		chromedp.Text("main", &text, chromedp.ByQuery)))
	require.Contains(t, text, "Per date")
	require.Contains(t, text, "Sat 7 Mar 2026 · Match day 1")
	require.Contains(t, text, "(16 by passes)")
	require.Contains(t, text, "16 holders")
	require.Contains(t, text, "Season pass (every date), in the places of Lower Box (one match day)")
	require.NotRegexp(t, `(?m)^0 sold`, text, "a day ticket of a series is not counted as 0 sold")
	require.Regexp(t, `(?m)^[1-9]\d* sold · 0 held · capacity 2400$`, text, "the match day ticket: its places over 8 dates of 300")
	screenshot(t, b, "series-console-event")
	require.NoError(t, chromedp.Run(b, chromedp.ScrollIntoView("#dates", chromedp.ByQuery)))
	screenshot(t, b, "series-console-event-dates")
	assertTouchTargets(t, b)

	require.NoError(t, chromedp.Run(b, chromedp.Navigate(a.URL+base+"/dashboard"),
		chromedp.Text("main", &text, chromedp.ByQuery)))
	require.Contains(t, text, "Places taken on the dates")
	require.Contains(t, text, "Per date")
	require.Regexp(t, `Checked in: [1-9]\d* of the \d+ tickets issued`, text)
	require.NoError(t, chromedp.Run(b, chromedp.ScrollIntoView("#dates", chromedp.ByQuery)))
	screenshot(t, b, "series-console-dashboard-dates")

	require.NoError(t, chromedp.Run(b, chromedp.Navigate(a.URL+base+"/orders"),
		chromedp.SetValue("#f-date", "2026-03-14", chromedp.ByQuery),
		clickAndLoad(`form.org-search button[type="submit"]`, chromedp.ByQuery),
		chromedp.Text("ul.org-orders", &text, chromedp.ByQuery)))
	require.Contains(t, text, "Sat 14 Mar 2026")
	require.Contains(t, text, "Season pass")
	require.NotContains(t, text, "Sat 7 Mar 2026", "only the 14th's orders")
	var exportHref string
	require.NoError(t, chromedp.Run(b, chromedp.AttributeValue(`a[href*="orders.csv"]`, "href", &exportHref, nil, chromedp.ByQuery)))
	require.True(t, strings.HasSuffix(exportHref, "orders.csv?date=2026-03-14"), exportHref)
	screenshot(t, b, "series-console-orders-date")

	require.NoError(t, chromedp.Run(b, chromedp.Navigate(a.URL+base+"/ticket-types/new"),
		chromedp.SendKeys("#f-name", "Five-match pass", chromedp.ByQuery),
		chromedp.SetValue("#f-passKind", "count", chromedp.ByQuery),
		chromedp.SetValue("#f-passOf", demoLeague+"-day", chromedp.ByQuery),
		chromedp.SendKeys("#f-passDates", "12", chromedp.ByQuery),
		chromedp.ScrollIntoView("#f-passKind", chromedp.ByQuery),
	))
	screenshot(t, b, "series-console-pass-form")
	require.NoError(t, chromedp.Run(b, submitIn("form.org-form"), chromedp.Text("main", &text, chromedp.ByQuery)))
	require.Contains(t, text, "A pass for 12 dates needs as many dates: this event has 8.")
	require.NoError(t, chromedp.Run(b, chromedp.ScrollIntoView("#f-passDates", chromedp.ByQuery)))
	screenshot(t, b, "series-console-pass-form-error")
	require.NoError(t, chromedp.Run(b, chromedp.SetValue("#f-passDates", "5", chromedp.ByQuery),
		submitIn("form.org-form"), chromedp.Text("main", &text, chromedp.ByQuery)))
	require.Contains(t, text, "Season pass (5 dates of your choice), in the places of Match Day Ticket")

	// the sold season pass: its form shows its settings, and a change of them is refused by field
	require.NoError(t, chromedp.Run(b, chromedp.Navigate(a.URL+base+"/ticket-types/"+demoLeague+"-season/edit"),
		chromedp.ScrollIntoView("#f-passKind", chromedp.ByQuery)))
	var kind, of string
	require.NoError(t, chromedp.Run(b, chromedp.Value("#f-passKind", &kind, chromedp.ByQuery),
		chromedp.Value("#f-passOf", &of, chromedp.ByQuery)))
	require.Equal(t, "every", kind)
	require.Equal(t, demoLeague+"-box", of)
	screenshot(t, b, "series-console-pass-edit")
	require.NoError(t, chromedp.Run(b, chromedp.SetValue("#f-passKind", "count", chromedp.ByQuery),
		chromedp.SendKeys("#f-passDates", "4", chromedp.ByQuery),
		submitIn("form.org-form"), chromedp.Text("main", &text, chromedp.ByQuery)))
	require.Contains(t, text, "The pass settings cannot change once tickets of this type are sold or held.")
	require.NoError(t, chromedp.Run(b, chromedp.ScrollIntoView("#f-passKind", chromedp.ByQuery)))
	screenshot(t, b, "series-console-pass-edit-error")
}

// organizerOnPhone sets a 360 px phone viewport and signs the demo organizer in on the app at url.
func organizerOnPhone(url string) chromedp.Action {
	return chromedp.Tasks{chromedp.EmulateViewport(360, 800, chromedp.EmulateScale(2), chromedp.EmulateMobile),
		dismissCookies(url),
		chromedp.Navigate(url + "/sign-in"),
		chromedp.SendKeys("#f-email", store.DemoOrganizerEmail, chromedp.ByQuery),
		chromedp.SendKeys("#f-password", store.DemoOrganizerPassword, chromedp.ByQuery),
		submitAndLoad()}
}
