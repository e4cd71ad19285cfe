package handlers

import (
	"cmp"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"crypto/sha512"
	"crypto/subtle"
	"encoding/base64"
	"errors"
	"io"
	"net/http"
	"strings"
	"time"

	"github.com/gorilla/sessions"
	"github.com/labstack/echo/v5"

	"palaro"
	"palaro/views"
)

// sessionCookie is the name of the session cookie.
const sessionCookie = "palaro_session"

// Session values.
const (
	keySID  = "sid"  // random id of this session, new at every sign-in
	keyCSRF = "csrf" // the session's CSRF token
	keyUID  = "uid"  // signed-in user's id
	keyVer  = "ver"  // the user's session version at sign-in
	keyAt   = "at"   // Unix time of the sign-in
)

// csrfField and csrfHeader carry the CSRF token in forms and in JSON calls.
const (
	csrfField  = "_csrf"
	csrfHeader = "X-CSRF-Token"
)

// Body limits: most requests are small forms or JSON; the picture upload may be larger.
const (
	maxBodyBytes    = 1 << 20
	maxPictureBytes = 5 << 20
	// maxUploadBody leaves room for the multipart envelope and the other form fields around a picture.
	maxUploadBody = maxPictureBytes + 64<<10
)

// csrfExempt reports whether a request is a POST to a route the route table exempts from the CSRF
// check (noCSRF): each authenticates itself and never acts on the session cookie: a call from
// another server, signed, or the widget's framed buy form (embedBuyPost), which checks a signed
// form token and the request's origin and uses no session. Other methods of such a route (the
// sandbox takes any) are checked.
func csrfExempt(c *echo.Context) bool {
	if c.Request().Method != http.MethodPost {
		return false
	}
	rt := routeOf(c)
	return rt != nil && rt.csrfExempt != ""
}

// visit is the request's session and the signed-in user, if any.
type visit struct {
	session *sessions.Session
	user    *palaro.User
}

const visitKey = "palaro.visit"

// sessionKeys derives the cookie's signing and encryption keys from the configured secret.
func sessionKeys(secret []byte) (hashKey, blockKey []byte) {
	h := hmac.New(sha512.New, secret)
	h.Write([]byte("palaro session signing"))
	b := hmac.New(sha256.New, secret)
	b.Write([]byte("palaro session encryption"))
	return h.Sum(nil), b.Sum(nil)
}

// randomToken returns 32 random bytes, base64url-encoded.
func randomToken() string {
	b := make([]byte, 32)
	_, _ = rand.Read(b) // crypto/rand.Read never fails (Go 1.24+)
	return base64.RawURLEncoding.EncodeToString(b)
}

// skipSession reports whether a path needs no session: static files, machine-read resources and
// the widget's framed pages.
func skipSession(path string) bool {
	return strings.HasPrefix(path, "/static/") || path == "/build.json" || path == "/robots.txt" ||
		path == "/sitemap.xml" || path == "/favicon.ico" || path == "/manifest.webmanifest" || strings.HasPrefix(path, "/event-images/") ||
		strings.HasPrefix(path, "/prize-images/") ||
		strings.HasPrefix(path, "/queue/") || strings.HasPrefix(path, "/v1/queue/") || // the queue's signed cookies are its state
		strings.HasPrefix(path, "/embed/") // framed on other sites: no cookie (embedBuyPost)
}

// securityHeaders sets the security headers of every response: pages, static files, 404s and
// other errors, redirects, webhooks and the payment sandbox (which narrows the policy further
// with a nonce of its own). The policy is the same for every request, so a cached page's
// headers are as valid for the next visitor as its bytes; only the ticket widget's pages
// (/embed/) name the sites that may frame them (frameAncestors).
func (s *Server) securityHeaders(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c *echo.Context) error {
		s.setSecurityHeaders(c.Response().Header())
		s.frameAncestors(c)
		return next(c)
	}
}

// setSecurityHeaders sets the security headers every answer carries (the framed pages' policy
// aside, frameAncestors) in h: the middleware's and the cached pages' fast path's.
func (s *Server) setSecurityHeaders(h http.Header) {
	for _, kv := range s.headers {
		h[kv.key] = kv.value
	}
	if s.secure {
		h[hsts.key] = hsts.value
	}
}

// headerValue is a header's canonical name and its value, made once and shared by every answer
// (Header.Set would make a new one per answer). It is safe to share: a handler that changes the
// header sets a new value (Header.Set), and Header.Add copies the one-element slice.
type headerValue struct {
	key   string
	value []string
}

// hsts is the Strict-Transport-Security header of every answer of a site served over TLS.
var hsts = newHeaderValue("Strict-Transport-Security", "max-age=63072000; includeSubDomains")

func newHeaderValue(key, value string) headerValue {
	return headerValue{http.CanonicalHeaderKey(key), []string{value}[:1:1]}
}

// securityHeaderValues returns the security headers of every answer but HSTS, with the policy csp.
func securityHeaderValues(csp string) []headerValue {
	pairs := []string{
		"X-Content-Type-Options", "nosniff",
		"Content-Security-Policy", csp,
		"Referrer-Policy", "strict-origin-when-cross-origin",
		"X-Frame-Options", "DENY",
		"Cross-Origin-Opener-Policy", "same-origin",
		"Permissions-Policy", "camera=(self), geolocation=(self), microphone=(), payment=()",
	}
	var headers []headerValue
	for i := 0; i < len(pairs); i += 2 {
		headers = append(headers, newHeaderValue(pairs[i], pairs[i+1]))
	}
	return headers
}

// noScriptStyleHash is the CSP hash of the layout's one inline element, the <noscript> style that
// hides what needs JavaScript (views.NoScriptCSS).
var noScriptStyleHash = func() string {
	sum := sha256.Sum256([]byte(views.NoScriptCSS))
	return "'sha256-" + base64.StdEncoding.EncodeToString(sum[:]) + "'"
}()

// trackerScriptHosts are where the consented tag manager and ad pixel load their scripts from;
// they are allowed only when one of them is configured.
const trackerScriptHosts = "https://www.googletagmanager.com https://www.google-analytics.com https://connect.facebook.net"

// contentSecurityPolicy is the policy of every page. Scripts are our own files ('self'; no inline
// script runs), plus the tag manager's and the pixel's hosts when trackers is true; styles come
// from our stylesheet or the hashed <noscript> style; inline style attributes and event handlers
// never run. It has no nonce: a page is the same bytes for every visitor.
func contentSecurityPolicy(trackers bool) string {
	scripts := "'self'"
	if trackers {
		scripts += " " + trackerScriptHosts
	}
	return "default-src 'self'; " +
		"script-src " + scripts + "; " +
		"style-src 'self' " + noScriptStyleHash + "; " +
		"img-src 'self' data: blob: https:; " +
		"font-src 'self'; " +
		"connect-src 'self' https:; " +
		"frame-src 'self' https:; " +
		"media-src 'self' https:; " +
		"object-src 'none'; base-uri 'none'; form-action 'self' https:; frame-ancestors 'none'"
}

// limitBody bounds the size of request bodies.
func limitBody(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c *echo.Context) error {
		r := c.Request()
		if r.Body != nil && r.Body != http.NoBody {
			limit := int64(maxBodyBytes)
			if c.Path() == "/profile/picture" || c.Path() == coverUploadPath || c.Path() == prizeImagePath || c.Path() == teamRegisterPath {
				limit = maxUploadBody
			}
			if r.ContentLength > limit && (c.Path() == "/profile/picture" || c.Path() == prizeImagePath || c.Path() == teamRegisterPath) {
				refusePicture(c)
				return next(c)
			}
			if r.ContentLength > limit {
				return errTooLarge
			}
			r.Body = http.MaxBytesReader(c.Response(), r.Body, limit)
		}
		return next(c)
	}
}

// pictureTooLargeKey marks a picture upload whose body is over the limit: the upload handler
// answers it on the profile page with the picture field's message, not with an error page.
const pictureTooLargeKey = "palaro.pictureTooLarge"

// maxDrainBytes is how much of an oversized picture upload is read and thrown away, so that the
// browser, still sending, receives the profile page instead of a reset connection.
const maxDrainBytes = 24 << 20

// refusePicture marks an oversized picture upload and drops its body.
func refusePicture(c *echo.Context) {
	r := c.Request()
	if r.ContentLength <= maxDrainBytes {
		_, _ = io.Copy(io.Discard, io.LimitReader(r.Body, maxDrainBytes))
	}
	r.Body = http.NoBody
	c.Set(pictureTooLargeKey, true)
}

// pictureTooLarge reports whether the request is a picture upload refused for its size.
func pictureTooLarge(c *echo.Context) bool { return c.Get(pictureTooLargeKey) != nil }

// withSession loads the session cookie (starting a session with a CSRF token when there is
// none), resolves the signed-in user, and hands the CSRF token and viewer to the views.
func (s *Server) withSession(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c *echo.Context) error {
		r := c.Request()
		if skipSession(r.URL.Path) {
			return next(c)
		}
		c.Response().Header().Add(echo.HeaderVary, echo.HeaderCookie)
		public := publicPage(c)
		if public && !hasSessionCookie(r) {
			// An anonymous visitor of a public page: no session is started, so the page carries
			// no per-visitor token and is the same bytes for everyone (cachePublicPages).
			return next(c)
		}
		sess, _ := s.sessions.New(r, sessionCookie) // a bad or expired cookie yields a new session
		dirty := false
		if _, ok := sess.Values[keyCSRF].(string); !ok && public {
			return next(c) // a bad or expired cookie on a public page: as without one
		} else if !ok {
			sess.Values[keyCSRF] = randomToken()
			sess.Values[keySID] = randomToken()
			dirty = true
		}
		v := &visit{session: sess}
		if uid, ok := sess.Values[keyUID].(int64); ok {
			ver, _ := sess.Values[keyVer].(int)
			at, _ := sess.Values[keyAt].(int64)
			u, err := s.services.Accounts.FindUserByID(r.Context(), uid)
			switch {
			case err != nil && palaro.ErrorCode(err) != palaro.ENOTFOUND:
				return err
			case err != nil, u.SessionVersion != ver, s.Now().Sub(time.Unix(at, 0)) > palaro.SessionMaxLifetime:
				delete(sess.Values, keyUID)
				delete(sess.Values, keyVer)
				delete(sess.Values, keyAt)
				dirty = true
			default:
				v.user = u
			}
		}
		if dirty {
			if err := sess.Save(r, c.Response()); err != nil {
				return err
			}
		}
		c.Set(visitKey, v)
		s.setViewContext(c, v)
		return next(c)
	}
}

// hasSessionCookie reports whether the request carries a session cookie, valid or not.
func hasSessionCookie(r *http.Request) bool {
	_, err := r.Cookie(sessionCookie)
	return err == nil
}

// setViewContext puts the CSRF token and the viewer on the request context for the views.
func (s *Server) setViewContext(c *echo.Context, v *visit) {
	info := views.RequestInfo{CSRFToken: v.csrfToken()}
	if v.user != nil {
		info.Viewer = &views.Viewer{Name: cmp.Or(v.user.FirstName, v.user.Email), Role: v.user.Role} // an existing user may have no name yet
	}
	r := c.Request()
	c.SetRequest(r.WithContext(views.WithRequestInfo(r.Context(), info)))
}

func (v *visit) csrfToken() string {
	t, _ := v.session.Values[keyCSRF].(string)
	return t
}

// orderKey identifies the session on the orders it creates: a hash of its random id, so the
// database never holds a value of the cookie. It is "" for a request without a session.
func (v *visit) orderKey() string {
	sid, _ := v.session.Values[keySID].(string)
	if sid == "" {
		return ""
	}
	sum := sha256.Sum256([]byte("palaro order session " + sid))
	return base64.RawURLEncoding.EncodeToString(sum[:18])
}

// visitOf returns the request's visit; requests without a session get an empty one.
func visitOf(c *echo.Context) *visit {
	if v, ok := c.Get(visitKey).(*visit); ok {
		return v
	}
	return &visit{session: sessions.NewSession(nil, sessionCookie)}
}

// currentUser returns the signed-in user, or nil.
func currentUser(c *echo.Context) *palaro.User { return visitOf(c).user }

// errCSRF answers a state-changing request without a valid CSRF token.
var errCSRF = palaro.Errorf(palaro.EFORBIDDEN, "Your session has expired or this form is out of date. Reload the page and try again.")

// checkCSRF refuses state-changing requests whose X-CSRF-Token header or _csrf form field does
// not equal the session's token; the routes the table exempts (noCSRF) are let through.
func (s *Server) checkCSRF(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c *echo.Context) error {
		switch c.Request().Method {
		case http.MethodGet, http.MethodHead, http.MethodOptions:
			return next(c)
		}
		if csrfExempt(c) {
			return next(c)
		}
		if pictureTooLarge(c) {
			// Its body is gone and it changes nothing: the handler shows the profile with the message.
			return next(c)
		}
		if _, ok := bearerToken(c); ok {
			// Authenticated by its API token alone, never by the session cookie (see bearerToken).
			return next(c)
		}
		want := visitOf(c).csrfToken()
		r := c.Request()
		got := r.Header.Get(csrfHeader)
		if got == "" && isForm(r) {
			var err error
			if strings.HasPrefix(r.Header.Get(echo.HeaderContentType), echo.MIMEMultipartForm) {
				err = r.ParseMultipartForm(maxUploadBody)
			} else {
				err = r.ParseForm()
			}
			if mbe := (*http.MaxBytesError)(nil); errors.As(err, &mbe) && c.Path() == "/profile/picture" {
				c.Set(pictureTooLargeKey, true) // a body without a length that turned out too large
				return next(c)
			} else if errors.As(err, &mbe) {
				return errTooLarge
			}
			got = r.PostFormValue(csrfField)
		}
		if want == "" || got == "" || subtle.ConstantTimeCompare([]byte(want), []byte(got)) != 1 {
			return errCSRF
		}
		return next(c)
	}
}

func isForm(r *http.Request) bool {
	ct := r.Header.Get(echo.HeaderContentType)
	return strings.HasPrefix(ct, echo.MIMEApplicationForm) || strings.HasPrefix(ct, echo.MIMEMultipartForm)
}

// startSession replaces the visitor's session with a new one signed in as u: a new session id
// and CSRF token, so that a session planted before sign-in is worth nothing after it.
func (s *Server) startSession(c *echo.Context, u *palaro.User) error { return s.replaceSession(c, u) }

// endSession signs the visitor out: a fresh anonymous session replaces the old one.
func (s *Server) endSession(c *echo.Context) error { return s.replaceSession(c, nil) }

// replaceSession saves a new session, signed in as u when u is not nil.
func (s *Server) replaceSession(c *echo.Context, u *palaro.User) error {
	sess := sessions.NewSession(s.sessions, sessionCookie)
	opts := *s.sessions.Options
	sess.Options = &opts
	sess.Values[keySID] = randomToken()
	sess.Values[keyCSRF] = randomToken()
	if u != nil {
		sess.Values[keyUID] = u.ID
		sess.Values[keyVer] = u.SessionVersion
		sess.Values[keyAt] = s.Now().Unix()
	}
	v := &visit{session: sess, user: u}
	c.Set(visitKey, v)
	s.setViewContext(c, v)
	return sess.Save(c.Request(), c.Response())
}
