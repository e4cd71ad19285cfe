package handlers

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"palaro"
)

// TestInputRules_AccountForms sends each field of every account form and JSON call, one at a
// time, with values it must refuse: 60,000 characters with line breaks, a CR/LF in a single-line
// field, control characters in any field. Each is refused (never throttled) and nothing changes.
func TestInputRules_AccountForms(t *testing.T) {
	ts := newTestServer(t)
	owner := ts.client(t, "10.0.2.1")
	owner.signUp("owner@example.ph", "09171112222")
	huge := strings.Repeat("Ab\r\n", 15000)
	const crlf, ctrl = "Ana\r\nBcc: evil@example.com", "Ana\x00\x1b[31m"
	block := map[string]bool{palaro.FieldBio: true, palaro.FieldMessage: true} // line breaks allowed there

	forms := []struct {
		path   string
		json   bool
		signed bool
		valid  map[string]string
	}{
		{"/sign-up", false, false, map[string]string{"email": "new@example.ph", "password": "secret123", "repeatPassword": "secret123",
			"firstName": "Ana", "lastName": "Reyes", "mobileNumber": "09170000001", "terms": "1"}},
		{"/sign-in", false, false, map[string]string{"email": "owner@example.ph", "password": "secret123"}},
		{"/reset-password", false, false, map[string]string{"mobileNumber": "09171112222"}},
		{"/reset-password/new", false, false, map[string]string{"mobileNumber": "09171112222", "code": "123456",
			"password": "secret456", "repeatPassword": "secret456"}},
		{"/profile", false, true, map[string]string{"firstName": "Juan", "lastName": "Dela Cruz", "mobileNumber": "09171112222",
			"title": "Engr.", "birthDate": "1990-01-02", "age": "36", "bio": "Hi", "country": "Philippines", "city": "Cebu",
			"companyName": "Acme", "designation": "Lead", "interests": "MLBB", "username": "juan"}},
		{"/profile/email", false, true, map[string]string{"email": "other@example.ph"}},
		{"/profile/password", false, true, map[string]string{"currentPassword": "secret123", "password": "secret456",
			"repeatPassword": "secret456"}},
		{"/register", false, false, map[string]string{"firstName": "Ana", "lastName": "Reyes", "mobileNumber": "09170000002"}},
		{"/v1/participant/register", true, false, map[string]string{"firstName": "Ana", "lastName": "Reyes", "mobileNumber": "09170000003"}},
		{"/register/organizer", false, false, map[string]string{"email": "org@example.ph", "username": "org1", "name": "Ana Reyes",
			"organization": "Acme Events", "mobileNumber": "09170000004", "source": "Facebook", "password": "secret123",
			"repeatPassword": "secret123"}},
		{"/v1/user/signup", true, false, map[string]string{"email": "org2@example.ph", "username": "org2", "name": "Ana Reyes",
			"organization": "Acme Events", "mobileNumber": "09170000005", "source": "Facebook"}},
		{"/report", false, false, map[string]string{"email": "rep@example.ph", "name": "Ana Reyes", "subject": "Help",
			"message": "It broke.\r\nTwice.", "pageUrl": "/e/x"}},
	}
	ip := 10
	now := ts.Now()
	ts.Server.Now = func() time.Time { return now }
	send := func(t *testing.T, path string, asJSON, signed bool, values map[string]string) response {
		t.Helper()
		now = now.Add(time.Minute) // past the per-account limits of profile changes
		c := owner
		if !signed {
			ip++
			c = ts.client(t, fmt.Sprintf("10.0.3.%d", ip%250))
			if ip >= 250 {
				c = ts.client(t, fmt.Sprintf("10.0.4.%d", ip%250))
			}
		}
		if asJSON {
			body, err := json.Marshal(values)
			require.NoError(t, err)
			return c.postJSON(path, string(body))
		}
		form := url.Values{}
		for k, v := range values {
			form.Set(k, v)
		}
		return c.post(path, form)
	}
	before := countUsers(t, ts)
	for _, f := range forms {
		for field := range f.valid {
			if field == "terms" {
				continue
			}
			bad := map[string]string{"Huge": huge, "Control": ctrl}
			if !block[field] {
				bad["CRLF"] = crlf
			}
			if field == "pageUrl" {
				bad = map[string]string{"Huge": "/" + strings.Repeat("a", 60000)}
			}
			for name, value := range bad {
				t.Run("Err "+f.path+" "+field+" "+name, func(t *testing.T) {
					values := map[string]string{}
					for k, v := range f.valid {
						values[k] = v
					}
					if !f.signed && f.path != "/sign-in" && !strings.HasPrefix(f.path, "/reset-password") {
						// a fresh address, number and username, so that no earlier success makes this a conflict
						for k, v := range map[string]string{"email": fmt.Sprintf("u%d@example.ph", ip), "username": fmt.Sprintf("user%d", ip),
							"mobileNumber": fmt.Sprintf("0917%07d", 5000+ip)} {
							if _, ok := values[k]; ok {
								values[k] = v
							}
						}
					}
					values[field] = value
					r := send(t, f.path, f.json, f.signed, values)
					require.NotEqual(t, http.StatusTooManyRequests, r.Code, "refused for what it is, not throttled")
					require.GreaterOrEqual(t, r.Code, 400, "%s %s", f.path, field)
					require.Less(t, r.Code, 500, r.body)
				})
			}
		}
	}
	require.Equal(t, before, countUsers(t, ts), "no refused form created an account")
	u, err := ts.accounts.FindUserByID(t.Context(), 1)
	require.NoError(t, err)
	require.Equal(t, "Juan", u.FirstName, "no refused profile change was saved")
	require.Empty(t, u.Profile.Bio)
	reports, err := ts.accounts.ListReports(t.Context())
	require.NoError(t, err)
	require.Empty(t, reports)
}

func countUsers(t *testing.T, ts *testServer) int {
	var n int
	require.NoError(t, ts.db.Writer().QueryRow(`SELECT count(*) FROM users`).Scan(&n))
	return n
}
