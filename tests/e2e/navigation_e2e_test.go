package e2e

import (
	"context"
	"errors"
	"strconv"
	"testing"

	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/require"

	"palaro"
)

// pressBack goes one entry back in the tab's history, as the browser's (or the phone's) Back
// button does, without waiting for a page load: going back within the page loads nothing.
func pressBack() chromedp.Action {
	return chromedp.ActionFunc(func(ctx context.Context) error {
		cur, entries, err := page.GetNavigationHistory().Do(ctx)
		if err != nil {
			return err
		}
		if cur <= 0 {
			return errors.New("no history to go back to")
		}
		return page.NavigateToHistoryEntry(entries[cur-1].ID).Do(ctx)
	})
}

func TestBackClosesWhatIsOpen_Browser(t *testing.T) {
	a := startApp(t)
	ctx := newBrowser(t)
	require.NoError(t, chromedp.Run(ctx, dismissCookies(a.URL)))
	onPage := func(t *testing.T, path string) {
		t.Helper()
		require.NoError(t, chromedp.Run(ctx, waitFor(`location.pathname === '`+path+`' && document.readyState === 'complete'`)))
	}
	menuOpen := `document.getElementById('menu').classList.contains('open')`

	t.Run("Menu", func(t *testing.T) {
		require.NoError(t, chromedp.Run(ctx, chromedp.Navigate(a.URL+"/about"), chromedp.Navigate(a.URL+"/"), openMenu()))
		screenshot(t, ctx, "back-menu-open")
		require.NoError(t, chromedp.Run(ctx, pressBack(), waitFor(`!`+menuOpen)))
		onPage(t, "/")
		require.NoError(t, chromedp.Run(ctx, waitFor(`document.querySelector('.menu-panel').getBoundingClientRect().bottom <= 0`)), "the panel slides up")
		require.NoError(t, chromedp.Run(ctx, pressBack()))
		onPage(t, "/about")
	})
	t.Run("MenuClosedByItsButtonLeavesNoEntry", func(t *testing.T) {
		require.NoError(t, chromedp.Run(ctx, chromedp.Navigate(a.URL+"/"), openMenu(), chromedp.Click(".menu-close"), waitFor(`!`+menuOpen)))
		require.NoError(t, chromedp.Run(ctx, waitFor(`!history.state || !history.state.overlay`)), "the menu's entry is gone")
		require.NoError(t, chromedp.Run(ctx, pressBack()))
		onPage(t, "/about")
	})
	t.Run("MenuLinkReplacesTheEntry", func(t *testing.T) {
		require.NoError(t, chromedp.Run(ctx, chromedp.Navigate(a.URL+"/about"), chromedp.Navigate(a.URL+"/"), openMenu(),
			chromedp.Click(`#menu a[href="/calendar"]`, chromedp.ByQuery)))
		onPage(t, "/calendar")
		require.NoError(t, chromedp.Run(ctx, pressBack()))
		onPage(t, "/")
		require.False(t, evalBool(t, ctx, menuOpen))
		require.NoError(t, chromedp.Run(ctx, pressBack()))
		onPage(t, "/about")
	})

	t.Run("QuickBuySheet", func(t *testing.T) {
		sheet := `[data-quick-buy="dota-2-visayas-major-gen"]`
		sheetUp := `!!document.querySelector('.sheet-backdrop.open #quick-email') && getComputedStyle(document.querySelector('.sheet')).transform === 'none' &&
			getComputedStyle(document.querySelector('.sheet-backdrop')).opacity === '1'`
		require.NoError(t, chromedp.Run(ctx,
			chromedp.Navigate(a.URL+"/about"),
			chromedp.Navigate(a.URL+"/e/dota-2-visayas-major"),
			chromedp.WaitReady(sheet, chromedp.ByQuery),
			chromedp.Click(sheet, chromedp.ByQuery),
			waitFor(sheetUp),
		))
		screenshot(t, ctx, "back-quick-buy-open")
		require.NoError(t, chromedp.Run(ctx, pressBack(), waitFor(`!document.querySelector('.sheet-backdrop')`)), "the sheet slides away")
		onPage(t, "/e/dota-2-visayas-major")
		// Opened again and closed with its own button once it has slid up: Back then leaves the page.
		require.NoError(t, chromedp.Run(ctx,
			chromedp.Click(sheet, chromedp.ByQuery),
			waitFor(sheetUp),
			chromedp.Click(`.sheet [aria-label="Close"]`, chromedp.ByQuery),
			waitFor(`!document.querySelector('.sheet-backdrop.open') && (!history.state || !history.state.overlay)`),
			pressBack(),
		))
		onPage(t, "/about")
	})

	t.Run("FullScreenQR", func(t *testing.T) {
		o, err := a.Purchases().CreateOrder(context.Background(), palaro.PurchaseRequest{TicketCode: "codm-campus-clash-iloilo-free",
			Email: "back@example.ph", FirstName: "Lia", LastName: "Santos", CompanyName: "UP Visayas", Designation: "Student"}, a.Now())
		require.NoError(t, err)
		ticket := "/t/" + o.Tickets[0].PublicID
		require.NoError(t, chromedp.Run(ctx,
			chromedp.Navigate(a.URL+"/about"),
			chromedp.Navigate(a.URL+ticket),
			chromedp.Click(`a.ticket-qr`, chromedp.ByQuery),
			waitFor(`document.getElementById('popup-qr').open`),
		))
		screenshot(t, ctx, "back-qr-open")
		require.NoError(t, chromedp.Run(ctx, pressBack(), waitFor(`!document.getElementById('popup-qr').open`)))
		onPage(t, ticket)
		// Escape closes it too, and takes its entry along.
		require.NoError(t, chromedp.Run(ctx,
			chromedp.Click(`a.ticket-qr`, chromedp.ByQuery),
			waitFor(`document.getElementById('popup-qr').open`),
			chromedp.KeyEvent("\x1b"),
			waitFor(`!document.getElementById('popup-qr').open && (!history.state || !history.state.overlay)`),
			pressBack(),
		))
		onPage(t, "/about")
	})
}

func TestLoadMoreComesBack_Browser(t *testing.T) {
	a := startApp(t)
	ctx := newBrowser(t)
	require.NoError(t, chromedp.Run(ctx, dismissCookies(a.URL)))
	cards := `document.querySelectorAll('#upcoming-list .event-card').length`

	loadTwice := func(t *testing.T) {
		t.Helper()
		require.NoError(t, chromedp.Run(ctx,
			chromedp.Navigate(a.URL+"/"),
			chromedp.Click(".load-more"),
			waitFor(cards+` === 24 && location.search === '?page=2'`),
			chromedp.Click(".load-more"),
			waitFor(cards+` > 24 && location.search === '?page=3'`),
			// Scroll to the 20th event, which came with the first 'load more'.
			chromedp.Evaluate(`document.querySelectorAll('#upcoming-list .event-card')[19].scrollIntoView({block: 'start'})`, nil),
			waitFor(`window.scrollY > 1000`),
		))
	}

	t.Run("Back", func(t *testing.T) {
		loadTwice(t)
		loaded := int(evalFloat(t, ctx, cards))
		y := evalFloat(t, ctx, `window.scrollY`)
		screenshot(t, ctx, "load-more-before")
		// An unload handler keeps the page out of the back/forward cache, so the page is loaded
		// again from the server, as on a phone that dropped it.
		require.NoError(t, chromedp.Run(ctx,
			chromedp.Evaluate(`window.addEventListener('unload', () => {}); window.leftAt = 1`, nil),
			chromedp.Click(`#upcoming-list > li:nth-child(20) .event-card-link`, chromedp.ByQuery),
			waitFor(`location.pathname.startsWith('/e/')`),
			pressBack(),
			waitFor(`location.pathname === '/' && document.readyState === 'complete'`),
		))
		require.Equal(t, "?page=3", evalString(t, ctx, `location.search`))
		require.Equal(t, loaded, int(evalFloat(t, ctx, cards)), "the events loaded before")
		require.NoError(t, chromedp.Run(ctx, waitFor(`Math.abs(window.scrollY - `+strconv.FormatFloat(y, 'f', 0, 64)+`) < 2`)), "where the visitor was")
		require.False(t, evalBool(t, ctx, `window.leftAt === 1`), "loaded again, not restored from the back/forward cache")
		screenshot(t, ctx, "load-more-after-back")
	})
	t.Run("Reload", func(t *testing.T) {
		loadTwice(t)
		loaded := int(evalFloat(t, ctx, cards))
		require.NoError(t, chromedp.Run(ctx, chromedp.Reload(), waitFor(`document.readyState === 'complete'`)))
		require.Equal(t, loaded, int(evalFloat(t, ctx, cards)))
		require.Greater(t, evalFloat(t, ctx, `window.scrollY`), 1000.0)
	})
}
