package e2e

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/browser"
	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/cdproto/input"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/require"

	"palaro"
	"palaro/store"
)

// waitFor polls a JavaScript condition until it is true, for at most 20 seconds (a page load on a
// busy 2-core machine can take several). It keeps polling across page loads, so it can wait for a
// navigation that a click started.
func waitFor(cond string) chromedp.Action {
	return chromedp.ActionFunc(func(ctx context.Context) error {
		deadline := time.Now().Add(20 * time.Second)
		for {
			var ok bool
			err := chromedp.Evaluate(cond, &ok).Do(ctx)
			if err == nil && ok {
				return nil
			}
			if time.Now().After(deadline) {
				return fmt.Errorf("timed out waiting for %s (last error: %v)", cond, err)
			}
			time.Sleep(50 * time.Millisecond)
		}
	})
}

// withoutJavaScript disables scripts in the tab until the test ends.
func withoutJavaScript(t *testing.T, ctx context.Context) {
	t.Helper()
	require.NoError(t, chromedp.Run(ctx, emulation.SetScriptExecutionDisabled(true)))
	t.Cleanup(func() { _ = chromedp.Run(ctx, emulation.SetScriptExecutionDisabled(false)) })
}

// awaitPromise makes chromedp.Evaluate wait for the promise the expression returns.
func awaitPromise(p *runtime.EvaluateParams) *runtime.EvaluateParams { return p.WithAwaitPromise(true) }

// evalBool evaluates a JavaScript expression that yields a boolean.
func evalBool(t *testing.T, ctx context.Context, js string) bool {
	t.Helper()
	var b bool
	require.NoError(t, chromedp.Run(ctx, chromedp.Evaluate(js, &b)), js)
	return b
}

// evalString evaluates a JavaScript expression that yields a string.
func evalString(t *testing.T, ctx context.Context, js string) string {
	t.Helper()
	var s string
	require.NoError(t, chromedp.Run(ctx, chromedp.Evaluate(js, &s)), js)
	return s
}

// setPermission grants or denies a browser permission to the app's origin.
func setPermission(origin, name string, setting browser.PermissionSetting) chromedp.Action {
	return chromedp.ActionFunc(func(ctx context.Context) error {
		c := chromedp.FromContext(ctx)
		return browser.SetPermission(&browser.PermissionDescriptor{Name: name}, setting).WithOrigin(origin).
			Do(cdp.WithExecutor(ctx, c.Browser))
	})
}

// swipe drags one finger horizontally across the element at sel by dx pixels, once the loading
// overlay (which takes touches while a request runs) is gone.
func swipe(sel string, dx float64) chromedp.Action {
	return chromedp.ActionFunc(func(ctx context.Context) error {
		if err := waitFor(`document.getElementById('loading').hidden`).Do(ctx); err != nil {
			return err
		}
		var box []float64
		if err := chromedp.Evaluate(`(() => { const r = document.querySelector(`+"`"+sel+"`"+`).getBoundingClientRect(); return [r.left + r.width / 2, r.top + r.height / 2]; })()`, &box).Do(ctx); err != nil {
			return err
		}
		x, y := box[0]-dx/2, box[1]
		if err := input.DispatchTouchEvent(input.TouchStart, []*input.TouchPoint{{X: x, Y: y}}).Do(ctx); err != nil {
			return err
		}
		for i := 1; i <= 4; i++ {
			if err := input.DispatchTouchEvent(input.TouchMove, []*input.TouchPoint{{X: x + dx*float64(i)/4, Y: y + 2}}).Do(ctx); err != nil {
				return err
			}
		}
		return input.DispatchTouchEvent(input.TouchEnd, []*input.TouchPoint{}).Do(ctx)
	})
}

// openMenu opens the menu overlay and waits until it has slid in and its items have settled.
func openMenu() chromedp.Action {
	return chromedp.Tasks{
		chromedp.Click(".menu-button"),
		waitFor(`document.querySelector('.menu-panel').getBoundingClientRect().top === 0 &&
			[...document.querySelectorAll('#menu li')].every(li => getComputedStyle(li).opacity === '1' && getComputedStyle(li).transform === 'none')`),
	}
}

// dismissCookies records a cookie choice so the notice does not cover the page.
func dismissCookies(url string) chromedp.Action {
	return chromedp.Tasks{
		chromedp.Navigate(url + "/robots.txt"),
		chromedp.Evaluate(`localStorage.setItem('palaro-consent', 'declined')`, nil),
	}
}

// requireListedToday checks that the home page lists under "Today" exactly the events that overlap
// the rest of the app's day in Manila (running now or starting before midnight), and returns their codes.
func requireListedToday(t *testing.T, ctx context.Context, a *testApp) []string {
	t.Helper()
	now := a.Now()
	local := now.In(palaro.Manila)
	midnight := time.Date(local.Year(), local.Month(), local.Day()+1, 0, 0, 0, 0, palaro.Manila)
	events, err := store.NewEventService(a.DB()).ListEventsBetween(context.Background(), now, midnight)
	require.NoError(t, err)
	var want []string
	for _, ev := range events {
		want = append(want, ev.Code)
	}
	var listed []string
	require.NoError(t, chromedp.Run(ctx, chromedp.Evaluate(
		`[...document.querySelectorAll('#upcoming-list .event-card-link')].map(a => a.getAttribute('href').replace('/e/', ''))`, &listed)))
	require.NotEmpty(t, want, "the demo data has events today")
	require.Equal(t, want, listed, "the events that overlap today, in order of start")
	return listed
}

func TestHomePage_Browser(t *testing.T) {
	a := startApp(t)
	ctx := newBrowser(t)

	t.Run("OK", func(t *testing.T) {
		var heading, popular string
		var cards int
		require.NoError(t, chromedp.Run(ctx,
			chromedp.Navigate(a.URL+"/"),
			chromedp.Text("#upcoming-heading", &heading, chromedp.ByQuery),
			chromedp.Text("#popular-heading", &popular, chromedp.ByQuery),
			chromedp.Evaluate(`document.querySelectorAll('#upcoming-list .event-card').length`, &cards),
		))
		require.Equal(t, "Discover upcoming events", heading)
		require.Equal(t, "Discover popular events", popular)
		require.Equal(t, 12, cards)
		require.True(t, evalBool(t, ctx, `!document.getElementById('cookie-notice').hidden`), "a first visit shows the cookie notice")
		screenshot(t, ctx, "home")
		require.NoError(t, chromedp.Run(ctx, dismissCookies(a.URL)))
	})

	t.Run("Filters", func(t *testing.T) {
		require.NoError(t, chromedp.Run(ctx,
			chromedp.Navigate(a.URL+"/"),
			chromedp.Click(`a.filter[href="/?when=today"]`, chromedp.ByQuery),
			waitFor(`location.search === '?when=today' && document.readyState === 'complete'`),
		))
		require.Equal(t, "Today", evalString(t, ctx, `document.querySelector('nav.filters a[aria-current="true"]').textContent.trim()`))
		requireListedToday(t, ctx, a)
		screenshot(t, ctx, "home-today")

		require.NoError(t, chromedp.Run(ctx,
			chromedp.Click(`a.filter[href="/?when=week"]`, chromedp.ByQuery),
			waitFor(`location.search === '?when=week' && document.readyState === 'complete'`),
		))
		require.Equal(t, "This week", evalString(t, ctx, `document.querySelector('nav.filters a[aria-current="true"]').textContent.trim()`))
	})

	// At 00:23 the event that started at 22:00 the evening before is still running, so it is
	// listed under Today, with the day it started on its badge: the failure the wall clock caused.
	t.Run("FiltersAfterMidnight", func(t *testing.T) {
		night := startApp(t, startAt(time.Date(2026, 3, 19, 0, 23, 0, 0, palaro.Manila)))
		require.NoError(t, chromedp.Run(ctx, chromedp.Navigate(night.URL+"/?when=today"), chromedp.WaitReady("footer")))
		listed := requireListedToday(t, ctx, night)
		require.Contains(t, listed, "mlbb-manila-showdown", "the event running since last evening")
		require.Equal(t, "18", evalString(t, ctx, `document.querySelector('#upcoming-list a[href="/e/mlbb-manila-showdown"] .date-day').textContent`))
		require.Equal(t, "19", evalString(t, ctx, `document.querySelector('#upcoming-list a[href="/e/tekken-tuesdays-cubao"] .date-day').textContent`),
			"an event starting this evening")
	})

	t.Run("LoadMore", func(t *testing.T) {
		var cards, entries int
		require.NoError(t, chromedp.Run(ctx,
			chromedp.Navigate(a.URL+"/"),
			chromedp.Evaluate(`history.length`, &entries),
			chromedp.Click(".load-more"),
			waitFor(`document.querySelectorAll('#upcoming-list .event-card').length > 12`),
			chromedp.Evaluate(`document.querySelectorAll('#upcoming-list .event-card').length`, &cards),
		))
		require.Equal(t, 24, cards)
		require.NoError(t, chromedp.Run(ctx, waitFor(`location.pathname + location.search === '/?page=2'`)),
			"htmx appends without navigating; the address remembers the page for a return")
		require.Equal(t, entries, int(evalFloat(t, ctx, `history.length`)), "no history entry: Back leaves the list")
		require.True(t, evalBool(t, ctx, `document.getElementById('loading').hidden`), "the loading indicator is off after the response")
	})

	t.Run("LoadMoreWithoutJavaScript", func(t *testing.T) {
		withoutJavaScript(t, ctx)
		require.NoError(t, chromedp.Run(ctx,
			chromedp.Navigate(a.URL+"/"),
			chromedp.Click(".load-more"),
			waitFor(`location.search === '?page=2' && location.hash === '#page-2'`),
		))
		var cards int
		require.NoError(t, chromedp.Run(ctx,
			chromedp.WaitReady("footer"),
			chromedp.Evaluate(`document.querySelectorAll('#upcoming-list .event-card').length`, &cards),
		))
		require.Equal(t, 24, cards, "the link opens the list with the next page added")
		require.True(t, evalBool(t, ctx, `Math.abs(document.getElementById('page-2').getBoundingClientRect().top) < 120`),
			"at the first new event")
		screenshot(t, ctx, "load-more-nojs")
	})

	t.Run("MenuOpensAndCloses", func(t *testing.T) {
		require.NoError(t, chromedp.Run(ctx,
			chromedp.Navigate(a.URL+"/"),
			openMenu(),
		))
		require.True(t, evalBool(t, ctx, `document.getElementById('menu').classList.contains('open')`))
		require.Equal(t, "true", evalString(t, ctx, `document.querySelector('.menu-button').getAttribute('aria-expanded')`))
		require.Equal(t, "0,true", evalString(t, ctx, `(() => { const r = document.querySelector('.menu-panel').getBoundingClientRect(); return Math.round(r.top) + ',' + (r.height > 300); })()`),
			"the panel has slid down into view")
		require.True(t, evalBool(t, ctx, `/^rgb\(/.test(getComputedStyle(document.querySelector('.menu-panel')).backgroundColor)`), "the panel is opaque")
		require.True(t, evalBool(t, ctx, `document.elementFromPoint(200, 300).closest('.menu-panel') !== null`), "the panel is above the page")
		screenshot(t, ctx, "menu")

		require.NoError(t, chromedp.Run(ctx, chromedp.Click(`#menu a[href="/"]`)))
		require.False(t, evalBool(t, ctx, `document.getElementById('menu').classList.contains('open')`), "a link to the current page closes the menu")
		require.NoError(t, chromedp.Run(ctx, waitFor(`document.querySelector('.menu-panel').getBoundingClientRect().bottom <= 0`)), "the panel slides up")

		require.NoError(t, chromedp.Run(ctx, chromedp.Click(".menu-button"), chromedp.KeyEvent("\x1b")))
		require.False(t, evalBool(t, ctx, `document.getElementById('menu').classList.contains('open')`), "Escape closes the menu")

		require.NoError(t, chromedp.Run(ctx,
			openMenu(),
			chromedp.Click(`#menu a[href="/about"]`),
			waitFor(`location.pathname === '/about' && document.readyState === 'complete'`),
		))
		require.False(t, evalBool(t, ctx, `document.getElementById('menu').classList.contains('open')`), "a route change closes the menu")
		require.Equal(t, "About Us", evalString(t, ctx, `document.querySelector('main h1').textContent`))
	})

	t.Run("ErrorToast", func(t *testing.T) {
		// A failed 'load more' shows the error toast; a click dismisses it.
		require.NoError(t, chromedp.Run(ctx,
			chromedp.Navigate(a.URL+"/"),
			chromedp.Evaluate(`(() => { const a = document.querySelector('.load-more'); a.setAttribute('data-hx-get', '/events?tag=Not_A_Tag'); htmx.process(a); })()`, nil),
			chromedp.Click(".load-more"),
			waitFor(`!document.getElementById('toast').hidden`),
		))
		require.Equal(t, "Error occured. Please try again.", evalString(t, ctx, `document.querySelector('#toast .toast-message').textContent`))
		require.True(t, evalBool(t, ctx, `document.getElementById('loading').hidden`), "the loading indicator is off after an error")
		screenshot(t, ctx, "toast")
		require.NoError(t, chromedp.Run(ctx, chromedp.Click("#toast"), waitFor(`document.getElementById('toast').hidden`)))
	})

	t.Run("StaleBuildReloads", func(t *testing.T) {
		// After the build check finds a new build, the next navigation is a full reload.
		require.NoError(t, chromedp.Run(ctx,
			chromedp.Navigate(a.URL+"/"),
			chromedp.Evaluate(`window.marker = 1; document.querySelector('meta[name="palaro-build"]').content = 'old-build'`, nil),
			chromedp.Evaluate(`window.palaro.checkBuild()`, nil, awaitPromise),
			chromedp.Click(".load-more"),
			waitFor(`window.marker === undefined && document.readyState === 'complete'`),
		))
		require.Equal(t, 12, int(evalFloat(t, ctx, `document.querySelectorAll('#upcoming-list .event-card').length`)), "the page reloaded instead of appending")
		// Within the 10-second guard, a page that still looks stale does not reload again.
		require.NoError(t, chromedp.Run(ctx,
			chromedp.Evaluate(`window.marker = 2; document.querySelector('meta[name="palaro-build"]').content = 'old-build'`, nil),
			chromedp.Evaluate(`window.palaro.checkBuild()`, nil, awaitPromise),
			chromedp.Click(".load-more"),
			waitFor(`document.querySelectorAll('#upcoming-list .event-card').length > 12`),
		))
		require.Equal(t, 2, int(evalFloat(t, ctx, `window.marker`)))
	})

	t.Run("ErrPageNotFound", func(t *testing.T) {
		var heading string
		require.NoError(t, chromedp.Run(ctx,
			chromedp.Navigate(a.URL+"/e/no-such-event"),
			chromedp.Text("h1", &heading, chromedp.ByQuery),
		))
		require.Equal(t, "Page Not Found", strings.TrimSpace(heading))
		screenshot(t, ctx, "not-found")
		require.NoError(t, chromedp.Run(ctx, chromedp.Navigate(a.URL+"/no/such/page"), chromedp.Text("h1", &heading, chromedp.ByQuery)))
		require.Equal(t, "Page not found", strings.TrimSpace(heading))
	})
}

// evalFloat evaluates a JavaScript expression that yields a number.
func evalFloat(t *testing.T, ctx context.Context, js string) float64 {
	t.Helper()
	var f float64
	require.NoError(t, chromedp.Run(ctx, chromedp.Evaluate(js, &f)), js)
	return f
}

func TestEventPage_Browser(t *testing.T) {
	a := startApp(t)
	ctx := newBrowser(t)
	require.NoError(t, chromedp.Run(ctx, dismissCookies(a.URL)))

	t.Run("OK", func(t *testing.T) {
		require.NoError(t, chromedp.Run(ctx,
			chromedp.Navigate(a.URL+"/"),
			chromedp.Click(`#upcoming-list .event-card-link[href="/e/mlbb-manila-showdown"]`, chromedp.ByQuery),
			waitFor(`location.pathname === '/e/mlbb-manila-showdown' && document.readyState === 'complete'`),
		))
		require.Equal(t, "Event info,Location,Links,Tickets,Tags", evalString(t, ctx, `[...document.querySelectorAll('.event-page h2')].map(h => h.textContent).join(',')`))
		require.Equal(t, "← Back to events", evalString(t, ctx, `document.querySelector('.back-link a').textContent`))
		require.True(t, evalBool(t, ctx, `!!document.querySelector('.topbar a.back') && !document.querySelector('.topbar a.logo')`), "a back arrow instead of the logo")
		require.Contains(t, evalString(t, ctx, `document.querySelector('.ticket-type .price').textContent`), "₱")
		screenshot(t, ctx, "event")
		require.NoError(t, chromedp.Run(ctx, chromedp.Evaluate(`document.getElementById('tickets').scrollIntoView()`, nil)))
		screenshot(t, ctx, "event-tickets")

		require.NoError(t, chromedp.Run(ctx,
			chromedp.Click(".topbar a.back"),
			waitFor(`location.pathname === '/' && document.readyState === 'complete'`),
		))
	})

	t.Run("FindPage", func(t *testing.T) {
		require.NoError(t, chromedp.Run(ctx, chromedp.Navigate(a.URL+"/f/valorant")))
		require.Equal(t, "Valorant events", evalString(t, ctx, `document.querySelector('h1').textContent`))
		require.True(t, evalBool(t, ctx, `!!document.querySelector('.topbar a.back') && !document.querySelector('.topbar a.logo')`))
		require.True(t, evalBool(t, ctx, `document.querySelectorAll('.event-card').length > 0`))
		screenshot(t, ctx, "find")
	})

	t.Run("ImagePopup", func(t *testing.T) {
		require.NoError(t, chromedp.Run(ctx,
			chromedp.Navigate(a.URL+"/e/mlbb-manila-showdown"),
			chromedp.Click(".event-hero img"),
			waitFor(`document.getElementById('popup-image').open`),
		))
		require.True(t, evalBool(t, ctx, `document.querySelector('#popup-image img').src === document.querySelector('.event-hero img').src`))
		require.Equal(t, "MLBB Manila Showdown", evalString(t, ctx, `document.querySelector('#popup-image img').alt`))
		screenshot(t, ctx, "popup-image")
		require.NoError(t, chromedp.Run(ctx, chromedp.KeyEvent("\x1b"), waitFor(`!document.getElementById('popup-image').open`)))
	})
}

func TestPopups_Browser(t *testing.T) {
	a := startApp(t)
	ctx := newBrowser(t)

	t.Run("CookieConsent", func(t *testing.T) {
		require.NoError(t, chromedp.Run(ctx, chromedp.Navigate(a.URL+"/about"), chromedp.WaitVisible("#cookie-notice")))
		screenshot(t, ctx, "about")
		require.NoError(t, chromedp.Run(ctx,
			chromedp.Click(`#cookie-notice [data-consent="accepted"]`),
			waitFor(`document.getElementById('cookie-notice').hidden`),
		))
		require.Equal(t, "accepted", evalString(t, ctx, `localStorage.getItem('palaro-consent')`))
		require.NoError(t, chromedp.Run(ctx, chromedp.Navigate(a.URL+"/faq")))
		require.True(t, evalBool(t, ctx, `document.getElementById('cookie-notice').hidden`), "the choice is remembered")
		screenshot(t, ctx, "faq")
	})

	open := func(t *testing.T, opener, id string) {
		t.Helper()
		require.NoError(t, chromedp.Run(ctx, chromedp.Click(opener, chromedp.ByQuery), waitFor(`document.getElementById('`+id+`').open`)))
		require.True(t, evalBool(t, ctx, `document.getElementById('`+id+`').contains(document.activeElement)`), "focus moves into the popup")
		for i := 0; i < 6; i++ {
			require.NoError(t, chromedp.Run(ctx, chromedp.KeyEvent("\t")))
			require.True(t, evalBool(t, ctx, `!document.activeElement || document.activeElement === document.body || document.getElementById('`+id+`').contains(document.activeElement)`),
				"focus stays in the popup")
		}
	}
	closeWithEscape := func(t *testing.T, id string) {
		t.Helper()
		require.NoError(t, chromedp.Run(ctx, chromedp.KeyEvent("\x1b"), waitFor(`!document.getElementById('`+id+`').open`)))
	}

	t.Run("PrivacyFromMenu", func(t *testing.T) {
		require.NoError(t, chromedp.Run(ctx, chromedp.Navigate(a.URL+"/"), openMenu()))
		open(t, `#menu a[data-popup="privacy"]`, "popup-privacy")
		require.False(t, evalBool(t, ctx, `document.getElementById('menu').classList.contains('open')`), "the menu closes behind the popup")
		require.Contains(t, evalString(t, ctx, `document.getElementById('popup-privacy').textContent`), "Data Privacy Act")
		screenshot(t, ctx, "popup-privacy")
		closeWithEscape(t, "popup-privacy")
	})

	t.Run("TermsFromFooter", func(t *testing.T) {
		open(t, `footer a[data-popup="terms-and-conditions"]`, "popup-terms-and-conditions")
		screenshot(t, ctx, "popup-terms")
		require.NoError(t, chromedp.Run(ctx,
			chromedp.Click(`#popup-terms-and-conditions .popup-close`),
			waitFor(`!document.getElementById('popup-terms-and-conditions').open`),
		))
	})

	t.Run("ContactUs", func(t *testing.T) {
		require.NoError(t, chromedp.Run(ctx, openMenu()))
		open(t, `#menu a[data-popup="contact-us"]`, "popup-contact-us")
		require.Contains(t, evalString(t, ctx, `document.getElementById('popup-contact-us').textContent`), "e-mail support at support@palaro.test")
		screenshot(t, ctx, "popup-contact")
		closeWithEscape(t, "popup-contact-us")
	})

	t.Run("Cookies", func(t *testing.T) {
		open(t, `footer a[data-popup="cookies"]`, "popup-cookies")
		screenshot(t, ctx, "popup-cookies")
		require.NoError(t, chromedp.Run(ctx,
			chromedp.Click(`#popup-cookies [data-consent="declined"]`),
			waitFor(`!document.getElementById('popup-cookies').open`),
		))
		require.Equal(t, "declined", evalString(t, ctx, `localStorage.getItem('palaro-consent')`))
	})

	t.Run("Alert", func(t *testing.T) {
		require.NoError(t, chromedp.Run(ctx,
			chromedp.Evaluate(`palaro.emit('toggle-popup', {type: 'alert', item: {title: 'Heads up', message: 'Gates open at 5 PM.'}})`, nil),
			waitFor(`document.getElementById('popup-alert').open`),
		))
		require.Equal(t, "Heads up", evalString(t, ctx, `document.getElementById('popup-alert-title').textContent`))
		require.NoError(t, chromedp.Run(ctx, chromedp.Click("#popup-alert .alert-message"), waitFor(`!document.getElementById('popup-alert').open`)))
	})
}

func TestCalendar_Browser(t *testing.T) {
	a := startApp(t)
	ctx := newBrowser(t)
	require.NoError(t, chromedp.Run(ctx, dismissCookies(a.URL)))
	now := a.Now().In(palaro.Manila)
	month := time.Date(now.Year(), now.Month(), 1, 0, 0, 0, 0, palaro.Manila)
	title := `document.querySelector('.cal .cal-title').textContent`

	t.Run("OK", func(t *testing.T) {
		require.NoError(t, chromedp.Run(ctx, chromedp.Navigate(a.URL+"/calendar"), waitFor(`!!document.querySelector('[data-island="calendar"][data-mounted] .cal')`)))
		require.Equal(t, month.Format("January 2006"), evalString(t, ctx, title))
		require.Equal(t, 42, int(evalFloat(t, ctx, `document.querySelectorAll('.cal-day').length`)), "six weeks")
		require.Equal(t, "Sun,Mon,Tue,Wed,Thu,Fri,Sat", evalString(t, ctx, `[...document.querySelectorAll('.cal-weekday')].map(w => w.textContent).join(',')`))
		require.Equal(t, now.Format("2006-01-02"), evalString(t, ctx, `document.querySelector('.cal-day.today').dataset.date`))
		require.Equal(t, "date", evalString(t, ctx, `document.querySelector('.cal-day.today .cal-date').getAttribute('aria-current')`))
		// Today's badge is the background of the number's own box, so the dark digits are read (and
		// measured by contrast checkers) against the yellow, not against the dark cell.
		require.Equal(t, "rgb(255, 204, 77) on rgb(27, 21, 0)", evalString(t, ctx, `(() => { const s = getComputedStyle(document.querySelector('.cal-day.today .cal-num'));
			return s.backgroundColor + ' on ' + s.color; })()`))
		require.Equal(t, "0", evalString(t, ctx, `String(new Date(document.querySelector('.cal-day').dataset.date + 'T00:00:00Z').getUTCDay())`), "weeks start on Sunday")
		require.Equal(t, now.Format("Monday, 2 January"), evalString(t, ctx, `document.getElementById('cal-list-heading').textContent`))
		require.True(t, evalBool(t, ctx, `[...document.querySelectorAll('.cal-list a')].some(a => a.getAttribute('href') === '/e/mlbb-manila-showdown')`),
			"today's events are listed")
		require.True(t, evalBool(t, ctx, `(() => { const chips = [...document.querySelectorAll('.cal-day.today .cal-event')];
			return chips.length > 0 && chips.every(c => !c.closest('a')); })()`), "the chips are labels of the day's cell; the list links the events")
		screenshot(t, ctx, "calendar")
	})

	t.Run("SelectDay", func(t *testing.T) {
		require.NoError(t, chromedp.Run(ctx,
			chromedp.Click(`.cal-day:not(.today).has-events .cal-date`, chromedp.ByQuery),
			waitFor(`document.querySelector('.cal-day.selected:not(.today)') !== null`),
		))
		require.Equal(t, "true", evalString(t, ctx, `document.querySelector('.cal-day.selected .cal-date').getAttribute('aria-pressed')`))
		require.True(t, evalBool(t, ctx, `document.querySelectorAll('.cal-list li a').length > 0`))
	})

	t.Run("ButtonsChangeMonth", func(t *testing.T) {
		next := month.AddDate(0, 1, 0)
		require.NoError(t, chromedp.Run(ctx,
			chromedp.Click(".cal-next"),
			waitFor(title+` === '`+next.Format("January 2006")+`'`),
			waitFor(`document.querySelectorAll('.cal-event').length > 0 && document.getElementById('loading').hidden`),
		))
		require.Equal(t, "?month="+next.Format("2006-01"), evalString(t, ctx, `location.search`))
		require.Equal(t, 42, int(evalFloat(t, ctx, `document.querySelectorAll('.cal-day').length`)))
		screenshot(t, ctx, "calendar-next")
		require.NoError(t, chromedp.Run(ctx,
			chromedp.Click(".cal-prev"),
			chromedp.Click(".cal-prev"),
			waitFor(title+` === '`+month.AddDate(0, -1, 0).Format("January 2006")+`'`),
		))
	})

	t.Run("Swipe", func(t *testing.T) {
		require.NoError(t, chromedp.Run(ctx, chromedp.Navigate(a.URL+"/calendar"), waitFor(`!!document.querySelector('.cal')`)))
		require.NoError(t, chromedp.Run(ctx, swipe(".cal-grid", -120), waitFor(title+` === '`+month.AddDate(0, 1, 0).Format("January 2006")+`'`)))
		require.NoError(t, chromedp.Run(ctx, swipe(".cal-grid", 120), swipe(".cal-grid", 120),
			waitFor(title+` === '`+month.AddDate(0, -1, 0).Format("January 2006")+`'`)))
		// A move within 10 px is not a swipe: the real swipe after it moves one month on from where the
		// calendar was (had the short move counted, it would land back on the same month).
		require.NoError(t, chromedp.Run(ctx, swipe(".cal-grid", 8), swipe(".cal-grid", -120),
			waitFor(title+` !== '`+month.AddDate(0, -1, 0).Format("January 2006")+`'`)))
		require.Equal(t, month.Format("January 2006"), evalString(t, ctx, title), "a move within 10 px is not a swipe")
	})

	// The island draws the grid from the server's month and day, not from the browser's clock or
	// zone: a browser in Los Angeles, at the turn of the year in Manila, shows Manila's month.
	t.Run("NewYearInAnotherZone", func(t *testing.T) {
		require.NoError(t, chromedp.Run(ctx, emulation.SetTimezoneOverride("America/Los_Angeles")))
		t.Cleanup(func() { _ = chromedp.Run(ctx, emulation.SetTimezoneOverride("")) })
		for _, tc := range []struct {
			now                 time.Time
			title, today, first string
		}{
			{time.Date(2026, 12, 31, 23, 59, 0, 0, palaro.Manila), "December 2026", "2026-12-31", "2026-11-29"},
			{time.Date(2027, 1, 1, 0, 1, 0, 0, palaro.Manila), "January 2027", "2027-01-01", "2026-12-27"},
		} {
			at := startApp(t, startAt(tc.now))
			require.NoError(t, chromedp.Run(ctx, chromedp.Navigate(at.URL+"/calendar"), waitFor(`!!document.querySelector('[data-island="calendar"][data-mounted] .cal')`)))
			require.Equal(t, tc.title, evalString(t, ctx, title), tc.now)
			require.Equal(t, tc.today, evalString(t, ctx, `document.querySelector('.cal-day.today').dataset.date`))
			require.Equal(t, tc.first, evalString(t, ctx, `document.querySelector('.cal-day').dataset.date`), "the grid starts on the Sunday before the first")
			require.Equal(t, 42, int(evalFloat(t, ctx, `document.querySelectorAll('.cal-day').length`)))
		}
	})

	// The connection drops before the next month loads: the calendar says so in words, and loads
	// the month when the connection returns, without a tap.
	t.Run("OfflineThenOnline", func(t *testing.T) {
		next := month.AddDate(0, 1, 0)
		status := `document.querySelector('.cal-status p')`
		require.NoError(t, chromedp.Run(ctx,
			chromedp.Navigate(a.URL+"/calendar"),
			waitFor(`!!document.querySelector('[data-island="calendar"][data-mounted] .cal')`),
			network.Enable(),
			goOffline(),
			chromedp.Click(".cal-next"),
			waitFor(`!!`+status),
		))
		t.Cleanup(func() { _ = chromedp.Run(ctx, goOnline(0)) })
		require.Equal(t, "You are offline. The calendar will load when the connection returns.", evalString(t, ctx, status+`.textContent`))
		require.Equal(t, "Events not loaded yet.", evalString(t, ctx, `document.querySelector('.cal-empty').textContent`))
		require.True(t, evalBool(t, ctx, `document.getElementById('toast').hidden`), "no 'Failed to fetch' toast")
		require.True(t, evalBool(t, ctx, `document.getElementById('loading').hidden`))
		screenshot(t, ctx, "calendar-offline")

		// Trying again while still offline fails the same way (the control for the retry below).
		require.NoError(t, chromedp.Run(ctx, chromedp.Click(".cal-retry"), waitFor(`!!`+status+` && document.getElementById('loading').hidden`)))
		require.Zero(t, int(evalFloat(t, ctx, `document.querySelectorAll('.cal-event').length`)))

		require.NoError(t, chromedp.Run(ctx, goOnline(0),
			waitFor(`!document.querySelector('.cal-status') && document.querySelectorAll('.cal-event').length > 0`)))
		require.Equal(t, next.Format("January 2006"), evalString(t, ctx, title))
	})

	t.Run("ErrServerTryAgain", func(t *testing.T) {
		require.NoError(t, chromedp.Run(ctx,
			chromedp.Navigate(a.URL+"/calendar"),
			waitFor(`!!document.querySelector('[data-island="calendar"][data-mounted] .cal')`),
			chromedp.Evaluate(`window.realFetch = window.fetch;
				window.fetch = () => Promise.resolve(new Response(JSON.stringify({message: 'The calendar is busy. Try again in a minute.'}), {status: 503}))`, nil),
			chromedp.Click(".cal-next"),
			waitFor(`!!document.querySelector('.cal-status')`),
		))
		require.Equal(t, "The calendar is busy. Try again in a minute.", evalString(t, ctx, `document.querySelector('.cal-status p').textContent`),
			"the server's own words")
		screenshot(t, ctx, "calendar-error")
		require.NoError(t, chromedp.Run(ctx,
			chromedp.Evaluate(`window.fetch = window.realFetch`, nil),
			chromedp.Click(".cal-retry"),
			waitFor(`!document.querySelector('.cal-status') && document.querySelectorAll('.cal-event').length > 0`),
		))
	})

	t.Run("WithoutJavaScript", func(t *testing.T) {
		withoutJavaScript(t, ctx)
		require.NoError(t, chromedp.Run(ctx,
			chromedp.Navigate(a.URL+"/calendar"),
			chromedp.WaitReady("footer"),
		))
		var heading string
		var days int
		require.NoError(t, chromedp.Run(ctx,
			chromedp.Text(".calendar-fallback .cal-title", &heading, chromedp.ByQuery),
			chromedp.Evaluate(`document.querySelectorAll('.calendar-fallback .cal-list').length`, &days),
		))
		require.Equal(t, month.Format("January 2006"), heading)
		require.Positive(t, days)
		screenshot(t, ctx, "calendar-nojs")
		require.NoError(t, chromedp.Run(ctx,
			chromedp.Click(`.calendar-fallback a[aria-label^="Next month"]`, chromedp.ByQuery),
			waitFor(fmt.Sprintf(`location.search === '?month=%s'`, month.AddDate(0, 1, 0).Format("2006-01"))),
			chromedp.WaitReady("footer"),
			chromedp.Text(".calendar-fallback .cal-title", &heading, chromedp.ByQuery),
		))
		require.Equal(t, month.AddDate(0, 1, 0).Format("January 2006"), heading)
	})
}

func TestAroundMe_Browser(t *testing.T) {
	a := startApp(t)
	ctx := newBrowser(t)
	require.NoError(t, chromedp.Run(ctx, dismissCookies(a.URL)))

	t.Run("OK", func(t *testing.T) {
		require.NoError(t, chromedp.Run(ctx,
			setPermission(a.URL, "geolocation", browser.PermissionSettingGranted),
			emulation.SetGeolocationOverride().WithLatitude(7.07).WithLongitude(125.61).WithAccuracy(50),
			chromedp.Navigate(a.URL+"/"),
			chromedp.Click(`a.filter[data-around-me]`, chromedp.ByQuery),
			waitFor(`location.search.includes('lat=7.07') && document.readyState === 'complete'`),
		))
		require.Equal(t, "Around me", evalString(t, ctx, `document.querySelector('nav.filters a[aria-current="true"]').textContent.trim()`))
		require.Contains(t, evalString(t, ctx, `document.querySelector('#upcoming-list .event-card').textContent`), "Davao City", "the nearest events first")
		distances := evalString(t, ctx, `[...document.querySelectorAll('#upcoming-list .event-card-distance')].map(d => parseFloat(d.textContent)).join(',')`)
		var prev float64
		for _, d := range strings.Split(distances, ",") {
			var km float64
			_, err := fmt.Sscan(d, &km)
			require.NoError(t, err)
			require.GreaterOrEqual(t, km+0.5, prev, "sorted by distance: %s", distances)
			prev = km
		}
		screenshot(t, ctx, "around-me")
	})

	t.Run("ErrRefused", func(t *testing.T) {
		require.NoError(t, chromedp.Run(ctx,
			setPermission(a.URL, "geolocation", browser.PermissionSettingDenied),
			chromedp.Navigate(a.URL+"/"),
			chromedp.Click(`a.filter[data-around-me]`, chromedp.ByQuery),
			waitFor(`!document.querySelector('.around-me-message').hidden && document.querySelector('.around-me-message').textContent.startsWith('We could not')`),
		))
		require.Contains(t, evalString(t, ctx, `document.querySelector('.around-me-message').textContent`), "Allow location access in your browser")
		require.Equal(t, "/", evalString(t, ctx, `location.pathname + location.search`))
		screenshot(t, ctx, "around-me-refused")
	})
}
