package e2e

import (
	"bufio"
	"io"
	"net"
	"net/http"
	"net/url"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/labstack/echo/v5"
	"github.com/stretchr/testify/require"

	"palaro/store"
)

// headVariesBy are the headers a HEAD answer may carry differently from the GET before it: the
// time, the request's id, the body's framing, a cookie's value and the checkout page's nonce.
var headVariesBy = []string{"Date", "X-Request-Id", "Content-Length", "Transfer-Encoding", "Set-Cookie", "Content-Security-Policy"}

// requireHeadLikeGet sends GET then HEAD of path as v and requires the same status and headers.
func requireHeadLikeGet(t *testing.T, v *httpVisitor, path string) int {
	t.Helper()
	answer := func(method string) *http.Response {
		req, err := http.NewRequest(method, v.app.URL+path, nil)
		require.NoError(t, err)
		req.Header.Set("Accept-Encoding", "gzip")
		resp, err := v.client.Do(req)
		require.NoError(t, err)
		_, _ = io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		return resp
	}
	get, head := answer(http.MethodGet), answer(http.MethodHead)
	require.Equal(t, get.StatusCode, head.StatusCode, "HEAD %s answers as GET does", path)
	for _, h := range []http.Header{get.Header, head.Header} {
		for _, name := range headVariesBy {
			if name == "Set-Cookie" && len(h[name]) > 0 {
				h[name] = []string{"set"}
				continue
			}
			h.Del(name)
		}
	}
	require.Equal(t, get.Header, head.Header, "HEAD %s has the headers of GET", path)
	return get.StatusCode
}

// TestHead_EveryGetRoute enumerates the wired app's router (pages, API, feeds, static files, the
// payment sandbox, the catch-all) and requires every GET route to answer HEAD with GET's status
// and headers, for an anonymous visitor and for a signed-in organizer; a real page, event,
// stylesheet and feed are checked too, and a HEAD's answer on the wire has no body.
func TestHead_EveryGetRoute(t *testing.T) {
	a := startApp(t)
	anon := newVisitor(t, a)
	anon.client.Jar = nil // each request a first visit, so GET and HEAD both start a session where one is started
	org := signedIn(t, a, store.DemoOrganizerEmail)

	_, home := anon.get("/")
	css := regexp.MustCompile(`href="(/static/css/[^"]+\.css)"`).FindStringSubmatch(home)
	require.NotNil(t, css, "the home page links its stylesheet")
	real := []string{"/", "/e/" + demoOwnedEvent, "/b/" + demoOwnedType, "/calendar", "/news", "/sitemap.xml",
		"/robots.txt", css[1], "/organizer", "/organizer/events/" + demoOwnedEvent}

	oks := 0
	for _, v := range []*httpVisitor{anon, org} {
		checked := 0
		for _, r := range a.Server().Echo().Router().Routes() {
			switch r.Method {
			case http.MethodGet, echo.RouteNotFound, echo.RouteAny:
			default:
				continue
			}
			path := strings.ReplaceAll(r.Path, ":code", demoOwnedEvent)
			requireHeadLikeGet(t, v, routePath(path))
			checked++
		}
		require.GreaterOrEqual(t, checked, 60, "the router's GET routes")
		for _, path := range real {
			if requireHeadLikeGet(t, v, path) == http.StatusOK {
				oks++
			}
		}
	}
	require.GreaterOrEqual(t, oks, len(real)+2, "the real pages answer 200")

	t.Run("NoBodyOnTheWire", func(t *testing.T) {
		u, err := url.Parse(a.URL)
		require.NoError(t, err)
		conn, err := net.Dial("tcp", u.Host)
		require.NoError(t, err)
		defer conn.Close()
		_, err = io.WriteString(conn, "HEAD / HTTP/1.1\r\nHost: "+u.Host+"\r\nConnection: close\r\n\r\n")
		require.NoError(t, err)
		raw, err := io.ReadAll(bufio.NewReader(conn))
		require.NoError(t, err)
		head, body, found := strings.Cut(string(raw), "\r\n\r\n")
		require.True(t, found, string(raw))
		require.True(t, strings.HasPrefix(head, "HTTP/1.1 200 "), head)
		require.Empty(t, body, "a HEAD answer has no body")
		require.True(t, slices.ContainsFunc(strings.Split(head, "\r\n"), func(l string) bool {
			return strings.HasPrefix(strings.ToLower(l), "content-type: text/html")
		}), head)
	})
}
