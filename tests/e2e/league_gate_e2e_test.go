package e2e

import (
	"context"
	"crypto/ed25519"
	"database/sql"
	"encoding/json"
	"fmt"
	"net/http"
	"strconv"
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
// the seed's (Wednesday 18 March 2026) into each match day, and the gate page, opened again, is on
// the match day going on (palaro.GateDate), the date every scan names. Online scans (the offline
// gate: TestLeagueGate_OfflinePassPerDate_Browser).
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
	require.NoError(t, chromedp.Run(ctx, chromedp.Reload(), waitFor(`document.querySelector('#gate-date')?.value === `+strconv.Quote(second.Slug)+
		` && (document.querySelector('.gate').dataset.list || '').startsWith(`+strconv.Quote(second.Slug+"@")+`)`)))
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

// TestLeagueGate_OfflinePassPerDate_Browser: the gate page of the demo league at phone size (360
// px) opens on the match day going on, its picker switches the date (and the list the phone
// keeps), and OFFLINE, with that date's list alone, a season pass that came on the match days
// over is admitted once tonight and refused a second time tonight; a day ticket of last week is
// refused as another date's. Each answer names the date and the pass's dates used; the scans sync
// once the network is back, as the pass's admission on tonight's date.
func TestLeagueGate_OfflinePassPerDate_Browser(t *testing.T) {
	var shift atomic.Int64
	clock := clockFrom(testEpoch)
	a := startApp(t, func(cfg *app.Config) {
		cfg.Now = func() time.Time { return clock().Add(time.Duration(shift.Load())) }
	})
	bg := context.Background()
	// a season pass admitted on the second match day (over), and a day ticket of that day
	ev, dates, pass := leaguePassCameOn(t, a, 1)
	played, tonight := dates[1], dates[2]
	var lastWeek string
	require.NoError(t, a.DB().Reader().QueryRow(`SELECT t.code FROM tickets t JOIN ticket_types tt ON tt.id = t.ticket_type_id
		WHERE tt.code = ? AND t.date_id = ? AND t.status IN ('valid', 'checked_in') ORDER BY t.id LIMIT 1`, demoLeague+"-day", played.ID).Scan(&lastWeek))
	used, err := a.DB().Reader().Query(`SELECT d.starts_at FROM pass_uses u JOIN event_dates d ON d.id = u.date_id JOIN tickets t ON t.id = u.ticket_id
		WHERE t.code = ? AND u.checked_in_at IS NOT NULL ORDER BY d.starts_at`, pass)
	require.NoError(t, err)
	var usedDays []string
	for used.Next() {
		var at string
		require.NoError(t, used.Scan(&at))
		when, err := time.Parse(time.RFC3339Nano, at)
		require.NoError(t, err)
		usedDays = append(usedDays, when.In(palaro.Manila).Format("2 Jan"))
	}
	require.NoError(t, used.Err())
	require.NotEmpty(t, usedDays)
	seed, err := a.DB().AppSecret(bg, "ticket-signing-seed", ed25519.SeedSize)
	require.NoError(t, err)
	qr := func(code string) string { return palaro.SignedTicketQR(ed25519.NewKeyFromSeed(seed), code) }

	shift.Add(int64(tonight.StartsAt.Add(20 * time.Minute).Sub(a.DB().Now()))) // Saturday 21 March, 7:20 PM in Manila
	ctx := newBrowser(t)
	require.NoError(t, chromedp.Run(ctx, chromedp.EmulateViewport(360, 780, chromedp.EmulateScale(2), chromedp.EmulateMobile)))
	openGate(t, ctx, a, demoLeague)
	require.Equal(t, tonight.Slug, evalString(t, ctx, `document.querySelector('#gate-date').value`), "the gate opens on tonight's match day")
	require.Equal(t, tonight.Slug+"@", evalString(t, ctx, `document.querySelector('.gate').dataset.list.replace(/\d+$/, '')`))
	labels := evalString(t, ctx, `[...document.querySelectorAll('#gate-date option')].map(o => o.textContent).join('|')`)
	require.Contains(t, labels, palaro.GateDateLabel(played))
	screenshot(t, ctx, "league-gate-picker")

	pick := func(slug string) { t.Helper(); pickGateDate(t, ctx, slug) }
	// the picker switches to last week's match day: the pass was in then
	pick(played.Slug)
	ok, answer := gateScan(t, ctx, pass)
	require.False(t, ok, "the pass came last week: %s", answer)
	require.Contains(t, answer, "Already checked in")
	require.Contains(t, answer, palaro.GateDateLabel(played))
	require.Contains(t, answer, "Used: "+strings.Join(usedDays, ", "))

	// back to tonight, then the network goes
	pick(tonight.Slug)
	require.NoError(t, chromedp.Run(ctx, goOffline(), waitFor(`document.querySelector('.gate').dataset.state === 'offline'`)))
	ok, answer = gateScan(t, ctx, qr(pass))
	require.True(t, ok, "offline, the pass is admitted tonight although it came before: %s", answer)
	require.Contains(t, answer, "Checked in")
	require.Contains(t, answer, palaro.GateDateLabel(tonight))
	require.Contains(t, answer, "Used: "+strings.Join(append(usedDays, "21 Mar"), ", "))
	screenshot(t, ctx, "league-gate-offline-pass")
	ok, answer = gateScan(t, ctx, qr(pass))
	require.False(t, ok, "offline, a second time tonight is refused: %s", answer)
	require.Contains(t, answer, "Already checked in at 7:20 PM")
	require.Contains(t, answer, "Used: "+strings.Join(append(usedDays, "21 Mar"), ", "), "tonight's admission on this phone counts")
	screenshot(t, ctx, "league-gate-offline-refused")
	ok, answer = gateScan(t, ctx, qr(lastWeek))
	require.False(t, ok, "offline, last week's day ticket is another date's: %s", answer)
	require.Contains(t, answer, "This ticket is for "+palaro.DateSlugLabel(played.Slug))
	require.Equal(t, "1", evalString(t, ctx, `document.querySelector('.gate').dataset.queued`))

	// the network is back: the admission reaches the server as tonight's
	require.NoError(t, chromedp.Run(ctx, goOnline(0), waitFor(`document.querySelector('.gate').dataset.queued === '0' && document.querySelector('.gate').dataset.state === 'online'`)))
	var at sql.NullString
	require.NoError(t, a.DB().Reader().QueryRow(`SELECT u.checked_in_at FROM pass_uses u JOIN tickets t ON t.id = u.ticket_id
		WHERE t.code = ? AND u.date_id = ?`, pass, tonight.ID).Scan(&at))
	require.True(t, at.Valid, "the pass's offline admission is recorded on tonight's date")
	assertTouchTargets(t, ctx)

	// the console's counts are tonight's, and its picker shows last week's
	gate := store.NewCheckInService(a.DB())
	for _, d := range []palaro.EventDate{tonight, played} {
		want, err := gate.CheckInCounts(bg, ev.ID, d.Slug)
		require.NoError(t, err)
		path := "/organizer/events/" + demoLeague + "/check-ins"
		if d.ID == played.ID {
			require.NoError(t, chromedp.Run(ctx, chromedp.SetValue("#f-date", played.Slug, chromedp.ByQuery),
				chromedp.Click(".checkin-date button", chromedp.ByQuery), waitFor(`location.search === '?date=`+played.Slug+`'`)))
		} else {
			require.NoError(t, chromedp.Run(ctx, chromedp.Navigate(a.URL+path)))
		}
		require.NoError(t, chromedp.Run(ctx, chromedp.WaitVisible("#checkin-counts", chromedp.ByQuery)))
		counts := evalString(t, ctx, `document.querySelector('#checkin-counts').textContent`)
		require.Contains(t, counts, "Checked in · "+palaro.GateDateLabel(d))
		require.Contains(t, counts, fmt.Sprintf("%d of %d sold", want.CheckedIn, want.Sold))
		if d.ID == tonight.ID {
			require.Equal(t, 1, want.CheckedIn, "tonight, only the pass admitted offline is in")
		} else {
			require.Greater(t, want.CheckedIn, 1, "last week, the demo's admissions")
		}
	}
	screenshot(t, ctx, "league-checkins-counts")
}

// TestGateList_SeriesDate: over HTTP, a series' gate list is of one date (format 3): by default the
// one the gate opens on (the seed's Wednesday: the coming Saturday), else the date asked for. A
// season pass that came on the second match day is in on that date's list, with the dates it used,
// and valid on the coming one; a day ticket of the coming match day is another date's on the
// second's list, which names its date. A date the series does not have is a 400.
func TestGateList_SeriesDate(t *testing.T) {
	a := startApp(t)
	bg := context.Background()
	gate := signedIn(t, a, store.DemoGateEmail)
	ev, dates, pass := leaguePassCameOn(t, a, 1)
	played, next := dates[1], dates[2]
	var day string
	require.NoError(t, a.DB().Reader().QueryRow(`SELECT t.code FROM tickets t WHERE t.date_id = ? AND t.status = 'valid' ORDER BY t.id LIMIT 1`,
		next.ID).Scan(&day))
	secret, err := a.DB().AppSecret(bg, "gate-list-key", 32)
	require.NoError(t, err)
	key := palaro.GateHashKey(secret, ev.ID)
	path := "/v1/organizer/events/" + demoLeague + "/gate-list"
	list := func(query string) (gateListAnswer, map[string][]any) {
		t.Helper()
		status, body := gate.get(path + query)
		require.Equal(t, http.StatusOK, status, body)
		var l gateListAnswer
		require.NoError(t, json.Unmarshal([]byte(body), &l))
		rows := map[string][]any{}
		for _, r := range l.Rows {
			rows[r[0].(string)] = r
		}
		return l, rows
	}
	field := func(r []any, i int) string {
		if i < len(r) {
			return r[i].(string)
		}
		return ""
	}

	l, rows := list("")
	require.Equal(t, 3, l.Format)
	require.Equal(t, next.Slug, l.Date, "the gate opens on the coming match day")
	require.Equal(t, palaro.GateDateLabel(next), l.DateLabel)
	p := rows[palaro.GateCodeHash(key, pass)]
	require.Equal(t, "", field(p, 3), "the pass is still to come on the coming match day")
	require.Contains(t, field(p, 10), played.Slug, "the dates it used")
	require.Equal(t, "Every date", field(p, 11))
	require.Equal(t, "", field(rows[palaro.GateCodeHash(key, day)], 3))

	l, rows = list("?date=" + played.Slug)
	require.Equal(t, played.Slug, l.Date)
	p = rows[palaro.GateCodeHash(key, pass)]
	require.Equal(t, palaro.TicketCheckedIn, field(p, 3), "it came on the second match day")
	require.NotEmpty(t, field(p, 4), "at a time")
	d := rows[palaro.GateCodeHash(key, day)]
	require.Equal(t, palaro.GateWrongDate, field(d, 3))
	require.Equal(t, next.Slug, field(d, 9), "the day ticket's own date")

	status, body := gate.get(path + "?date=2030-01-05")
	require.Equal(t, http.StatusBadRequest, status, body)
	require.Contains(t, body, palaro.MsgDateUnknown)
}

// leaguePassCameOn returns the demo league, its dates and the code of a season pass (still valid)
// that the seed admitted on its date of index i (one of the match days over).
func leaguePassCameOn(t *testing.T, a *testApp, i int) (*palaro.Event, []palaro.EventDate, string) {
	t.Helper()
	ev, err := store.NewEventService(a.DB()).FindEventByCode(context.Background(), demoLeague)
	require.NoError(t, err)
	dates, err := store.NewSeriesService(a.DB()).ListEventDates(context.Background(), ev.ID)
	require.NoError(t, err)
	var pass string
	require.NoError(t, a.DB().Reader().QueryRow(`SELECT t.code FROM tickets t JOIN pass_uses u ON u.ticket_id = t.id
		WHERE u.date_id = ? AND u.checked_in_at IS NOT NULL AND t.status = 'valid' ORDER BY t.id LIMIT 1`, dates[i].ID).Scan(&pass))
	return ev, dates, pass
}
