package e2e

import (
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestBuyForm_HTTP posts the buy page's form as a browser without JavaScript does: the token is in
// the form, a post without it is refused, a good one goes to the checkout, a bad one comes back
// with its messages; the event page's quick-buy sheets stay the same bytes for everyone.
func TestBuyForm_HTTP(t *testing.T) {
	a := startApp(t)
	v := newVisitor(t, a)

	req, err := http.NewRequest(http.MethodGet, a.URL+"/b/dota-2-visayas-major-gen", nil)
	require.NoError(t, err)
	resp, err := v.client.Do(req)
	require.NoError(t, err)
	resp.Body.Close()
	require.Equal(t, "private, no-cache", resp.Header.Get("Cache-Control"), "the buy page carries a visitor's token: no shared cache")
	status, page := v.get("/b/dota-2-visayas-major-gen")
	require.Equal(t, http.StatusOK, status)
	require.Contains(t, page, `<form class="purchase-form" method="post" action="/b/dota-2-visayas-major-gen"`)
	require.Contains(t, page, `<input type="hidden" name="_csrf" value="`+v.csrf+`">`)
	require.NotContains(t, page, "needs JavaScript")

	t.Run("ErrNoToken", func(t *testing.T) {
		form := url.Values{"email": {"a@example.ph"}, "quantity": {"1"}, "paymentType": {"QR"}}
		r, err := http.NewRequest(http.MethodPost, a.URL+"/b/dota-2-visayas-major-gen", strings.NewReader(form.Encode()))
		require.NoError(t, err)
		r.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		status, _ := v.do(r)
		require.Equal(t, http.StatusForbidden, status)
	})

	t.Run("ErrMessagesInTheForm", func(t *testing.T) {
		status, body := v.post("/b/codm-campus-clash-iloilo-free", url.Values{"email": {"juan@example.ph"}, "firstName": {"Juan"}, "paymentType": {""}})
		require.Equal(t, http.StatusBadRequest, status)
		require.Contains(t, body, `<p class="field-error" id="lastName-error">Last Name is required</p>`)
		require.Contains(t, body, `<p class="form-error form-summary" role="alert">Last Name is required</p>`)
		require.Contains(t, body, `value="Juan"`, "what was sent comes back")
		require.Contains(t, body, `"initial":{"touched":[`, "the island gets the server's messages")
	})

	t.Run("ErrExistingUserUnknown", func(t *testing.T) {
		// 'I am an existing user' with an address that never bought: the details come back, asked for
		status, body := v.post("/b/esports-career-summit-pass", url.Values{"email": {"first.time@example.ph"}, "existingUser": {"yes"},
			"quantity": {"1"}, "paymentType": {"QR"}})
		require.Equal(t, http.StatusBadRequest, status)
		require.Contains(t, body, `<p class="field-error" id="fullName-error">Full Name is required</p>`)
		require.Contains(t, body, `<input type="checkbox" name="existingUser" value="yes">`, "unticked again")
	})

	t.Run("StepChangesNothingElse", func(t *testing.T) {
		status, body := v.post("/b/dota-2-visayas-major-gen", url.Values{"email": {"step@example.ph"}, "quantity": {"2"}, "step": {"6-"}})
		require.Equal(t, http.StatusOK, status)
		require.Contains(t, body, `<input type="hidden" name="addOn6" value="1">`, "one lanyard less than the two tickets' default")
		require.NotContains(t, body, "form-error")
	})

	t.Run("PostGoesToTheCheckout", func(t *testing.T) {
		form := url.Values{"email": {"form@example.ph"}, "quantity": {"2"}, "addOn5": {"1"}, "paymentType": {"QR"}, "_csrf": {v.token()}}
		r, err := http.NewRequest(http.MethodPost, a.URL+"/b/dota-2-visayas-major-gen", strings.NewReader(form.Encode()))
		require.NoError(t, err)
		r.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		resp, err := v.client.Do(r)
		require.NoError(t, err)
		resp.Body.Close()
		require.Equal(t, http.StatusSeeOther, resp.StatusCode)
		require.True(t, strings.HasPrefix(resp.Header.Get("Location"), a.URL+"/sandbox/"), resp.Header.Get("Location"))
	})

	t.Run("EventPageSheetsCarryNoToken", func(t *testing.T) {
		anon := newVisitor(t, a)
		status, body := anon.get("/e/dota-2-visayas-major")
		require.Equal(t, http.StatusOK, status)
		require.Contains(t, body, `data-quick-sheet="dota-2-visayas-major-gen" hidden`)
		require.Contains(t, body, `<form method="post" action="/b/dota-2-visayas-major-gen" novalidate><input type="hidden" name="_csrf" value="">`)
		u, _ := url.Parse(a.URL)
		require.Empty(t, anon.client.Jar.Cookies(u), "no session for a cached public page")
	})
}
