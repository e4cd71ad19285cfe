package handlers

import (
	"crypto/sha256"
	"encoding/base64"
	"net/http"
	"regexp"
	"strings"
	"testing"

	"github.com/labstack/echo/v5"
	"github.com/stretchr/testify/require"
)

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
		require.Contains(t, csp, "script-src 'self';", path)
		require.NotContains(t, csp, "nonce", path)
		// Every script is one of our files (or JSON data); no inline handlers or style attributes.
		for _, tag := range regexp.MustCompile(`<script[^>]*>`).FindAllString(r.body, -1) {
			require.Regexp(t, `src="/static/|type="application/(ld\+)?json"`, tag, "%s: %s", path, tag)
		}
		require.NotRegexp(t, `\son[a-z]+=`, r.body, path)
		require.NotRegexp(t, `\sstyle=`, r.body, path)
		if path == "/" {
			require.NotContains(t, r.body, `name="csrf-token"`, "a public page carries no per-visitor token")
		} else if r.Code == http.StatusOK {
			require.Regexp(t, `<meta name="csrf-token" content="[A-Za-z0-9_-]{40,}">`, r.body, path)
		}
	}
	t.Run("SamePolicyEveryRequest", func(t *testing.T) {
		a, b := c.get("/").Header().Get("Content-Security-Policy"), c.get("/sign-in").Header().Get("Content-Security-Policy")
		require.Equal(t, a, b)
	})
	t.Run("NoScriptStyleHash", func(t *testing.T) {
		// The one inline element, the <noscript> style, is allowed by its hash in the policy.
		r := c.get("/")
		m := regexp.MustCompile(`<noscript><style>([^<]*)</style></noscript>`).FindStringSubmatch(r.body)
		require.NotNil(t, m, "the page has the <noscript> style")
		require.Less(t, strings.Index(r.body, m[0]), strings.Index(r.body, "</head>"), "a <style> belongs in the head (HTML allows none in the body)")
		sum := sha256.Sum256([]byte(m[1]))
		require.Contains(t, r.Header().Get("Content-Security-Policy"), "style-src 'self' 'sha256-"+base64.StdEncoding.EncodeToString(sum[:])+"'")
	})
	t.Run("TrackerHostsOnlyWhenConfigured", func(t *testing.T) {
		require.NotContains(t, c.get("/").Header().Get("Content-Security-Policy"), "googletagmanager")
		require.Contains(t, contentSecurityPolicy(true), "script-src 'self' https://www.googletagmanager.com")
		require.NotContains(t, contentSecurityPolicy(true), "strict-dynamic")
	})
	t.Run("SessionCookie", func(t *testing.T) {
		r := ts.client(t, "10.0.0.2").get("/sign-in")
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

// TestSecurityHeaders_SharedValuesStayIntact proves the security headers, whose values are made
// once and shared by every answer, reach the next answer unchanged when one answer adds to a
// header or replaces one. Control: the changing answer itself carries its changes.
func TestSecurityHeaders_SharedValuesStayIntact(t *testing.T) {
	ts := newTestServer(t)
	ts.Echo().GET("/header-change", func(c *echo.Context) error {
		h := c.Response().Header()
		h.Add("X-Frame-Options", "SAMEORIGIN")
		h.Set("Content-Security-Policy", "default-src 'none'")
		return c.String(http.StatusOK, "changed")
	})
	c := ts.client(t, "10.0.0.1")
	before := c.get("/about").Header().Clone()
	changed := c.get("/header-change").Header()
	require.Equal(t, []string{"DENY", "SAMEORIGIN"}, changed.Values("X-Frame-Options"))
	require.Equal(t, "default-src 'none'", changed.Get("Content-Security-Policy"))
	after := c.get("/about").Header()
	for _, key := range []string{"X-Frame-Options", "Content-Security-Policy", "X-Content-Type-Options", "Referrer-Policy",
		"Cross-Origin-Opener-Policy", "Permissions-Policy"} {
		require.Len(t, after.Values(key), 1, key)
		require.Equal(t, before.Get(key), after.Get(key), key)
	}
	require.Equal(t, "DENY", after.Get("X-Frame-Options"))
}
