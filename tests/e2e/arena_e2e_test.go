package e2e

import (
	"context"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/require"

	"palaro/store"
)

// TestArenaSeats_Browser: the stadium seed's seat page at 360 px opens on the overview (the bowl
// and the 40 sections with their free seats, no seat drawn), opens a section on demand (its seats
// fetched then), zooms, and buys best-available seats: the server holds the best two seats, the
// map shows them chosen, and the buy page pays for exactly those seats through the sandbox.
func TestArenaSeats_Browser(t *testing.T) {
	a := startApp(t)
	seed, err := a.DB().SeedStadium(context.Background(), a.Now(), store.StadiumOptions{Places: 10000})
	require.NoError(t, err)
	lower := seed.TicketTypes[0]
	ctx := newBrowser(t)
	require.NoError(t, chromedp.Run(ctx, dismissCookies(a.URL), chromedp.EmulateViewport(360, 780, chromedp.EmulateScale(2), chromedp.EmulateMobile)))

	openIsland(t, ctx, a.URL+"/s/"+lower, "arena", ".arena-map")
	var paths, chips, tiles, htmlBytes int
	var overflow bool
	require.NoError(t, chromedp.Run(ctx,
		chromedp.Evaluate(`document.querySelectorAll('.arena-map path').length`, &paths),
		chromedp.Evaluate(`document.querySelectorAll('.arena-sections button').length`, &chips),
		chromedp.Evaluate(`document.querySelectorAll('.check.seat').length`, &tiles),
		chromedp.Evaluate(`document.getElementById('arena-props').textContent.length`, &htmlBytes),
		chromedp.Evaluate(`document.documentElement.scrollWidth > window.innerWidth`, &overflow),
	))
	require.Equal(t, 40, paths, "16 lower and 24 upper sections drawn")
	require.Equal(t, 40, chips)
	require.Zero(t, tiles, "the first view draws no seat")
	require.Less(t, htmlBytes, 8000, "the overview's props are set by the sections, not the seats")
	require.False(t, overflow, "the page does not scroll sideways")
	first := evalString(t, ctx, `document.querySelector('.arena-sections button').textContent`)
	require.Regexp(t, `^101 [\d,]+ of [\d,]+ free$`, first)
	screenshot(t, ctx, "arena-overview-360")

	// a section's seats are fetched when it is opened
	require.NoError(t, chromedp.Run(ctx,
		chromedp.Click(`.arena-sections button`, chromedp.ByQuery),
		chromedp.WaitVisible(`#arena-section .seat-block`, chromedp.ByQuery),
		chromedp.Evaluate(`document.querySelectorAll('#arena-section .check.seat input').length`, &tiles),
	))
	require.Positive(t, tiles)
	label := evalString(t, ctx, `document.querySelector('#arena-section .check.seat input').value`)
	require.True(t, strings.HasPrefix(label, "101-A"), label)
	before := evalString(t, ctx, `getComputedStyle(document.querySelector('#arena-section .seat-blocks')).getPropertyValue('--seat')`)
	require.NoError(t, chromedp.Run(ctx, chromedp.Click(`#arena-section button[aria-label="Zoom out"]`, chromedp.ByQuery)))
	after := evalString(t, ctx, `getComputedStyle(document.querySelector('#arena-section .seat-blocks')).getPropertyValue('--seat')`)
	require.NotEqual(t, before, after, "zoom out shrinks the seats (they open at 44 px)")
	require.NoError(t, chromedp.Run(ctx, chromedp.Evaluate(`document.getElementById('arena-section').scrollIntoView()`, nil)))
	screenshot(t, ctx, "arena-section-360")

	// best available: two seats held, shown chosen on the map, bought as they are
	require.NoError(t, chromedp.Run(ctx,
		chromedp.Evaluate(`window.scrollTo(0, 0)`, nil),
		chromedp.Click(`.arena-best button[type=submit]`, chromedp.ByQuery),
		chromedp.WaitVisible(`.arena-held`, chromedp.ByQuery),
		chromedp.WaitVisible(`#arena-section .check.seat input:checked`, chromedp.ByQuery),
	))
	held := checkedSeats(t, ctx)
	require.Len(t, held, 2)
	heldText := evalString(t, ctx, `document.querySelector('.arena-held strong').textContent`)
	require.Equal(t, "Seats "+held[0]+", "+held[1], heldText)
	var state string
	require.NoError(t, a.DB().Writer().QueryRow(`SELECT CASE WHEN hold_id IS NOT NULL THEN 'held' ELSE 'other' END
		FROM seat_assignments WHERE seat = ?`, held[0]).Scan(&state))
	require.Equal(t, "held", state, "the server holds them")
	require.NoError(t, chromedp.Run(ctx, chromedp.Evaluate(`document.querySelector('.arena-held').scrollIntoView()`, nil)))
	screenshot(t, ctx, "arena-best-360")

	require.NoError(t, chromedp.Run(ctx, chromedp.Click(`.arena-held a.button`, chromedp.ByQuery)))
	waitPath(t, ctx, "/b/"+lower)
	require.NoError(t, chromedp.Run(ctx, chromedp.WaitVisible(`[data-island="purchase"][data-mounted] form`, chromedp.ByQuery),
		typeInto("firstName", "Ana"), typeInto("lastName", "Reyes"), typeInto("mobileNumber", "09171234567"),
		typeInto("email", "arena@example.ph")))
	paySeatsByCard(t, ctx, held)
	var holds int
	require.NoError(t, a.DB().Writer().QueryRow(`SELECT COUNT(*) FROM seat_holds`).Scan(&holds))
	require.Zero(t, holds, "the order took the hold's seats")
}
