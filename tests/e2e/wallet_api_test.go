package e2e

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"palaro/store"
)

// TestOrganizerAPI_WalletPaymentTypes: an organizer offers GCash and Maya on a ticket type through
// the API; the public ticket type lists their buttons, and a purchase with GCASH leads to the
// sandbox's wallet page; an unknown type is a field error on both sides.
func TestOrganizerAPI_WalletPaymentTypes(t *testing.T) {
	a := startApp(t)
	v := newVisitor(t, a)
	api := orgAPI(t, v, organizerToken(t, a, store.DemoOrganizerEmail, "--organization", "2"))
	path := "/v1/organizer/events/" + demoOwnedEvent + "/ticket-types/" + demoOwnedType
	status, tt := api(http.MethodPatch, path, `{"paymentTypes":["gcash","MAYA","QR"]}`)
	require.Equal(t, http.StatusOK, status, tt)
	require.Equal(t, []any{"GCASH", "MAYA", "QR"}, tt["paymentTypes"])

	buyer := newVisitor(t, a)
	status, body := buyer.get("/v1/ticket_type?eventCode=" + demoOwnedEvent + "&ticketTypeCode=" + demoOwnedType)
	require.Equal(t, http.StatusOK, status, body)
	var details struct {
		PaymentTypes []string `json:"paymentTypes"`
		Payments     []struct {
			Type, Label string
			Wallet      bool
		} `json:"payments"`
	}
	require.NoError(t, json.Unmarshal([]byte(body), &details))
	require.Equal(t, []string{"GCASH", "MAYA", "QR"}, details.PaymentTypes)
	require.Equal(t, "Pay with GCash", details.Payments[0].Label)
	require.True(t, details.Payments[1].Wallet)
	require.False(t, details.Payments[2].Wallet)

	status, body = buyer.postJSON("/v1/ticket/buy", `{"ticketCode":"`+demoOwnedType+`","quantity":1,"email":"api-gcash@example.ph",
		"firstName":"Ana","lastName":"Cruz","mobileNumber":"09171234567","paymentType":"GCASH"}`)
	require.Equal(t, http.StatusOK, status, body)
	var bought struct{ RedirectURL string }
	require.NoError(t, json.Unmarshal([]byte(body), &bought))
	require.True(t, strings.HasPrefix(bought.RedirectURL, a.URL+"/sandbox/checkout/"), bought.RedirectURL)
	status, page := buyer.get(strings.TrimPrefix(bought.RedirectURL, a.URL))
	require.Equal(t, http.StatusOK, status)
	require.Contains(t, page, "— GCash</h1>")

	status, body = buyer.postJSON("/v1/ticket/buy", `{"ticketCode":"`+demoOwnedType+`","quantity":1,"email":"api-card@example.ph",
		"firstName":"Ana","lastName":"Cruz","mobileNumber":"09171234567","paymentType":"CARD"}`)
	require.Equal(t, http.StatusBadRequest, status, "CARD is no longer offered: %s", body)
	require.Contains(t, body, `"paymentType":"Please choose a payment method"`)

	status, e := api(http.MethodPatch, path, `{"paymentTypes":["GCASH","PAYPAL"]}`)
	require.Equal(t, http.StatusBadRequest, status)
	require.Contains(t, e["message"], "Payment types are QR, CARD, GCASH, MAYA, GRABPAY, SHOPEEPAY.")
}
