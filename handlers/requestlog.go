package handlers

import (
	"context"
	"log/slog"
	"math/rand/v2"
	"strings"
	"time"

	"github.com/labstack/echo/v5"
	"github.com/labstack/echo/v5/middleware"

	"palaro/internal/metrics"
)

// requestLog logs one line per request, after the error handler has answered: the method, the
// route pattern (such as /t/:id, never the raw path or query, which can carry ticket ids, tokens
// and e-mail addresses), the status, the body's size, the duration and the request id. Nothing a
// visitor typed and no personal data is logged. The same figures go to the operator's metrics
// (metrics.Request, by route pattern too). The fast path of cached pages (serveCachedPage) logs
// its answers with logRequest too.
func (s *Server) requestLog() echo.MiddlewareFunc {
	return middleware.RequestLoggerWithConfig(middleware.RequestLoggerConfig{
		HandleError:     true,
		LogMethod:       true,
		LogRoutePath:    true,
		LogStatus:       true,
		LogResponseSize: true,
		LogLatency:      true,
		LogRequestID:    true,
		LogValuesFunc: func(c *echo.Context, v middleware.RequestLoggerValues) error {
			s.logRequest(c.Request().Context(), v.Method, v.RoutePath, v.Status, v.ResponseSize, v.Latency, v.RequestID)
			return nil
		},
	})
}

// logRequest writes a request's log line and counts it in the metrics: route is the pattern
// ("" when no route matched), size the body's bytes, id the request id.
func (s *Server) logRequest(ctx context.Context, method, route string, status int, size int64, latency time.Duration, id string) {
	if route == "" {
		route = "(none)"
	}
	metrics.Request(route, method, status, latency)
	h := s.logger.Handler()
	if !h.Enabled(ctx, slog.LevelInfo) {
		return
	}
	// The record is made here without its caller's program counter (Logger.LogAttrs would walk
	// the stack for it on every request, and the log has no source field).
	r := slog.NewRecord(time.Now(), slog.LevelInfo, "request", 0)
	r.AddAttrs(
		slog.String("method", method),
		slog.String("route", route),
		slog.Int("status", status),
		slog.Int64("bytes", size),
		slog.Float64("duration_ms", float64(latency.Microseconds())/float64(time.Millisecond/time.Microsecond)),
		slog.String("request_id", loggableID(id)))
	_ = h.Handle(ctx, r)
}

// requestIDLetters are the characters of a request id newRequestID makes (Echo's own generator's).
const requestIDLetters = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"

// newRequestID returns a request id of 32 random letters, the form of Echo's generator, for the
// RequestID middleware and the fast path of cached pages alike. It draws from math/rand/v2 (the
// runtime's ChaCha8, seeded by the system): an id only tells log lines apart and is no secret, and
// it costs no system call nor lock per request.
func newRequestID() string {
	var b [32]byte
	i := 0
	for i < len(b) {
		r := rand.Uint64()
		for range 10 { // ten draws of 6 bits from each 64; a draw past the 52 letters is dropped (no bias)
			v := r & 63
			r >>= 6
			if v < uint64(len(requestIDLetters)) && i < len(b) {
				b[i] = requestIDLetters[v]
				i++
			}
		}
	}
	return string(b[:])
}

// loggableID returns a request id for the log: the id RequestID generated or a proxy passed on,
// or "(invalid)" when the client sent one longer than 64 characters or with characters beyond
// letters, digits and ._:- (a client must not write what it likes into the log).
func loggableID(id string) string {
	if len(id) > 64 {
		return "(invalid)"
	}
	for _, r := range id {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("._:-", r)) {
			return "(invalid)"
		}
	}
	return id
}
