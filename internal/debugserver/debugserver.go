// Package debugserver serves what an operator looks at beside the site, each on a separate
// loopback listener: Go's runtime profiles (net/http/pprof, PALARO_PPROF), so that a slow server
// can be profiled where it runs, and the Prometheus metrics (PALARO_METRICS).
package debugserver

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"net/http/pprof"
	"runtime"
	"time"
)

// Start listens on addr, which must be a loopback address (the profiles show the program's
// internals), and serves /debug/pprof/ there until ctx ends. It also turns on the block and mutex
// profiles (sampled, a small cost only a server with PALARO_PPROF pays), which show where
// requests wait: for the database pools, the writer, a lock.
func Start(ctx context.Context, addr string, logger *slog.Logger) error {
	runtime.SetBlockProfileRate(int(100 * time.Microsecond)) // about one blocking event per 100 µs blocked
	runtime.SetMutexProfileFraction(10)                      // one contended lock in 10
	mux := http.NewServeMux()
	mux.HandleFunc("/debug/pprof/", pprof.Index)
	mux.HandleFunc("/debug/pprof/cmdline", pprof.Cmdline)
	mux.HandleFunc("/debug/pprof/profile", pprof.Profile)
	mux.HandleFunc("/debug/pprof/symbol", pprof.Symbol)
	mux.HandleFunc("/debug/pprof/trace", pprof.Trace)
	return serve(ctx, "PALARO_PPROF", addr, mux, logger, "serving runtime profiles")
}

// StartMetrics listens on addr, which must be a loopback address, and serves the Prometheus
// metrics handler at /metrics there until ctx ends.
func StartMetrics(ctx context.Context, addr string, metrics http.Handler, logger *slog.Logger) error {
	mux := http.NewServeMux()
	mux.Handle("GET /metrics", metrics)
	return serve(ctx, "PALARO_METRICS", addr, mux, logger, "serving metrics")
}

// serve listens on addr, refusing an address beyond loopback (env names the setting in the
// error), and serves h there until ctx ends.
func serve(ctx context.Context, env, addr string, h http.Handler, logger *slog.Logger, what string) error {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return fmt.Errorf("%s: %w", env, err)
	}
	if ip := net.ParseIP(host); host != "localhost" && (ip == nil || !ip.IsLoopback()) {
		return fmt.Errorf("%s: %q is not a loopback address (use 127.0.0.1:PORT)", env, addr)
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return fmt.Errorf("%s: %w", env, err)
	}
	srv := &http.Server{Handler: h, ReadHeaderTimeout: 5 * time.Second}
	go func() {
		<-ctx.Done()
		_ = srv.Close()
	}()
	go func() {
		if err := srv.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
			logger.Error("listener stopped", "setting", env, "err", err)
		}
	}()
	logger.Info(what, "addr", ln.Addr().String())
	return nil
}
