package handlers

import (
	"net/http"
	"strings"
	"time"

	"github.com/labstack/echo/v5"
)

// Vary of a cached page's answer: compress adds Accept-Encoding, then withSession adds Cookie on
// the paths that have sessions (skipSession).
var (
	varyEncoding       = []string{echo.HeaderAcceptEncoding}[:1:1]
	varyEncodingCookie = []string{echo.HeaderAcceptEncoding, echo.HeaderCookie}[:2:2]
)

// headerRequestID is the canonical name of the request id's header.
var headerRequestID = http.CanonicalHeaderKey(echo.HeaderXRequestID)

// serveCachedPage is the fast path of the public pages: it answers an anonymous visitor's GET or
// HEAD of a page fresh in the page cache before Echo, and reports whether it did. Its answer is
// the one Echo's chain gives such a request, header for header and byte for byte (proved by
// TestCachedPageFastPath_AnswersAsTheChain): the request id (the client's or a new one), the
// security headers, Vary, then writePage as servePage calls it; and the same log line and
// metrics (logRequest, a HEAD logged as the GET it is answered as, like headAsGet makes it in the
// chain) and the cache hit counted. What the chain does for such a request and the fast path
// skips is what a cached page does not need: the context and router, the recover, the gzip
// writer (the page is gzipped already), the body limit (it has no body), the session (it has no
// cookie), the CSRF check and rate limits (GET).
//
// Everything else is left to the chain, unchanged: another method; a request with a body; a
// session cookie (valid or not: withSession decides); a path with escapes (Echo routes on the
// escaped path, the cache keys the decoded one) or ending in a slash (trimTrailingSlash
// redirects it); a page not in the cache, expired (being rendered again), rendered from an
// escaped path, or a framed widget page (frameAncestors reads its event at each request).
func (s *Server) serveCachedPage(w http.ResponseWriter, r *http.Request) bool {
	if s.pages.ttl <= 0 || r.Method != http.MethodGet && r.Method != http.MethodHead ||
		r.Body != nil && r.Body != http.NoBody || r.URL.RawPath != "" {
		return false
	}
	path := r.URL.Path
	if len(path) > 1 && strings.HasSuffix(path, "/") || hasSessionCookie(r) {
		return false
	}
	start := time.Now()
	p := s.pages.fresh(r)
	if p == nil {
		return false
	}
	h := w.Header()
	id := r.Header.Get(echo.HeaderXRequestID)
	if id == "" {
		id = newRequestID()
	}
	h[headerRequestID] = []string{id}
	s.setSecurityHeaders(h)
	if skipSession(path) {
		h[echo.HeaderVary] = varyEncoding
	} else {
		h[echo.HeaderVary] = varyEncodingCookie
	}
	status, size, _ := writePage(w, r, p, false)
	s.logRequest(r.Context(), http.MethodGet, p.route, status, int64(size), time.Since(start), id)
	return true
}
