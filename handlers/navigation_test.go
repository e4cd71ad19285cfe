package handlers_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

func TestTrailingSlash(t *testing.T) {
	ts := newTestServer(t)

	t.Run("Redirects", func(t *testing.T) {
		for path, want := range map[string]string{
			"/about/":                    "/about",
			"/calendar/":                 "/calendar",
			"/calendar/?month=2026-05":   "/calendar?month=2026-05",
			"/e/mlbb-manila-showdown/":   "/e/mlbb-manila-showdown",
			"/e/mlbb-manila-showdown//":  "/e/mlbb-manila-showdown",
			"/?when=today":               "", // the home page is itself
			"/f/valorant/?when=week":     "/f/valorant?when=week",
			"/e/caf%C3%A9/":              "/e/caf%C3%A9",
			"/calendar/?month=2026-05&x": "/calendar?month=2026-05&x",
			"/\\evil.example/":           "/%5Cevil.example", // a path on this host, not another host
		} {
			rec := ts.get(t, path)
			if want == "" {
				require.Equal(t, http.StatusOK, rec.Code, path)
				continue
			}
			require.Equal(t, http.StatusPermanentRedirect, rec.Code, path)
			require.Equal(t, want, rec.Header().Get("Location"), path)
		}
	})
	t.Run("TargetAnswers", func(t *testing.T) {
		for _, path := range []string{"/about", "/calendar?month=2026-05", "/e/mlbb-manila-showdown"} {
			require.Equal(t, http.StatusOK, ts.get(t, path).Code, path)
		}
	})
	t.Run("KeepsMethod", func(t *testing.T) {
		rec := ts.do(t, http.MethodHead, "/about/", nil, nil)
		require.Equal(t, http.StatusPermanentRedirect, rec.Code)
	})
	t.Run("ErrNotFound", func(t *testing.T) {
		// Unknown paths without a trailing slash, and paths that would point at another host.
		for _, path := range []string{"/no-such-page", "//", "///", "//evil.example/", "/e/mlbb-manila-showdown/extra"} {
			rec := ts.get(t, path)
			require.Equal(t, http.StatusNotFound, rec.Code, path)
			require.Empty(t, rec.Header().Get("Location"), path)
			require.True(t, strings.Contains(rec.Body.String(), "<html"), "the error page, %s", path)
		}
	})
}
