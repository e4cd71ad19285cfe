package e2e

import (
	"context"
	"database/sql"
	"encoding/json"
	"net/http"
	"slices"
	"strconv"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/require"

	"palaro"
	"palaro/store"
)

// TestLeagueCheckIns_UndoPassOnDate_Browser: on the console's check-ins page of the demo league at
// phone size (360 px), a manager picks match day 2 (over at the seed's time, its season passes
// admitted) and undoes a season pass's admission there: the page stays on that date, says so, and
// its count drops by one; the pass's row on the date is no longer checked in (its other dates
// stand) and the gate admits it there again. Undoing it a second time says it is not checked in
// on that date.
func TestLeagueCheckIns_UndoPassOnDate_Browser(t *testing.T) {
	a := startApp(t)
	bg := context.Background()
	ev, dates := leagueDates(t, a)
	day2 := dates[1]
	var pass string
	require.NoError(t, a.DB().Reader().QueryRow(`SELECT t.code FROM tickets t JOIN pass_uses u ON u.ticket_id = t.id
		WHERE t.event_id = ? AND u.date_id = ? AND u.checked_in_at IS NOT NULL ORDER BY t.id LIMIT 1`, ev.ID, day2.ID).Scan(&pass))
	usedBefore, on := passAdmissions(t, a, pass, day2.ID)
	require.True(t, on)

	ctx := newBrowser(t)
	page := "/organizer/events/" + demoLeague + "/check-ins"
	require.NoError(t, chromedp.Run(ctx, chromedp.EmulateViewport(360, 780, chromedp.EmulateScale(2), chromedp.EmulateMobile),
		signInAs(a.URL, store.DemoOrganizerEmail),
		chromedp.Navigate(a.URL+page), chromedp.WaitVisible("#undo-code", chromedp.ByQuery)))
	// the date picker shows match day 2
	require.NoError(t, chromedp.Run(ctx, chromedp.SetValue(`.checkin-date select`, day2.Slug, chromedp.ByQuery),
		chromedp.Click(`.checkin-date button`, chromedp.ByQuery), waitFor(`location.search.includes('date=`+day2.Slug+`')`),
		chromedp.WaitVisible("#undo-code", chromedp.ByQuery)))
	label := palaro.GateDateLabel(day2)
	require.Contains(t, evalString(t, ctx, `document.querySelector('#undo-heading').textContent`), label)
	count := func() int {
		n, err := strconv.Atoi(evalString(t, ctx, `document.querySelector('.checkin-total strong').textContent`))
		require.NoError(t, err)
		return n
	}
	before := count()

	undo := func() string {
		// the next page's notice, not the one still shown from the last undo
		require.NoError(t, chromedp.Run(ctx, chromedp.SendKeys("#undo-code", pass, chromedp.ByQuery),
			clickAndLoad(`#undo-code ~ button, form[action$="/check-ins/undo"] button`, chromedp.ByQuery),
			chromedp.WaitVisible(".form-notice", chromedp.ByQuery)))
		require.Equal(t, day2.Slug, evalString(t, ctx, `document.querySelector('.checkin-date select').value`), "the page stays on the date")
		return evalString(t, ctx, `document.querySelector('.form-notice').textContent`)
	}
	require.Equal(t, "The check-in on "+label+" is undone: the ticket is valid again.", undo())
	screenshot(t, ctx, "league-checkins-undone")
	require.NoError(t, chromedp.Run(ctx, chromedp.ScrollIntoView("#undo-heading", chromedp.ByQuery)))
	screenshot(t, ctx, "league-checkins-undo-form")
	require.Equal(t, before-1, count(), "the date's count drops by one")

	used, on := passAdmissions(t, a, pass, day2.ID)
	require.False(t, on, "no longer admitted on match day 2")
	require.Equal(t, usedBefore-1, used, "its other dates stand")

	require.Equal(t, "That ticket is not checked in on "+label+".", undo())
	screenshot(t, ctx, "league-checkins-not-in")

	again, err := store.NewCheckInService(a.DB()).CheckIn(bg, palaro.CheckInRequest{EventID: ev.ID, Code: pass, Gate: "Gate 1", Date: day2.Slug})
	require.NoError(t, err)
	require.Equal(t, palaro.CheckInOK, again.Outcome, "the holder is admitted again on the date")
}

// TestLeagueBoxOffice_Date: the box office of the demo league sells for a date: none given is a
// field error, a date over another, and a coming match day's sale is checked in on that date. At
// the gate page (360 px) the box office says which date it sells for and its sale is of that date.
func TestLeagueBoxOffice_Date(t *testing.T) {
	a := startApp(t)
	_, dates := leagueDates(t, a)
	gate := signedIn(t, a, store.DemoGateEmail)
	path := "/v1/organizer/events/" + demoLeague + "/box-office"
	sell := func(date string) (int, map[string]any) {
		body := `{"ticketType":"` + demoLeague + `-day","holderName":"Walk In","paymentMethod":"CASH","gate":"Box office"`
		if date != "" {
			body += `,"date":"` + date + `"`
		}
		status, answer := gate.send(http.MethodPost, path, "application/json", body+"}", "")
		var out map[string]any
		require.NoError(t, json.Unmarshal([]byte(answer), &out), answer)
		return status, out
	}
	status, out := sell("")
	require.Equal(t, http.StatusBadRequest, status)
	require.Equal(t, map[string]any{"date": palaro.MsgDateRequired}, out["fields"])
	status, out = sell(dates[0].Slug)
	require.Equal(t, http.StatusBadRequest, status)
	require.Equal(t, map[string]any{"date": palaro.MsgDateOver}, out["fields"])
	status, out = sell(dates[2].Slug)
	require.Equal(t, http.StatusOK, status, out)
	code := out["ticket"].(map[string]any)["code"].(string)
	var dateID int64
	var checked sql.NullString
	require.NoError(t, a.DB().Reader().QueryRow(`SELECT date_id, checked_in_at FROM tickets WHERE code = ?`, code).Scan(&dateID, &checked))
	require.Equal(t, dates[2].ID, dateID)
	require.True(t, checked.Valid, "checked in at the sale")

	// a coming date other than the gate's with 2 day tickets left (its own capacity)
	ev, _ := leagueDates(t, a)
	dayType := ev.TicketTypes[slices.IndexFunc(ev.TicketTypes, func(tt palaro.TicketType) bool { return tt.Code == demoLeague+"-day" })]
	require.Greater(t, dayType.MaxPurchasable, 2)
	opens := palaro.GateDate(dates, a.Now())
	short := slices.IndexFunc(dates, func(d palaro.EventDate) bool { return d.StartsAt.After(a.Now()) && d.ID != opens.ID })
	_, err := a.DB().Writer().Exec(`UPDATE date_stock SET capacity = sold + held + 2, own_capacity = 1 WHERE date_id = ? AND ticket_type_id = ?`,
		dates[short].ID, dayType.ID)
	require.NoError(t, err)

	ctx := newBrowser(t)
	require.NoError(t, chromedp.Run(ctx, chromedp.EmulateViewport(360, 780, chromedp.EmulateScale(2), chromedp.EmulateMobile)))
	openGate(t, ctx, a, demoLeague)
	on := evalString(t, ctx, `document.querySelector('#gate-date').value`)
	i := slices.IndexFunc(dates, func(d palaro.EventDate) bool { return d.Slug == on })
	require.GreaterOrEqual(t, i, 0)
	require.NoError(t, chromedp.Run(ctx,
		chromedp.Click(".gate-box-office summary", chromedp.ByQuery),
		chromedp.WaitVisible("[data-box-office-date]", chromedp.ByQuery),
		chromedp.SendKeys("#bo-name", "Walk-in Fan", chromedp.ByQuery)))
	require.Equal(t, "For "+palaro.GateDateLabel(dates[i]), evalString(t, ctx, `document.querySelector('[data-box-office-date]').textContent`))
	screenshot(t, ctx, "league-box-office-date")

	// the quantity follows the gate's date: another date with 2 places left offers 2, this one its per-buyer maximum
	quantities := `String(document.querySelectorAll('#bo-quantity option').length)`
	pick := func(slug string) { t.Helper(); pickGateDate(t, ctx, slug) }
	most := evalString(t, ctx, quantities)
	require.Equal(t, strconv.Itoa(dayType.MaxPurchasable), most, "the per-buyer maximum on a date with room")
	pick(dates[short].Slug)
	require.NoError(t, chromedp.Run(ctx, waitFor(quantities+` === "2"`)))
	screenshot(t, ctx, "league-box-office-date-left")
	pick(dates[i].Slug)
	require.NoError(t, chromedp.Run(ctx, waitFor(quantities+` === `+strconv.Quote(most))))
	require.NoError(t, chromedp.Run(ctx, chromedp.Click(".gate-box-office button[type=submit]", chromedp.ByQuery),
		waitFor(`/Sold and checked in/.test(document.querySelector('.gate-answer-ok')?.textContent || '')`)))
	screenshot(t, ctx, "league-box-office-sold")
	var sold int64
	require.NoError(t, a.DB().Reader().QueryRow(`SELECT date_id FROM orders WHERE source = 'box_office' AND buyer LIKE '%Walk-in Fan%'`).Scan(&sold))
	require.Equal(t, dates[i].ID, sold, "sold for the gate's date")
}

// pickGateDate switches the gate's date picker to the date slug and waits for that date's list.
func pickGateDate(t *testing.T, ctx context.Context, slug string) {
	t.Helper()
	require.NoError(t, chromedp.Run(ctx,
		chromedp.Evaluate(`(() => { const s = document.querySelector('#gate-date'); s.value = `+strconv.Quote(slug)+`;
			s.dispatchEvent(new Event('change', { bubbles: true })); })()`, nil),
		waitFor(`(document.querySelector('.gate').dataset.list || '').startsWith(`+strconv.Quote(slug+"@")+`)`)))
}

// leagueDates are the demo league and its eight match days.
func leagueDates(t *testing.T, a *testApp) (*palaro.Event, []palaro.EventDate) {
	t.Helper()
	ev, err := store.NewEventService(a.DB()).FindEventByCode(context.Background(), demoLeague)
	require.NoError(t, err)
	dates, err := store.NewSeriesService(a.DB()).ListEventDates(context.Background(), ev.ID)
	require.NoError(t, err)
	return ev, dates
}

// passAdmissions counts the dates a pass was admitted on, and tells whether dateID is one.
func passAdmissions(t *testing.T, a *testApp, code string, dateID int64) (used int, on bool) {
	t.Helper()
	require.NoError(t, a.DB().Reader().QueryRow(`SELECT count(*), count(CASE WHEN u.date_id = ? THEN 1 END) FROM pass_uses u
		JOIN tickets t ON t.id = u.ticket_id WHERE t.code = ? AND u.checked_in_at IS NOT NULL`, dateID, code).Scan(&used, &on))
	return used, on
}
