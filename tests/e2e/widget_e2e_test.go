package e2e

import (
	"html"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/cdproto/target"
	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/require"

	"palaro/store"
)

// organizerSite serves, as an organizer's own site on another origin (localhost, another site
// than the app's 127.0.0.1), a page with the snippet pasted into it, and at /script one with the
// script snippet.
func organizerSite(t *testing.T, snippet, script string) (*httptest.Server, string) {
	t.Helper()
	site := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		if r.URL.Path == "/script" {
			snippet = script
		}
		_, _ = w.Write([]byte(`<!DOCTYPE html><html lang="en"><head><title>My site</title></head><body><h1>My site</h1>` + snippet + `</body></html>`))
	}))
	site.Start()
	t.Cleanup(site.Close)
	_, port, err := net.SplitHostPort(site.Listener.Addr().String())
	require.NoError(t, err)
	return site, "http://localhost:" + port
}

// TestWidget_Browser: the organizer lists their site and pastes the console's snippet into a page
// of another origin; in a browser with third-party cookies blocked, the widget renders inside the
// frame with the event's ticket types, and a buyer following its Buy button gets Palaro's buy page
// in a new tab and completes a free purchase there. A site not listed sees no widget in its frame.
func TestWidget_Browser(t *testing.T) {
	a := startApp(t)
	owner := signedIn(t, a, store.DemoOrganizerEmail)
	console := "/organizer/events/" + widgetEvent + "/widget"
	_, body := owner.get(console)
	m := regexp.MustCompile(`<pre class="org-code" data-snippet="iframe">([^<]*)</pre>`).FindStringSubmatch(body)
	require.NotNil(t, m, "the console shows the iframe snippet")
	snippet := html.UnescapeString(m[1])
	m = regexp.MustCompile(`<pre class="org-code" data-snippet="script">([^<]*)</pre>`).FindStringSubmatch(body)
	require.NotNil(t, m, "the console shows the script snippet")
	script := html.UnescapeString(m[1])

	_, listed := organizerSite(t, snippet, script)
	_, other := organizerSite(t, snippet, script)
	status, _ := owner.post(console, url.Values{"origins": {listed}})
	require.Equal(t, http.StatusSeeOther, status)

	// The widget needs no script: the browser runs with JavaScript on, as buyers do.
	ctx := newBrowser(t, chromedp.Flag("disable-site-isolation-trials", true), chromedp.Flag("disable-features", "IsolateOrigins,site-per-process"))
	require.NoError(t, chromedp.Run(ctx, network.Enable(), network.SetCookieControls(true), dismissCookies(a.URL)))

	// frameDoc waits (10 s at most) until the page's iframe holds a document whose <html> contains
	// want, and returns the iframe's node: the frame's content is queried through it.
	frameDoc := func(want string) *cdp.Node {
		for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(100 * time.Millisecond) {
			var frames []*cdp.Node
			var doc string
			require.NoError(t, chromedp.Run(ctx, chromedp.Nodes("iframe", &frames, chromedp.ByQuery)))
			if err := chromedp.Run(ctx, chromedp.Nodes("html", new([]*cdp.Node), chromedp.ByQuery, chromedp.AtLeast(0), chromedp.FromNode(frames[0])),
				chromedp.OuterHTML("html", &doc, chromedp.ByQuery, chromedp.AtLeast(0), chromedp.FromNode(frames[0]))); err == nil && strings.Contains(doc, want) {
				return frames[0]
			}
		}
		t.Fatalf("the frame never showed %q", want)
		return nil
	}

	t.Run("NotListed", func(t *testing.T) {
		require.NoError(t, chromedp.Run(ctx, chromedp.Navigate(other), waitFor(`document.readyState === 'complete'`)))
		// Chromium puts its error page in the refused frame (<html subframe>).
		frame := frameDoc(`subframe=""`)
		var widgets []*cdp.Node
		require.NoError(t, chromedp.Run(ctx, chromedp.Nodes(".embed-title", &widgets, chromedp.ByQuery, chromedp.AtLeast(0), chromedp.FromNode(frame))))
		require.Empty(t, widgets, "a site not listed gets no widget in its frame")
	})

	t.Run("ScriptSnippet", func(t *testing.T) {
		require.NoError(t, chromedp.Run(ctx, chromedp.Navigate(listed+"/script"), waitFor(`document.readyState === 'complete'`)))
		frame := frameDoc(`data-embed-buy="codm-campus-clash-iloilo-free"`)
		var src string
		var ok bool
		require.NoError(t, chromedp.Run(ctx, chromedp.AttributeValue("iframe", "src", &src, &ok, chromedp.ByQuery)))
		require.Equal(t, a.URL+"/embed/e/"+widgetEvent, src, "the script puts the widget's frame in")
		require.NotNil(t, frame)
	})

	t.Run("ListedAndBuy", func(t *testing.T) {
		require.NoError(t, chromedp.Run(ctx, chromedp.Navigate(listed), waitFor(`document.readyState === 'complete'`)))
		frame := frameDoc(`data-embed-buy="codm-campus-clash-iloilo-free"`)
		var title string
		require.NoError(t, chromedp.Run(ctx, chromedp.Text(".embed-title", &title, chromedp.ByQuery, chromedp.FromNode(frame))))
		require.Equal(t, "CODM Campus Clash: Iloilo", title)
		screenshot(t, ctx, "widget-framed")

		newTab := chromedp.WaitNewTarget(ctx, func(i *target.Info) bool {
			return i.Type == "page" && regexp.MustCompile(`/b/codm-campus-clash-iloilo-free$`).MatchString(i.URL)
		})
		require.NoError(t, chromedp.Run(ctx, chromedp.Click(`[data-embed-buy="codm-campus-clash-iloilo-free"]`, chromedp.ByQuery, chromedp.FromNode(frame))))
		tab, cancel := chromedp.NewContext(ctx, chromedp.WithTargetID(<-newTab))
		defer cancel()
		require.NoError(t, chromedp.Run(tab, chromedp.WaitVisible(`[data-island="purchase"][data-mounted] form`, chromedp.ByQuery),
			typeInto("email", "widget@example.ph"),
			typeInto("firstName", "Ana"),
			typeInto("lastName", "Reyes"),
			typeInto("companyName", "UP Visayas"),
			typeInto("designation", "Student"),
			pay("Submit")))
		waitPath(t, tab, "/payment/success/")
		var heading string
		require.NoError(t, chromedp.Run(tab, chromedp.WaitVisible(`.ticket-link`, chromedp.ByQuery), chromedp.Text(`.order h1`, &heading, chromedp.ByQuery)))
		require.Equal(t, "You're in!", heading)
		screenshot(t, tab, "widget-bought")
	})
}
