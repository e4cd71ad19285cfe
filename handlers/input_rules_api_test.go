package handlers_test

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// Values every field must refuse: a 20,000-character value (well within the body limit of a JSON
// call), one with a CR/LF (a header injection), control characters, a right-to-left override,
// and an address with an invisible character.
var (
	hugeValue  = strings.Repeat("Ana ", 5000)
	crlfValue  = "Ana\r\nBcc: evil@example.com"
	ctrlValue  = "Ana\x00\x1b[31m"
	bidiValue  = "Ana\u202egnp.exe"
	badAddress = "alice@example.com\u200b"
)

// TestInputRules_PurchaseCalls sends each field of the purchase, add-on and ticket calls with
// values it must refuse; the event asks for none of the personal details, which are checked all
// the same. Nothing is stored.
func TestInputRules_PurchaseCalls(t *testing.T) {
	f := newAPIFixture(t)
	tk := freeTicket(t, f, "holder@x.ph")
	base := func() map[string]any {
		return map[string]any{"eventCode": "valorant-night-market-bgc", "ticketCode": "valorant-night-market-bgc-watch",
			"quantity": 1, "email": "buyer@x.ph", "mobileNumber": "09171234567", "fullName": "Ana Reyes"}
	}
	// buy sends a purchase, the clock moving on so that the purchase rate limit never answers.
	// Each buyer has an address of their own, so that no per-buyer limit refuses them.
	buyers := 0
	buy := func(req map[string]any) (int, map[string]any) {
		f.now = f.now.Add(10 * time.Second)
		if req["email"] == "buyer@x.ph" {
			buyers++
			req["email"] = fmt.Sprintf("buyer%d@x.ph", buyers)
		}
		return f.call(t, "POST", "/v1/ticket/buy", req)
	}
	t.Run("OK control", func(t *testing.T) {
		req := base()
		req["fullName"], req["companyName"], req["lastName"] = "Ana María O'Brien-Reyes Jr.", "Acme, Inc. (PH)", "Ñuñez"
		status, body := buy(req)
		require.Equal(t, 200, status, body)
		req = base()
		req["source"] = strings.Repeat("A", 64)
		status, body = buy(req)
		require.Equal(t, 200, status, body)
	})
	var orders int
	require.NoError(t, f.db.Writer().QueryRow(`SELECT count(*) FROM orders`).Scan(&orders))
	buyFields := []string{"email", "firstName", "lastName", "fullName", "mobileNumber", "gender", "birthDate", "age",
		"companyName", "designation", "economicClass", "surveyAnswer", "source", "paymentType"}
	for _, field := range buyFields {
		for name, bad := range map[string]string{"Huge": hugeValue, "CRLF": crlfValue, "Control": ctrlValue, "Bidi": bidiValue} {
			t.Run("ErrBuy "+field+" "+name, func(t *testing.T) {
				req := base()
				req[field] = bad
				status, body := buy(req)
				require.GreaterOrEqual(t, status, 400, body)
				require.Less(t, status, 500, body)
				require.NotEqual(t, http.StatusTooManyRequests, status, "refused for what it is, not throttled")
			})
		}
	}
	t.Run("ErrBuy invisible character in the address", func(t *testing.T) {
		req := base()
		req["email"] = badAddress
		status, body := buy(req)
		require.Equal(t, 400, status, body)
	})
	var after int
	require.NoError(t, f.db.Writer().QueryRow(`SELECT count(*) FROM orders`).Scan(&after))
	require.Equal(t, orders, after, "no refused purchase left an order")

	calls := []struct {
		path   string
		fields map[string]any
	}{
		{"/v1/ticket/add", map[string]any{"uuid": tk.PublicID, "addOns": []int{}, "ticketCode": tk.Code, "paymentType": "QR"}},
		{"/v1/ticket/change-email", map[string]any{"uuid": tk.PublicID, "email": "new@x.ph"}},
		{"/v1/tickets/link", map[string]any{"email": "holder@x.ph"}},
	}
	for _, c := range calls {
		for field := range c.fields {
			if field == "addOns" {
				continue
			}
			for name, bad := range map[string]string{"Huge": hugeValue, "CRLF": crlfValue, "Control": ctrlValue} {
				t.Run("Err"+c.path+" "+field+" "+name, func(t *testing.T) {
					req := map[string]any{}
					for k, v := range c.fields {
						req[k] = v
					}
					req[field] = bad
					f.now = f.now.Add(3 * time.Minute) // past the e-mail routes' limits
					status, body := f.call(t, "POST", c.path, req)
					require.NotEqual(t, http.StatusTooManyRequests, status)
					require.GreaterOrEqual(t, status, 400, body)
					require.Less(t, status, 500, body)
				})
			}
		}
	}
	for _, path := range []string{"/v1/ticket/change-email", "/v1/tickets/link"} {
		t.Run("Err"+path+" look-alike addresses", func(t *testing.T) {
			for _, bad := range []string{badAddress, "\u0430lice@example.com", `a"<b>"@x.io`} {
				f.now = f.now.Add(3 * time.Minute)
				status, body := f.call(t, "POST", path, map[string]any{"uuid": tk.PublicID, "email": bad})
				require.Equal(t, 400, status, "%q: %v", bad, body)
			}
		})
	}

	// The forms of /tickets and /change-email/{id}.
	for _, path := range []string{"/tickets", "/change-email/" + tk.PublicID} {
		for name, bad := range map[string]string{"Huge": hugeValue, "CRLF": crlfValue, "Invisible": badAddress, "Cyrillic": "\u0430lice@example.com"} {
			t.Run("ErrForm "+path+" "+name, func(t *testing.T) {
				f.now = f.now.Add(3 * time.Minute) // past the e-mail routes' limits
				status := postForm(t, f, path, url.Values{"email": {bad}})
				require.Equal(t, http.StatusBadRequest, status)
			})
		}
	}
}

// postForm posts a form with the session's CSRF token and returns the status.
func postForm(t *testing.T, f *apiFixture, path string, form url.Values) int {
	t.Helper()
	form.Set("_csrf", f.csrf)
	req, err := http.NewRequestWithContext(context.Background(), http.MethodPost, f.http.URL+path, strings.NewReader(form.Encode()))
	require.NoError(t, err)
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	resp, err := f.client.Do(req)
	require.NoError(t, err)
	_, _ = io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	return resp.StatusCode
}
