package e2e

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"regexp"
	"strings"
	"testing"

	"github.com/labstack/echo/v5"
	"github.com/stretchr/testify/require"

	"palaro/handlers"
)

// httpVisitor is a cookie-keeping HTTP client of a test app that remembers the last CSRF token.
type httpVisitor struct {
	t      *testing.T
	app    *testApp
	client *http.Client
	csrf   string
}

func newVisitor(t *testing.T, a *testApp) *httpVisitor {
	jar, err := cookiejar.New(nil)
	require.NoError(t, err)
	return &httpVisitor{t: t, app: a, client: &http.Client{Jar: jar,
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}}
}

var csrfMeta = regexp.MustCompile(`<meta name="csrf-token" content="([^"]+)"`)

// do sends req and returns the status and body, keeping the page's CSRF token.
func (v *httpVisitor) do(req *http.Request) (int, string) {
	v.t.Helper()
	resp, err := v.client.Do(req)
	require.NoError(v.t, err)
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	if m := csrfMeta.FindSubmatch(b); m != nil {
		v.csrf = string(m[1])
	}
	return resp.StatusCode, string(b)
}

func (v *httpVisitor) get(path string) (int, string) {
	req, err := http.NewRequest(http.MethodGet, v.app.URL+path, nil)
	require.NoError(v.t, err)
	return v.do(req)
}

// token returns the session's CSRF token; when no page has shown one yet (cached public pages
// carry none), it asks /v1/csrf as the page script does, which starts the session.
func (v *httpVisitor) token() string {
	v.t.Helper()
	if v.csrf == "" {
		_, body := v.get("/v1/csrf")
		var got struct{ Token string }
		require.NoError(v.t, json.Unmarshal([]byte(body), &got), body)
		v.csrf = got.Token
	}
	return v.csrf
}

// post sends a form with the session's token, then loads the page a redirect points to.
func (v *httpVisitor) post(path string, form url.Values) (int, string) {
	form.Set("_csrf", v.token())
	req, err := http.NewRequest(http.MethodPost, v.app.URL+path, strings.NewReader(form.Encode()))
	require.NoError(v.t, err)
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set("Accept", "text/html")
	status, body := v.do(req)
	return status, body
}

// postJSON sends a JSON body with the session's token in the X-CSRF-Token header.
func (v *httpVisitor) postJSON(path, body string) (int, string) {
	req, err := http.NewRequest(http.MethodPost, v.app.URL+path, strings.NewReader(body))
	require.NoError(v.t, err)
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("X-CSRF-Token", v.token())
	return v.do(req)
}

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

// TestCSRF_EveryStateChangingRoute enumerates the wired app's router: every route that is not
// GET, HEAD or OPTIONS, and not a POST the route table exempts (noCSRF), refuses a request without the token of
// the (signed-in) session, by form, header or query.
func TestCSRF_EveryStateChangingRoute(t *testing.T) {
	a := startApp(t)
	v := newVisitor(t, a)
	v.get("/sign-up")
	status, _ := v.post("/sign-up", url.Values{"email": {"csrf@example.ph"}, "password": {"secret123"},
		"repeatPassword": {"secret123"}, "firstName": {"C"}, "lastName": {"S"}, "mobileNumber": {"09231234567"}, "terms": {"1"}})
	require.Equal(t, http.StatusSeeOther, status)
	v.get("/profile")
	require.NotEmpty(t, v.csrf)

	table := routeTable()
	checked, exempt, exemptInTable := 0, 0, 0
	for _, r := range handlers.Routes() {
		if r.CSRFExempt != "" {
			exemptInTable++
		}
	}
	for _, r := range a.Server().Echo().Router().Routes() {
		methods := []string{r.Method}
		switch r.Method {
		case http.MethodGet, http.MethodHead, http.MethodOptions:
			continue
		case echo.RouteAny:
			methods = []string{http.MethodPost, http.MethodPut, http.MethodDelete}
		}
		for _, method := range methods {
			if method == http.MethodPost && table[r.Method+" "+r.Path].CSRFExempt != "" {
				exempt++
				continue
			}
			for name, prepare := range map[string]func(*http.Request){
				"no token":       func(*http.Request) {},
				"wrong header":   func(req *http.Request) { req.Header.Set("X-CSRF-Token", "x"+v.csrf) },
				"token in query": func(req *http.Request) { req.URL.RawQuery = "_csrf=" + url.QueryEscape(v.csrf) },
				"other field":    func(*http.Request) {},
			} {
				body := "firstName=a"
				if name == "other field" {
					body = "csrf=" + url.QueryEscape(v.csrf)
				}
				req, err := http.NewRequest(method, a.URL+routePath(r.Path), strings.NewReader(body))
				require.NoError(t, err)
				req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
				prepare(req)
				status, body := v.do(req)
				require.Equal(t, http.StatusForbidden, status, "%s %s (%s) must be refused: %.200s", method, r.Path, name, body)
			}
			checked++
		}
	}
	require.GreaterOrEqual(t, checked, 20, "the router's state-changing routes")
	require.Equal(t, exemptInTable, exempt, "every exempt route exists")

	t.Run("OK", func(t *testing.T) {
		status, _ := v.post("/profile", url.Values{"firstName": {"Ok"}, "lastName": {"Token"}, "mobileNumber": {"09231234567"}})
		require.Equal(t, http.StatusSeeOther, status)
	})
	t.Run("SandboxRefusesCrossSite", func(t *testing.T) {
		req, err := http.NewRequest(http.MethodPost, a.URL+"/sandbox/checkout/x/card", strings.NewReader("number=4242"))
		require.NoError(t, err)
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		req.Header.Set("Sec-Fetch-Site", "cross-site")
		status, _ := v.do(req)
		require.Equal(t, http.StatusForbidden, status)
	})
}
