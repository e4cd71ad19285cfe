package handlers_test

import (
	"context"
	"io"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"palaro"
)

func TestAPI_BuyTicket_Discounts(t *testing.T) {
	senior := map[string]any{"type": "senior", "holderName": "Corazon Reyes", "idNumber": "OSCA-2024-81234"}
	order := func(discounts ...map[string]any) map[string]any {
		return map[string]any{"eventCode": "kundiman-gala", "ticketCode": "kundiman-gala-orchestra", "quantity": 2,
			"email": "lola@example.ph", "paymentType": "CARD", "discounts": discounts}
	}
	t.Run("OK the total and the checkout's lines take the discount off", func(t *testing.T) {
		f, _ := withSandbox(t, "")
		status, body := f.call(t, "POST", "/v1/ticket/buy", order(senior))
		require.Equal(t, 200, status, body)
		o, err := f.purchases.FindOrderByPublicID(context.Background(), body["orderId"].(string))
		require.NoError(t, err)
		require.Equal(t, palaro.Money(100000+71429), o.Total, "₱1,000.00 + ₱714.29")
		require.Equal(t, palaro.Money(28571), o.SeniorPWDDiscount)
	})
	t.Run("ErrInvalid field errors name the entry", func(t *testing.T) {
		f := newAPIFixture(t)
		for _, tc := range []struct {
			discounts []map[string]any
			field     string
			want      string
		}{
			{[]map[string]any{senior, {"type": "pwd", "holderName": "Ben Cruz", "idNumber": ""}}, "discounts[1].idNumber", "Enter the OSCA ID or PWD ID number."},
			{[]map[string]any{senior, {"type": "pwd", "holderName": " ", "idNumber": "PWD-1"}}, "discounts[1].holderName", "Enter the full name on the ID."},
			{[]map[string]any{{"type": "student", "holderName": "A", "idNumber": "1"}}, "discounts[0].type", "Choose senior citizen or person with disability."},
			{[]map[string]any{senior, {"type": "pwd", "holderName": "Ben", "idNumber": "osca 2024 81234"}}, "discounts[1].idNumber", "Each ID can have one discounted ticket per event."},
			{[]map[string]any{senior, senior, senior}, "discounts", "At most 2 discounts: one per ticket."},
		} {
			status, body := f.call(t, "POST", "/v1/ticket/buy", order(tc.discounts...))
			require.Equal(t, 400, status, body)
			require.Equal(t, tc.want, body["fields"].(map[string]any)[tc.field], body)
		}
		// a ticket type the discount does not apply to
		req := order(senior)
		req["ticketCode"] = "kundiman-gala-parking"
		status, body := f.call(t, "POST", "/v1/ticket/buy", req)
		require.Equal(t, 400, status, body)
		require.Equal(t, "The senior citizen and PWD discount does not apply to Parking.", body["fields"].(map[string]any)["discounts"])
	})
	t.Run("ErrConflict one discounted ticket per ID per event", func(t *testing.T) {
		f, _ := withSandbox(t, "")
		status, body := f.call(t, "POST", "/v1/ticket/buy", order(senior))
		require.Equal(t, 200, status, body)
		again := order(senior)
		again["email"] = "other@example.ph"
		status, body = f.call(t, "POST", "/v1/ticket/buy", again)
		require.Equal(t, 409, status, body)
		require.Contains(t, body["fields"].(map[string]any), "discounts[0].idNumber")
	})
}

// TestBuyForm_Discounts posts the purchase form without JavaScript: the second ticket's discount,
// its error shown under that ticket's field, then the order at the discounted total.
func TestBuyForm_Discounts(t *testing.T) {
	f, _ := withSandbox(t, "")
	post := func(form url.Values) (int, string) {
		form.Set("_csrf", f.csrf)
		req, err := http.NewRequestWithContext(context.Background(), http.MethodPost, f.http.URL+"/b/kundiman-gala-orchestra", strings.NewReader(form.Encode()))
		require.NoError(t, err)
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		client := *f.client
		client.CheckRedirect = func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }
		resp, err := client.Do(req)
		require.NoError(t, err)
		defer resp.Body.Close()
		body, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, string(body)
	}
	form := url.Values{"email": {"pair@example.ph"}, "quantity": {"2"}, "paymentType": {"CARD"},
		"discounts[0].type": {""}, "discounts[0].holderName": {"ignored at full price"},
		"discounts[1].type": {"pwd"}, "discounts[1].holderName": {"Ben Cruz"}, "discounts[1].idNumber": {""}}
	status, body := post(form)
	require.Equal(t, http.StatusBadRequest, status)
	require.Contains(t, body, `id="discounts[1].idNumber-error"`, "the message is under the second ticket's field")
	require.Contains(t, body, "Enter the OSCA ID or PWD ID number.")
	require.Contains(t, body, "pay ₱714.29 instead of ₱1,000.00", "the discounted price, with the law named")

	form.Set("discounts[1].idNumber", "PWD-13-7654-3210")
	status, _ = post(form)
	require.Equal(t, http.StatusSeeOther, status)
	var total int64
	require.NoError(t, f.db.Writer().QueryRow(`SELECT total FROM orders WHERE email = 'pair@example.ph'`).Scan(&total))
	require.Equal(t, int64(100000+71429), total)
}
