package store

import (
	"context"
	"fmt"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"palaro"
)

// openMigratedAt opens and migrates the database at url (a file or a postgres:// URL).
func openMigratedAt(t *testing.T, url string) *DB {
	t.Helper()
	db, err := Open(url)
	require.NoError(t, err)
	t.Cleanup(func() { db.Close() })
	require.NoError(t, db.Migrate(context.Background()))
	return db
}

// dumpTable returns every row of table as text, ordered by every column (stored bytes and text
// read alike, as the store reads them).
func dumpTable(t *testing.T, db *DB, table string) []string {
	t.Helper()
	cols, err := db.columnNames(context.Background(), table)
	require.NoError(t, err)
	order := make([]string, len(cols))
	for i := range cols {
		order[i] = strconv.Itoa(i + 1)
	}
	rows, err := db.read.Query(`SELECT * FROM ` + table + ` ORDER BY ` + strings.Join(order, ", "))
	require.NoError(t, err)
	defer rows.Close()
	var out []string
	for rows.Next() {
		vals := make([]any, len(cols))
		ptrs := make([]any, len(cols))
		for i := range vals {
			ptrs[i] = &vals[i]
		}
		require.NoError(t, rows.Scan(ptrs...))
		for i, v := range vals {
			switch x := v.(type) {
			case []byte:
				vals[i] = string(x)
			case int32:
				vals[i] = int64(x)
			}
		}
		out = append(out, fmt.Sprint(vals...))
	}
	require.NoError(t, rows.Err())
	return out
}

// TestCopyData_RoundTrip copies the demo database in a SQLite file (with a paid add-on order, whose
// ticket_id and the ticket's order_id form the one cycle of foreign keys) to the test engine's
// database (PostgreSQL in the PostgreSQL pass) and back to a new SQLite file: every table has the same
// counts at each step, and the contents of the orders, tickets, ticket types, events and seat
// assignments are the same after the round trip. The copy's sequences continue past the copied
// ids (a new order works), and a copy into a database that is not empty is refused.
func TestCopyData_RoundTrip(t *testing.T) {
	ctx := context.Background()
	f := newPurchaseFixtureAt(t, filepath.Join(t.TempDir(), "source.db"))
	code := f.addTicketType(t, "copy", 0, 10, 2)
	parking := f.addAddOn(t, "Parking", 0)
	o, err := f.purchases.CreateOrder(ctx, freeRequest(code, 1, "copy@x.ph"), f.now)
	require.NoError(t, err)
	_, err = f.purchases.CreateAddOnOrder(ctx, o.Tickets[0].PublicID, []int64{parking}, "", f.now)
	require.NoError(t, err)
	require.Positive(t, f.countRows(t, `SELECT count(*) FROM orders WHERE ticket_id IS NOT NULL`), "an order that refers to a ticket")

	mid := openMigratedAt(t, testDatabaseURL(t))
	back := openMigratedAt(t, filepath.Join(t.TempDir(), "back.db"))
	there, err := CopyData(ctx, f.db, mid)
	require.NoError(t, err)
	again, err := CopyData(ctx, mid, back)
	require.NoError(t, err)
	require.Equal(t, len(there), len(again))
	total := int64(0)
	for i := range there {
		require.Equal(t, there[i], again[i], "same table, same counts")
		require.Equal(t, there[i].Source, there[i].Target)
		total += there[i].Source
	}
	require.Greater(t, total, int64(1000), "the demo data was copied")
	for _, table := range []string{"events", "ticket_types", "orders", "tickets", "seat_assignments", "organizer_members", "add_ons"} {
		require.Equal(t, dumpTable(t, f.db, table), dumpTable(t, back, table), table)
	}

	// The copy is a working database: a new order gets new ids after the copied ones.
	mid.Now = f.db.Now
	p := NewPurchaseService(mid, nil, f.purchases.hold)
	o2, err := p.CreateOrder(ctx, freeRequest(code, 1, "after@x.ph"), f.now)
	require.NoError(t, err)
	require.Greater(t, o2.ID, o.ID)
	require.Equal(t, palaro.OrderPaid, o2.Status)

	_, err = CopyData(ctx, f.db, back)
	require.ErrorContains(t, err, "the target is not empty")
}
