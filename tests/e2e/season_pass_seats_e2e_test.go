package e2e

import (
	"context"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/require"

	"palaro"
	"palaro/store"
)

// TestSeasonPassSeat_Browser: at phone size (390x844) a buyer opens the demo league's seated
// season pass from the event page, picks a seat on its map (the box's seats free on every coming
// match day, at the pass's price), pays by card and gets a ticket with that seat; the seat is then
// taken on every coming match day's box map.
func TestSeasonPassSeat_Browser(t *testing.T) {
	a := startApp(t)
	ctx := newBrowser(t)
	const pass = demoLeague + "-season"
	require.NoError(t, chromedp.Run(ctx, chromedp.EmulateViewport(390, 844, chromedp.EmulateScale(2), chromedp.EmulateMobile),
		dismissCookies(a.URL),
		chromedp.Navigate(a.URL+"/e/"+demoLeague),
		chromedp.Click(`a[href="/s/`+pass+`"]`, chromedp.ByQuery)))
	waitPath(t, ctx, "/s/"+pass)
	openSeatMap(t, ctx, a.URL+"/s/"+pass)
	seat := availableSeats(t, ctx, 1)[0]
	require.NoError(t, chromedp.Run(ctx, clickSeat(seat)))
	require.Equal(t, []string{seat}, checkedSeats(t, ctx))
	var href string
	require.NoError(t, chromedp.Run(ctx, chromedp.AttributeValue(`.seat-bar a.button`, "href", &href, nil, chromedp.ByQuery)))
	require.Equal(t, "/b/"+pass+"?seats="+seat, href, "the pass's own buy page")
	screenshot(t, ctx, "season-pass-seats")

	require.NoError(t, chromedp.Run(ctx, chromedp.Click(`.seat-bar a.button`, chromedp.ByQuery)))
	waitPath(t, ctx, "/b/"+pass)
	require.NoError(t, chromedp.Run(ctx, chromedp.WaitVisible(`[data-island="purchase"][data-mounted] form`, chromedp.ByQuery),
		typeInto("email", "season@example.ph"), typeInto("fullName", "Nina Cruz")))
	screenshot(t, ctx, "season-pass-form")
	paySeatsByCard(t, ctx, []string{seat})
	screenshot(t, ctx, "season-pass-paid")

	// the seat is the pass's on every coming match day: taken on each date's map
	bg := context.Background()
	ev, err := store.NewEventService(a.DB()).FindEventByCode(bg, demoLeague)
	require.NoError(t, err)
	dates, err := store.NewSeriesService(a.DB()).ListEventDates(bg, ev.ID)
	require.NoError(t, err)
	box, _, err := store.NewEventService(a.DB()).FindTicketType(bg, demoLeague+"-box")
	require.NoError(t, err)
	now, coming := a.DB().Now(), 0
	for _, d := range dates {
		if d.Past(now) || d.Status == palaro.DateCancelled {
			continue
		}
		coming++
		rows, err := store.NewSeatService(a.DB()).SeatMapOn(bg, box.ID, []int64{d.ID})
		require.NoError(t, err)
		status := ""
		for _, r := range rows {
			for _, s := range r.Seats {
				if s.Label == seat {
					status = s.Status
				}
			}
		}
		require.Equal(t, palaro.SeatSold, status, "seat %s on %s", seat, d.Slug)
	}
	require.Positive(t, coming)
	// and on a match day's page the box's map shows it taken
	openSeatMap(t, ctx, a.URL+"/s/"+demoLeague+"-box?date="+dates[len(dates)-1].Slug)
	var taken bool
	require.NoError(t, chromedp.Run(ctx,
		chromedp.Evaluate(`document.querySelector('.check.seat input[value="`+seat+`"]').disabled`, &taken)))
	require.True(t, taken, "taken on the last match day's map")
}
