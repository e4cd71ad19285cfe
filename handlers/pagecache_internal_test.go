package handlers

import (
	"errors"
	"net/http"
	"net/http/httptest"
	"net/url"
	"regexp"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// TestPublicPages_SignedInBypassesCache: a visitor reads the cached home page (no cookie), follows
// its sign-up link and posts the form without JavaScript, then gets the home page with their own
// menu (never shared, never kept by a proxy) and signs out with its form, again without JavaScript.
func TestPublicPages_SignedInBypassesCache(t *testing.T) {
	ts := newTestServer(t)
	ts.pages = newPageCache(time.Hour, ts.Now)
	c := ts.client(t, "10.0.0.7")

	home := c.get("/")
	require.Equal(t, http.StatusOK, home.Code)
	require.Empty(t, home.Result().Cookies(), "the cached home page starts no session")
	require.Contains(t, home.body, `href="/sign-up"`)
	require.Empty(t, c.csrf, "and carries no token")

	signUp := c.get("/sign-up") // the link's target renders its form with the session's token
	require.NotEmpty(t, signUp.Result().Cookies())
	require.NotEmpty(t, c.csrf)
	c.signUp("cached@example.ph", "09171230001")

	mine := c.get("/")
	require.Equal(t, http.StatusOK, mine.Code)
	require.Contains(t, mine.body, "Signed in as")
	require.Equal(t, "private, no-cache", mine.Header().Get("Cache-Control"))
	require.Empty(t, mine.Header().Get("ETag"))
	form := regexp.MustCompile(`(?s)<form method="post" action="/sign-out"[^>]*>\s*<input type="hidden" name="_csrf" value="([^"]+)"`).FindStringSubmatch(mine.body)
	require.NotNil(t, form, "the personal menu's sign-out form carries the session's token")
	require.Equal(t, c.csrf, form[1])

	anon := ts.client(t, "10.0.0.8").get("/")
	require.Equal(t, home.body, anon.body, "the signed-in page was not cached for others")
	require.NotContains(t, anon.body, "Signed in as")

	out := c.post("/sign-out", url.Values{})
	require.Equal(t, http.StatusSeeOther, out.Code, out.body)
	require.Equal(t, home.body, c.get("/").body, "signed out: the shared page again")
}

func TestPageKey_KeepsOnlyTheParametersPagesRead(t *testing.T) {
	ts := newTestServer(t)
	ts.pages = newPageCache(time.Hour, ts.Now)
	c := ts.client(t, "10.0.0.9")
	plain := c.get("/?when=week")
	tracked := c.get("/?utm_source=fb&when=week&fbclid=abc")
	require.Equal(t, plain.body, tracked.body)
	require.Equal(t, plain.Header().Get("ETag"), tracked.Header().Get("ETag"))
	c.get("/?when=today")
	require.Len(t, ts.pages.entries, 2, "tracking parameters share the page's entry; another filter is another page")
	for _, tc := range []struct{ path, key string }{
		{"/", "/?"},
		{"/e/x?utm_campaign=y", "/e/x?"},
		{"/calendar?month=2026-04&ref=z", "/calendar?month=2026-04"},
		{"/?page=2&when=week&lat=14.5&lng=121.0", "/?lat=14.5&lng=121.0&page=2&when=week"},
	} {
		require.Equal(t, tc.key, pageKey(httptest.NewRequest(http.MethodGet, tc.path, nil)), tc.path)
	}
}

// TestPageCache_StaleWhileRevalidate proves that an expired page is rendered again by one request
// while the others get the expired page without waiting; that after Invalidate nobody gets the
// old page; that a failed render is tried again by the next request and a render that is no
// longer a 200 drops the old page. Control: past maxStale, a request waits for the render.
func TestPageCache_StaleWhileRevalidate(t *testing.T) {
	now := time.Date(2026, 3, 4, 10, 0, 0, 0, time.UTC)
	pc := newPageCache(2*time.Second, func() time.Time { return now })
	page := func(body string, status int) func() (*cachedPage, error) {
		return func() (*cachedPage, error) { return &cachedPage{status: status, body: []byte(body)}, nil }
	}
	mustNotRender := func() (*cachedPage, error) {
		t.Fatal("rendered while a fresh or renewing page was there")
		return nil, nil
	}
	body := func(key string, render func() (*cachedPage, error)) string {
		t.Helper()
		p, err := pc.get(key, render)
		require.NoError(t, err)
		return string(p.body)
	}

	require.Equal(t, "v1", body("/", page("v1", http.StatusOK)))
	require.Equal(t, "v1", body("/", mustNotRender), "fresh")
	now = now.Add(3 * time.Second) // expired
	entered, gate, renewed := make(chan struct{}), make(chan struct{}), make(chan string)
	go func() {
		p, _ := pc.get("/", func() (*cachedPage, error) {
			close(entered)
			<-gate
			return &cachedPage{status: http.StatusOK, body: []byte("v2")}, nil
		})
		renewed <- string(p.body)
	}()
	<-entered
	require.Equal(t, "v1", body("/", mustNotRender), "while one request renders it again, the others get the old page at once")
	close(gate)
	require.Equal(t, "v2", <-renewed, "the renewing request gets the new page")
	require.Equal(t, "v2", body("/", mustNotRender), "kept")

	pc.Invalidate()
	require.Equal(t, "v3", body("/", page("v3", http.StatusOK)), "after Invalidate: no old page, the new one is rendered")

	now = now.Add(3 * time.Second)
	_, err := pc.get("/", func() (*cachedPage, error) { return nil, errors.New("database gone") })
	require.ErrorContains(t, err, "database gone")
	require.Equal(t, "v4", body("/", page("v4", http.StatusOK)), "a failed render: the next request renders again")

	now = now.Add(3 * time.Second)
	require.Equal(t, "gone", body("/", page("gone", http.StatusNotFound)))
	require.NotContains(t, pc.entries, "/", "no longer a 200: the old page is dropped")

	// control: a page renewing for longer than maxStale is not served; the request waits for a render
	require.Equal(t, "v5", body("/e", page("v5", http.StatusOK)))
	pc.mu.Lock()
	pc.entries["/e"].refreshing = true // a render that hangs
	pc.mu.Unlock()
	now = now.Add(2*time.Second + maxStale)
	require.Equal(t, "v6", body("/e", page("v6", http.StatusOK)))
}
