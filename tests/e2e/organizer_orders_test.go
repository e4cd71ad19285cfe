package e2e

import (
	"context"
	"net/http"
	"net/url"
	"testing"

	"github.com/stretchr/testify/require"

	"palaro"
	"palaro/store"
)

// paidOrder buys quantity tickets of the demo organizer's paid type for email and pays them
// through the sandbox's payment event, as its webhook would.
func paidOrder(t *testing.T, a *testApp, email string, quantity int) *palaro.Order {
	t.Helper()
	_, res := buyOrder(t, a, email, quantity, "QR")
	o := confirmPaid(t, a, res["orderId"].(string))
	require.Len(t, o.Tickets, quantity)
	return o
}

// confirmPaid pays the order with that public id through the sandbox's payment event, as its
// webhook would, and returns it paid.
func confirmPaid(t *testing.T, a *testApp, orderID string) *palaro.Order {
	t.Helper()
	ctx := context.Background()
	o, err := a.Purchases().FindOrderByPublicID(ctx, orderID)
	require.NoError(t, err)
	require.NotEmpty(t, o.ProviderRef)
	_, err = a.Purchases().ConfirmPayment(ctx, o.Provider, false, palaro.PaymentEvent{ID: "evt_" + o.PublicID, SessionID: o.ProviderRef,
		Status: palaro.PaymentPaid, Amount: o.Total, Currency: palaro.PaymentCurrency})
	require.NoError(t, err)
	o, err = a.Purchases().FindOrderByPublicID(ctx, o.PublicID)
	require.NoError(t, err)
	require.Equal(t, palaro.OrderPaid, o.Status)
	return o
}

// outboxKinds returns the kinds of the messages queued for an address, oldest first.
func outboxKinds(t *testing.T, a *testApp, to string) []string {
	t.Helper()
	msgs, err := a.Outbox().ListOutbox(context.Background(), palaro.OutboxFilter{To: to})
	require.NoError(t, err)
	var kinds []string
	for i := len(msgs) - 1; i >= 0; i-- {
		kinds = append(kinds, msgs[i].Kind)
	}
	return kinds
}

// TestOrganizerTicketEmail_Reissues: moving a ticket to another address from the console works as a
// buyer's confirmed transfer: a new code, link and QR code (the old link is gone), the ticket's open
// transfer is voided, and both addresses are e-mailed.
func TestOrganizerTicketEmail_Reissues(t *testing.T) {
	a := startApp(t)
	ctx := context.Background()
	o := paidOrder(t, a, "ligaya@example.ph", 1)
	old := o.Tickets[0]
	_, err := a.Purchases().RequestEmailChange(ctx, old.PublicID, "third@example.ph", false, a.Now())
	require.NoError(t, err, "a buyer's transfer is under way")

	owner := signedIn(t, a, store.DemoOrganizerEmail)
	base := "/organizer/events/" + demoOwnedEvent
	status, _ := owner.post(base+"/tickets/"+old.Code+"/email?order="+o.PublicID, url.Values{"email": {"Friend@Example.ph"}})
	require.Equal(t, http.StatusSeeOther, status)

	got, err := a.Purchases().FindOrderByPublicID(ctx, o.PublicID)
	require.NoError(t, err)
	moved := got.Tickets[0]
	require.Equal(t, "friend@example.ph", moved.Email)
	require.NotEqual(t, old.Code, moved.Code, "a new code (and QR code)")
	require.NotEqual(t, old.PublicID, moved.PublicID, "a new link")
	visitor := newVisitor(t, a)
	status, _ = visitor.get(palaro.TicketPath(old.PublicID))
	require.Equal(t, http.StatusNotFound, status, "the old link no longer opens the ticket")
	status, _ = visitor.get(palaro.TicketPath(moved.PublicID))
	require.Equal(t, http.StatusOK, status)
	var transfer string
	require.NoError(t, a.DB().Reader().QueryRowContext(ctx, `SELECT status FROM ticket_transfers WHERE to_email = 'third@example.ph'`).Scan(&transfer))
	require.Equal(t, "void", transfer, "the buyer's own transfer is voided")

	require.Contains(t, outboxKinds(t, a, "ligaya@example.ph"), palaro.MessageTransferDone, "the old holder is told")
	require.Equal(t, []string{palaro.MessageTransferDone}, outboxKinds(t, a, "friend@example.ph"), "the new holder gets the ticket")
	_, page := owner.get(base + "/orders/" + o.PublicID)
	require.Contains(t, page, moved.Code)
	require.NotContains(t, page, old.Code)

	status, body := owner.post(base+"/tickets/"+moved.Code+"/email?order="+o.PublicID, url.Values{"email": {"friend@example.ph"}})
	require.Equal(t, http.StatusUnprocessableEntity, status)
	require.Contains(t, body, "already registered to friend@example.ph")
}
