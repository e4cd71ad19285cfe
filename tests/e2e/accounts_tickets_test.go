package e2e

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"palaro"
)

// signUpActive signs a visitor up through the form and activates the account from the outbox's welcome e-mail.
func signUpActive(t *testing.T, a *testApp, v *httpVisitor, email, mobile string) {
	t.Helper()
	v.get("/sign-up")
	status, _ := v.post("/sign-up", url.Values{"email": {email}, "password": {"secret123"}, "repeatPassword": {"secret123"},
		"firstName": {"Tess"}, "lastName": {"Ong"}, "mobileNumber": {mobile}, "terms": {"1"}})
	require.Equal(t, http.StatusSeeOther, status)
	msgs, err := a.Outbox().ListOutbox(context.Background(), palaro.OutboxFilter{To: email})
	require.NoError(t, err)
	require.NotEmpty(t, msgs)
	link := regexp.MustCompile(`/activate\?token=[A-Za-z0-9_-]+`).FindString(msgs[0].Text)
	status, body := v.get(link)
	require.Equal(t, http.StatusOK, status, body)
	v.get("/profile")
}

func TestTickets_SignedIn(t *testing.T) {
	a := startApp(t)
	alice := newVisitor(t, a)
	signUpActive(t, a, alice, "alice@example.ph", "09351234567")

	_, body := alice.get("/tickets")
	require.Contains(t, body, "No tickets yet.")
	_, raw := alice.postJSON("/v1/ticket/buy", `{"ticketCode":"valorant-night-market-bgc-watch","quantity":1,`+
		`"email":"alice@example.ph","fullName":"Alice Ong","mobileNumber":"0935-123-4567"}`)
	var res map[string]any
	require.NoError(t, json.Unmarshal([]byte(raw), &res))
	require.EqualValues(t, 200, res["responseCode"], raw)

	_, body = alice.get("/tickets")
	require.Contains(t, body, "Tickets of <strong>alice@example.ph</strong>")
	require.Contains(t, body, "<h2>Upcoming</h2>")
	ticket := regexp.MustCompile(`href="(/t/[a-z2-7]+)"`).FindStringSubmatch(body)
	require.NotNil(t, ticket, "the list links the ticket")

	t.Run("OtherUserSeesOnlyTheirs", func(t *testing.T) {
		bob := newVisitor(t, a)
		signUpActive(t, a, bob, "bob@example.ph", "09361234567")
		_, body := bob.get("/tickets")
		require.Contains(t, body, "No tickets yet.")
		require.NotContains(t, body, ticket[1])
	})
	t.Run("UnconfirmedSeesNone", func(t *testing.T) {
		carl := newVisitor(t, a)
		carl.get("/sign-up")
		carl.post("/sign-up", url.Values{"email": {"alice2@example.ph"}, "password": {"secret123"}, "repeatPassword": {"secret123"},
			"firstName": {"C"}, "lastName": {"D"}, "mobileNumber": {"09371234567"}, "terms": {"1"}})
		_, body := carl.get("/tickets")
		require.Contains(t, body, "is not confirmed yet")
		require.NotContains(t, body, "Have an account?")
		require.NotContains(t, body, ticket[1])
	})
	t.Run("ErrGuessedTicket", func(t *testing.T) {
		status, _ := newVisitor(t, a).get("/t/" + strings.Repeat("a", 24))
		require.Equal(t, http.StatusNotFound, status)
	})
	t.Run("SignedOutGetsTheForm", func(t *testing.T) {
		_, body := newVisitor(t, a).get("/tickets")
		require.Contains(t, body, "Send me my tickets")
		require.NotContains(t, body, ticket[1])
	})
}

// TestTickets_OwnerActs: the signed-in owner of a ticket's address buys add-ons without the
// ticket's code and gives consent to a transfer by asking for it; anyone else needs the code or
// the holder's consent by e-mail.
func TestTickets_OwnerActs(t *testing.T) {
	a := startApp(t)
	ctx := context.Background()
	_, err := a.DB().Writer().Exec(`INSERT INTO ticket_types (event_id, code, name, price, max_purchasable, capacity)
		SELECT id, 'dota-owner-free', 'Free Pass', 0, 1, 10 FROM events WHERE code = 'dota-2-visayas-major'`)
	require.NoError(t, err)
	o, err := a.Purchases().CreateOrder(ctx, palaro.PurchaseRequest{TicketCode: "dota-owner-free", Quantity: 1,
		Email: "owner@example.ph", FullName: "Olive Ong", MobileNumber: "09171234567"}, a.Now())
	require.NoError(t, err)
	tk := o.Tickets[0]
	available, err := a.Purchases().AddOnsAvailableForTicket(ctx, tk.PublicID)
	require.NoError(t, err)
	var paidAddOn int64
	for _, ad := range available {
		if ad.Price > 0 {
			paidAddOn = ad.ID
			break
		}
	}
	require.NotZero(t, paidAddOn)
	addOns := fmt.Sprintf(`{"uuid":%q,"addOns":[%d],"paymentType":"CARD"}`, tk.PublicID, paidAddOn)

	stranger := newVisitor(t, a)
	stranger.get("/about")
	status, body := stranger.postJSON("/v1/ticket/add", addOns)
	require.Equal(t, http.StatusNotFound, status, "no code, not the owner: %s", body)

	owner := newVisitor(t, a)
	signUpActive(t, a, owner, "owner@example.ph", "09351234568")
	status, body = owner.postJSON("/v1/ticket/add", addOns)
	require.Equal(t, http.StatusOK, status, "the signed-in owner needs no code: %s", body)

	status, body = owner.postJSON("/v1/ticket/change-email", fmt.Sprintf(`{"uuid":%q,"email":"friend@example.ph"}`, tk.PublicID))
	require.Equal(t, http.StatusOK, status, body)
	require.Contains(t, body, "We sent a link to friend@example.ph")
	msgs, err := a.Outbox().ListOutbox(ctx, palaro.OutboxFilter{To: "friend@example.ph"})
	require.NoError(t, err)
	require.Len(t, msgs, 1)
	require.Equal(t, palaro.MessageTransferReceipt, msgs[0].Kind, "the owner's consent is given: the new address is asked at once")
	msgs, err = a.Outbox().ListOutbox(ctx, palaro.OutboxFilter{To: "owner@example.ph"})
	require.NoError(t, err)
	for _, m := range msgs {
		require.NotEqual(t, palaro.MessageEmailChange, m.Kind)
	}
}
