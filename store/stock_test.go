package store

import (
	"context"
	"runtime"
	"testing"

	"github.com/stretchr/testify/require"

	"palaro"
)

// TestStockCounts_FollowEveryChange proves the writer's count of tickets left is the committed
// one after each kind of change, and answers a sold-out buyer while the writer is held: a paid
// order's hold, its release, a free order, a capacity edit made outside the batching writer (the
// entry is dropped at once, so the buyer is not refused on the old count, and the next batch
// reloads it). Control: with the count off (as on a store with several writing servers), the
// same buyers get the same answers from the read snapshot and the write lock.
func TestStockCounts_FollowEveryChange(t *testing.T) {
	for _, on := range []bool{true, false} {
		f := newPurchaseFixture(t)
		if !on {
			f.db.stock, f.db.writer.stock = nil, nil
		}
		ctx := context.Background()
		code := f.addTicketType(t, "counted", 20000, 2, 2)
		var id int64
		require.NoError(t, f.db.read.QueryRow(`SELECT id FROM ticket_types WHERE code = ?`, code).Scan(&id))
		left := func() (int, bool) {
			if f.db.stock == nil {
				return 0, false
			}
			return f.db.stock.remaining(id)
		}
		known := func(want int) {
			t.Helper()
			if !on {
				return
			}
			n, ok := left()
			require.True(t, ok, "the count is known after a batch that changed it")
			require.Equal(t, want, n)
		}
		_, ok := left()
		require.False(t, ok, "unknown before any change")

		pending := f.pendingOrder(t, code, 2, "cs_counted")
		known(0)
		require.NoError(t, f.purchases.CancelOrder(ctx, pending.ID))
		known(2)
		_, err := f.purchases.CreateOrder(ctx, freeRequest(code, 2, "two@x.ph"), f.now)
		require.NoError(t, err)
		known(0)

		// sold out: answered while the writer is held, without queuing
		release, held := holdWriter(t, f.db)
		out := make(chan error, 1)
		go func() {
			_, err := f.purchases.CreateOrder(ctx, freeRequest(code, 1, "late@x.ph"), f.now)
			out <- err
		}()
		for err = nil; err == nil; runtime.Gosched() {
			select {
			case err = <-out:
			default:
				require.Zero(t, len(f.db.writer.queue), "the sold-out buyer was queued for the writer")
			}
		}
		require.Equal(t, palaro.ECONFLICT, palaro.ErrorCode(err), "%v", err)
		require.ErrorContains(t, err, "sold out")
		release()
		require.NoError(t, <-held)

		// an organizer raises the capacity outside the batching writer: the count is dropped at once
		_, err = f.db.write.Exec(`UPDATE ticket_types SET capacity = 3 WHERE id = ?`, id)
		require.NoError(t, err)
		_, ok = left()
		require.False(t, ok, "dropped by the change")
		o, err := f.purchases.CreateOrder(ctx, freeRequest(code, 1, "late@x.ph"), f.now)
		require.NoError(t, err, "not refused on the old count")
		require.Equal(t, palaro.OrderPending, o.Status)
		known(0)
		sold, heldCount, capacity := f.counts(t, code)
		require.Equal(t, 3, capacity)
		require.Equal(t, 3, sold+heldCount)
	}
}
