package e2e

import (
	"context"
	"regexp"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/require"

	"palaro/store"
)

// minTarget is the smallest touch target, in CSS pixels, on each side (WCAG 2.2, 2.5.5 Target Size, enhanced).
const minTarget = 44

// touchTargetsJS lists the visible interactive elements of the page smaller than minTarget on a
// side, each as "what (width×height)". Counted: a, button, input, select, textarea, summary,
// [role=button], and labels tied to a control. Left out, as WCAG leaves them out: links inside
// running text; elements that let taps through (pointer-events: none, such as a floating
// placeholder); a label whose control is itself a large enough target; inputs drawn invisible
// inside their label (the label is the target).
const touchTargetsJS = `(() => {
  const min = 44;
  const seen = new Set(), out = [];
  const shown = (e) => e.checkVisibility({opacityProperty: true, visibilityProperty: true}) &&
    e.getBoundingClientRect().width > 1 && e.getBoundingClientRect().height > 1;
  const big = (e) => { const r = e.getBoundingClientRect(); return r.width + 0.01 >= min && r.height + 0.01 >= min; };
  // inText: an inline link with other text on its lines, in the same block (not a heading beside it).
  const inline = (e) => getComputedStyle(e).display === 'inline';
  const inText = (a) => {
    if (!inline(a)) return false;
    let block = a.parentElement;
    while (block && inline(block)) block = block.parentElement;
    if (!block) return false;
    const walk = document.createTreeWalker(block, NodeFilter.SHOW_TEXT);
    for (let n = walk.nextNode(); n; n = walk.nextNode()) {
      if (!n.textContent.trim() || a.contains(n)) continue;
      let p = n.parentElement;
      while (p !== block && inline(p)) p = p.parentElement;
      if (p === block) return true;
    }
    return false;
  };
  const name = (e) => {
    const text = (e.getAttribute('aria-label') || e.textContent || e.value || e.name || '').trim().replace(/\s+/g, ' ').slice(0, 40);
    return e.tagName.toLowerCase() + (e.id ? '#' + e.id : '') + (e.className && typeof e.className === 'string' ? '.' + e.className.trim().split(/\s+/).join('.') : '') + (text ? ' "' + text + '"' : '');
  };
  for (const e of document.querySelectorAll('a[href], button, input:not([type=hidden]), select, textarea, summary, [role=button], label')) {
    if (seen.has(e) || !shown(e) || getComputedStyle(e).pointerEvents === 'none') continue;
    seen.add(e);
    if (e.tagName === 'A' && inText(e)) continue;
    if (e.tagName === 'LABEL') {
      const c = e.control;
      if (!c) continue;
      if (shown(c) && big(c) && !e.contains(c)) continue;
    }
    if (e.tagName === 'INPUT' && e.closest('label') && getComputedStyle(e).opacity === '0') continue;
    if (!big(e)) {
      const r = e.getBoundingClientRect();
      out.push(name(e) + ' (' + Math.round(r.width * 10) / 10 + '×' + Math.round(r.height * 10) / 10 + ')');
    }
  }
  return out;
})()`

// touchTargetOffenders returns the interactive elements of the current page smaller than 44×44 CSS px.
func touchTargetOffenders(t *testing.T, ctx context.Context) []string {
	t.Helper()
	var out []string
	require.NoError(t, chromedp.Run(ctx, chromedp.Evaluate(touchTargetsJS, &out)))
	return out
}

// assertTouchTargets fails the test, naming each element and its size, when the current page has
// an interactive element smaller than 44×44 CSS px.
func assertTouchTargets(t *testing.T, ctx context.Context) {
	t.Helper()
	if off := touchTargetOffenders(t, ctx); len(off) > 0 {
		var url string
		_ = chromedp.Run(ctx, chromedp.Location(&url))
		t.Errorf("%s: %d touch targets under %d×%d CSS px:\n  %s", url, len(off), minTarget, minTarget, strings.Join(off, "\n  "))
	}
}

func TestTouchTargets_Browser(t *testing.T) {
	a := startApp(t)
	ctx := newBrowser(t)
	require.NoError(t, chromedp.Run(ctx, dismissCookies(a.URL)))

	t.Run("ErrSmallTargetReported", func(t *testing.T) {
		require.NoError(t, chromedp.Run(ctx, chromedp.Navigate(a.URL+"/about"), chromedp.WaitVisible("main", chromedp.ByQuery)))
		require.Empty(t, touchTargetOffenders(t, ctx), "the control page starts clean")
		require.NoError(t, chromedp.Run(ctx, chromedp.Evaluate(`(() => {
			const small = document.createElement('button');
			small.textContent = 'Tiny'; small.style.cssText = 'width: 30px; height: 30px; padding: 0';
			const wide = document.createElement('a');
			wide.href = '/faq'; wide.textContent = 'Flat'; wide.style.cssText = 'display: block; width: 200px; height: 43px';
			const inline = document.createElement('p');
			inline.innerHTML = 'Read the <a href="/faq">FAQ</a> first.';
			const alone = document.createElement('div');
			alone.innerHTML = '<h3>More</h3><a href="/faq">Questions</a>';
			document.querySelector('main').append(small, wide, inline, alone);
		})()`, nil)))
		off := touchTargetOffenders(t, ctx)
		require.Len(t, off, 3, "%q", off)
		require.Contains(t, off[0], `button "Tiny" (30×30)`)
		require.Contains(t, off[1], `a "Flat" (200×43)`, "both sides count")
		require.Contains(t, off[2], `a "Questions"`, "a link beside a heading is not in running text")
	})

	seats := "/s/dota-2-visayas-major-lower"
	pages := []struct{ name, path, ready string }{
		{"home", "/", ".event-card"},
		{"event", "/e/dota-2-visayas-major", ".ticket-type"},
		{"find", "/f/valorant", "main"},
		{"calendar", "/calendar", `[data-island="calendar"][data-mounted] .cal-grid`},
		{"buy", "/b/valorant-night-market-bgc-team", `[data-island="purchase"][data-mounted] form`},
		{"seats", seats, `[data-island="seats"][data-mounted] .seat-block`},
		{"seats-lan", "/s/lan-party-baguio-seat", `[data-island="seats"][data-mounted] .seat-block`},
		{"sign-in", "/sign-in", "#sign-in"},
		{"sign-up", "/sign-up", "#sign-up"},
		{"register", "/register", "form"},
		{"register-organizer", "/register/organizer", "form"},
		{"tickets", "/tickets", "main"},
		{"about", "/about", "main"},
		{"faq", "/faq", ".faq-item"},
		{"leaderboard", "/leaderboard", "main"},
		{"activities", "/activities", "main"},
		{"not-found", "/nothing-here", ".error-page"},
	}
	check := func(t *testing.T, path, ready string) {
		for _, w := range phoneWidths {
			require.NoError(t, chromedp.Run(ctx, atWidth(w), chromedp.Navigate(a.URL+path), chromedp.WaitVisible(ready, chromedp.ByQuery)))
			assertTouchTargets(t, ctx)
		}
	}
	for _, p := range pages {
		t.Run(p.name, func(t *testing.T) { check(t, p.path, p.ready) })
	}
	t.Run("buy-seats-addons", func(t *testing.T) {
		openSeatMap(t, ctx, a.URL+seats)
		chosen := availableSeats(t, ctx, 2)
		check(t, "/b/dota-2-visayas-major-lower?seats="+strings.Join(chosen, ","), `[data-island="purchase"][data-mounted] .addons`)
	})
	t.Run("menu", func(t *testing.T) {
		require.NoError(t, chromedp.Run(ctx, atWidth(360), chromedp.Navigate(a.URL+"/"), openMenu()))
		assertTouchTargets(t, ctx)
	})
	t.Run("popup", func(t *testing.T) {
		require.NoError(t, chromedp.Run(ctx, atWidth(360), chromedp.Navigate(a.URL+"/about"),
			chromedp.Click(`footer a[data-popup="cookies"]`, chromedp.ByQuery),
			waitFor(`document.getElementById('popup-cookies').open`)))
		assertTouchTargets(t, ctx)
	})
	t.Run("quick-buy", func(t *testing.T) {
		require.NoError(t, chromedp.Run(ctx, atWidth(360), chromedp.Navigate(a.URL+"/e/dota-2-visayas-major"),
			chromedp.WaitReady(`[data-quick-buy="dota-2-visayas-major-gen"]`, chromedp.ByQuery),
			chromedp.Click(`[data-quick-buy="dota-2-visayas-major-gen"]`, chromedp.ByQuery),
			chromedp.WaitVisible(`.sheet-backdrop.open #quick-email`, chromedp.ByQuery)))
		assertTouchTargets(t, ctx)
	})
	t.Run("ticket", func(t *testing.T) {
		check(t, "/t/"+buyFreeTicket(t, a, "targets.ticket@example.ph"), ".ticket-card")
	})
	t.Run("signed-in", func(t *testing.T) {
		require.NoError(t, chromedp.Run(ctx, atWidth(390), signUpInBrowser(a, "targets@example.ph", "Tess", "0917 555 4321")))
		check(t, "/profile", ".profile")
		check(t, "/tickets", "main")
	})
}

// consoleLinksJS lists the same-origin console pages the current page links to (paths under
// /organizer and /operator), leaving out downloads and the fragments htmx polls.
const consoleLinksJS = `[...new Set([...document.querySelectorAll('a[href]:not([download])')]
  .map(a => new URL(a.href, location.href))
  .filter(u => u.origin === location.origin && /^\/(organizer|operator)(\/|$)/.test(u.pathname) &&
    !/\.(csv|png|svg|pdf)$|\/(live|figures)$/.test(u.pathname))
  .map(u => u.pathname + u.search))]`

// TestTouchTargets_Console_Browser walks the organizer and operator consoles from their front pages
// (every console page of the demo owner's event, the news, team and token pages, the operator's
// news and partner pages) and holds every page to the 44 px rule at both phone widths.
func TestTouchTargets_Console_Browser(t *testing.T) {
	a := startApp(t)
	ctx := newBrowser(t)
	require.NoError(t, chromedp.Run(ctx, dismissCookies(a.URL)))
	require.NoError(t, store.NewOperatorService(a.DB()).SetOperator(context.Background(), store.DemoOrganizerEmail, true))
	require.NoError(t, chromedp.Run(ctx, chromedp.Navigate(a.URL+"/sign-in?next=/organizer"),
		setField("email", store.DemoOrganizerEmail), setField("password", store.DemoOrganizerPassword), submitAndLoad()))
	waitPath(t, ctx, "/organizer")

	// The walk stays inside one event (the others repeat its pages) and visits one order and one
	// article (the others repeat theirs), each page once.
	event := "/organizer/events/" + demoOwnedEvent
	inScope := func(p string) bool {
		return !strings.HasPrefix(p, "/organizer/events/") || p == "/organizer/events/new" || p == event || strings.HasPrefix(p, event+"/")
	}
	oneOf := regexp.MustCompile(`^(.*/(?:orders|news))/[^/]+$`)
	queue := []string{"/organizer", event, "/operator/news"}
	seen, kinds := map[string]bool{}, map[string]bool{}
	for len(queue) > 0 && len(seen) < 60 {
		path := queue[0]
		queue = queue[1:]
		kind := oneOf.ReplaceAllString(path, "$1/*")
		if seen[path] || kinds[kind] || !inScope(path) {
			continue
		}
		seen[path], kinds[kind] = true, true
		var links []string
		for _, w := range phoneWidths {
			require.NoError(t, chromedp.Run(ctx, atWidth(w), chromedp.Navigate(a.URL+path), chromedp.WaitVisible("main h1", chromedp.ByQuery)), path)
			assertTouchTargets(t, ctx)
		}
		require.NoError(t, chromedp.Run(ctx, chromedp.Evaluate(consoleLinksJS, &links)))
		queue = append(queue, links...)
	}
	t.Logf("console pages checked: %d", len(seen))
	for name, at := range map[string][2]string{"console-event": {event, "main h1"}, "console-event-edit": {event + "/edit", ".org-checks"},
		"console-seat-grid": {event + "/ticket-types/" + demoOwnedEvent + "-lower/edit", ".org-seat-rows"}} {
		require.NoError(t, chromedp.Run(ctx, atWidth(390), chromedp.Navigate(a.URL+at[0]), chromedp.ScrollIntoView(at[1], chromedp.ByQuery)))
		screenshot(t, ctx, name)
	}
	for _, p := range []string{"/organizer/events/new", event + "/edit", event + "/orders", event + "/activities", event + "/check-ins", event + "/check-in",
		"/organizer/news", "/organizer/team", "/organizer/tokens", "/operator/pnk/home"} {
		require.True(t, seen[p], "the walk reaches %s", p)
	}
}
