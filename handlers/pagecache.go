package handlers

import (
	"bytes"
	"crypto/sha256"
	"encoding/base64"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/klauspost/compress/gzip"
	"github.com/labstack/echo/v5"
	"golang.org/x/sync/singleflight"

	"palaro/internal/metrics"
	"palaro/views"
)

// pageQueryParams are the query parameters the public pages read (the list filters, the page
// number, the location, the calendar's month). The cache key keeps only these, so a link with
// tracking parameters (utm_source, fbclid) shares its page's entry; a public page that starts
// reading another parameter must add it here.
var pageQueryParams = []string{"lat", "lng", "month", "page", "tag", "type", "v", "when"}

// pageKey is the cache key of a public page: its path and the query parameters it reads.
func pageKey(r *http.Request) string {
	if r.URL.RawQuery == "" {
		return r.URL.Path + "?"
	}
	q := r.URL.Query()
	kept := url.Values{}
	for _, k := range pageQueryParams {
		if v, ok := q[k]; ok {
			kept[k] = v
		}
	}
	return r.URL.Path + "?" + kept.Encode()
}

// publicPage reports whether the request is a GET or HEAD of a route the route table marks cached.
func publicPage(c *echo.Context) bool {
	m := c.Request().Method
	if m != http.MethodGet && m != http.MethodHead {
		return false
	}
	rt := routeOf(c)
	return rt != nil && rt.cached
}

// publicCacheControl lets a browser keep a public page but ask again each time (answered with a
// 304 when its ETag still matches), and a CDN or reverse proxy serve it for 10 s, and a stale copy
// for 30 s more while it fetches the new one.
const publicCacheControl = "public, max-age=0, s-maxage=10, stale-while-revalidate=30"

// maxCachedPages bounds the page cache, whatever paths and queries visitors ask for.
const maxCachedPages = 1000

// cachedPage is one rendered public page: its body as it is and gzipped, with their ETags.
type cachedPage struct {
	status      int
	contentType string
	body        []byte
	gzipped     []byte
	etag        string
	gzipETag    string
	expires     time.Time
	refreshing  bool // a request is rendering it again since it expired (guarded by pageCache.mu)

	// route is the pattern of the route that rendered it (such as /e/:code), for the request log.
	route string
	// fast lets the fast path (serveCachedPage) answer with it: the request that rendered it had
	// no escapes in its path, so Echo routed it on the path its key holds, as it would route the
	// fast path's request; and its route is no framed page, whose policy frameAncestors reads
	// from the event at each request.
	fast bool
	// The headers of the answers, made once (writePage): the content type, the ETags and the
	// lengths of both bodies.
	typeHeader, etagHeader, gzipETagHeader, lengthHeader, gzipLengthHeader []string
}

// header returns a header value made once for every answer of a page (see headerValue).
func header(value string) []string { return []string{value}[:1:1] }

// pageCache keeps the rendered public pages of anonymous visitors by path and query, for at most
// ttl, until Invalidate. Concurrent misses of one page share one render.
//
// Public pages are the lines of the route table (handlers/routes.go) marked cached: home,
// /e/{code}, /f/{tag}, /calendar, /v1/calendar, the text pages, /news*, /pnk* and the 'load more'
// fragment /events. They are the same bytes for every anonymous visitor. A new public page is
// marked there, on its route's line; withSession and cachePublicPages read the mark from the
// matched route (publicPage).
//
// No session, no token, no nonce. No cookie is set, the layout omits the CSRF meta tag and the CSP
// has no nonce. Scripts get the token from GET /v1/csrf when needed (islands/lib/api.ts,
// islands/page/htmx.ts) and send it as X-CSRF-Token; the event page's quick-buy sheets (forms that
// post to /b/{code}, only opened by the page script) get it in their _csrf field when one opens.
// The buy page /b/{code} and the seat map /s/{code} are not cached (private, no-cache): the buy
// page's form carries the visitor's token in a hidden _csrf field, so it posts without JavaScript.
//
// Served from memory, keyed by path plus pageQueryParams. A miss renders
// once as an anonymous visitor (concurrent misses share it), gzips once and keeps both bodies with
// ETags for PALARO_CACHE_SECONDS, up to 1000 pages, 200s only. When a page expires, the first
// request renders it again while the others get the expired page at once (pageCache.get). If-None-Match gets a 304; Cache-
// Control: public, max-age=0, s-maxage=10, stale-while-revalidate=30 lets a CDN keep it briefly.
// An answer that must set a cookie is private.
//
// Two paths serve a cached page. A fresh page asked for by a visitor without a session cookie
// (GET or HEAD, no body, no escapes in the path, no trailing slash) is answered before Echo by
// serveCachedPage (pagecache_fast.go, via Server.ServeHTTP and pageCache.fresh): the same
// headers, bytes, log line and hit count as the chain's, without the chain. Every other request
// of a cached route goes through Echo's whole chain to cachePublicPages (a miss, an expired page
// and its render again, a session cookie, a framed widget page, a page rendered from an escaped
// path). Both write the page with writePage.
//
// Invalidated when event data changes. eventsChanged (handlers/organizer.go) drops both caches.
// Callers: the organizer console and API on every save, publish, cover upload and cancel; news and
// partner-page saves; POST /v1/ticket/buy after an order leaving 20 or fewer tickets of its type,
// and after every 409; the hold-expiry job (Server.EventsChanged) when it released some. A render
// begun before an invalidation is not kept. Other changes show within the TTL. With several app
// servers on PostgreSQL, eventsChanged also publishes on the change feed (store/changes.go: NOTIFY
// palaro_events after the commit, a dedicated LISTEN connection per server that reconnects and
// then drops everything); the other servers drop both caches and the purchase catalog
// (Server.DropCaches, DB.ChangedElsewhere). docs/SCALING.md has the rest of the several-server
// design.
//
// Signed-in visitors bypass the cache (a separate path, not a personal fragment): their page shows
// their name and sign-out form, so it is rendered for them, Cache-Control: private, no-cache. An
// anonymous session (after a buy page) still gets the cached bytes.
type pageCache struct {
	ttl time.Duration
	now func() time.Time

	mu      sync.RWMutex
	entries map[string]*cachedPage
	gen     uint64 // counts Invalidate calls: a render started before one is not kept
	group   singleflight.Group
}

func newPageCache(ttl time.Duration, now func() time.Time) *pageCache {
	return &pageCache{ttl: ttl, now: now, entries: map[string]*cachedPage{}}
}

// Invalidate drops every cached page, so the next visitor sees changed event data at once.
func (pc *pageCache) Invalidate() {
	pc.mu.Lock()
	defer pc.mu.Unlock()
	clear(pc.entries)
	pc.gen++
}

// fresh returns the page cached for r when it is fresh, counting a hit, or nil: the fast path's
// lookup (serveCachedPage). A page that is missing, expired or not for the fast path is left to
// get, in Echo's chain. A key without query is looked up without allocating it.
func (pc *pageCache) fresh(r *http.Request) *cachedPage {
	var p *cachedPage
	now := pc.now()
	pc.mu.RLock()
	if r.URL.RawQuery == "" {
		var buf [128]byte
		p = pc.entries[string(append(append(buf[:0], r.URL.Path...), '?'))]
	} else {
		p = pc.entries[pageKey(r)]
	}
	pc.mu.RUnlock()
	if p == nil || !p.fast || !now.Before(p.expires) {
		return nil
	}
	metrics.PageCacheHit.Inc()
	return p
}

// maxStale is how long past its expiry a cached page may still be served while it is rendered
// again; older than that, visitors wait for the render (a render that hangs does not keep an old
// page up for long).
const maxStale = 30 * time.Second

// get returns the page cached under key, or renders it once (however many ask at the same time)
// and keeps it when it is a 200 and no Invalidate came while it rendered.
//
// An expired page is rendered again by the one request that finds it so (stale-while-revalidate):
// that request waits for the render, while every request meanwhile gets the expired page at once
// instead of waiting for it. A render that fails lets the next request try again; one that is no
// longer a 200 drops the old page. After Invalidate there is no old page: everyone waits for the
// new one, so changed event data is never served from before the change.
func (pc *pageCache) get(key string, render func() (*cachedPage, error)) (*cachedPage, error) {
	now := pc.now()
	pc.mu.Lock()
	p, ok := pc.entries[key]
	gen := pc.gen
	fresh := ok && now.Before(p.expires)
	stale := ok && !fresh && p.refreshing && now.Before(p.expires.Add(maxStale))
	refresh := ok && !fresh && !stale
	if refresh {
		p.refreshing = true
	}
	pc.mu.Unlock()
	if fresh || stale {
		metrics.PageCacheHit.Inc()
		return p, nil
	}
	metrics.PageCacheMiss.Inc()
	v, err, _ := pc.group.Do(strconv.FormatUint(gen, 10)+" "+key, func() (any, error) {
		np, err := render()
		if err != nil {
			return nil, err
		}
		np.expires = now.Add(pc.ttl)
		if np.status == http.StatusOK {
			pc.store(key, np, gen)
		}
		return np, nil
	})
	if refresh {
		pc.refreshed(key, p, err == nil && v.(*cachedPage).status == http.StatusOK, err != nil)
	}
	if err != nil {
		return nil, err
	}
	return v.(*cachedPage), nil
}

// refreshed ends the render again of old, the expired page under key: when the render failed,
// the next request tries again; when it was no 200, old is dropped (when still there).
func (pc *pageCache) refreshed(key string, old *cachedPage, ok, failed bool) {
	pc.mu.Lock()
	defer pc.mu.Unlock()
	old.refreshing = false
	if !ok && !failed && pc.entries[key] == old {
		delete(pc.entries, key)
	}
}

// store keeps p under key unless the cache was invalidated since gen; when the cache is full it
// first drops expired pages, and keeps nothing when it is still full.
func (pc *pageCache) store(key string, p *cachedPage, gen uint64) {
	pc.mu.Lock()
	defer pc.mu.Unlock()
	if gen != pc.gen {
		return
	}
	if len(pc.entries) >= maxCachedPages {
		now := pc.now()
		for k, e := range pc.entries {
			if !now.Before(e.expires) {
				delete(pc.entries, k)
			}
		}
		if len(pc.entries) >= maxCachedPages {
			return
		}
	}
	pc.entries[key] = p
}

// cachePublicPages answers anonymous visitors of public pages from the page cache: the page is
// rendered once without any per-visitor part, gzipped once, and served with an ETag (304 on a
// matching If-None-Match) and a Cache-Control that lets a proxy keep it briefly. A signed-in
// visitor's request bypasses the cache: their page (menu with their name, the sign-out form and
// its token) is rendered for them and marked private.
func (s *Server) cachePublicPages(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c *echo.Context) error {
		if !publicPage(c) {
			return next(c)
		}
		if currentUser(c) != nil {
			c.Response().Header().Set("Cache-Control", "private, no-cache")
			return next(c)
		}
		if s.pages.ttl <= 0 {
			return next(c)
		}
		r := c.Request()
		p, err := s.pages.get(pageKey(r), func() (*cachedPage, error) { return renderPage(c, next) })
		if err != nil {
			return err
		}
		return servePage(c, p)
	}
}

// renderPage runs the page's handler into memory as an anonymous visitor (no CSRF token, no
// viewer, whatever session the request carries) and gzips the result.
func renderPage(c *echo.Context, next echo.HandlerFunc) (*cachedPage, error) {
	orig, req := c.Response(), c.Request()
	rec := &pageRecorder{header: http.Header{}}
	c.SetResponse(rec)
	c.SetRequest(req.WithContext(views.WithRequestInfo(req.Context(), views.RequestInfo{})))
	err := next(c)
	c.SetResponse(orig)
	c.SetRequest(req)
	if err != nil {
		return nil, err
	}
	p := &cachedPage{status: rec.status, contentType: rec.header.Get(echo.HeaderContentType), body: rec.body.Bytes(),
		route: c.Path(), fast: req.URL.RawPath == "" && !framedRoute(c.Path())}
	if p.status == 0 {
		p.status = http.StatusOK
	}
	var gz bytes.Buffer
	w, _ := gzip.NewWriterLevel(&gz, gzip.DefaultCompression)
	_, _ = w.Write(p.body)
	if err := w.Close(); err != nil {
		return nil, err
	}
	p.gzipped = gz.Bytes()
	sum := sha256.Sum256(p.body)
	tag := base64.RawURLEncoding.EncodeToString(sum[:12])
	p.etag, p.gzipETag = `"`+tag+`"`, `"`+tag+`-gz"`
	p.typeHeader, p.etagHeader, p.gzipETagHeader = header(p.contentType), header(p.etag), header(p.gzipETag)
	p.lengthHeader, p.gzipLengthHeader = header(strconv.Itoa(len(p.body))), header(strconv.Itoa(len(p.gzipped)))
	return p, nil
}

// servePage writes a cached page: gzipped to clients that accept it, or a 304 when the client's
// copy is current. A response that sets a cookie (an expired sign-in being cleared) is private.
func servePage(c *echo.Context, p *cachedPage) error {
	w := c.Response()
	_, _, err := writePage(w, c.Request(), p, len(w.Header().Values("Set-Cookie")) > 0)
	return err
}

// Header names of writePage, canonical, to set them without canonicalizing each time.
const (
	headerCacheControl    = "Cache-Control"
	headerContentEncoding = "Content-Encoding"
	headerContentLength   = "Content-Length"
	headerContentType     = "Content-Type"
	headerETag            = "Etag"
)

// Header values of writePage, made once.
var (
	publicCacheControlHeader  = header(publicCacheControl)
	privateCacheControlHeader = header("private, no-cache")
	gzipHeader                = header("gzip")
)

// writePage writes the cached page p as the answer to r, for servePage and the fast path alike:
// gzipped when r accepts gzip, a 304 when r's If-None-Match names the body's ETag, private when
// private (the answer sets a cookie), else public for a proxy too (publicCacheControl). The body
// is written for a HEAD too: net/http drops it (a HEAD reaches servePage as a GET, headAsGet). It
// returns the status and the body's bytes written, for the request log.
func writePage(w http.ResponseWriter, r *http.Request, p *cachedPage, private bool) (status, size int, err error) {
	h := w.Header()
	h[headerContentType] = p.typeHeader
	if private {
		h[headerCacheControl] = privateCacheControlHeader
	} else {
		h[headerCacheControl] = publicCacheControlHeader
	}
	body, etag, etagHeader, lengthHeader := p.body, p.etag, p.etagHeader, p.lengthHeader
	gz := strings.Contains(r.Header.Get(echo.HeaderAcceptEncoding), "gzip")
	if gz {
		body, etag, etagHeader, lengthHeader = p.gzipped, p.gzipETag, p.gzipETagHeader, p.gzipLengthHeader
	}
	h[headerETag] = etagHeader
	if p.status == http.StatusOK && etagMatches(r.Header.Get("If-None-Match"), etag) {
		delete(h, headerContentEncoding)
		w.WriteHeader(http.StatusNotModified)
		return http.StatusNotModified, 0, nil
	}
	if gz {
		h[headerContentEncoding] = gzipHeader
	}
	h[headerContentLength] = lengthHeader
	w.WriteHeader(p.status)
	size, err = w.Write(body)
	return p.status, size, err
}

// etagMatches reports whether an If-None-Match header names etag (weak comparison, or "*").
func etagMatches(header, etag string) bool {
	for _, t := range strings.Split(header, ",") {
		t = strings.TrimPrefix(strings.TrimSpace(t), "W/")
		if t == "*" || t == etag {
			return true
		}
	}
	return false
}

// pageRecorder collects a page's status, headers and body in memory.
type pageRecorder struct {
	header http.Header
	status int
	body   bytes.Buffer
}

// Header returns the recorded headers.
func (w *pageRecorder) Header() http.Header { return w.header }

// WriteHeader records the status.
func (w *pageRecorder) WriteHeader(code int) {
	if w.status == 0 {
		w.status = code
	}
}

// Write records body bytes.
func (w *pageRecorder) Write(p []byte) (int, error) {
	if w.status == 0 {
		w.status = http.StatusOK
	}
	return w.body.Write(p)
}

// csrfTokenAPI answers GET /v1/csrf with the session's CSRF token, starting a session when there
// is none: cached public pages carry no token, so their scripts (htmx, the islands) ask here
// before their first state-changing call.
func (s *Server) csrfTokenAPI(c *echo.Context) error {
	c.Response().Header().Set("Cache-Control", "no-store")
	return c.JSON(http.StatusOK, map[string]string{"token": visitOf(c).csrfToken()})
}
