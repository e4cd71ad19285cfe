package handlers_test

import (
	"bytes"
	"context"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/PuerkitoBio/goquery"
	"github.com/stretchr/testify/require"

	"palaro"
	"palaro/handlers"
	"palaro/internal/testdb"
	"palaro/static"
	"palaro/store"
)

// testNow is the handler tests' clock: Wednesday 4 March 2026, 10:00 in Manila. The demo data is
// loaded relative to it, so 'today', 'this week' and 'this month' have events.
var testNow = time.Date(2026, 3, 4, 10, 0, 0, 0, palaro.Manila)

// testBaseURL is the site's absolute URL in handler tests.
const testBaseURL = "https://palaro.test"

// testServer is a handlers.Server over a fresh SQLite file holding the demo data, for handler
// tests of every area. Options adjust the configuration and add services before it is built.
type testServer struct {
	*handlers.Server
	DB     *store.DB
	Events *store.EventService
	// Log holds what the server logged, to check that internal errors are logged.
	Log *bytes.Buffer
}

// newTestServer builds a server on a temporary database migrated and loaded with the demo data.
func newTestServer(t *testing.T, opts ...func(*handlers.Config, *handlers.Services)) *testServer {
	t.Helper()
	return newTestServerAt(t, testNow, opts...)
}

// newTestServerAt builds a test server whose clock stands at now, with the demo data loaded then.
func newTestServerAt(t *testing.T, now time.Time, opts ...func(*handlers.Config, *handlers.Services)) *testServer {
	t.Helper()
	ctx := context.Background()
	db, err := store.Open(testdb.URL(t))
	require.NoError(t, err)
	t.Cleanup(func() { db.Close() })
	db.Now = func() time.Time { return now }
	require.NoError(t, db.Migrate(ctx))
	require.NoError(t, db.SeedDemo(ctx, now))

	events := store.NewEventService(db)
	cfg := handlers.Config{BaseURL: testBaseURL, SupportEmail: "support@palaro.test"}
	services := handlers.Services{Events: events}
	for _, opt := range opts {
		opt(&cfg, &services)
	}
	handlers.CompleteServices(t, db, &services)
	log := &bytes.Buffer{}
	srv := handlers.New(cfg, services, static.Default(), slog.New(slog.NewTextHandler(log, nil)))
	srv.Now = db.Now
	return &testServer{Server: srv, DB: db, Events: events, Log: log}
}

// do sends a request through the server and returns the recorded response.
func (ts *testServer) do(t *testing.T, method, path string, body io.Reader, header http.Header) *httptest.ResponseRecorder {
	t.Helper()
	req := httptest.NewRequest(method, path, body)
	for k, v := range header {
		req.Header[k] = v
	}
	rec := httptest.NewRecorder()
	ts.ServeHTTP(rec, req)
	return rec
}

// get sends a GET request without extra headers.
func (ts *testServer) get(t *testing.T, path string) *httptest.ResponseRecorder {
	t.Helper()
	return ts.do(t, http.MethodGet, path, nil, nil)
}

// html GETs path, requires the status and an HTML response, and parses it.
func (ts *testServer) html(t *testing.T, path string, status int) *goquery.Document {
	t.Helper()
	rec := ts.get(t, path)
	require.Equal(t, status, rec.Code, "GET %s: %s", path, rec.Body.String())
	require.Contains(t, rec.Header().Get("Content-Type"), "text/html")
	doc, err := goquery.NewDocumentFromReader(rec.Body)
	require.NoError(t, err)
	return doc
}
