package main

import (
	"bytes"
	"context"
	"database/sql"
	"encoding/json"
	"net/http"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"palaro"
	"palaro/notify"
	"palaro/store"
)

func TestCSRFToken_Meta(t *testing.T) {
	require.Equal(t, "tok-123", csrfToken([]byte(`<head><meta name="description" content="x"><meta name="csrf-token" content="tok-123"></head>`)))
	require.Empty(t, csrfToken([]byte(`<head><meta name="description" content="x"></head>`)))
}

func TestStock_Oversold(t *testing.T) {
	require.Zero(t, stock{Capacity: 5, Counter: 5, OrderedQty: 5, TicketsCount: 5}.Oversold())
	require.Zero(t, stock{Capacity: 5, Counter: 3, OrderedQty: 3, TicketsCount: 3}.Oversold(), "unsold is not oversold")
	require.Equal(t, 2, stock{Capacity: 5, Counter: 5, OrderedQty: 5, TicketsCount: 7}.Oversold(), "any count over capacity")
	require.Equal(t, 1, stock{Capacity: 5, Counter: 5, OrderedQty: 6, TicketsCount: 5}.Oversold())
}

// migratedDB opens a new SQLite database file with every migration run, closed when the test
// ends, and returns it with its path (for the bench's own connections to the file).
func migratedDB(t *testing.T) (*store.DB, string) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "palaro.db")
	db, err := store.Open(path)
	require.NoError(t, err)
	t.Cleanup(func() { db.Close() })
	require.NoError(t, db.Migrate(context.Background()))
	return db, path
}

func TestStorm_TicketTypeAndReadBack(t *testing.T) {
	ctx := context.Background()
	db, path := migratedDB(t)
	now := time.Date(2026, 3, 4, 10, 0, 0, 0, palaro.Manila)
	require.NoError(t, db.SeedDemo(ctx, now))
	const event = "tekken-tuesdays-cubao"

	t.Run("OK", func(t *testing.T) {
		require.NoError(t, addStormTicketType(ctx, path, event, stormTicketCode, 2))
		s, err := readStock(ctx, path, stormTicketCode)
		require.NoError(t, err)
		require.Equal(t, stock{Capacity: 2}, s)

		purchases := store.NewPurchaseService(db, notify.NewComposer("https://palaro.test", "help@palaro.test"), 15*time.Minute)
		for i := range 3 {
			body, err := json.Marshal(purchaseFor(event, stormTicketCode, i))
			require.NoError(t, err)
			var req palaro.PurchaseRequest
			dec := json.NewDecoder(bytes.NewReader(body))
			dec.DisallowUnknownFields()
			require.NoError(t, dec.Decode(&req), "the storm's payload has the API's field names")
			_, err = purchases.CreateOrder(ctx, req, now)
			if i < 2 {
				require.NoError(t, err, "buyer %d", i)
			} else {
				require.Equal(t, palaro.ECONFLICT, palaro.ErrorCode(err), "sold out")
			}
		}
		s, err = readStock(ctx, path, stormTicketCode)
		require.NoError(t, err)
		require.Equal(t, stock{Capacity: 2, Counter: 2, OrderedQty: 2, TicketsCount: 2}, s)
		require.Zero(t, s.Oversold())
	})
	t.Run("ErrOversoldSeen", func(t *testing.T) {
		_, err := db.Writer().Exec(`INSERT INTO tickets (public_id, code, order_id, event_id, ticket_type_id, email, created_at)
			SELECT public_id || 'x', code || 'x', order_id, event_id, ticket_type_id, email, created_at FROM tickets
			WHERE ticket_type_id = (SELECT id FROM ticket_types WHERE code = ?) LIMIT 1`, stormTicketCode)
		require.NoError(t, err)
		s, err := readStock(ctx, path, stormTicketCode)
		require.NoError(t, err)
		require.Equal(t, 1, s.Oversold(), "a ticket beyond capacity is counted even when the counter agrees")
	})
	t.Run("ErrUnknownEvent", func(t *testing.T) {
		require.ErrorContains(t, addStormTicketType(ctx, path, "no-such-event", stormTicketCode, 2), "no event")
	})
}

func TestBareWrites_Bounded(t *testing.T) {
	l, err := bareWrites(context.Background(), t.TempDir(), 4, 10*time.Second, 50)
	require.NoError(t, err)
	require.Equal(t, 50, l.Requests)
	require.Zero(t, l.Failures)
	require.Len(t, l.Latencies, 50)
}

// TestBareOrders_SellsCapacity checks the purchase budget's baseline does the work it stands for:
// it decodes the storm's body, places orders until the counter reaches capacity, then answers 409.
func TestBareOrders_SellsCapacity(t *testing.T) {
	dir := t.TempDir()
	url, stop, err := startBareOrders(dir, "bare-orders.db", 2)
	require.NoError(t, err)
	defer stop()
	b := buyer{client: &http.Client{}}
	var statuses []int
	for i := range 3 {
		status, _ := buy(context.Background(), url, "ev", stormTicketCode, b, i)
		statuses = append(statuses, status)
	}
	require.Equal(t, []int{200, 200, 409}, statuses)
	db, err := sql.Open("sqlite3", "file:"+filepath.Join(dir, "bare-orders.db")+"?mode=ro")
	require.NoError(t, err)
	defer db.Close()
	var orders, sold int
	require.NoError(t, db.QueryRow(`SELECT (SELECT count(*) FROM orders), (SELECT sold FROM stock)`).Scan(&orders, &sold))
	require.Equal(t, 2, orders)
	require.Equal(t, 2, sold)
}
