package store

import (
	"context"
	"testing"

	"github.com/stretchr/testify/require"

	"palaro"
	"palaro/notify"
)

// TestOrganizerService_CancelTicketOrderState: cancelling an order's tickets one by one keeps it
// paid while one admits someone; the last one moves a paid order to the refund queue (a free one
// is closed as refunded); the holder is e-mailed each time; moving a ticket reissues it; on either engine.
func TestOrganizerService_CancelTicketOrderState(t *testing.T) {
	ctx := context.Background()
	f := newPurchaseFixture(t)
	org := NewOrganizerService(f.db, notify.NewComposer("https://palaro.test", "help@palaro.test"))
	code, id := f.addSeatedTicketType(t, "cancel-state", 0, 16, 4)
	eventID := f.eventIDOf(t, id)
	for _, c := range []struct {
		name, email string
		total       palaro.Money
		last        string
	}{{"Paid", "paid@x.ph", 50000, palaro.OrderRefund}, {"Free", "free@x.ph", 0, palaro.OrderRefunded}} {
		t.Run(c.name, func(t *testing.T) {
			seats := map[string][]string{"Paid": {"A1", "A2"}, "Free": {"B1", "B2"}}[c.name]
			o, err := f.purchases.CreateOrder(ctx, seatRequest(code, c.email, seats...), f.now)
			require.NoError(t, err)
			_, err = f.db.write.Exec(`UPDATE orders SET total = ? WHERE id = ?`, c.total, o.ID) // as if paid for
			require.NoError(t, err)

			require.NoError(t, org.CancelTicket(ctx, eventID, o.Tickets[0].Code, "owner@x.ph"))
			got, err := org.FindOrder(ctx, eventID, o.PublicID)
			require.NoError(t, err)
			require.Equal(t, palaro.OrderPaid, got.Status, "a ticket still admits someone")
			require.NoError(t, org.CancelTicket(ctx, eventID, o.Tickets[1].Code, "owner@x.ph"))
			got, err = org.FindOrder(ctx, eventID, o.PublicID)
			require.NoError(t, err)
			require.Equal(t, c.last, got.Status, "no ticket left")
			queue, err := org.ListRefundQueue(ctx, eventID)
			require.NoError(t, err)
			inQueue := false
			for _, q := range queue {
				inQueue = inQueue || q.PublicID == o.PublicID
			}
			require.Equal(t, c.last == palaro.OrderRefund, inQueue)
			require.Equal(t, 2, f.countRows(t, `SELECT count(*) FROM outbox WHERE kind = ? AND recipient = ?`, palaro.MessageTicketCancelled, c.email))
		})
	}
	t.Run("Move", func(t *testing.T) {
		o, err := f.purchases.CreateOrder(ctx, seatRequest(code, "mover@x.ph", "C1"), f.now)
		require.NoError(t, err)
		old := o.Tickets[0]
		require.NoError(t, org.ChangeTicketEmail(ctx, eventID, old.Code, "New@X.ph", "owner@x.ph"))
		got, err := org.FindOrder(ctx, eventID, o.PublicID)
		require.NoError(t, err)
		require.Equal(t, "new@x.ph", got.Tickets[0].Email)
		require.NotEqual(t, old.Code, got.Tickets[0].Code)
		require.NotEqual(t, old.PublicID, got.Tickets[0].PublicID)
		for _, to := range []string{"mover@x.ph", "new@x.ph"} {
			require.Equal(t, 1, f.countRows(t, `SELECT count(*) FROM outbox WHERE kind = ? AND recipient = ?`, palaro.MessageTransferDone, to))
		}
	})
}
