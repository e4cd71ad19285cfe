package e2e

import (
	"net/http"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/require"

	"palaro/store"
)

// TestScratch_UnambiguousResult_Browser: a card that matches a prize without a picture that is
// not claimable shows every cell (the prize's name on a tile, no broken image), says THANKS FOR
// PLAYING! with the prize's name and that there is nothing to claim, highlights no winning line,
// and the log says the same (not "Won").
func TestScratch_UnambiguousResult_Browser(t *testing.T) {
	a := startApp(t)
	tok := organizerToken(t, a, store.DemoOrganizerEmail, "--organization", "2")
	owner := signedIn(t, a, store.DemoOrganizerEmail)
	status, out := owner.send(http.MethodPost, "/v1/organizer/events/"+demoOwnedEvent+"/activities", "application/json",
		`{"code": "nopic", "kind": "scratch", "name": "Voucher card", "points": 5, "winPercent": 100,
		"startsAt": "2026-03-18T00:00:00Z", "endsAt": "2026-03-20T00:00:00Z",
		"prizes": [{"code": "e-voucher", "name": "E-voucher", "imageUrl": "", "stock": 5, "claimable": false}]}`, tok)
	require.Equal(t, http.StatusCreated, status, out)

	ctx := newBrowser(t)
	registerInBrowser(t, ctx, a, "09175554330")
	confirmInBrowser(t, ctx, a, "+639175554330")
	var title, name, note string
	var broken, tiles, highlighted int
	require.NoError(t, chromedp.Run(ctx,
		chromedp.Navigate(a.URL+boothScanPath(t, a, demoOwnedEvent, "nopic")),
		chromedp.WaitVisible(".scratch-popup canvas", chromedp.ByQuery),
		chromedp.Click(".scratch-reveal", chromedp.ByQuery),
		chromedp.WaitVisible(".scratch-close", chromedp.ByQuery),
		waitFor(`Array.from(document.querySelectorAll('.scratch-cell img')).every(i => i.complete)`),
		chromedp.Evaluate(`Array.from(document.querySelectorAll('.scratch-cell img')).filter(i => !i.getAttribute('src') || i.naturalWidth === 0).length`, &broken),
		chromedp.Evaluate(`Array.from(document.querySelectorAll('.scratch-tile')).filter(t => t.textContent === 'E-voucher').length`, &tiles),
		chromedp.Evaluate(`document.querySelectorAll('.win-cell').length`, &highlighted),
		chromedp.Text("#scratch-title", &title, chromedp.ByQuery),
		chromedp.Text(".scratch-prize-name", &name, chromedp.ByQuery),
		chromedp.Text(".scratch-no-claim", &note, chromedp.ByQuery),
	))
	screenshot(t, ctx, "scratch-no-claim")
	require.Zero(t, broken, "no broken image")
	require.Equal(t, 3, tiles, "the matched prize is named on its three tiles")
	require.Zero(t, highlighted, "no winning line under THANKS FOR PLAYING!")
	require.Equal(t, "THANKS FOR PLAYING!", title)
	require.Equal(t, "E-voucher", name)
	require.Contains(t, note, "Nothing to claim")
	var log string
	require.NoError(t, chromedp.Run(ctx,
		chromedp.Click(".scratch-close", chromedp.ByQuery),
		chromedp.WaitNotPresent(".scratch-popup", chromedp.ByQuery),
		chromedp.Text(".activity-log", &log, chromedp.ByQuery),
	))
	require.Contains(t, log, "Matched E-voucher: nothing to claim")
	require.NotContains(t, log, "Won")
	require.NotContains(t, log, "Prize:")
}
