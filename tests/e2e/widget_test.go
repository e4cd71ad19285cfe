package e2e

import (
	"html"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"palaro/store"
)

// widgetEvent is the demo event the widget tests show: it has a free ticket type.
const widgetEvent = "codm-campus-clash-iloilo"

// headersOf fetches a path of the app anonymously and returns its status and headers.
func headersOf(t *testing.T, a *testApp, path string) (int, http.Header) {
	t.Helper()
	resp, err := http.Get(a.URL + path)
	require.NoError(t, err)
	defer resp.Body.Close()
	return resp.StatusCode, resp.Header
}

// TestWidget_FrameAncestors: the widget of an event whose owner lists no site renders but may not
// be framed ('none', DENY); once the owner lists sites in the console, the widget's CSP names
// exactly them as frame-ancestors and sends no X-Frame-Options, at once (the cached widget is
// dropped), while the event page and every other page keep frame-ancestors 'none'. A bad site is
// refused with the field's message and changes nothing; one ticket type's widget shows only it.
func TestWidget_FrameAncestors(t *testing.T) {
	a := startApp(t)
	widget := "/embed/e/" + widgetEvent

	code, h := headersOf(t, a, widget)
	require.Equal(t, http.StatusOK, code)
	require.Contains(t, h.Get("Content-Security-Policy"), "frame-ancestors 'none'")
	require.Equal(t, "DENY", h.Get("X-Frame-Options"))

	owner := signedIn(t, a, store.DemoOrganizerEmail)
	console := "/organizer/events/" + widgetEvent + "/widget"
	status, body := owner.get(console)
	require.Equal(t, http.StatusOK, status)
	require.Contains(t, html.UnescapeString(body), `<iframe src="`+a.URL+widget+`"`)
	require.Contains(t, body, "No site is listed yet")

	status, body = owner.post(console, url.Values{"origins": {"https://mysite.ph/tickets"}})
	require.Equal(t, http.StatusUnprocessableEntity, status)
	require.Contains(t, html.UnescapeString(body), "“https://mysite.ph/tickets” is not a site's address: write it as https://mysite.ph, with no path.")
	status, body = owner.post(console, url.Values{"origins": {"http://mysite.ph"}})
	require.Equal(t, http.StatusUnprocessableEntity, status)
	require.Contains(t, html.UnescapeString(body), "only https:// sites may show the widget")

	status, _ = owner.post(console, url.Values{"origins": {"https://mysite.ph\nhttps://Shop.Example.com:8443/"}})
	require.Equal(t, http.StatusSeeOther, status)
	status, body = owner.get(console + "?notice=widgetSaved")
	require.Equal(t, http.StatusOK, status)
	require.Contains(t, body, "https://shop.example.com:8443")
	require.NotContains(t, body, "No site is listed yet")

	for _, path := range []string{widget, widget + "?type=codm-campus-clash-iloilo-free"} {
		code, h = headersOf(t, a, path)
		require.Equal(t, http.StatusOK, code, path)
		require.Contains(t, h.Get("Content-Security-Policy"), "; frame-ancestors https://mysite.ph https://shop.example.com:8443", path)
		require.NotContains(t, h.Get("Content-Security-Policy"), "'none'; frame", path)
		require.Empty(t, h.Get("X-Frame-Options"), path)
	}
	for _, path := range []string{"/e/" + widgetEvent, "/", "/b/codm-campus-clash-iloilo-free", "/embed/e/no-such-event"} {
		_, h = headersOf(t, a, path)
		require.Contains(t, h.Get("Content-Security-Policy"), "frame-ancestors 'none'", path)
		require.Equal(t, "DENY", h.Get("X-Frame-Options"), path)
	}

	visitor := newVisitor(t, a)
	status, body = visitor.get(widget + "?type=codm-campus-clash-iloilo-free")
	require.Equal(t, http.StatusOK, status)
	require.Contains(t, body, `href="`+a.URL+`/b/codm-campus-clash-iloilo-free" target="_blank" rel="noopener"`)
	require.Equal(t, 1, strings.Count(body, `data-embed-buy=`), "one ticket type only")
	require.NotContains(t, body, "<script", "the widget runs no script")
	status, _ = visitor.get(widget + "?type=no-such-type")
	require.Equal(t, http.StatusNotFound, status)

	code, h = headersOf(t, a, "/embed/widget.js")
	require.Equal(t, http.StatusOK, code)
	require.Equal(t, "text/javascript; charset=utf-8", h.Get("Content-Type"), "nosniff lets a script with this type run")

	status, _ = owner.post(console, url.Values{"origins": {""}})
	require.Equal(t, http.StatusSeeOther, status)
	_, h = headersOf(t, a, widget)
	require.Contains(t, h.Get("Content-Security-Policy"), "frame-ancestors 'none'", "no site listed: no framing again")
}
