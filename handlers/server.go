// Package handlers is Palaro's HTTP layer: routes, middleware, page handlers that render the
// views, and the /v1 JSON API.
package handlers

import (
	"bytes"
	"context"
	"crypto/ed25519"
	"errors"
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
}

// Services are the domain services the handlers call.
type Services struct {
	Events palaro.EventService
	// Accounts manages accounts, registrations and reports.
	Accounts palaro.AccountService
	// TicketTypes finds a ticket type for the purchase page.
	TicketTypes palaro.TicketTypeService
	// Purchases creates orders and answers about orders and tickets.
	Purchases palaro.PurchaseService
	// Waitlist keeps the waiting lists of sold-out ticket types; nil leaves them out.
	Waitlist palaro.WaitlistService
	// Seats reads the seat maps of seated ticket types.
	Seats palaro.SeatService
	// Payments is the payment provider that collects paid orders; nil turns payments off.
	Payments palaro.PaymentProvider
	// Organizers runs the organizer console and API.
	Organizers palaro.OrganizerService
	// CheckIns runs the gate: check-ins, the offline list, live counts and the box office.
	CheckIns palaro.CheckInService
	// Activities runs booth visits, scratch cards, quizzes, points and the leaderboard.
	Activities palaro.ActivityService
	// ActivityAdmin is the organizer's side of activities: saving them, prize claims.
	ActivityAdmin palaro.ActivityAdmin
	// News stores news articles and the partner bank's pages; nil leaves /news and /pnk out.
	News palaro.NewsService
	// Operators says which accounts are operators (the /operator console); nil leaves it out.
	Operators palaro.Operators
	// PartnerLogin opens the partner bank's app for a ticket; nil hides "Open in partner app".
	PartnerLogin palaro.PartnerLogin
	// Queues runs the queues in front of hot sales; nil leaves them out.
	Queues palaro.QueueService
	// EventCache, when set, is dropped whenever an organizer changes an event, so public pages
	// show the change at once.
	EventCache interface{ Invalidate() }
	// Changes, when set, tells the other app servers of the database that event data changed, so
	// they drop their caches too (store.ChangeFeed).
	Changes interface{ Publish() }
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
	// pages keeps the rendered public pages for anonymous visitors (pagecache.go).
	pages *pageCache
	// Now returns the current time; tests replace it.
	Now func() time.Time
}

// New builds the server with every route registered.
func New(cfg Config, services Services, assets *static.Assets, logger *slog.Logger) *Server {
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
	s.echo.Use(middleware.RequestID())
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

// ServeHTTP lets the server be used as an http.Handler.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) { s.echo.ServeHTTP(w, r) }

// Echo returns the underlying Echo instance, for wiring extra routes such as the payment sandbox.
func (s *Server) Echo() *echo.Echo { return s.echo }

// Start serves HTTP on addr until ctx is cancelled, then shuts down gracefully.
func (s *Server) Start(ctx context.Context, addr string) error {
	sc := echo.StartConfig{Address: addr, HideBanner: true, HidePort: true, GracefulTimeout: 10 * time.Second}
	return sc.Start(ctx, s.echo)
}

func (s *Server) routes() {
	e := s.echo
	e.GET("/static/*", s.serveAsset)
	e.GET("/build.json", s.buildInfo)
	e.GET("/robots.txt", s.robots)
	e.GET("/sitemap.xml", s.sitemap)
	e.GET("/manifest.webmanifest", s.webManifest)

	e.GET("/", s.home)
	e.GET("/events", s.eventListFragment)
	e.GET("/e/:code", s.eventPage)
	e.GET("/e/:code/calendar.ics", s.eventICS)
	e.GET("/calendar.ics", s.calendarICS)
	e.GET("/f/:tag", s.findPage)
	e.GET("/calendar", s.calendarPage)
	e.GET("/v1/calendar", s.calendarEvents)
	e.GET("/about", s.aboutPage)
	e.GET("/faq", s.faqPage)
	e.GET("/contacts", s.contactsPage)
	e.GET("/privacy", s.privacyPage)
	e.GET("/terms", s.termsPage)
	e.GET("/cookies", s.cookiesPage)

	e.GET("/b/:code", s.buyPage)
	e.POST("/b/:code", s.buyFormPost)
	e.GET("/s/:code", s.seatsPage)

	e.GET("/v1/csrf", s.csrfTokenAPI)
	e.GET("/v1/ticket_type", s.ticketType)
	e.POST("/v1/ticket/buy", s.buyTicket)
	e.GET("/v1/ticket/add", s.ticketAddOns)
	e.POST("/v1/ticket/add", s.buyAddOns)
	e.POST("/v1/ticket/change-email", s.changeEmail)
	e.GET("/v1/ticket/status", s.ticketStatus)
	e.POST("/v1/tickets/link", s.ticketsLink)
	e.GET("/change-email/confirm/:token", s.confirmEmailChange)
	e.POST("/change-email/confirm/:token", s.confirmEmailChange)
	e.POST("/v1/payment/webhook/:provider", s.paymentWebhook)

	e.GET("/payment/success/:id", s.orderPage)
	e.GET("/t/:id", s.ticketPage)
	e.GET("/q/:id", s.qrPage)
	e.GET("/a/:id", s.addOnsPage)
	e.GET("/change-email/:id", s.changeEmailPage)
	e.POST("/change-email/:id", s.changeEmailPage)
	e.GET("/change-email/success/:id", s.changeEmailSuccessPage)
	e.GET("/change-ticket/success/:id", s.changeTicketSuccessPage)
	e.GET("/tickets", s.ticketsPage)
	e.POST("/tickets", s.ticketsPage)
	e.GET("/tickets/:token", s.ticketsByLinkPage)
	e.GET("/sw.js", s.serviceWorker)
	s.queueRoutes()

	s.accountRoutes()
	if s.services.Activities != nil {
		s.activityRoutes()
	}
	if s.services.News != nil {
		s.newsRoutes()
		s.operatorRoutes()
	}
	if s.services.Waitlist != nil {
		s.waitlistRoutes()
	}
	if s.services.Organizers != nil {
		s.organizerRoutes()
	}

	e.RouteNotFound("/*", func(c *echo.Context) error { return echo.ErrNotFound })
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
		NewsFeed:     s.services.News != nil,
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

// handleError maps an error to its status and renders it as JSON under /v1 and as a page elsewhere.
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
