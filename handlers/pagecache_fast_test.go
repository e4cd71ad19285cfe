package handlers

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus/testutil"
	"github.com/stretchr/testify/require"

	"palaro/internal/metrics"
)

// lockedBuffer is a log the server's goroutines write to while the test reads it.
type lockedBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *lockedBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

// reset drops what was logged so far.
func (b *lockedBuffer) reset() {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.buf.Reset()
}

// take waits for one whole log line and returns it, leaving the log empty.
func (b *lockedBuffer) take(t *testing.T) map[string]any {
	t.Helper()
	var line string
	require.Eventually(t, func() bool {
		b.mu.Lock()
		defer b.mu.Unlock()
		line = b.buf.String()
		return strings.HasSuffix(line, "\n")
	}, 5*time.Second, time.Millisecond, "a log line")
	b.mu.Lock()
	b.buf.Reset()
	b.mu.Unlock()
	require.Equal(t, 1, strings.Count(line, "\n"), "one line per request: %s", line)
	var entry map[string]any
	require.NoError(t, json.Unmarshal([]byte(line), &entry), line)
	return entry
}

// wireAnswer is an answer as a client receives it.
type wireAnswer struct {
	status int
	header http.Header
	body   []byte
}

var requestIDForm = regexp.MustCompile(`^[A-Za-z]{32}$`)

// TestCachedPageFastPath_AnswersAsTheChain proves that the fast path (serveCachedPage) answers a
// cached public page as Echo's chain does: over real HTTP, for the home page, an event page, the
// filtered home page, a text page, the calendar API, the partner's stylesheet, the news feed and
// the list fragment, as GET and HEAD, with and without gzip, with If-None-Match (current, stale
// and for the other encoding), with a client's request id and with tracking parameters, the same
// status, headers (HSTS included) and body bytes, the same log line and one cache hit each; and
// that it really answered them (a server that counts its answers). Control: a request with a
// session cookie (anonymous, signed in, or not one the server made), a trailing slash, an escaped
// path, a POST, a GET with a body, a framed widget page, a page not cached yet and an expired
// page are left to the chain, and still answer as the chain does.
func TestCachedPageFastPath_AnswersAsTheChain(t *testing.T) {
	ts := newTestServer(t)
	require.NoError(t, ts.db.SeedDemo(context.Background(), ts.Now()))
	clock := ts.Now()
	ts.pages = newPageCache(time.Hour, func() time.Time { return clock })
	ts.secure = true // HSTS too
	logs := &lockedBuffer{}
	ts.logger = slog.New(slog.NewJSONHandler(logs, nil))

	var fastAnswers atomic.Int64
	fast := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if ts.serveCachedPage(w, r) { // what ServeHTTP does, counted
			fastAnswers.Add(1)
			return
		}
		ts.echo.ServeHTTP(w, r)
	}))
	t.Cleanup(fast.Close)
	slow := httptest.NewServer(ts.echo) // Echo's whole chain, the same server and page cache
	t.Cleanup(slow.Close)

	do := func(base, method, target string, header http.Header, body string) (wireAnswer, map[string]any) {
		t.Helper()
		var rd io.Reader
		if body != "" {
			rd = strings.NewReader(body)
		}
		req, err := http.NewRequest(method, base+target, rd)
		require.NoError(t, err)
		req.Header = header.Clone()
		if req.Header.Get("Accept-Encoding") == "" {
			req.Header.Set("Accept-Encoding", "identity") // set by hand, so the transport does not decode gzip
		}
		resp, err := http.DefaultTransport.RoundTrip(req)
		require.NoError(t, err)
		defer resp.Body.Close()
		b, err := io.ReadAll(resp.Body)
		require.NoError(t, err)
		return wireAnswer{resp.StatusCode, resp.Header, b}, logs.take(t)
	}
	// same requires equal answers and log lines; the request id is compared when the client sent one
	same := func(name string, header http.Header, a, b wireAnswer, la, lb map[string]any) {
		t.Helper()
		require.Equal(t, a.status, b.status, name)
		ha, hb := a.header.Clone(), b.header.Clone()
		for _, h := range []http.Header{ha, hb} {
			require.NotEmpty(t, h.Get("Date"), name)
			h.Del("Date")
		}
		for _, l := range []map[string]any{la, lb} {
			require.Contains(t, l, "duration_ms", name)
			require.Contains(t, l, "time", name)
			delete(l, "duration_ms")
			delete(l, "time")
		}
		if header.Get("X-Request-Id") == "" {
			for _, x := range []struct {
				h http.Header
				l map[string]any
			}{{ha, la}, {hb, lb}} {
				id := x.h.Get("X-Request-Id")
				require.Regexp(t, requestIDForm, id, name)
				require.Equal(t, id, x.l["request_id"], "%s: the id the answer carries is logged", name)
				x.h.Del("X-Request-Id")
				delete(x.l, "request_id")
			}
		}
		require.Equal(t, ha, hb, name)
		require.True(t, bytes.Equal(a.body, b.body), "%s: the same body bytes", name)
		require.Equal(t, la, lb, "%s: the same log line", name)
	}
	hits := func() float64 { return testutil.ToFloat64(metrics.PageCacheHit) }

	const event = "/e/mlbb-manila-showdown"
	paths := []string{"/", event, "/?when=week", "/about", "/v1/calendar?month=2026-03", "/pnk/theme.css", "/news/feed.xml", "/events?page=2"}
	for _, path := range paths {
		warm, _ := do(slow.URL, http.MethodGet, path, http.Header{}, "")
		require.Equal(t, http.StatusOK, warm.status, path)
	}
	gzipETag := func(path string) string {
		a, _ := do(slow.URL, http.MethodGet, path, http.Header{"Accept-Encoding": {"gzip"}}, "")
		return a.header.Get("ETag")
	}
	plainETag := func(path string) string {
		a, _ := do(slow.URL, http.MethodGet, path, http.Header{}, "")
		return a.header.Get("ETag")
	}

	for _, path := range paths {
		gz, plain := gzipETag(path), plainETag(path)
		require.NotEqual(t, gz, plain, path)
		for _, tc := range []struct {
			name, method, target string
			header               http.Header
			status               int
		}{
			{"GET gzip", http.MethodGet, path, http.Header{"Accept-Encoding": {"gzip, deflate, br"}}, http.StatusOK},
			{"GET without gzip", http.MethodGet, path, http.Header{}, http.StatusOK},
			{"HEAD gzip", http.MethodHead, path, http.Header{"Accept-Encoding": {"gzip"}}, http.StatusOK},
			{"HEAD without gzip", http.MethodHead, path, http.Header{}, http.StatusOK},
			{"If-None-Match current gzip", http.MethodGet, path, http.Header{"Accept-Encoding": {"gzip"}, "If-None-Match": {`"old", ` + gz}}, http.StatusNotModified},
			{"If-None-Match current plain", http.MethodGet, path, http.Header{"If-None-Match": {"W/" + plain}}, http.StatusNotModified},
			{"HEAD If-None-Match current", http.MethodHead, path, http.Header{"Accept-Encoding": {"gzip"}, "If-None-Match": {gz}}, http.StatusNotModified},
			{"If-None-Match old", http.MethodGet, path, http.Header{"Accept-Encoding": {"gzip"}, "If-None-Match": {`"old"`}}, http.StatusOK},
			{"If-None-Match of the other encoding", http.MethodGet, path, http.Header{"If-None-Match": {gz}}, http.StatusOK},
			{"client's request id", http.MethodGet, path, http.Header{"Accept-Encoding": {"gzip"}, "X-Request-Id": {"proxy-7f3a.1:2"}}, http.StatusOK},
			{"client's request id not loggable", http.MethodGet, path, http.Header{"X-Request-Id": {"secret@mail"}}, http.StatusOK},
			{"tracking parameters", http.MethodGet, path + map[bool]string{true: "&", false: "?"}[strings.Contains(path, "?")] + "utm_source=fb&fbclid=x",
				http.Header{"Accept-Encoding": {"gzip"}}, http.StatusOK},
			{"another cookie", http.MethodGet, path, http.Header{"Accept-Encoding": {"gzip"}, "Cookie": {"_ga=GA1.1.1; consent=all"}}, http.StatusOK},
		} {
			name := path + " " + tc.name
			before, hitsBefore := fastAnswers.Load(), hits()
			a, la := do(fast.URL, tc.method, tc.target, tc.header, "")
			require.Equal(t, before+1, fastAnswers.Load(), "%s: answered by the fast path", name)
			require.Equal(t, hitsBefore+1, hits(), "%s: a cache hit counted", name)
			b, lb := do(slow.URL, tc.method, tc.target, tc.header, "")
			require.Equal(t, hitsBefore+2, hits(), "%s: the chain's cache hit", name)
			require.Equal(t, tc.status, b.status, name)
			same(name, tc.header, a, b, la, lb)
			if tc.status == http.StatusOK {
				require.NotEmpty(t, a.header.Get("Content-Length"), name)
				require.Equal(t, publicCacheControl, a.header.Get("Cache-Control"), name)
				require.Equal(t, "max-age=63072000; includeSubDomains", a.header.Get("Strict-Transport-Security"), name)
				require.Equal(t, []string{"Accept-Encoding", "Cookie"}, a.header.Values("Vary"), name)
				require.Equal(t, "GET", la["method"], "%s: a HEAD is logged as the GET it is answered as", name)
			}
			if tc.method == http.MethodHead {
				require.Empty(t, a.body, name)
			}
		}
	}

	// Left to the chain.
	anon := ts.client(t, "10.0.0.20")
	anon.get("/sign-in")
	signedIn := ts.client(t, "10.0.0.21")
	signedIn.signUp("fastpath@example.ph", "09171230021")
	gz := http.Header{"Accept-Encoding": {"gzip"}}
	withCookie := func(v string) http.Header {
		return http.Header{"Accept-Encoding": {"gzip"}, "Cookie": {sessionCookie + "=" + v + "; _ga=GA1.1.1"}}
	}
	ts.pages.Invalidate()
	logs.reset()
	for _, tc := range []struct {
		name, method, target string
		header               http.Header
		body                 string
		status               int
	}{
		{"anonymous session", http.MethodGet, "/", withCookie(anon.sessionCookie()), "", http.StatusOK},
		{"signed in", http.MethodGet, "/", withCookie(signedIn.sessionCookie()), "", http.StatusOK},
		{"a cookie the server did not make", http.MethodGet, event, withCookie("garbage"), "", http.StatusOK},
		{"trailing slash", http.MethodGet, "/about/", gz, "", http.StatusPermanentRedirect},
		{"escaped path", http.MethodGet, "/%61bout", gz, "", http.StatusNotFound}, // Echo routes the escaped path: no page, though the key /about? is cached
		{"POST", http.MethodPost, "/", gz, "", 0},
		{"GET with a body", http.MethodGet, "/about", gz, "x=1", http.StatusOK},
		{"widget", http.MethodGet, "/embed/e/mlbb-manila-showdown", gz, "", http.StatusOK},
	} {
		for _, path := range []string{"/", event, "/about", "/embed/e/mlbb-manila-showdown"} {
			warm, _ := do(slow.URL, http.MethodGet, path, http.Header{}, "")
			require.Equal(t, http.StatusOK, warm.status, path)
		}
		before := fastAnswers.Load()
		a, la := do(fast.URL, tc.method, tc.target, tc.header, tc.body)
		require.Equal(t, before, fastAnswers.Load(), "%s: left to the chain", tc.name)
		b, lb := do(slow.URL, tc.method, tc.target, tc.header, tc.body)
		if tc.status != 0 {
			require.Equal(t, tc.status, a.status, tc.name)
		}
		if tc.name == "signed in" {
			require.Equal(t, "private, no-cache", a.header.Get("Cache-Control"), tc.name)
			require.Contains(t, gunzip(t, a.body), "Signed in as", tc.name)
		}
		if a.header.Get("Set-Cookie") != "" {
			// an answer that starts a session: its cookie and the token in its page are its own
			require.NotEmpty(t, b.header.Get("Set-Cookie"), tc.name)
			a.header.Del("Set-Cookie")
			b.header.Del("Set-Cookie")
			a.body, b.body = nil, nil
		}
		same(tc.name, tc.header, a, b, la, lb)
	}

	// A page not cached yet, then expired: the chain renders it; in between, the fast path serves it.
	before := fastAnswers.Load()
	first, _ := do(fast.URL, http.MethodGet, "/faq", gz, "")
	require.Equal(t, http.StatusOK, first.status)
	require.Equal(t, before, fastAnswers.Load(), "a miss is rendered by the chain")
	do(fast.URL, http.MethodGet, "/faq", gz, "")
	require.Equal(t, before+1, fastAnswers.Load(), "then it is fresh")
	clock = clock.Add(time.Hour + time.Second)
	expired, _ := do(fast.URL, http.MethodGet, "/faq", gz, "")
	require.Equal(t, http.StatusOK, expired.status)
	require.Equal(t, before+1, fastAnswers.Load(), "an expired page is rendered again by the chain")
}
