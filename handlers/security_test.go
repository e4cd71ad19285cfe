package handlers

import (
	"net/http"
	"net/http/httptest"
	"net/url"
	"regexp"
	"strings"
	"testing"

	"github.com/labstack/echo/v5"
	"github.com/stretchr/testify/require"
)

// routePath turns a route pattern into a concrete path (":id" → "x", "*" → "x").
func routePath(p string) string {
	parts := strings.Split(p, "/")
	for i, s := range parts {
		if strings.HasPrefix(s, ":") || s == "*" {
			parts[i] = "x"
		}
	}
	return strings.Join(parts, "/")
}

// TestCSRF_EveryStateChangingRoute enumerates the router: every route that is not GET, HEAD or
// OPTIONS, and not a signed webhook of CSRFExempt, refuses a request without the session's token.
func TestCSRF_EveryStateChangingRoute(t *testing.T) {
	ts := newTestServer(t)
	c := ts.client(t, "10.0.0.1")
	c.signUp("csrf@example.ph", "09231234567")
	c.get("/profile")
	require.NotEmpty(t, c.csrf)

	checked := 0
	for _, r := range ts.Echo().Router().Routes() {
		method := r.Method
		switch method {
		case http.MethodGet, http.MethodHead, http.MethodOptions:
			continue
		case echo.RouteAny:
			method = http.MethodPost
		}
		if _, ok := CSRFExempt[r.Method+" "+r.Path]; ok {
			continue
		}
		path := routePath(r.Path)
		for name, send := range map[string]func(*http.Request){
			"no token":         func(*http.Request) {},
			"wrong header":     func(req *http.Request) { req.Header.Set(csrfHeader, "x"+c.csrf) },
			"token in query":   func(req *http.Request) { req.URL.RawQuery = "_csrf=" + url.QueryEscape(c.csrf) },
			"other form field": func(req *http.Request) {},
		} {
			body := "firstName=a"
			if name == "other form field" {
				body = "csrf=" + url.QueryEscape(c.csrf)
			}
			req := httptest.NewRequest(method, path, strings.NewReader(body))
			req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
			send(req)
			resp := c.do(req)
			require.Equal(t, http.StatusForbidden, resp.Code, "%s %s (%s) must refuse: %s", method, r.Path, name, resp.body)
		}
		checked++
	}
	require.GreaterOrEqual(t, checked, 10, "the router's state-changing routes")

	t.Run("OK", func(t *testing.T) {
		r := c.post("/profile", url.Values{"firstName": {"Ok"}, "lastName": {"Token"}, "mobileNumber": {"09231234567"}})
		require.Equal(t, http.StatusSeeOther, r.Code, r.body)
		r = c.postJSON("/v1/participant/register", `{"firstName":"A","lastName":"B","mobileNumber":"09171234567"}`)
		require.Equal(t, http.StatusOK, r.Code, r.body)
	})
	t.Run("JSONAnswer", func(t *testing.T) {
		req := httptest.NewRequest(http.MethodPost, "/v1/participant/register", strings.NewReader(`{}`))
		req.Header.Set("Content-Type", "application/json")
		r := c.do(req)
		require.Equal(t, http.StatusForbidden, r.Code)
		require.Contains(t, r.body, `"responseCode":403`)
	})
}

func TestSecurityHeaders(t *testing.T) {
	ts := newTestServer(t)
	c := ts.client(t, "10.0.0.1")
	for _, path := range []string{"/", "/sign-in", "/sign-up", "/profile", "/no-such-page", "/register"} {
		r := c.get(path)
		h := r.Header()
		csp := h.Get("Content-Security-Policy")
		require.Contains(t, csp, "frame-ancestors 'none'", path)
		require.Contains(t, csp, "object-src 'none'", path)
		require.NotContains(t, csp, "unsafe-inline", path)
		require.Equal(t, "nosniff", h.Get("X-Content-Type-Options"), path)
		require.Equal(t, "strict-origin-when-cross-origin", h.Get("Referrer-Policy"), path)
		require.Empty(t, h.Get("Strict-Transport-Security"), "no HSTS over plain HTTP")
		nonce := regexp.MustCompile(`'nonce-([^']+)'`).FindStringSubmatch(csp)
		require.NotNil(t, nonce, path)
		// Every script element carries the nonce; no inline handlers or style attributes.
		for _, tag := range regexp.MustCompile(`<script[^>]*>`).FindAllString(r.body, -1) {
			require.Contains(t, tag, `nonce="`+nonce[1]+`"`, "%s: %s", path, tag)
		}
		require.NotRegexp(t, `\son[a-z]+=`, r.body, path)
		require.NotRegexp(t, `\sstyle=`, r.body, path)
		require.Regexp(t, `<meta name="csrf-token" content="[A-Za-z0-9_-]{40,}">`, r.body, path)
	}
	t.Run("NewNoncePerRequest", func(t *testing.T) {
		a, b := c.get("/").Header().Get("Content-Security-Policy"), c.get("/").Header().Get("Content-Security-Policy")
		require.NotEqual(t, a, b)
	})
	t.Run("SessionCookie", func(t *testing.T) {
		r := ts.client(t, "10.0.0.2").get("/")
		var found bool
		for _, ck := range r.Result().Cookies() {
			if ck.Name == sessionCookie {
				found = true
				require.True(t, ck.HttpOnly)
				require.Equal(t, http.SameSiteLaxMode, ck.SameSite)
				require.False(t, ck.Secure, "plain HTTP")
			}
		}
		require.True(t, found)
	})
}

func TestSecurityHeaders_TLS(t *testing.T) {
	store := newSessionStore([]byte("0123456789abcdef0123456789abcdef"), true)
	require.True(t, store.Options.Secure)
	ts := newTestServer(t)
	ts.secure = true
	r := ts.client(t, "10.0.0.1").get("/")
	require.Contains(t, r.Header().Get("Strict-Transport-Security"), "max-age=")
}
