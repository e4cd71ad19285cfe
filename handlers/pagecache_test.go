package handlers_test

import (
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"palaro/handlers"
	"palaro/static"
	"palaro/store"
)

// newCachedPagesFixture is the API fixture with the event cache and the page cache of a real
// configuration, both kept for an hour: only invalidation can change what they serve.
func newCachedPagesFixture(t *testing.T) *apiFixture {
	t.Helper()
	f := newAPIFixture(t)
	cached := store.NewCachedEventService(f.services.Events, time.Hour)
	cached.Now = func() time.Time { return f.now }
	f.services.Events, f.services.EventCache = cached, cached
	f.server = handlers.New(handlers.Config{BaseURL: f.http.URL, PageCacheTTL: time.Hour}, f.services, static.Default(),
		slog.New(slog.NewTextHandler(io.Discard, nil)))
	f.server.Now = func() time.Time { return f.now }
	return f
}

// anonymousGet fetches path with a client that has no cookies, asking for encoding ("gzip" or
// "identity") and sending If-None-Match when etag is set.
func anonymousGet(t *testing.T, f *apiFixture, path, encoding, etag string) (*http.Response, string) {
	t.Helper()
	req, err := http.NewRequest(http.MethodGet, f.http.URL+path, nil)
	require.NoError(t, err)
	req.Header.Set("Accept-Encoding", encoding) // set by hand, so the transport does not decode gzip
	if etag != "" {
		req.Header.Set("If-None-Match", etag)
	}
	resp, err := http.DefaultTransport.RoundTrip(req)
	require.NoError(t, err)
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	require.NoError(t, err)
	return resp, string(b)
}

// publicPaths are the pages (and the two public fragments) served the same to every anonymous visitor.
var publicPaths = []string{"/", "/?when=week", "/e/mlbb-manila-showdown", "/f/moba", "/calendar", "/calendar?month=2026-04",
	"/about", "/faq", "/contacts", "/privacy", "/terms", "/cookies", "/events?page=2", "/v1/calendar?month=2026-03"}

func TestPublicPages_SameBytesForEveryAnonymousVisitor(t *testing.T) {
	f := newCachedPagesFixture(t)
	for _, path := range publicPaths {
		for _, enc := range []string{"gzip", "identity"} {
			first, a := anonymousGet(t, f, path, enc, "")
			second, b := anonymousGet(t, f, path, enc, "")
			require.Equal(t, http.StatusOK, first.StatusCode, path)
			require.Empty(t, first.Header.Values("Set-Cookie"), "%s: no session for an anonymous visitor", path)
			require.Empty(t, second.Header.Values("Set-Cookie"), path)
			require.Equal(t, a, b, "%s (%s): the same bytes twice", path, enc)
			require.NotEmpty(t, first.Header.Get("ETag"), path)
			require.Equal(t, first.Header.Get("ETag"), second.Header.Get("ETag"), path)
			require.Equal(t, "public, max-age=0, s-maxage=10, stale-while-revalidate=30", first.Header.Get("Cache-Control"), path)
			require.NotContains(t, first.Header.Get("Content-Security-Policy"), "nonce", path)
			require.Contains(t, first.Header.Values("Vary"), "Cookie", path)
			if enc == "gzip" {
				require.Equal(t, "gzip", first.Header.Get("Content-Encoding"), path)
				continue
			}
			require.NotContains(t, a, "csrf-token", path)
			require.NotContains(t, a, `name="_csrf"`, path)
			require.NotContains(t, a, "nonce=", path)
			require.NotRegexp(t, `(?i)<form[^>]*method="post"`, a, "%s: a form posting from a cached page would have no token without JavaScript", path)
		}
	}

	t.Run("AnonymousWithASessionGetsTheSameBytes", func(t *testing.T) {
		// A visitor who has a session (from a buy page, say) but is not signed in shares the
		// cached page: their token is not in it.
		_, want := anonymousGet(t, f, "/e/mlbb-manila-showdown", "identity", "")
		req, err := http.NewRequest(http.MethodGet, f.http.URL+"/e/mlbb-manila-showdown", nil)
		require.NoError(t, err)
		req.Header.Set("Accept-Encoding", "identity")
		resp, err := f.client.Do(req)
		require.NoError(t, err)
		got, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		require.Equal(t, want, string(got))
		require.NotContains(t, string(got), f.csrf)
	})
}

func TestPublicPages_NotModified(t *testing.T) {
	f := newCachedPagesFixture(t)
	for _, enc := range []string{"gzip", "identity"} {
		first, _ := anonymousGet(t, f, "/e/mlbb-manila-showdown", enc, "")
		etag := first.Header.Get("ETag")
		resp, body := anonymousGet(t, f, "/e/mlbb-manila-showdown", enc, etag)
		require.Equal(t, http.StatusNotModified, resp.StatusCode, enc)
		require.Empty(t, body)
		require.Equal(t, etag, resp.Header.Get("ETag"))
		resp, _ = anonymousGet(t, f, "/e/mlbb-manila-showdown", enc, `"something-else"`)
		require.Equal(t, http.StatusOK, resp.StatusCode, "a stale ETag gets the page")
	}
}

func TestPublicPages_Invalidation(t *testing.T) {
	t.Run("SoldOutShowsAtOnce", func(t *testing.T) {
		f := newCachedPagesFixture(t)
		const event, ticket = "/e/valorant-night-market-bgc", "valorant-night-market-bgc-watch"
		_, before := anonymousGet(t, f, event, "identity", "")
		require.NotContains(t, before, "Sold out")
		// One ticket left, changed behind the caches' back: the cached page does not know yet.
		_, err := f.db.Writer().Exec(`UPDATE ticket_types SET capacity = sold + held + 1 WHERE code = ?`, ticket)
		require.NoError(t, err)
		_, cached := anonymousGet(t, f, event, "identity", "")
		require.Equal(t, before, cached, "served from memory")

		status, body := f.call(t, "POST", "/v1/ticket/buy", map[string]any{"ticketCode": ticket, "quantity": 1, "email": "last@b.ph",
			"fullName": "Ana Reyes", "mobileNumber": "+639171234567"})
		require.Equal(t, http.StatusOK, status, body)
		_, after := anonymousGet(t, f, event, "identity", "")
		require.Contains(t, after, "Sold out", "the sale that sold the last ticket drops the cached page")
		_, home := anonymousGet(t, f, "/", "identity", "")
		require.NotEqual(t, before, home)
	})
	t.Run("EventChangeShowsAtOnce", func(t *testing.T) {
		f := newCachedPagesFixture(t)
		_, before := anonymousGet(t, f, "/e/mlbb-manila-showdown", "gzip", "")
		_, err := f.db.Writer().Exec(`UPDATE events SET name = 'MLBB Manila Grand Showdown' WHERE code = 'mlbb-manila-showdown'`)
		require.NoError(t, err)
		_, cached := anonymousGet(t, f, "/e/mlbb-manila-showdown", "gzip", "")
		require.Equal(t, before, cached, "served from memory until the change is announced")
		f.server.EventsChanged() // what the organizer console's saves and publishing call
		_, after := anonymousGet(t, f, "/e/mlbb-manila-showdown", "identity", "")
		require.Contains(t, after, "MLBB Manila Grand Showdown")
	})
}

func TestCSRFTokenAPI(t *testing.T) {
	f := newAPIFixture(t)
	t.Run("OK", func(t *testing.T) {
		client, token := openSession(t, f.http.URL)
		req, err := http.NewRequest(http.MethodGet, f.http.URL+"/v1/csrf", nil)
		require.NoError(t, err)
		resp, err := client.Do(req)
		require.NoError(t, err)
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		require.Contains(t, string(b), `"token":"`+token+`"`, "the same session, the same token")
		require.Equal(t, "no-store", resp.Header.Get("Cache-Control"))
	})
	t.Run("ErrForbidden without the token", func(t *testing.T) {
		client, _ := openSession(t, f.http.URL)
		req, err := http.NewRequest(http.MethodPost, f.http.URL+"/v1/ticket/buy", strings.NewReader(`{}`))
		require.NoError(t, err)
		req.Header.Set("Content-Type", "application/json")
		resp, err := client.Do(req)
		require.NoError(t, err)
		resp.Body.Close()
		require.Equal(t, http.StatusForbidden, resp.StatusCode)
	})
}

// memoryBus stands for the change feed between app servers (store.PostgresChangeFeed in
// production): a change announced by one server drops the caches of the others.
type memoryBus struct{ servers []*handlers.Server }

// feed returns the Services.Changes of the bus's server number i.
func (b *memoryBus) feed(i int) publishFunc {
	return func() {
		for j, s := range b.servers {
			if j != i {
				s.DropCaches()
			}
		}
	}
}

type publishFunc func()

func (p publishFunc) Publish() { p() }

// TestPublicPages_ChangeOnAnotherServer: two app servers on one database, each with its caches; the
// last ticket sold through the first shows as sold out on the second at once, because the first
// announces the change on the feed. Control: without the feed the second serves its stale page.
func TestPublicPages_ChangeOnAnotherServer(t *testing.T) {
	for _, withFeed := range []bool{true, false} {
		f := newCachedPagesFixture(t)
		bus := &memoryBus{}
		second := f.services
		cached := store.NewCachedEventService(store.NewEventService(f.db), time.Hour)
		cached.Now = func() time.Time { return f.now }
		second.Events, second.EventCache = cached, cached
		if withFeed {
			f.services.Changes, second.Changes = bus.feed(0), bus.feed(1)
		}
		f.server = handlers.New(handlers.Config{BaseURL: f.http.URL, PageCacheTTL: time.Hour}, f.services, static.Default(),
			slog.New(slog.NewTextHandler(io.Discard, nil)))
		f.server.Now = func() time.Time { return f.now }
		other := handlers.New(handlers.Config{BaseURL: f.http.URL, PageCacheTTL: time.Hour}, second, static.Default(),
			slog.New(slog.NewTextHandler(io.Discard, nil)))
		other.Now = f.server.Now
		bus.servers = []*handlers.Server{f.server, other}
		otherHTTP := httptest.NewServer(other)
		t.Cleanup(otherHTTP.Close)
		onOther := &apiFixture{http: otherHTTP}

		const event, ticket = "/e/valorant-night-market-bgc", "valorant-night-market-bgc-watch"
		_, before := anonymousGet(t, onOther, event, "identity", "")
		require.NotContains(t, before, "Sold out")
		_, err := f.db.Writer().Exec(`UPDATE ticket_types SET capacity = sold + held + 1 WHERE code = ?`, ticket)
		require.NoError(t, err)
		status, body := f.call(t, "POST", "/v1/ticket/buy", map[string]any{"ticketCode": ticket, "quantity": 1, "email": "last@b.ph",
			"fullName": "Ana Reyes", "mobileNumber": "+639171234567"})
		require.Equal(t, http.StatusOK, status, body)
		_, after := anonymousGet(t, onOther, event, "identity", "")
		if withFeed {
			require.Contains(t, after, "Sold out", "the other server dropped its cached page")
		} else {
			require.Equal(t, before, after, "control: without the feed the other server still serves its cached page")
		}
	}
}
