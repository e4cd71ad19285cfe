package e2e

import (
	"context"
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
	"github.com/chromedp/chromedp/kb"
	"github.com/stretchr/testify/require"

	"palaro"
	"palaro/store"
)

// organizerSite serves, as an organizer's own site on another origin (localhost, another site
// than the app's 127.0.0.1), a page with the snippet pasted into it, and at /script one with the
// script snippet.
func organizerSite(t *testing.T, snippet, script string) (*httptest.Server, string) {
	t.Helper()
	site := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		page := snippet // "/" has the iframe snippet, "/script" the script snippet
		if r.URL.Path == "/script" {
			page = script
		}
		_, _ = w.Write([]byte(`<!DOCTYPE html><html lang="en"><head><title>My site</title></head><body><h1>My site</h1>` + page + `</body></html>`))
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

	// inFrame waits (10 s at most) until the iframe sel holds a document whose <html> contains want,
	// and returns the iframe's node.
	inFrame := func(sel, want string) *cdp.Node {
		for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(100 * time.Millisecond) {
			var frames []*cdp.Node
			var doc string
			require.NoError(t, chromedp.Run(ctx, chromedp.Nodes(sel, &frames, chromedp.ByQuery, chromedp.AtLeast(0))))
			if len(frames) == 0 {
				continue
			}
			if err := chromedp.Run(ctx, chromedp.Nodes("html", new([]*cdp.Node), chromedp.ByQuery, chromedp.AtLeast(0), chromedp.FromNode(frames[0])),
				chromedp.OuterHTML("html", &doc, chromedp.ByQuery, chromedp.AtLeast(0), chromedp.FromNode(frames[0]))); err == nil && strings.Contains(doc, want) {
				return frames[0]
			}
		}
		t.Fatalf("the frame %s never showed %q", sel, want)
		return nil
	}
	frameDoc := func(want string) *cdp.Node { return inFrame("iframe", want) }
	// buyFocused waits until the widget's Buy button of the free ticket has the focus again.
	// (the widget may be reloading: its frame's document is looked up afresh each time)
	buyFocused := func() {
		for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(100 * time.Millisecond) {
			var focused, frames []*cdp.Node
			var active string
			require.NoError(t, chromedp.Run(ctx, chromedp.Evaluate(`document.activeElement === document.querySelector('iframe') ? 'widget' : ''`, &active),
				chromedp.Nodes("iframe", &frames, chromedp.ByQuery)))
			if err := chromedp.Run(ctx, chromedp.Nodes(`[data-embed-buy="codm-campus-clash-iloilo-free"]:focus`, &focused, chromedp.ByQuery,
				chromedp.AtLeast(0), chromedp.FromNode(frames[0]))); err == nil && active == "widget" && len(focused) == 1 {
				return
			}
		}
		t.Fatal("the focus did not come back to the Buy button")
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
		var tabID target.ID
		select {
		case tabID = <-newTab:
		case <-time.After(20 * time.Second):
			var doc string
			_ = chromedp.Run(ctx, chromedp.OuterHTML("body", &doc, chromedp.ByQuery, chromedp.FromNode(frame)))
			targets, _ := chromedp.Targets(ctx)
			var urls []string
			for _, ti := range targets {
				urls = append(urls, ti.Type+" "+ti.URL)
			}
			t.Fatalf("the Buy button opened no tab on the buy page in 20 s; tabs: %v; widget: %s", urls, doc)
		}
		tab, cancel := chromedp.NewContext(ctx, chromedp.WithTargetID(tabID))
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

	// The script snippet's Buy button opens the buy flow in a modal dialog on the organizer's page:
	// Escape typed in the framed page closes it and the focus comes back to the button; opened
	// again, a free purchase completes in the dialog, the page hears of the order, and Done closes
	// the dialog with the focus on the (reloaded) widget's Buy button.
	t.Run("Overlay", func(t *testing.T) {
		require.NoError(t, chromedp.Run(ctx, chromedp.Navigate(listed+"/script"), waitFor(`document.readyState === 'complete'`),
			chromedp.Evaluate(`window.palaroOrders = []; document.addEventListener('palaro:order', e => palaroOrders.push(e.detail.order))`, nil)))
		widget := frameDoc(`data-embed-greeted=""`) // widget.js said hello and the widget heard it
		open := func() *cdp.Node {
			require.NoError(t, chromedp.Run(ctx, chromedp.Click(`[data-embed-buy="codm-campus-clash-iloilo-free"]`, chromedp.ByQuery, chromedp.FromNode(widget)),
				waitFor(`document.querySelector('dialog.palaro-overlay')?.open === true`)))
			var modal bool
			var focused string
			require.NoError(t, chromedp.Run(ctx, chromedp.Evaluate(`document.querySelector('dialog.palaro-overlay').matches(':modal')`, &modal),
				chromedp.Evaluate(`document.activeElement.getAttribute('aria-label')`, &focused)))
			require.True(t, modal, "a modal dialog: the page behind is inert, so the focus stays in it")
			require.Equal(t, "Close", focused, "the dialog opens with the focus on its close button")
			return inFrame(`dialog.palaro-overlay iframe`, `data-embed-greeted=""`)
		}

		buy := open()
		var inside bool
		require.NoError(t, chromedp.Run(ctx, chromedp.KeyEvent("\t"),
			chromedp.Evaluate(`document.querySelector('dialog.palaro-overlay').contains(document.activeElement)`, &inside)))
		require.True(t, inside, "Tab keeps the focus in the dialog")
		screenshot(t, ctx, "widget-overlay")
		require.NoError(t, chromedp.Run(ctx, chromedp.Focus(`#email`, chromedp.ByQuery, chromedp.FromNode(buy)), chromedp.KeyEvent(kb.Escape),
			waitFor(`document.querySelector('dialog.palaro-overlay').open === false`)))
		buyFocused()

		buy = open()
		for id, value := range map[string]string{"email": "overlay@example.ph", "firstName": "Ana", "lastName": "Reyes", "companyName": "UP Visayas", "designation": "Student"} {
			require.NoError(t, chromedp.Run(ctx, chromedp.SendKeys("#"+id, value, chromedp.ByQuery, chromedp.FromNode(buy))))
		}
		require.NoError(t, chromedp.Run(ctx, chromedp.Click(`.pay-buttons button[type="submit"]`, chromedp.ByQuery, chromedp.FromNode(buy))))
		buy = inFrame(`dialog.palaro-overlay iframe`, `You're in!`)
		var ticketHref string
		var ok bool
		require.NoError(t, chromedp.Run(ctx, chromedp.AttributeValue(`.ticket-link`, "href", &ticketHref, &ok, chromedp.ByQuery, chromedp.FromNode(buy))))
		require.True(t, ok)
		require.True(t, strings.HasPrefix(ticketHref, "/t/"), ticketHref)
		require.NoError(t, chromedp.Run(ctx, waitFor(`palaroOrders.length === 1`)))
		var id string
		require.NoError(t, chromedp.Run(ctx, chromedp.Evaluate(`palaroOrders[0]`, &id)))
		order, err := a.Purchases().FindOrderByPublicID(context.Background(), id)
		require.NoError(t, err, "the order the page heard of exists")
		require.Equal(t, "overlay@example.ph", order.Email)
		require.Equal(t, palaro.OrderPaid, order.Status)
		inFrame(`dialog.palaro-overlay iframe`, `data-embed-greeted=""`)
		screenshot(t, ctx, "widget-overlay-bought")

		require.NoError(t, chromedp.Run(ctx, chromedp.Click(`[data-embed-close]`, chromedp.ByQuery, chromedp.FromNode(buy)),
			waitFor(`document.querySelector('dialog.palaro-overlay').open === false`)))
		buyFocused()
	})
}
