package store

import (
	"context"
	"database/sql"
	"runtime"
	"testing"

	"github.com/stretchr/testify/require"

	"palaro"
	"palaro/internal/testdb"
)

// TestStockCounts_FollowEveryChange proves the writer's count of tickets left is the committed
// one after each kind of change, and answers a sold-out buyer while the writer is held: a paid
// order's hold, its release, a free order, a capacity edit made outside the batching writer (the
// entry is dropped at once, so the buyer is not refused on the old count, and the next batch
// reloads it). Control: with the count and the catalog off (as on a store with several writing
// servers), the same buyers get the same answers from reads and the write lock.
func TestStockCounts_FollowEveryChange(t *testing.T) {
	for _, on := range []bool{true, false} {
		if on && testdb.Postgres() {
			t.Log("PostgreSQL keeps no count in memory (several servers write): only the control runs")
			continue
		}
		f := newPurchaseFixture(t)
		if !on {
			f.db.stock, f.db.writer.stock, f.db.catalog = nil, nil, nil
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

// TestCatalog_SeesEveryCommittedChange proves the purchase lookups kept in memory follow every
// change made through the writer connection: a price changed in a transaction is seen as soon as
// it commits, even when a lookup read the old price while the transaction was open (and would
// otherwise have kept it), and a statement run outside a transaction is seen at once. Control: a
// change made by another connection (another process) is not seen until the catalog reads again,
// so the lookups do come from memory.
func TestCatalog_SeesEveryCommittedChange(t *testing.T) {
	f := newPurchaseFixture(t)
	ctx := context.Background()
	code := f.addTicketType(t, "cached", 10000, 10, 2)
	price := func() palaro.Money {
		t.Helper()
		tt, _, err := purchaseTicketType(ctx, f.db, code)
		require.NoError(t, err)
		return tt.Price
	}
	require.Equal(t, palaro.Money(10000), price())

	tx, err := f.db.beginWrite(ctx)
	require.NoError(t, err)
	_, err = tx.Exec(`UPDATE ticket_types SET price = 20000 WHERE code = ?`, code)
	require.NoError(t, err)
	require.Equal(t, palaro.Money(10000), price(), "not committed yet: the old price, read while the change is open")
	require.NoError(t, tx.Commit())
	require.Equal(t, palaro.Money(20000), price(), "seen as soon as it commits")

	_, err = f.db.write.Exec(`UPDATE ticket_types SET price = 30000 WHERE code = ?`, code)
	require.NoError(t, err)
	require.Equal(t, palaro.Money(30000), price(), "a statement outside a transaction")

	other, err := sql.Open("sqlite3", "file:"+f.db.path+"?_busy_timeout=10000")
	if f.db.postgres { // another connection, without the writer pool's hooks
		other, err = openPostgres(f.db.path, nil)
	}
	require.NoError(t, err)
	defer other.Close()
	_, err = other.Exec(`UPDATE ticket_types SET price = 40000 WHERE code = ?`, code)
	require.NoError(t, err)
	require.Equal(t, palaro.Money(30000), price(), "control: another connection's change is not seen from memory")
	f.db.catalog.changed(false)
	require.Equal(t, palaro.Money(40000), price(), "control: read again")
}
