// Package handlers is Palaro's HTTP layer: routes, middleware, page handlers that render the
// views, and the /v1 JSON API.
package handlers

import (
	"bytes"
	"context"
	"crypto/ed25519"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/a-h/templ"
	"github.com/gorilla/sessions"
	"github.com/labstack/echo/v5"
	"github.com/labstack/echo/v5/middleware"

	"palaro"
	"palaro/static"
	"palaro/views"
)

// Config is what the HTTP layer needs from the configuration.
type Config struct {
	// BaseURL is the absolute URL of the site, without a trailing slash.
	BaseURL      string
	SupportEmail string
	TagManagerID string
	PixelID      string
	// PartnerKeys are the partners' secrets (key → secret) for signed /v1/ticket/status calls.
	PartnerKeys map[string]string
	// GateListKey is the secret from which each event's gate-list hash key is derived
	// (palaro.GateHashKey): gate phones get the event's key and hashed codes, never the codes.
	GateListKey []byte
	// TicketSigningKey signs ticket QR codes (Ed25519, palaro.SignedTicketQR); gates get its public
	// key only. When unset (tests), New makes one that lives as long as the server.
	TicketSigningKey ed25519.PrivateKey
	// PreviousTicketKeys are the public keys of the signing keys TicketSigningKey replaced: the QR
	// codes they signed still verify, at the server and at the gate.
	PreviousTicketKeys []ed25519.PublicKey
	// SessionKey signs and encrypts the session cookie (at least 32 random bytes).
	SessionKey []byte
	// BoothKey signs the rotating codes of booth screens (palaro.BoothCode).
	BoothKey []byte
	// TrustProxy takes the client's IP address from X-Forwarded-For (set only behind a proxy that sets it).
	TrustProxy bool
	// PageCacheTTL is how long a public page rendered for anonymous visitors is served from
	// memory at most (it is dropped sooner when event data changes); zero turns the cache off.
	PageCacheTTL time.Duration
	// Servers is how many app servers share the database behind one proxy (PALARO_SERVERS, 1 when
	// zero): each enforces that share of every rate limit, which is kept in its memory.
	Servers int
	// WebhookAllowPrivate lets webhook endpoints be loopback or private addresses, and plain http
	// to them (PALARO_WEBHOOK_ALLOW_PRIVATE=1).
	WebhookAllowPrivate bool
}

// Services are the domain services the handlers call. Every one is required (New panics
// without it) but those whose comment says when it may be nil.
type Services struct {
	// Events finds and lists the published events.
	Events palaro.EventService
	// Accounts manages accounts, registrations and reports.
	Accounts palaro.AccountService
	// TicketTypes finds a ticket type for the purchase page.
	TicketTypes palaro.TicketTypeService
	// Purchases creates orders and answers about orders and tickets.
	Purchases palaro.PurchaseService
	// Tournaments keeps the tournaments of events, their teams and players.
	Tournaments palaro.TournamentService
	// Waitlist keeps the waiting lists of sold-out ticket types.
	Waitlist palaro.WaitlistService
	// Seats reads the seat maps of seated ticket types.
	Seats palaro.SeatService
	// Series keeps the dates of event series and their stock per date.
	Series palaro.SeriesService
	// Returns runs buyers' self-cancellations and face-value returns.
	Returns palaro.ReturnsService
	// Payments is the payment provider that collects paid orders (the sandbox or PayMongo).
	Payments palaro.PaymentProvider
	// Organizers runs the organizer console and API.
	Organizers palaro.OrganizerService
	// Refunds refunds orders through the payment provider (the console, the API, the job).
	Refunds palaro.RefundService
	// CheckIns runs the gate: check-ins, the offline list, live counts and the box office.
	CheckIns palaro.CheckInService
	// Activities runs booth visits, scratch cards, quizzes, points and the leaderboard.
	Activities palaro.ActivityService
	// ActivityAdmin is the organizer's side of activities: saving them, prize claims.
	ActivityAdmin palaro.ActivityAdmin
	// News stores news articles and the partner bank's pages.
	News palaro.NewsService
	// Webhooks keeps the organizations' webhook endpoints and shows their deliveries.
	Webhooks palaro.WebhookService
	// Operators says which accounts are operators (the /operator console).
	Operators palaro.Operators
	// Queues runs the queues in front of hot sales.
	Queues palaro.QueueService
	// PartnerLogin opens the partner bank's app for a ticket. It may be nil: it is set only when
	// the partner's API is configured (PALARO_PARTNER_API_URL and _KEY), and nil hides "Open in
	// partner app".
	PartnerLogin palaro.PartnerLogin
	// PaymentPages serves the built-in payment sandbox's hosted checkout under /sandbox/
	// (sandbox.Provider.Handler). It may be nil: only the sandbox has pages of its own, so it is
	// nil when PALARO_PAYMENT_PROVIDER selects another provider.
	PaymentPages http.Handler
	// EventCache is dropped whenever an organizer changes an event, so public pages show the
	// change at once. It may be nil when Events reads the database directly (nothing to drop).
	EventCache interface{ Invalidate() }
	// Changes tells the other app servers of the database that event data changed, so they drop
	// their caches too (store.ChangeFeed). It may be nil for a server that shares its database
	// with no other (nobody to tell).
	Changes interface{ Publish() }
	// Mail keeps events' e-mail words, reminder times and organizers' messages to ticket holders.
	Mail palaro.EventMailService
}

// check reports the first required service that is missing.
func (sv Services) check() error {
	for _, r := range []struct {
		name string
		set  bool
	}{
		{"Events", sv.Events != nil}, {"Accounts", sv.Accounts != nil}, {"TicketTypes", sv.TicketTypes != nil},
		{"Purchases", sv.Purchases != nil}, {"Waitlist", sv.Waitlist != nil}, {"Seats", sv.Seats != nil}, {"Series", sv.Series != nil}, {"Returns", sv.Returns != nil},
		{"Payments", sv.Payments != nil}, {"Organizers", sv.Organizers != nil}, {"Refunds", sv.Refunds != nil}, {"CheckIns", sv.CheckIns != nil},
		{"Activities", sv.Activities != nil}, {"ActivityAdmin", sv.ActivityAdmin != nil}, {"News", sv.News != nil},
		{"Operators", sv.Operators != nil}, {"Queues", sv.Queues != nil}, {"Webhooks", sv.Webhooks != nil},
		{"Mail", sv.Mail != nil},
	} {
		if !r.set {
			return fmt.Errorf("handlers.New: Services.%s is required", r.name)
		}
	}
	return nil
}

// Server is Palaro's HTTP server.
type Server struct {
	echo     *echo.Echo
	config   Config
	services Services
	assets   *static.Assets
	logger   *slog.Logger
	sessions *sessions.CookieStore
	limits   *limiter
	// pictureUploads lets each account upload one picture at a time.
	pictureUploads oneAtATime
	// secure is true when the site is served over TLS (BaseURL is https).
	secure bool
	// csp is the Content-Security-Policy of every answer (contentSecurityPolicy).
	csp string
	// headers are the security headers of every answer but HSTS (securityHeaderValues of csp).
	headers []headerValue
	// pages keeps the rendered public pages for anonymous visitors (pagecache.go).
	pages *pageCache
	// Now returns the current time; tests replace it.
	Now func() time.Time
}

// New builds the server with every route registered. It panics when a required service is
// missing (Services).
func New(cfg Config, services Services, assets *static.Assets, logger *slog.Logger) *Server {
	if err := services.check(); err != nil {
		panic(err)
	}
	cfg.BaseURL = strings.TrimRight(cfg.BaseURL, "/")
	if cfg.SupportEmail == "" {
		cfg.SupportEmail = "support@palaro.ph"
	}
	if len(cfg.TicketSigningKey) != ed25519.PrivateKeySize {
		_, cfg.TicketSigningKey, _ = ed25519.GenerateKey(nil)
	}
	s := &Server{echo: echo.New(), config: cfg, services: services, assets: assets, logger: logger, Now: time.Now}
	s.secure = strings.HasPrefix(cfg.BaseURL, "https://")
	s.csp = contentSecurityPolicy(cfg.TagManagerID != "" || cfg.PixelID != "")
	s.headers = securityHeaderValues(s.csp)
	s.pages = newPageCache(cfg.PageCacheTTL, func() time.Time { return s.Now() })
	s.sessions = newSessionStore(cfg.SessionKey, s.secure)
	s.limits = newLimiter(func() time.Time { return s.Now() }, cfg.Servers)
	s.echo.Logger = logger
	s.echo.HTTPErrorHandler = s.handleError
	s.echo.IPExtractor = echo.ExtractIPDirect()
	if cfg.TrustProxy {
		s.echo.IPExtractor = echo.ExtractIPFromXFFHeader()
	}
	s.echo.Pre(headAsGet)
	s.echo.Use(middleware.RequestIDWithConfig(middleware.RequestIDConfig{Generator: newRequestID}))
	s.echo.Use(s.requestLog())
	s.echo.Use(middleware.Recover())
	s.echo.Use(s.securityHeaders)
	s.echo.Use(trimTrailingSlash)
	s.echo.Use(compress)
	s.echo.Use(limitBody)
	s.echo.Use(s.withSession)
	s.echo.Use(s.cachePublicPages)
	s.echo.Use(s.checkCSRF)
	s.echo.Use(s.rateLimitRoutes)
	s.routes()
	return s
}

// ServeHTTP lets the server be used as an http.Handler: an anonymous visitor's GET or HEAD of a
// public page fresh in the page cache is answered at once (serveCachedPage, the same answer and log
// line as Echo's chain would give), every other request by Echo's chain.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if s.serveCachedPage(w, r) {
		return
	}
	s.echo.ServeHTTP(w, r)
}

// Echo returns the underlying Echo instance, for the tests that walk its router (every route is
// on the route table, handlers/routes.go) and the test that compares the cached pages' fast path
// with Echo's chain.
func (s *Server) Echo() *echo.Echo { return s.echo }

// Start serves HTTP on addr until ctx is cancelled, then shuts down gracefully.
func (s *Server) Start(ctx context.Context, addr string) error {
	sc := echo.StartConfig{Address: addr, HideBanner: true, HidePort: true, GracefulTimeout: 10 * time.Second}
	return sc.Start(ctx, s)
}

// headAsGet answers a HEAD request as the GET of the same URL (RFC 9110: HEAD wherever GET works):
// before routing, the request the app sees becomes a GET, so every GET route, with every
// middleware (cache, gzip, ETag, session), gives the same status and headers. Go's server keeps
// its own copy of the request, still a HEAD, and drops the body the handler writes.
func headAsGet(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c *echo.Context) error {
		r := c.Request()
		if r.Method != http.MethodHead {
			return next(c)
		}
		get := r.WithContext(r.Context())
		get.Method = http.MethodGet
		c.SetRequest(get)
		return next(c)
	}
}

// trimTrailingSlash redirects a path that ends in a slash (/about/, /e/{code}/, but not /) to the
// path without it, query kept, with 308 (permanent, method kept). A path that
// would become another host's address (//host/) is left alone (not found).
func trimTrailingSlash(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c *echo.Context) error {
		u := c.Request().URL
		path := strings.TrimRight(u.EscapedPath(), "/")
		if path == u.EscapedPath() || path == "" || strings.HasPrefix(path, "//") {
			return next(c)
		}
		if u.RawQuery != "" {
			path += "?" + u.RawQuery
		}
		return c.Redirect(http.StatusPermanentRedirect, path)
	}
}

// site is what every page's frame needs.
func (s *Server) site() views.Site {
	return views.Site{
		BaseURL:      s.config.BaseURL,
		SupportEmail: s.config.SupportEmail,
		TagManagerID: s.config.TagManagerID,
		PixelID:      s.config.PixelID,
		BuildID:      s.assets.BuildID(),
		Assets:       s.assets,
		NewsFeed:     true, // every site has news (Services.News)
	}
}

// page returns a Page for the request with the site filled in and the navigation shown.
func (s *Server) page(c *echo.Context, title, description string) views.Page {
	return views.Page{
		Site:        s.site(),
		Title:       title,
		Description: description,
		Path:        c.Request().URL.Path,
		Current:     c.Request().URL.Path,
		Nav:         views.NavInitApp,
		ShowNav:     true,
	}
}

// pageBuffers pools the buffers pages are rendered into.
var pageBuffers = sync.Pool{New: func() any { return new(bytes.Buffer) }}

// render writes a templ component as an HTML response with the given status. The page is rendered
// in memory first and written at once: a failed render can still become an error page, and the
// compressor gets the whole page in one piece instead of templ's flushes.
func render(c *echo.Context, status int, component templ.Component) error {
	buf := pageBuffers.Get().(*bytes.Buffer)
	buf.Reset()
	defer pageBuffers.Put(buf)
	if err := component.Render(c.Request().Context(), buf); err != nil {
		return err
	}
	h := c.Response().Header()
	h.Set(echo.HeaderContentType, echo.MIMETextHTMLCharsetUTF8)
	if h.Get("Cache-Control") == "" {
		h.Set("Cache-Control", "no-cache")
	}
	c.Response().WriteHeader(status)
	_, err := c.Response().Write(buf.Bytes())
	return err
}

// The HTTP layer's own errors, for what no palaro.Error code says; handleError answers each with
// its status and message (docs/ARCHITECTURE.md, Errors).
var (
	// errPageNotFound (404 "Page not found") answers a path no route serves, a missing static
	// file, image or prize picture, the partner app without a partner, and the operator console
	// to anyone but an operator (it is not advertised).
	errPageNotFound = echo.ErrNotFound
	// errTooLarge (413) answers a request whose body is over the limit.
	errTooLarge = &echo.HTTPError{Code: http.StatusRequestEntityTooLarge, Message: "The request is too large."}
	// errParticipantGone (403) answers a scratch card's reveal from a browser that plays as no
	// participant any more.
	errParticipantGone = &echo.HTTPError{Code: http.StatusForbidden, Message: palaro.MsgParticipantGone}
)

// errScanRefused (422) is a booth scan the activity refuses (outside its window, not a ticket
// holder), with the domain's message; the scan page shows it on the activity log.
func errScanRefused(message string) error {
	return &echo.HTTPError{Code: http.StatusUnprocessableEntity, Message: message}
}

// errScanThrottled (429) is a booth scan over the activity's rate, shown like errScanRefused.
func errScanThrottled(message string) error {
	return &echo.HTTPError{Code: http.StatusTooManyRequests, Message: message}
}

// errLinkGone (410) answers a change-of-e-mail link that is used, expired or unknown.
func errLinkGone(message string) error {
	return &echo.HTTPError{Code: http.StatusGone, Message: message}
}

// handleError maps an error to its status and renders it as JSON under /v1 and as a page elsewhere:
// a *palaro.Error by its code (statusOf), one of the errors above (or Echo's own, such as 405) by
// its status, anything else as a 500 that is logged.
func (s *Server) handleError(c *echo.Context, err error) {
	if resp, uErr := echo.UnwrapResponse(c.Response()); uErr == nil && resp.Committed {
		return
	}
	status, message := http.StatusInternalServerError, "Internal Server Error"
	var appErr *palaro.Error
	switch {
	case errors.As(err, &appErr):
		status, message = statusOf(appErr.Code), appErr.Message
		if appErr.Code == palaro.ENOTFOUND && !isAPI(c) {
			message = "Page Not Found"
		}
	case echo.StatusCode(err) != 0:
		status = echo.StatusCode(err)
		message = http.StatusText(status)
		if status == http.StatusNotFound {
			message = "Page not found"
		}
		var he *echo.HTTPError
		if errors.As(err, &he) && he.Message != "" {
			message = he.Message
		}
	}
	if status >= 500 {
		s.logger.Error("request failed", "method", c.Request().Method, "route", c.Path(),
			"request_id", c.Response().Header().Get(echo.HeaderXRequestID), "error", err)
		message = "Internal Server Error"
	}
	if isAPI(c) {
		body := map[string]any{"message": message, "responseCode": status}
		if appErr != nil && len(appErr.Fields) > 0 {
			body["fields"] = appErr.Fields
		}
		_ = c.JSON(status, body)
		return
	}
	if c.Request().Method == http.MethodHead {
		_ = c.NoContent(status)
		return
	}
	heading, body := errorPageText(status, message)
	p := s.page(c, heading+" · Palaro", heading)
	p.NoIndex = true
	_ = render(c, status, views.ErrorPage(p, heading, body))
}

// errorPageText is the heading and the sentence of an error page: the heading names the error
// ('Page Not Found', 'Page not found', 'Internal Server Error' or the status), the sentence says
// what happened or what to do, never the heading again.
func errorPageText(status int, message string) (heading, body string) {
	switch {
	case status == http.StatusNotFound:
		return message, "The page you are looking for does not exist or has moved."
	case status >= 500:
		return message, "Something went wrong on our side. Please try again in a moment."
	case message == "" || message == http.StatusText(status):
		return http.StatusText(status), "This request could not be completed. Please go back and try again."
	}
	return http.StatusText(status), message
}

func isAPI(c *echo.Context) bool { return strings.HasPrefix(c.Request().URL.Path, "/v1/") }

// statusOf maps a domain error code to an HTTP status.
func statusOf(code string) int {
	switch code {
	case palaro.EINVALID:
		return http.StatusBadRequest
	case palaro.ENOTFOUND:
		return http.StatusNotFound
	case palaro.ECONFLICT:
		return http.StatusConflict
	case palaro.EUNAUTHORIZED:
		return http.StatusUnauthorized
	case palaro.EFORBIDDEN:
		return http.StatusForbidden
	case palaro.ETOOMANY:
		return http.StatusTooManyRequests
	}
	return http.StatusInternalServerError
}
