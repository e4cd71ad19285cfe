package store

import (
	"context"
	"testing"

	"github.com/stretchr/testify/require"

	"palaro"
)

func TestOrganizerService_MarkRefunded(t *testing.T) {
	ctx := context.Background()
	t.Run("OK a paid order's tickets are cancelled, its seats and capacity come back", func(t *testing.T) {
		f := newPurchaseFixture(t)
		code, id := f.addSeatedTicketType(t, "refund-seated", 0, 16, 4)
		o, err := f.purchases.CreateOrder(ctx, seatRequest(code, "r@x.ph", "A1", "A2"), f.now)
		require.NoError(t, err)
		require.Equal(t, palaro.OrderPaid, o.Status, "a free order is paid at once")
		sold, _, _ := f.counts(t, code)
		require.Equal(t, 2, sold)
		org := NewOrganizerService(f.db, nil)
		eventID := f.eventIDOf(t, id)
		require.NoError(t, org.MarkRefunded(ctx, eventID, o.PublicID, "owner@x.ph"))

		got, err := org.FindOrder(ctx, eventID, o.PublicID)
		require.NoError(t, err)
		require.Equal(t, palaro.OrderRefunded, got.Status)
		for _, tk := range got.Tickets {
			require.Equal(t, palaro.TicketCancelled, tk.Status)
			res, err := NewCheckInService(f.db).CheckIn(ctx, palaro.CheckInRequest{EventID: eventID, Code: tk.Code, Gate: "Gate 1", At: f.now})
			require.NoError(t, err)
			require.Equal(t, palaro.CheckInCancelled, res.Outcome, "the gate refuses a refunded ticket")
		}
		sold, _, _ = f.counts(t, code)
		require.Equal(t, 0, sold, "the capacity is back")
		require.Equal(t, palaro.SeatAvailable, f.seatStates(t, id)["A1"], "the seat is back on sale")
		require.Equal(t, 1, f.countRows(t, `SELECT count(*) FROM audit_log WHERE action = ?`, "order "+o.PublicID+" marked refunded"))

		err = org.MarkRefunded(ctx, eventID, o.PublicID, "owner@x.ph")
		require.Equal(t, palaro.EINVALID, palaro.ErrorCode(err), "once only")
		orders, err := f.purchases.ListOrders(ctx, palaro.OrderFilter{Status: palaro.OrderRefunded})
		require.NoError(t, err)
		require.Len(t, orders, 1)
	})
	t.Run("ErrNotFound unknown order", func(t *testing.T) {
		f := newPurchaseFixture(t)
		err := NewOrganizerService(f.db, nil).MarkRefunded(ctx, 1, "nope", "owner@x.ph")
		require.Equal(t, palaro.ENOTFOUND, palaro.ErrorCode(err))
	})
	t.Run("OK the migration keeps the schema sound", func(t *testing.T) {
		f := newPurchaseFixture(t)
		if !f.db.postgres { // migration 00307 edits SQLite's schema; PostgreSQL's baseline has the CHECK
			var ok string
			require.NoError(t, f.db.read.QueryRow(`PRAGMA integrity_check`).Scan(&ok))
			require.Equal(t, "ok", ok)
		}
		_, err := f.db.write.Exec(`UPDATE orders SET status = 'bogus' WHERE id = (SELECT min(id) FROM orders)`)
		require.Error(t, err, "the CHECK still holds")
	})
}
