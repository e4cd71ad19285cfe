package e2e

import (
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"io"
	"net/http"
	"regexp"
	"strings"
	"testing"

	"github.com/labstack/echo/v5"
	"github.com/stretchr/testify/require"
)

// scannerPages are the pages with a camera scanner, whose CSP lets the QR decoder's WebAssembly compile.
var scannerPages = regexp.MustCompile(`^GET (/activities|/scan|/organizer/events/[^/ ]+/(check-in|activities/[^/ ]+/scan)) `)

// requireSecurityHeaders checks the headers every answer of the app carries, whatever its route,
// status or content type.
func requireSecurityHeaders(t *testing.T, what string, h http.Header) {
	t.Helper()
	csp := h.Get("Content-Security-Policy")
	require.NotEmpty(t, csp, "%s: Content-Security-Policy", what)
	require.Contains(t, csp, "frame-ancestors 'none'", what)
	require.Contains(t, csp, "default-src ", what)
	require.NotContains(t, csp, "unsafe-inline", what)
	// 'wasm-unsafe-eval' lets WebAssembly compile (the QR decoder), never JavaScript's eval: only the
	// pages with a camera scanner have it.
	if strings.Contains(csp, "'wasm-unsafe-eval'") {
		require.Regexp(t, scannerPages, what, "%s: WebAssembly allowed outside the scanner pages", what)
	}
	require.NotContains(t, strings.ReplaceAll(csp, "'wasm-unsafe-eval'", ""), "unsafe-eval", what)
	require.Equal(t, "nosniff", h.Get("X-Content-Type-Options"), what)
	require.Equal(t, "DENY", h.Get("X-Frame-Options"), what)
	require.NotEmpty(t, h.Get("Referrer-Policy"), what)
}

// TestSecurityHeaders_EveryAnswer enumerates the wired app's router (pages, API, webhooks, the
// payment sandbox, the catch-all) and adds a static file, a missing static file, a random
// missing page, a refused method and a real sandbox checkout: every answer carries the headers.
func TestSecurityHeaders_EveryAnswer(t *testing.T) {
	a := startApp(t)
	v := newVisitor(t, a)
	v.get("/")
	send := func(method, path string) (*http.Response, string) {
		t.Helper()
		req, err := http.NewRequest(method, a.URL+path, strings.NewReader("x=1"))
		require.NoError(t, err)
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		resp, err := v.client.Do(req)
		require.NoError(t, err)
		defer resp.Body.Close()
		body, _ := io.ReadAll(resp.Body)
		return resp, string(body)
	}

	checked := 0
	for _, r := range a.Server().Echo().Router().Routes() {
		method := r.Method
		switch method {
		case echo.RouteNotFound, echo.RouteAny:
			method = http.MethodGet
		}
		resp, _ := send(method, routePath(r.Path))
		requireSecurityHeaders(t, r.Method+" "+r.Path+" → "+resp.Status, resp.Header)
		checked++
	}
	require.GreaterOrEqual(t, checked, 40, "the router's routes")

	random := make([]byte, 8)
	_, _ = rand.Read(random)
	extra := map[string]int{
		"GET /static/no-such-file.css":               http.StatusNotFound,
		"GET /static/../../etc/passwd":               http.StatusNotFound,
		"GET /no-such-" + hex.EncodeToString(random): http.StatusNotFound,
		"PUT /":                                  http.StatusForbidden, // refused by the CSRF check first
		"GET /sandbox/checkout/no-such-session":  http.StatusNotFound,
		"POST /v1/payment/webhook/sandbox":       http.StatusUnauthorized, // unsigned
		"GET /s/valorant-night-market-bgc-watch": http.StatusSeeOther,     // an unseated ticket type: a redirect
	}
	for what, want := range extra {
		method, path, _ := strings.Cut(what, " ")
		resp, _ := send(method, path)
		require.Equal(t, want, resp.StatusCode, what)
		requireSecurityHeaders(t, what, resp.Header)
	}

	t.Run("StaticFile", func(t *testing.T) {
		_, page := send(http.MethodGet, "/")
		href := regexp.MustCompile(`href="(/static/css/[^"]+\.css)"`).FindStringSubmatch(page)
		require.NotNil(t, href, "the home page links its stylesheet")
		resp, _ := send(http.MethodGet, href[1])
		require.Equal(t, http.StatusOK, resp.StatusCode)
		requireSecurityHeaders(t, href[1], resp.Header)
	})

	t.Run("SandboxCheckoutUsesNonce", func(t *testing.T) {
		status, raw := v.postJSON("/v1/ticket/buy", `{"ticketCode":"dota-2-visayas-major-gen","quantity":1,`+
			`"email":"headers@x.ph","fullName":"Head Ers","mobileNumber":"0917-000-0000","paymentType":"QR"}`)
		require.Equal(t, http.StatusOK, status, raw)
		var res struct {
			RedirectURL string `json:"redirectUrl"`
		}
		require.NoError(t, json.Unmarshal([]byte(raw), &res))
		require.Contains(t, res.RedirectURL, "/sandbox/checkout/", raw)
		resp, page := send(http.MethodGet, strings.TrimPrefix(res.RedirectURL, a.URL))
		require.Equal(t, http.StatusOK, resp.StatusCode, page)
		requireSecurityHeaders(t, "sandbox checkout", resp.Header)
		nonce := regexp.MustCompile(`script-src 'nonce-([^']+)'`).FindStringSubmatch(resp.Header.Get("Content-Security-Policy"))
		require.NotNil(t, nonce, resp.Header.Get("Content-Security-Policy"))
		tags := regexp.MustCompile(`<(?:script|style)[^>]*>`).FindAllString(page, -1)
		require.NotEmpty(t, tags, "the checkout page has its own script and style")
		for _, tag := range tags {
			require.Contains(t, tag, `nonce="`+nonce[1]+`"`, tag)
		}
	})
}
