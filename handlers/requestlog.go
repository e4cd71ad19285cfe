package handlers

import (
	"log/slog"
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
// (metrics.Request, by route pattern too).
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
			route := v.RoutePath
			if route == "" {
				route = "(none)"
			}
			metrics.Request(route, v.Method, v.Status, v.Latency)
			s.logger.LogAttrs(c.Request().Context(), slog.LevelInfo, "request",
				slog.String("method", v.Method),
				slog.String("route", route),
				slog.Int("status", v.Status),
				slog.Int64("bytes", v.ResponseSize),
				slog.Float64("duration_ms", float64(v.Latency.Microseconds())/float64(time.Millisecond/time.Microsecond)),
				slog.String("request_id", loggableID(v.RequestID)))
			return nil
		},
	})
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
