package handlers

import (
	"net/http"
	"regexp"
	"testing"

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
