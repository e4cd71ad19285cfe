package e2e

import (
	"context"
	"encoding/json"
	"net/http"
	"net/url"
	"strconv"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"palaro"
	"palaro/payment/sandbox"
	"palaro/store"
)

// sandboxPaidOrder buys quantity tickets of the demo organizer's paid type for email and pays
// them by card on the sandbox's checkout page, so the sandbox holds a payment to refund.
func sandboxPaidOrder(t *testing.T, a *testApp, email string, quantity int) *palaro.Order {
	t.Helper()
	buyer, res := buyOrder(t, a, email, quantity, "CARD")
	checkout, err := url.Parse(res["redirectUrl"].(string))
	require.NoError(t, err)
	status, body := buyer.post(checkout.Path+"/card", url.Values{"number": {"4343434343434345"}, "expiry": {"12/45"}, "cvc": {"123"}, "name": {"Ligaya Cruz"}})
	require.Equal(t, http.StatusSeeOther, status, body)
	var o *palaro.Order
	require.Eventually(t, func() bool {
		o, err = a.Purchases().FindOrderByPublicID(context.Background(), res["orderId"].(string))
		return err == nil && o.Status == palaro.OrderPaid
	}, 10*time.Second, 50*time.Millisecond, "the sandbox's webhook pays the order")
	require.Len(t, o.Tickets, quantity)
	return o
}

// buyOrder buys quantity tickets of the demo organizer's paid type for email, to be paid by
// paymentType, and returns the buyer and the purchase API's answer.
func buyOrder(t *testing.T, a *testApp, email string, quantity int, paymentType string) (*httpVisitor, map[string]any) {
	t.Helper()
	buyer := newVisitor(t, a)
	buyer.get("/b/" + demoOwnedType)
	_, raw := buyer.postJSON("/v1/ticket/buy", `{"ticketCode":"`+demoOwnedType+`","quantity":`+strconv.Itoa(quantity)+`,`+
		`"email":"`+email+`","firstName":"Ligaya","lastName":"Cruz","mobileNumber":"0917-555-0101","paymentType":"`+paymentType+`"}`)
	var res map[string]any
	require.NoError(t, json.Unmarshal([]byte(raw), &res))
	require.EqualValues(t, 200, res["responseCode"], raw)
	return buyer, res
}

// sandboxRefunds counts the refunds the sandbox made: the money that moved.
func sandboxRefunds(t *testing.T, a *testApp) int {
	t.Helper()
	n, err := sandbox.NewSQLStoreIn(a.DB().Reader(), a.DB().Write).CountRefunds(context.Background())
	require.NoError(t, err)
	return n
}

// TestAPI_RefundOrder: POST /v1/organizer/orders/{orderId}/refund refunds one ticket, then the
// rest; the sandbox confirms at once, so the answer shows the tickets refunded; a second call
// changes nothing and answers the same order; the orders search shows the same; a gate token
// cannot refund.
func TestAPI_RefundOrder(t *testing.T) {
	a := startApp(t)
	o := sandboxPaidOrder(t, a, "refund-api@example.ph", 2)
	tok := organizerToken(t, a, store.DemoOrganizerEmail, "--organization", "2")
	v := newVisitor(t, a)
	refund := func(body string) (int, map[string]any, string) {
		status, text := v.send(http.MethodPost, "/v1/organizer/orders/"+o.PublicID+"/refund", "application/json", body, tok)
		var out map[string]any
		require.NoError(t, json.Unmarshal([]byte(text), &out), text)
		return status, out, text
	}
	ticketStatuses := func(out map[string]any) []string {
		var s []string
		for _, tk := range out["tickets"].([]any) {
			s = append(s, tk.(map[string]any)["status"].(string))
		}
		return s
	}
	first := o.Tickets[0].Code

	status, out, text := refund(`{"tickets": ["` + first + `"]}`)
	require.Equal(t, http.StatusOK, status, text)
	require.Equal(t, o.PublicID, out["id"])
	require.Equal(t, palaro.OrderPaid, out["status"], "one ticket is left")
	require.Equal(t, []string{"refunded", "valid"}, ticketStatuses(out))
	refunds := out["refunds"].([]any)
	require.Len(t, refunds, 1)
	require.Equal(t, "refunded", refunds[0].(map[string]any)["status"])
	require.EqualValues(t, o.Total/2, refunds[0].(map[string]any)["amount"])
	require.Equal(t, 1, sandboxRefunds(t, a))

	status, again, text2 := refund(`{"tickets": ["` + first + `"]}`)
	require.Equal(t, http.StatusOK, status)
	require.JSONEq(t, text, text2, "a second call changes nothing and answers the same order")
	require.Equal(t, out, again)
	require.Equal(t, 1, sandboxRefunds(t, a), "no second refund")

	status, search := v.send(http.MethodGet, "/v1/organizer/events/"+demoOwnedEvent+"/orders?q="+o.PublicID, "", "", tok)
	require.Equal(t, http.StatusOK, status)
	var found struct{ Orders []map[string]any }
	require.NoError(t, json.Unmarshal([]byte(search), &found))
	require.Len(t, found.Orders, 1)
	require.Equal(t, out, found.Orders[0], "the order as the orders search shows it")

	gate := organizerToken(t, a, store.DemoOrganizerEmail, "--organization", "2", "--role", "gate")
	status, _ = v.send(http.MethodPost, "/v1/organizer/orders/"+o.PublicID+"/refund", "application/json", "", gate)
	require.Equal(t, http.StatusForbidden, status, "the gate cannot refund")

	status, out, text = refund(``) // no body: the whole order (what is left of it)
	require.Equal(t, http.StatusOK, status, text)
	require.Equal(t, palaro.OrderRefunded, out["status"])
	require.Equal(t, []string{"refunded", "refunded"}, ticketStatuses(out))
	require.Equal(t, 2, sandboxRefunds(t, a))
	status, _, text2 = refund(`{}`)
	require.Equal(t, http.StatusOK, status)
	require.JSONEq(t, text, text2)
	require.Equal(t, 2, sandboxRefunds(t, a))

	status, _, _ = refund(`{"tickets": ["NOPE"]}`)
	require.Equal(t, http.StatusNotFound, status)
	rival := organizerToken(t, a, store.DemoRivalEmail)
	status, _ = v.send(http.MethodPost, "/v1/organizer/orders/"+o.PublicID+"/refund", "application/json", "", rival)
	require.Equal(t, http.StatusNotFound, status, "another organization's order")
}
