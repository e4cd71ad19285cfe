package e2e

import (
	"context"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/require"

	"palaro"
	"palaro/internal/app"
	"palaro/store"
)

// demoLeague is the demo data's league series: eight Saturday match days, 7 PM to 11 PM in Manila,
// two of them over at the seed's time, with day tickets and a seated season pass.
const demoLeague = "palaro-league-season-1"

// TestLeagueGate_SeasonPassTwoDates_Browser is issue 22's done-when at the real gate page, at
// phone size (360 px): a season-pass holder of the demo league is admitted on one match day,
// refused a second time that night, admitted again a week later and refused a second time then
// too; a day ticket of the first night is refused on the second. The app's clock is moved from
// the seed's (Wednesday 18 March 2026) into each match day: the gate names no date, so the server
// admits to the date going on at the scan (palaro.DateOn). Online scans only: the offline list
// does not know a pass's dates yet.
func TestLeagueGate_SeasonPassTwoDates_Browser(t *testing.T) {
	var shift atomic.Int64 // how far the app's clock is moved past the running test clock
	clock := clockFrom(testEpoch)
	a := startApp(t, func(cfg *app.Config) {
		cfg.Now = func() time.Time { return clock().Add(time.Duration(shift.Load())) }
	})
	bg := context.Background()
	moveTo := func(at time.Time) { shift.Add(int64(at.Sub(a.DB().Now()))) }
	ev, err := store.NewEventService(a.DB()).FindEventByCode(bg, demoLeague)
	require.NoError(t, err)
	dates, err := store.NewSeriesService(a.DB()).ListEventDates(bg, ev.ID)
	require.NoError(t, err)
	require.Len(t, dates, 8)
	require.Equal(t, "2026-03-21", dates[2].Slug, "the third match day is the Saturday after the seed")
	first, second := dates[2], dates[3]

	// a season pass and a match day ticket of the first night (valid: nobody scans before the night)
	var pass, day string
	require.NoError(t, a.DB().Reader().QueryRow(`SELECT t.code FROM tickets t JOIN ticket_types tt ON tt.id = t.ticket_type_id
		WHERE tt.code = ? AND t.status = 'valid' ORDER BY t.id LIMIT 1`, demoLeague+"-season").Scan(&pass))
	require.NoError(t, a.DB().Reader().QueryRow(`SELECT t.code FROM tickets t JOIN ticket_types tt ON tt.id = t.ticket_type_id
		WHERE tt.code = ? AND t.date_id = ? AND t.status = 'valid' ORDER BY t.id LIMIT 1`, demoLeague+"-day", first.ID).Scan(&day))
	var played int // the match days the holder already came to (the demo checks passes in on the days over)
	require.NoError(t, a.DB().Reader().QueryRow(`SELECT count(*) FROM pass_uses u JOIN tickets t ON t.id = u.ticket_id
		WHERE t.code = ? AND u.checked_in_at IS NOT NULL`, pass).Scan(&played))

	moveTo(first.StartsAt.Add(30 * time.Minute)) // Saturday 21 March, 7:30 PM in Manila
	ctx := newBrowser(t)
	require.NoError(t, chromedp.Run(ctx, chromedp.EmulateViewport(360, 780, chromedp.EmulateScale(2), chromedp.EmulateMobile)))
	openGate(t, ctx, a, demoLeague)
	screenshot(t, ctx, "league-gate-ready")

	// the pass is admitted on the night, then refused a second time that night (at the time it came in)
	admitOnce := func(night, clock string) {
		ok, answer := gateScan(t, ctx, pass)
		require.True(t, ok, "the pass is admitted on the %s night: %s", night, answer)
		require.Contains(t, answer, "Checked in")
		screenshot(t, ctx, "league-gate-pass-"+night)
		ok, answer = gateScan(t, ctx, pass)
		require.False(t, ok, "the pass is refused a second time on the %s night: %s", night, answer)
		require.Contains(t, answer, "Already checked in at "+clock)
	}
	admitOnce("first", "7:30 PM")
	ok, answer := gateScan(t, ctx, day)
	require.True(t, ok, "a day ticket of the night is admitted: %s", answer)

	moveTo(second.StartsAt.Add(45 * time.Minute)) // a week later, 7:45 PM
	admitOnce("second", "7:45 PM")
	screenshot(t, ctx, "league-gate-pass-refused")
	ok, answer = gateScan(t, ctx, day)
	require.False(t, ok, "last week's day ticket is not for tonight: %s", answer)
	require.Contains(t, answer, "This ticket is for Sat 21 Mar 2026")

	// the server admitted the pass once on each of the two nights, besides the nights over before
	again, err := store.NewCheckInService(a.DB()).CheckIn(bg, palaro.CheckInRequest{EventID: ev.ID, Code: pass, Gate: "Gate 1"})
	require.NoError(t, err)
	require.Equal(t, palaro.CheckInAlready, again.Outcome)
	require.Len(t, again.Ticket.UsedDates, played+2)
	require.Equal(t, []string{first.Slug, second.Slug}, again.Ticket.UsedDates[played:])
	require.Equal(t, "Every date", again.Ticket.Pass)
}

// TestDemoLeague_Pages_Browser opens the demo league at phone size (360 px) as a fan would: its
// series page lists the six coming match days (the two over are counted, not listed) with what is
// left, a match day's page sells its tickets for that date, and the teams page shows the MLBB
// Cup's twelve teams with places and two waiting.
func TestDemoLeague_Pages_Browser(t *testing.T) {
	a := startApp(t)
	ctx := newBrowser(t)
	require.NoError(t, chromedp.Run(ctx, chromedp.EmulateViewport(360, 780, chromedp.EmulateScale(2), chromedp.EmulateMobile),
		dismissCookies(a.URL), chromedp.Navigate(a.URL+"/e/"+demoLeague), chromedp.WaitVisible(`#dates .date-list`, chromedp.ByQuery)))
	var listed []string
	require.NoError(t, chromedp.Run(ctx, chromedp.Evaluate(`[...document.querySelectorAll('#dates .date-list a')].map(a => a.getAttribute('href'))`, &listed)))
	require.Len(t, listed, 6, "six match days to come")
	require.Equal(t, "/e/"+demoLeague+"/2026-03-21", listed[0], "the next one is the Saturday after the seed")
	dates := evalString(t, ctx, `document.querySelector('#dates').textContent`)
	require.Contains(t, dates, "Match day 3")
	require.Contains(t, dates, "2 earlier dates are over")
	screenshot(t, ctx, "league-series-page")
	require.NoError(t, chromedp.Run(ctx, chromedp.ScrollIntoView("#dates", chromedp.ByQuery)))
	screenshot(t, ctx, "league-series-dates")
	assertTouchTargets(t, ctx)

	require.NoError(t, chromedp.Run(ctx, chromedp.Click(`#dates .date-list li:first-child a`, chromedp.ByQuery)))
	waitPath(t, ctx, "/e/"+demoLeague+"/2026-03-21")
	main := evalString(t, ctx, `document.querySelector('main').textContent`)
	for _, want := range []string{"Match Day Ticket", "Lower Box (one match day)", "Season Pass: Lower Box"} {
		require.Contains(t, main, want)
	}
	require.True(t, evalBool(t, ctx, `!!document.querySelector('.ticket-list a[href="/s/`+demoLeague+`-box?date=2026-03-21"]')`),
		"the lower box sells its seats for the date")
	screenshot(t, ctx, "league-date-page")
	require.NoError(t, chromedp.Run(ctx, chromedp.ScrollIntoView(".ticket-list", chromedp.ByQuery)))
	screenshot(t, ctx, "league-date-tickets")

	require.NoError(t, chromedp.Run(ctx, chromedp.Navigate(a.URL+"/e/"+demoLeague+"/teams"), chromedp.WaitVisible(".teams-page", chromedp.ByQuery)))
	teams := evalString(t, ctx, `document.querySelector('.teams-page').textContent`)
	require.Contains(t, teams, "Palaro League MLBB Cup")
	require.Contains(t, teams, "Teams (12)")
	require.Contains(t, teams, "Waiting list")
	require.Equal(t, "14", evalString(t, ctx, `String(document.querySelectorAll('.teams-page .team-row').length)`))
	screenshot(t, ctx, "league-teams-page")
	require.NoError(t, chromedp.Run(ctx, chromedp.ScrollIntoView(".team-list", chromedp.ByQuery)))
	screenshot(t, ctx, "league-teams-list")

	// the lists lead to its next match day; the sitemap has each match day's page
	v := newVisitor(t, a)
	next := "/e/" + demoLeague + "/2026-03-21"
	for _, path := range []string{"/", "/?when=week", "/f/moba"} {
		status, body := v.get(path)
		require.Equal(t, 200, status, path)
		require.Contains(t, body, `href="`+next+`"`, "%s has the league's card", path)
	}
	status, body := v.get("/?when=today")
	require.Equal(t, 200, status)
	upcoming, _, found := strings.Cut(body[strings.Index(body, `id="upcoming-list"`)+1:], "</ul>")
	require.True(t, found)
	require.Contains(t, upcoming, "/e/mlbb-manila-showdown")
	require.NotContains(t, upcoming, "/e/"+demoLeague, "no match day today (the popular rail, not filtered by date, may show it)")
	status, body = v.get("/sitemap.xml")
	require.Equal(t, 200, status)
	for _, slug := range []string{"2026-03-07", "2026-03-14", "2026-03-21", "2026-04-25"} {
		require.Contains(t, body, "/e/"+demoLeague+"/"+slug+"</loc>")
	}
}
