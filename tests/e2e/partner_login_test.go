package e2e

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/require"

	"palaro/internal/app"
)

// fakePartner is a local partner API: it records login session requests and answers with a
// session URL, or fails when told to.
type fakePartner struct {
	mu       sync.Mutex
	requests []map[string]any
	fail     bool
}

func (f *fakePartner) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodPost || r.URL.Path != "/v1/user/login/create" {
		http.NotFound(w, r)
		return
	}
	var body map[string]any
	_ = json.NewDecoder(r.Body).Decode(&body)
	f.mu.Lock()
	f.requests = append(f.requests, body)
	fail := f.fail
	f.mu.Unlock()
	if fail {
		http.Error(w, `{"message":"down"}`, http.StatusServiceUnavailable)
		return
	}
	_ = json.NewEncoder(w).Encode(map[string]any{"data": map[string]string{"url": "https://app.partner.test/session/" + body["username"].(string)}})
}

// demoTicket returns the public id and code of a demo ticket.
func demoTicket(t *testing.T, a *testApp) (id, code string) {
	t.Helper()
	require.NoError(t, a.DB().Writer().QueryRow(`SELECT public_id, code FROM tickets WHERE status = 'valid' LIMIT 1`).Scan(&id, &code))
	return id, code
}

func TestPartnerLogin(t *testing.T) {
	partner := &fakePartner{}
	srv := httptest.NewServer(partner)
	t.Cleanup(srv.Close)
	a := startApp(t, func(cfg *app.Config) {
		cfg.PartnerAPIURL, cfg.PartnerAPIKey, cfg.PartnerID = srv.URL, "secret-partner-key", 25
	})
	id, code := demoTicket(t, a)
	v := newVisitor(t, a)
	status, page := v.get("/t/" + id)
	require.Equal(t, http.StatusOK, status)
	require.Contains(t, page, "Open in partner app")
	require.NotContains(t, page, "secret-partner-key", "the key never reaches the browser")

	t.Run("OK", func(t *testing.T) {
		req, err := http.NewRequest(http.MethodPost, a.URL+"/t/"+id+"/partner-login", strings.NewReader(url.Values{"_csrf": {v.csrf}}.Encode()))
		require.NoError(t, err)
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		resp, err := v.client.Do(req)
		require.NoError(t, err)
		resp.Body.Close()
		require.Equal(t, http.StatusSeeOther, resp.StatusCode)
		require.Equal(t, "https://app.partner.test/session/"+code, resp.Header.Get("Location"))
		partner.mu.Lock()
		defer partner.mu.Unlock()
		require.Equal(t, []map[string]any{{"apiKey": "secret-partner-key", "partnerID": float64(25),
			"partnerUserUniqueID": code, "username": code}}, partner.requests)
	})
	t.Run("ErrPartnerDown", func(t *testing.T) {
		partner.mu.Lock()
		partner.fail = true
		partner.mu.Unlock()
		status, body := v.post("/t/"+id+"/partner-login", url.Values{})
		require.Equal(t, http.StatusBadGateway, status)
		require.Contains(t, body, "We could not open the partner app right now.")
		require.NotContains(t, body, "secret-partner-key")
	})
	t.Run("OK hidden when unconfigured", func(t *testing.T) {
		b := startApp(t)
		id, _ := demoTicket(t, b)
		status, page := newVisitor(t, b).get("/t/" + id)
		require.Equal(t, http.StatusOK, status)
		require.NotContains(t, page, "Open in partner app")
		status, _ = newVisitor(t, b).post("/t/"+id+"/partner-login", url.Values{})
		require.NotEqual(t, http.StatusSeeOther, status)
	})
}
