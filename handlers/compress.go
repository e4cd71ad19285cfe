package handlers

import (
	"net/http"
	"strings"
	"sync"

	"github.com/klauspost/compress/gzip"
	"github.com/labstack/echo/v5"
)

// minGzipLength is the smallest body worth compressing: below it, gzip's header costs more than it saves.
const minGzipLength = 512

// gzipWriters pools gzip writers: each holds about 1 MB of compression state. Pages are compressed
// per request at the fastest level: it costs about half the CPU of the default level, and pages
// stay far inside their byte budget (static files are compressed once, at the best level).
var gzipWriters = sync.Pool{New: func() any {
	w, _ := gzip.NewWriterLevel(nil, gzip.BestSpeed)
	return w
}}

// compress gzips responses of at least minGzipLength bytes for clients that accept gzip. It uses
// klauspost/compress, which writes the same format as compress/gzip at a similar ratio in less
// than half the CPU time: compression is most of a page's cost. A response that sets its own
// Content-Encoding (the precompressed static files) passes through untouched.
func compress(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c *echo.Context) error {
		c.Response().Header().Add(echo.HeaderVary, echo.HeaderAcceptEncoding)
		if !strings.Contains(c.Request().Header.Get(echo.HeaderAcceptEncoding), "gzip") {
			return next(c)
		}
		orig := c.Response()
		w := &gzipResponseWriter{ResponseWriter: orig}
		c.SetResponse(w)
		defer func() {
			w.finish()
			c.SetResponse(orig)
		}()
		return next(c)
	}
}

// gzipResponseWriter holds the start of a response until it knows whether to compress it: when
// the body reaches minGzipLength, on Flush, or at the end.
type gzipResponseWriter struct {
	http.ResponseWriter
	status  int    // status to send, once the handler chose one
	pending []byte // body written before the decision
	decided bool
	gz      *gzip.Writer // set when compressing
}

// WriteHeader records the status; it is sent with the decision.
func (w *gzipResponseWriter) WriteHeader(code int) {
	if w.status == 0 {
		w.status = code
	}
	if code < 200 || code == http.StatusNoContent || code == http.StatusNotModified {
		w.decide(false) // no body will follow
	}
}

// Write buffers the start of the body, then compresses or passes it through.
func (w *gzipResponseWriter) Write(p []byte) (int, error) {
	if w.status == 0 {
		w.status = http.StatusOK
	}
	if w.decided {
		if w.gz != nil {
			return w.gz.Write(p)
		}
		return w.ResponseWriter.Write(p)
	}
	w.pending = append(w.pending, p...)
	if len(w.pending) >= minGzipLength {
		if err := w.decide(true); err != nil {
			return 0, err
		}
	}
	return len(p), nil
}

// Flush sends what is buffered, compressed if the response is being compressed, to the client.
func (w *gzipResponseWriter) Flush() {
	_ = w.decide(len(w.pending) > 0)
	if w.gz != nil {
		_ = w.gz.Flush()
	}
	_ = http.NewResponseController(w.ResponseWriter).Flush()
}

// Unwrap lets http.ResponseController and echo reach the underlying writer.
func (w *gzipResponseWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }

// decide sends the status and headers, compressing the body from now on when big says it is long
// enough and the handler did not encode it itself. Only the first call decides.
func (w *gzipResponseWriter) decide(big bool) error {
	if w.decided {
		return nil
	}
	w.decided = true
	h := w.Header()
	if big && h.Get(echo.HeaderContentEncoding) == "" {
		h.Set(echo.HeaderContentEncoding, "gzip")
		h.Del(echo.HeaderContentLength)
		if h.Get(echo.HeaderContentType) == "" {
			h.Set(echo.HeaderContentType, http.DetectContentType(w.pending))
		}
		w.gz = gzipWriters.Get().(*gzip.Writer)
		w.gz.Reset(w.ResponseWriter)
	}
	if w.status != 0 {
		w.ResponseWriter.WriteHeader(w.status)
	}
	if len(w.pending) == 0 {
		return nil
	}
	var err error
	if w.gz != nil {
		_, err = w.gz.Write(w.pending)
	} else {
		_, err = w.ResponseWriter.Write(w.pending)
	}
	w.pending = nil
	return err
}

// finish sends a short body as it is and ends the gzip stream. A response that wrote nothing is
// left unsent, so that the error handler can still write it.
func (w *gzipResponseWriter) finish() {
	if !w.decided && (w.status != 0 || len(w.pending) > 0) {
		_ = w.decide(false)
	}
	if w.gz != nil {
		_ = w.gz.Close()
		w.gz.Reset(nil)
		gzipWriters.Put(w.gz)
		w.gz = nil
	}
}
