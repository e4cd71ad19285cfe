package e2e

import (
	"fmt"
	"net/url"
	"regexp"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/require"

	"palaro/store"
)

// TestConsolePolish_Browser is what an organizer does on the pages of the console review: the new
// event's code follows the typed name until edited; the box office sells several tickets in one
// sale, shows the amount to collect first and has 44 px payment choices; and the promo codes,
// sales, audit log, orders and tokens pages keep to the 44 px rule at both phone widths (each
// captured for a person to look at with PALARO_SCREENSHOTS=1).
func TestConsolePolish_Browser(t *testing.T) {
	a := startApp(t)
	ctx := newBrowser(t)
	require.NoError(t, chromedp.Run(ctx, dismissCookies(a.URL),
		chromedp.Navigate(a.URL+"/sign-in?next=/organizer"),
		setField("email", store.DemoOrganizerEmail), setField("password", store.DemoOrganizerPassword), submitAndLoad()))
	waitPath(t, ctx, "/organizer")
	event := "/organizer/events/" + demoOwnedEvent

	t.Run("OK the code follows the name until edited", func(t *testing.T) {
		var code string
		require.NoError(t, chromedp.Run(ctx, atWidth(390), chromedp.Navigate(a.URL+"/organizer/events/new"),
			chromedp.WaitVisible("#f-name", chromedp.ByQuery),
			chromedp.SendKeys("#f-name", "Laro Cup: Peña Edition", chromedp.ByQuery),
			chromedp.Value("#f-code", &code, chromedp.ByQuery)))
		require.Equal(t, "laro-cup-pena-edition", code)
		for _, size := range polishSizes {
			require.NoError(t, chromedp.Run(ctx, chromedp.EmulateViewport(size[0], size[1], chromedp.EmulateScale(2), chromedp.EmulateMobile),
				chromedp.ScrollIntoView("#f-code", chromedp.ByQuery)))
			assertTouchTargets(t, ctx)
			screenshot(t, ctx, fmt.Sprintf("polish-event-code-%d", size[0]))
		}
		require.NoError(t, chromedp.Run(ctx,
			chromedp.Evaluate(`(() => { const c = document.getElementById('f-code'); c.value = 'my-cup';
				c.dispatchEvent(new Event('input', {bubbles: true})); })()`, nil),
			chromedp.SendKeys("#f-name", " 2026", chromedp.ByQuery),
			chromedp.Value("#f-code", &code, chromedp.ByQuery)))
		require.Equal(t, "my-cup", code, "an edited code stays")
	})

	t.Run("OK box office: quantity, amount to collect, 44 px choices", func(t *testing.T) {
		require.NoError(t, chromedp.Run(ctx, atWidth(390), chromedp.Navigate(a.URL+event+"/check-in"),
			waitFor(`!!document.querySelector('.gate-box-office summary')`),
			chromedp.Click(".gate-box-office summary", chromedp.ByQuery),
			chromedp.WaitVisible("#bo-quantity", chromedp.ByQuery)))
		var options int
		require.NoError(t, chromedp.Run(ctx, chromedp.Evaluate(`document.querySelectorAll('#bo-quantity option').length`, &options)))
		require.Greater(t, options, 1, "more than one ticket per sale")
		var price int64
		require.NoError(t, chromedp.Run(ctx, chromedp.Evaluate(`JSON.parse(document.getElementById('gate-props').textContent).ticketTypes[0].centavos`, &price)))
		require.Greater(t, price, int64(0), "the first type has a price")
		var collect string
		require.NoError(t, chromedp.Run(ctx, chromedp.SetValue("#bo-quantity", "2", chromedp.ByQuery),
			chromedp.Evaluate(`document.getElementById('bo-quantity').dispatchEvent(new Event('change', {bubbles: true}))`, nil),
			waitFor(`/\(2 × /.test(document.querySelector('.gate-collect').textContent)`),
			chromedp.Text(".gate-collect", &collect, chromedp.ByQuery)))
		want := fmt.Sprintf("₱%s", pesosText(2*price))
		require.Contains(t, collect, "Amount to collect: "+want)
		for _, size := range polishSizes {
			require.NoError(t, chromedp.Run(ctx, chromedp.EmulateViewport(size[0], size[1], chromedp.EmulateScale(2), chromedp.EmulateMobile),
				chromedp.ScrollIntoView(".gate-collect", chromedp.ByQuery)))
			assertTouchTargets(t, ctx)
			screenshot(t, ctx, fmt.Sprintf("polish-box-office-%d", size[0]))
		}
		var answer string
		require.NoError(t, chromedp.Run(ctx, chromedp.SendKeys("#bo-name", "Barkada Fan", chromedp.ByQuery),
			chromedp.Click(".gate-box-office button[type=submit]", chromedp.ByQuery),
			waitFor(`/2 tickets sold and checked in/.test(document.querySelector('.gate-answer-ok')?.textContent || '')`),
			chromedp.Text(".gate-answer", &answer, chromedp.ByQuery)))
		require.Contains(t, answer, "Barkada Fan")
	})

	t.Run("OK console pages at phone widths", func(t *testing.T) {
		owner := signedIn(t, a, store.DemoOrganizerEmail)
		status, _ := owner.post(event+"/promo-codes", url.Values{"code": {"PAUSEME"}, "kind": {"percent"}, "percent": {"15"}, "usageLimit": {"20"}})
		require.Equal(t, 303, status)
		status, _ = owner.post(event+"/promo-codes", url.Values{"code": {"LEAKED"}, "kind": {"fixed"}, "amount": {"100"}})
		require.Equal(t, 303, status)
		_, body := owner.get(event + "/promo-codes")
		pause := regexp.MustCompile(`action="(` + event + `/promo-codes/\d+/pause)"`).FindStringSubmatch(body)
		require.NotNil(t, pause)
		status, _ = owner.post(pause[1], url.Values{"paused": {"1"}})
		require.Equal(t, 303, status)
		for _, p := range []struct{ name, path, at string }{
			{"promo-codes", event + "/promo-codes", ".org-types"},
			{"promo-form", event + "/promo-codes", ".org-form"},
			{"dashboard", event + "/dashboard", ".org-tables"},
			{"audit", event, ".org-audit"},
			{"orders", event + "/orders", ".org-orders"},
			{"tokens", "/organizer/tokens", ".org-api-help"},
		} {
			for _, size := range polishSizes {
				require.NoError(t, chromedp.Run(ctx, chromedp.EmulateViewport(size[0], size[1], chromedp.EmulateScale(2), chromedp.EmulateMobile),
					chromedp.Navigate(a.URL+p.path), chromedp.WaitVisible("main h1", chromedp.ByQuery)))
				if p.name == "tokens" {
					require.NoError(t, chromedp.Run(ctx, chromedp.Click(".org-api-help summary", chromedp.ByQuery)))
				}
				require.NoError(t, chromedp.Run(ctx, chromedp.ScrollIntoView(p.at, chromedp.ByQuery)))
				assertTouchTargets(t, ctx)
				screenshot(t, ctx, fmt.Sprintf("polish-%s-%d", p.name, size[0]))
			}
		}
	})
}

// polishSizes are the phone viewports the review asked about: 390×844 and 360×740.
var polishSizes = [][2]int64{{390, 844}, {360, 740}}

// pesosText formats centavos as the pages do, without the peso sign: 1,234.00.
func pesosText(c int64) string {
	s := fmt.Sprintf("%d.%02d", c/100, c%100)
	whole, frac := s[:len(s)-3], s[len(s)-3:]
	for i := len(whole) - 3; i > 0; i -= 3 {
		whole = whole[:i] + "," + whole[i:]
	}
	return whole + frac
}
