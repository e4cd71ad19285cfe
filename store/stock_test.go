package store

import (
	"context"
	"database/sql"
	"runtime"
	"testing"
	"time"

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

// TestCatalog_CounterChangesKeepLookups proves that orders (statements that change only a ticket
// type's sold and held counters) keep the purchase lookups in memory while their counters stay
// the committed ones, and that any other change of the ticket type or its event is still seen at
// once. The price is changed by another connection (which the writer's hook cannot hear), so a
// lookup still carrying the old price is one kept in memory. Control: a change of the event, and
// of the ticket type's price on the writer, reads the lookup again.
func TestCatalog_CounterChangesKeepLookups(t *testing.T) {
	sqliteOnly(t, "the writer connection's update hook and counts")
	f := newPurchaseFixture(t)
	ctx := context.Background()
	code := f.addTicketType(t, "kept", 10000, 10, 2)
	lookup := func() *palaro.TicketType {
		t.Helper()
		tt, _, err := purchaseTicketType(ctx, f.db, code)
		require.NoError(t, err)
		return tt
	}
	require.Equal(t, palaro.Money(10000), lookup().Price)
	other, err := sql.Open("sqlite3", "file:"+f.db.path+"?_busy_timeout=10000")
	require.NoError(t, err)
	defer other.Close()
	_, err = other.Exec(`UPDATE ticket_types SET price = 15000 WHERE code = ?`, code)
	require.NoError(t, err)

	// two orders hold three tickets, the first is cancelled: counter changes only
	first := f.pendingOrder(t, code, 2, "cs_kept_1")
	tt := lookup()
	require.Equal(t, palaro.Money(10000), tt.Price, "kept in memory through an order")
	require.Equal(t, 2, tt.Held, "with the committed counters")
	second, err := f.purchases.CreateOrder(ctx, freeRequest(code, 1, "second@x.ph"), f.now)
	require.NoError(t, err)
	require.Equal(t, palaro.Money(10000), second.Total, "priced from the lookup kept in memory")
	require.NoError(t, f.purchases.CancelOrder(ctx, first.ID))
	tt = lookup()
	require.Equal(t, palaro.Money(10000), tt.Price, "kept in memory through orders and a release")
	sold, held, _ := f.counts(t, code)
	require.Equal(t, []int{0, 1}, []int{sold, held})
	require.Equal(t, []int{sold, held}, []int{tt.Sold, tt.Held}, "the committed counters")

	// the counters read while a transaction is open are not kept past its commit
	tx, err := f.db.beginWrite(ctx)
	require.NoError(t, err)
	_, err = tx.Exec(`UPDATE ticket_types SET held = held + 3 WHERE code = ?`, code)
	require.NoError(t, err)
	require.Equal(t, 1, lookup().Held, "not committed yet")
	require.NoError(t, tx.Commit())
	require.Equal(t, 4, lookup().Held, "committed")
	require.Equal(t, palaro.Money(10000), lookup().Price, "still kept")

	// control: a change of the event reads the lookup again at once
	_, err = f.db.write.Exec(`UPDATE events SET name = name || ' ' WHERE code = 'tekken-tuesdays-cubao'`)
	require.NoError(t, err)
	require.Equal(t, palaro.Money(15000), lookup().Price, "read again after the event changed")
	// control: so does any ticket type change beside the counters, on its own or with them
	_, err = other.Exec(`UPDATE ticket_types SET price = 25000 WHERE code = ?`, code)
	require.NoError(t, err)
	_, err = f.db.write.Exec(`UPDATE ticket_types SET held = held - 3, name = 'Renamed' WHERE code = ?`, code)
	require.NoError(t, err)
	tt = lookup()
	require.Equal(t, "Renamed", tt.Name)
	require.Equal(t, palaro.Money(25000), tt.Price)
	require.Equal(t, 1, tt.Held)
}

// TestCatalog_TTLFollowsTheStoreClock proves a lookup kept in memory is read again once the
// store's clock (db.Now, not the wall clock) has moved on by catalogTTL, so another process's
// change is seen then. Control: just before, it still comes from memory.
func TestCatalog_TTLFollowsTheStoreClock(t *testing.T) {
	sqliteOnly(t, "another SQLite connection stands for another process")
	f := newPurchaseFixture(t)
	ctx := context.Background()
	code := f.addTicketType(t, "aging", 10000, 10, 2)
	now := f.now
	f.db.Now = func() time.Time { return now }
	price := func() palaro.Money {
		t.Helper()
		tt, _, err := purchaseTicketType(ctx, f.db, code)
		require.NoError(t, err)
		return tt.Price
	}
	require.Equal(t, palaro.Money(10000), price())
	other, err := sql.Open("sqlite3", "file:"+f.db.path+"?_busy_timeout=10000")
	require.NoError(t, err)
	defer other.Close()
	_, err = other.Exec(`UPDATE ticket_types SET price = 20000 WHERE code = ?`, code)
	require.NoError(t, err)
	now = f.now.Add(catalogTTL - time.Millisecond)
	require.Equal(t, palaro.Money(10000), price(), "control: within the TTL, from memory")
	now = f.now.Add(catalogTTL)
	require.Equal(t, palaro.Money(20000), price(), "read again once the store's clock passed the TTL")
}

// TestCountersOnly reads which writer statements change nothing but the sold and held counters.
func TestCountersOnly(t *testing.T) {
	for query, want := range map[string]bool{
		"UPDATE ticket_types SET held = held + ?\n\t\tWHERE id = ? AND sold + held + ? <= capacity": true,
		`UPDATE ticket_types SET held = held - ?, sold = sold + ? WHERE id = ?`:                     true,
		`UPDATE ticket_types SET sold = CASE WHEN sold > ? THEN sold - ? ELSE 0 END WHERE id = ?`:   true,
		`update ticket_types set sold = sold + 1 where id = ?`:                                      true,
		`UPDATE ticket_types SET capacity = ? WHERE id = ?`:                                         false,
		`UPDATE ticket_types SET sold = sold + 1, price = 0 WHERE id = ?`:                           false,
		`UPDATE ticket_types SET held = held - 1 WHERE id = ?; UPDATE events SET name = 'x'`:        false,
		`UPDATE ticket_types SET held = (SELECT 1) WHERE id = ?`:                                    false,
		`UPDATE ticket_types_archive SET held = 0`:                                                  false,
		`UPDATE events SET sold = 0`:                                                                false,
		`INSERT INTO ticket_types (sold) VALUES (0)`:                                                false,
		`UPDATE ticket_types SET soldout = 1 WHERE id = ?`:                                          false,
	} {
		require.Equal(t, want, countersOnly(query), query)
	}
}
