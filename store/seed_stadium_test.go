package store

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"palaro"
)

// TestSeedStadium_RowsAreARealSale: the stadium seed at 1,000 places, beside the demo data, adds
// arena-grand-finals with its four price zones; each zone's sold counter is its valid tickets of
// paid orders, about half its places; every seated ticket has its seat assigned to its order, no
// seat is assigned without a ticket, an order's quantity is its tickets, and the event's places
// add up to the size asked. A second run is refused.
func TestSeedStadium_RowsAreARealSale(t *testing.T) {
	ctx := context.Background()
	db := openTestDB(t)
	now := time.Date(2026, 3, 18, 10, 0, 0, 0, palaro.Manila)
	require.NoError(t, db.SeedDemo(ctx, now))
	seed, err := db.SeedStadium(ctx, now, StadiumOptions{Places: 1000})
	require.NoError(t, err)
	require.Equal(t, StadiumEventCode, seed.EventCode)
	require.Equal(t, 1000, seed.Places)
	require.Len(t, seed.TicketTypes, 4)
	require.InDelta(t, 500, seed.Sold, 100, "about half sold")

	rows, err := db.read.QueryContext(ctx, `SELECT tt.code, tt.capacity, tt.sold, tt.seated,
		(SELECT count(*) FROM tickets t JOIN orders o ON o.id = t.order_id
			WHERE t.ticket_type_id = tt.id AND t.status = 'valid' AND o.status = 'paid'),
		(SELECT count(*) FROM seat_assignments a JOIN tickets t ON t.order_id = a.order_id AND t.seat = a.seat
			WHERE a.ticket_type_id = tt.id),
		(SELECT count(*) FROM seat_assignments a WHERE a.ticket_type_id = tt.id),
		(SELECT count(*) FROM seats s WHERE s.ticket_type_id = tt.id),
		(SELECT count(*) FROM orders o WHERE o.ticket_type_id = tt.id
			AND o.quantity != (SELECT count(*) FROM tickets t WHERE t.order_id = o.id))
		FROM ticket_types tt WHERE tt.event_id = ? ORDER BY tt.position`, seed.EventID)
	require.NoError(t, err)
	defer rows.Close()
	places, sold := 0, 0
	for rows.Next() {
		var code string
		var capacity, soldN, tickets, seatedTickets, assigned, seats, badOrders int
		var seated bool
		require.NoError(t, rows.Scan(&code, &capacity, &soldN, &seated, &tickets, &seatedTickets, &assigned, &seats, &badOrders))
		places, sold = places+capacity, sold+soldN
		require.Equal(t, soldN, tickets, "%s: sold counter and tickets", code)
		require.InDelta(t, capacity/2, soldN, float64(capacity)/5, "%s: about half sold", code)
		require.Zero(t, badOrders, "%s: each order's quantity is its tickets", code)
		if seated {
			require.Equal(t, capacity, seats, "%s: a seat for each place", code)
			require.Equal(t, soldN, seatedTickets, "%s: each ticket's seat is assigned to its order", code)
			require.Equal(t, soldN, assigned, "%s: no seat assigned without a ticket", code)
		} else {
			require.Zero(t, seats, "%s: standing", code)
		}
	}
	require.NoError(t, rows.Err())
	require.Equal(t, 1000, places)
	require.Equal(t, seed.Sold, sold)

	_, err = db.SeedStadium(ctx, now, StadiumOptions{Places: 1000})
	require.Equal(t, palaro.ECONFLICT, palaro.ErrorCode(err))
}
