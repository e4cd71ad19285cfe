package handlers_test

import (
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"palaro"
	"palaro/store"
)

// dateInstants are the moments the date logic is checked at: a day, a week, a month and a year
// turning over in Manila, and clocks whose UTC date is not the Manila date.
var dateInstants = map[string]time.Time{
	"Wednesday 23:59":                time.Date(2026, 3, 4, 23, 59, 0, 0, palaro.Manila),
	"Thursday 00:01":                 time.Date(2026, 3, 5, 0, 1, 0, 0, palaro.Manila),
	"Saturday 23:59":                 time.Date(2026, 3, 7, 23, 59, 0, 0, palaro.Manila),
	"last day of March 23:59":        time.Date(2026, 3, 31, 23, 59, 0, 0, palaro.Manila),
	"31 December 23:59":              time.Date(2026, 12, 31, 23, 59, 0, 0, palaro.Manila),
	"1 January 00:01 as UTC":         time.Date(2026, 12, 31, 16, 1, 0, 0, time.UTC),
	"04:00 as UTC of the day before": time.Date(2026, 3, 3, 20, 0, 0, 0, time.UTC),
}

// listHref is where a list's card of ev leads when the list's window is [from, to): a series'
// card leads to its first date not over at from that starts before to, another event's to its page.
func listHref(t *testing.T, ts *testServer, ev *palaro.Event, from, to time.Time) string {
	t.Helper()
	dates, err := store.NewSeriesService(ts.DB).ListEventDates(t.Context(), ev.ID)
	require.NoError(t, err)
	for _, d := range dates {
		if d.EndsAt.After(from) && d.StartsAt.Before(to) {
			return "/e/" + ev.Code + "/" + d.Slug
		}
	}
	return "/e/" + ev.Code
}

// TestDateLogic_Instants renders the home page's date filters and the calendar at each of
// dateInstants, and checks them against what they promise, worked out here from the clock:
// Today lists the events that overlap the rest of the Manila day (one running since yesterday
// evening included), This week those up to Sunday, This month those up to the first of the next
// month, and the calendar opens on the Manila month with its six-week grid starting on a Sunday.
func TestDateLogic_Instants(t *testing.T) {
	for name, now := range dateInstants {
		t.Run(name, func(t *testing.T) {
			ts := newTestServerAt(t, now)
			local := now.In(palaro.Manila)
			midnight := time.Date(local.Year(), local.Month(), local.Day()+1, 0, 0, 0, 0, palaro.Manila)
			sunday := midnight.AddDate(0, 0, (7-int(midnight.Weekday()))%7)
			firstOfMonth := time.Date(local.Year(), local.Month(), 1, 0, 0, 0, 0, palaro.Manila)
			for when, end := range map[string]time.Time{
				palaro.WhenToday: midnight, palaro.WhenWeek: sunday, palaro.WhenMonth: firstOfMonth.AddDate(0, 1, 0),
			} {
				events, err := ts.Events.ListEventsBetween(t.Context(), now, end)
				require.NoError(t, err)
				var want []string
				for _, ev := range events {
					want = append(want, listHref(t, ts, ev, now, end))
				}
				want = want[:min(len(want), 12)]
				doc := ts.html(t, "/?when="+when, http.StatusOK)
				require.NotEmpty(t, want, when)
				require.Equal(t, want, attrs(doc.Find("#upcoming-list .event-card-link"), "href"),
					"%s: the events overlapping now until %s", when, end)
			}
			today := ts.html(t, "/?when=today", http.StatusOK)
			require.Contains(t, attrs(today.Find("#upcoming-list .event-card-link"), "href"), "/e/mlbb-manila-showdown",
				"the event running since two hours ago is today's")

			doc := ts.html(t, "/calendar", http.StatusOK)
			var props struct {
				Month, Today string
				Events       []struct{ Code, Start, End string }
			}
			require.NoError(t, jsonUnmarshal(doc.Find("#calendar-props").Text(), &props))
			require.Equal(t, local.Format("2006-01"), props.Month)
			require.Equal(t, local.Format("2006-01-02"), props.Today)
			require.Equal(t, local.Format("January 2006"), strings.TrimSpace(doc.Find(".calendar-fallback .cal-title").Text()))
			gridStart := firstOfMonth.AddDate(0, 0, -int(firstOfMonth.Weekday()))
			gridEnd := gridStart.AddDate(0, 0, 42)
			require.Equal(t, time.Sunday, gridStart.Weekday())
			require.True(t, !gridStart.After(firstOfMonth) && gridEnd.After(firstOfMonth.AddDate(0, 1, -1)), "six weeks hold the month")
			events, err := ts.Events.ListEventsBetween(t.Context(), gridStart, gridEnd)
			require.NoError(t, err)
			var want, got []string
			for _, ev := range events { // a series has an entry per date in the grid
				dates, err := store.NewSeriesService(ts.DB).ListEventDates(t.Context(), ev.ID)
				require.NoError(t, err)
				n := 0
				for _, d := range dates {
					if d.EndsAt.After(gridStart) && d.StartsAt.Before(gridEnd) {
						n++
					}
				}
				for range max(n, 1) {
					want = append(want, ev.Code)
				}
			}
			for _, ev := range props.Events {
				got = append(got, ev.Code)
				require.True(t, strings.HasSuffix(ev.Start, "+08:00"), "times in Manila: %s", ev.Start)
			}
			require.Equal(t, want, got, "the events of the six weeks from %s", gridStart.Format("Mon 2 Jan"))
		})
	}
}
