package e2e

import (
	"context"
	"fmt"
	"net/http"
	"testing"

	"github.com/stretchr/testify/require"

	"palaro"
	"palaro/store"
)

// TestOrganizerAPI_SeniorPWD turns the senior citizen and PWD discount on and off per ticket type
// (on by default for a new one, kept when an edit leaves it out), and shows a discounted ticket
// in the orders answer and export with its ID number in full, and in the gate list with its last 4.
func TestOrganizerAPI_SeniorPWD(t *testing.T) {
	a := startApp(t)
	tok := organizerToken(t, a, store.DemoOrganizerEmail, "--organization", "5")
	v := newVisitor(t, a)
	api := orgAPI(t, v, tok)
	const base = "/v1/organizer/events/kundiman-gala/ticket-types"

	status, tt := api(http.MethodPost, base, `{"code":"kundiman-gala-balcony","name":"Balcony","price":50000,"capacity":100}`)
	require.Equal(t, http.StatusCreated, status, tt)
	require.Equal(t, true, tt["seniorPwdDiscount"], "on by default for a new ticket type")
	status, tt = api(http.MethodPost, base, `{"code":"kundiman-gala-valet","name":"Valet","price":30000,"capacity":10,"seniorPwdDiscount":false}`)
	require.Equal(t, http.StatusCreated, status, tt)
	require.Equal(t, false, tt["seniorPwdDiscount"])
	status, tt = api(http.MethodPatch, base+"/kundiman-gala-balcony", `{"capacity":90}`)
	require.Equal(t, http.StatusOK, status, tt)
	require.Equal(t, true, tt["seniorPwdDiscount"], "kept when the edit leaves it out")
	status, tt = api(http.MethodPatch, base+"/kundiman-gala-balcony", `{"seniorPwdDiscount":false}`)
	require.Equal(t, http.StatusOK, status, tt)
	require.Equal(t, false, tt["seniorPwdDiscount"])

	// a paid order with one PWD ticket
	ctx := context.Background()
	req := palaro.PurchaseRequest{TicketCode: "kundiman-gala-orchestra", Quantity: 2, Email: "ben@example.ph",
		Discounts: []palaro.TicketDiscount{{Type: palaro.DiscountPWD, HolderName: "Ben Cruz", IDNumber: "PWD-13-7654-3210"}}}
	o, err := a.Purchases().CreateOrder(ctx, req, a.Now())
	require.NoError(t, err)
	require.NoError(t, a.Purchases().AttachCheckout(ctx, o.ID, "sandbox", palaro.CheckoutSession{ID: "cs_pwd", URL: "https://pay.test/cs_pwd"}))
	_, err = a.Purchases().ConfirmPayment(ctx, "sandbox", false, palaro.PaymentEvent{ID: "evt_pwd", SessionID: "cs_pwd",
		Status: palaro.PaymentPaid, Amount: o.Total, Currency: palaro.PaymentCurrency})
	require.NoError(t, err)

	status, orders := api(http.MethodGet, "/v1/organizer/events/kundiman-gala/orders?q=ben@example.ph", "")
	require.Equal(t, http.StatusOK, status, orders)
	text := fmt.Sprint(orders["orders"])
	require.Contains(t, text, "PWD-13-7654-3210", "owners and managers see the ID number in full")
	require.Contains(t, text, "seniorPwdDiscount:28571")

	status, csvText := v.send(http.MethodGet, "/organizer/events/kundiman-gala/orders.csv", "", "", tok)
	require.Equal(t, http.StatusOK, status)
	require.Contains(t, csvText, "pwd Ben Cruz PWD-13-7654-3210")
	status, csvText = v.send(http.MethodGet, "/organizer/events/kundiman-gala/attendees.csv", "", "", tok)
	require.Equal(t, http.StatusOK, status)
	require.Contains(t, csvText, "pwd,Ben Cruz,PWD-13-7654-3210,285.71")

	status, list := api(http.MethodGet, "/v1/organizer/events/kundiman-gala/gate-list", "")
	require.Equal(t, http.StatusOK, status, list)
	gate := fmt.Sprint(list["tickets"])
	require.Contains(t, gate, "pwd Ben Cruz", "the gate checks the ID holder's name")
	require.Contains(t, gate, "3210", "the gate gets the ID's last 4")
	require.NotContains(t, gate, "13-7654", "and no more of it (the hyphen keeps a random hex ticket code from matching)")
}
