package e2e

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"palaro"
	"palaro/internal/app"
	"palaro/internal/testdb"
)

// testApp is a Palaro server on a loopback port with a fresh SQLite file and the demo data.
type testApp struct {
	*app.App
	URL string
	// DBPath is the app's database, for bin/palaro's commands to open.
	DBPath string
	// Stop closes the HTTP server at once, as if the network were gone.
	Stop func()
}

// testEpoch is where the test apps' clock starts: Wednesday 18 March 2026, 10:00 in Manila,
// mid-week and mid-month, so that the demo data, the date filters and the calendar are the same
// at whatever hour and in whatever time zone the tests run.
var testEpoch = time.Date(2026, 3, 18, 10, 0, 0, 0, palaro.Manila)

// clockFrom returns a clock that reads start when it is made and then runs on with real time, so
// that waits, holds and timeouts still pass as they would.
func clockFrom(start time.Time) func() time.Time {
	began := time.Now()
	return func() time.Time { return start.Add(time.Since(began)) }
}

// startAt sets the app's clock to start at the given instant.
func startAt(start time.Time) func(*app.Config) {
	return func(cfg *app.Config) { cfg.Now = clockFrom(start) }
}

// startApp starts Palaro for one test and stops it when the test ends. Its clock starts at
// testEpoch unless an option (startAt) says otherwise.
func startApp(t *testing.T, opts ...func(*app.Config)) *testApp {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	base := "http://" + ln.Addr().String()
	cfg := app.Config{
		Addr:         ln.Addr().String(),
		DBPath:       testdb.URL(t),
		BaseURL:      base,
		Demo:         true,
		SupportEmail: "support@palaro.test",
		Now:          clockFrom(testEpoch),
	}
	for _, opt := range opts {
		opt(&cfg)
	}
	logger := slog.New(slog.NewTextHandler(io.Discard, nil))
	if testing.Verbose() {
		logger = slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelWarn}))
	}
	ctx, cancel := context.WithCancel(context.Background())
	a, err := app.New(ctx, cfg, logger)
	if err != nil {
		cancel()
		t.Fatal(err)
	}
	srv := &http.Server{Handler: a.Server(), ReadHeaderTimeout: 5 * time.Second}
	go func() {
		if err := srv.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
			t.Errorf("serve: %v", err)
		}
	}()
	t.Cleanup(func() {
		shutdown, done := context.WithTimeout(context.Background(), 5*time.Second)
		defer done()
		_ = srv.Shutdown(shutdown)
		cancel()
		a.Close()
	})
	return &testApp{App: a, URL: base, DBPath: cfg.DBPath, Stop: func() { _ = srv.Close() }}
}

// chromePath finds the Chromium binary for browser tests: $PALARO_CHROME, else chromium on PATH.
func chromePath() string {
	if p := os.Getenv("PALARO_CHROME"); p != "" {
		return p
	}
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	return ""
}

// newBrowser opens a headless Chromium tab at phone size (390x844) for one test.
// Browser tests are skipped only under `go test -short`; otherwise a missing Chromium fails them.
// extra adds Chromium options (such as a fake camera).
func newBrowser(t *testing.T, extra ...chromedp.ExecAllocatorOption) context.Context {
	t.Helper()
	if testing.Short() {
		t.Skip("browser test skipped in -short mode")
	}
	path := chromePath()
	if path == "" {
		t.Fatal("no Chromium found: install Debian's chromium (go tool task chromium) or set PALARO_CHROME")
	}
	profile, err := os.MkdirTemp("", "palaro-chromium-")
	if err != nil {
		t.Fatal(err)
	}
	opts := []chromedp.ExecAllocatorOption{
		chromedp.ExecPath(path),
		chromedp.UserDataDir(profile),
		chromedp.Flag("headless", "new"),
		chromedp.NoSandbox,
		chromedp.DisableGPU,
		chromedp.NoFirstRun,
		chromedp.NoDefaultBrowserCheck,
		chromedp.Flag("disable-quic", true),
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
		chromedp.Flag("disable-dev-shm-usage", true),
		chromedp.WindowSize(390, 844),
	}
	opts = append(opts, extra...)
	allocCtx, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
	ctx, cancelCtx := chromedp.NewContext(allocCtx)
	// A guard against a hung browser, shared by all subtests: long enough for a loaded 2-core CI machine.
	ctx, cancelTimeout := context.WithTimeout(ctx, 4*time.Minute)
	t.Cleanup(func() {
		cancelTimeout()
		cancelCtx()
		cancelAlloc()
		_ = os.RemoveAll(profile) // Chromium may still be writing; a leftover profile is harmless.
	})
	if err := chromedp.Run(ctx, chromedp.EmulateViewport(390, 844, chromedp.EmulateScale(2), chromedp.EmulateMobile)); err != nil {
		t.Fatal(err)
	}
	return ctx
}

// screenshot saves a PNG of the viewport under screenshots/ (git-ignored) when PALARO_SCREENSHOTS=1, for a person to look at.
func screenshot(t *testing.T, ctx context.Context, name string) {
	t.Helper()
	if os.Getenv("PALARO_SCREENSHOTS") != "1" {
		return
	}
	var buf []byte
	if err := chromedp.Run(ctx, chromedp.CaptureScreenshot(&buf)); err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join("..", "..", "screenshots")
	_ = os.MkdirAll(dir, 0o755)
	if err := os.WriteFile(filepath.Join(dir, name+".png"), buf, 0o644); err != nil {
		t.Fatal(err)
	}
}
