package store

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"palaro"
)

// TestSeedDemo_SoldCountersAreTickets: in the demo data every ticket type of every event counts as
// sold exactly the tickets that exist for it (valid or checked in, each of a paid order), a seated
// type's sold seats are its tickets' seats, and the organizer console's figures agree. A series'
// day type counts on each date instead: its tickets for the date and the passes holding a place
// there, each with its seat on that date when seated.
func TestSeedDemo_SoldCountersAreTickets(t *testing.T) {
	ctx := context.Background()
	db := openTestDB(t)
	now := time.Date(2026, 3, 18, 10, 0, 0, 0, palaro.Manila)
	start := time.Now()
	require.NoError(t, db.SeedDemo(ctx, now))
	t.Logf("demo seeded in %v", time.Since(start))

	rows, err := db.read.QueryContext(ctx, `SELECT e.code, tt.code, tt.sold, tt.held, tt.seated, tt.pass_kind,
		(SELECT count(*) FROM date_stock s WHERE s.ticket_type_id = tt.id),
		(SELECT count(*) FROM tickets t JOIN orders o ON o.id = t.order_id
			WHERE t.ticket_type_id = tt.id AND t.status IN ('valid', 'checked_in') AND o.status = 'paid'),
		(SELECT count(*) FROM seat_assignments a JOIN tickets t ON t.order_id = a.order_id AND t.seat = a.seat
			WHERE a.ticket_type_id = tt.id AND t.status IN ('valid', 'checked_in')),
		(SELECT count(*) FROM seat_assignments a WHERE a.ticket_type_id = tt.id AND a.order_id IS NULL
			AND a.offer_id IS NULL AND a.blocked = 0)
		FROM ticket_types tt JOIN events e ON e.id = tt.event_id ORDER BY tt.id`)
	require.NoError(t, err)
	defer rows.Close()
	types, events := 0, map[string]bool{}
	for rows.Next() {
		var event, code, pass string
		var sold, held, dates, tickets, seatedTickets, orphanSeats int
		var seated bool
		require.NoError(t, rows.Scan(&event, &code, &sold, &held, &seated, &pass, &dates, &tickets, &seatedTickets, &orphanSeats))
		types++
		events[event] = true
		require.Zero(t, held, "%s holds nothing", code)
		if dates > 0 { // a series' day type: its places are its dates' (below)
			require.Zero(t, sold, "%s: a series' day type sells on its dates", code)
			continue
		}
		require.Equal(t, sold, tickets, "%s: sold counter and tickets", code)
		if seated && pass == "" { // a pass's seats are its day type's, on each date (below)
			require.Equal(t, sold, seatedTickets, "%s: each sold seat is a ticket's", code)
			require.Zero(t, orphanSeats, "%s: no seat sold without a ticket", code)
		}
	}
	require.NoError(t, rows.Err())
	require.GreaterOrEqual(t, len(events), 30, "every demo event")
	require.Positive(t, types)

	stock, err := db.read.QueryContext(ctx, `SELECT d.slug, tt.code, s.sold, s.held, tt.seated,
		(SELECT count(*) FROM tickets t JOIN orders o ON o.id = t.order_id WHERE t.ticket_type_id = tt.id AND t.date_id = d.id
			AND t.status IN ('valid', 'checked_in') AND o.status = 'paid'),
		(SELECT count(*) FROM pass_uses u JOIN tickets t ON t.id = u.ticket_id JOIN ticket_types p ON p.id = t.ticket_type_id
			WHERE u.date_id = d.id AND p.pass_of = tt.id AND t.status IN ('valid', 'checked_in')),
		(SELECT count(*) FROM seat_assignments a WHERE a.ticket_type_id = tt.id AND a.date_id = d.id AND a.order_id IS NOT NULL)
		FROM date_stock s JOIN event_dates d ON d.id = s.date_id JOIN ticket_types tt ON tt.id = s.ticket_type_id ORDER BY s.date_id, tt.id`)
	require.NoError(t, err)
	defer stock.Close()
	dated := 0
	for stock.Next() {
		var slug, code string
		var sold, held, tickets, passes, seats int
		var seated bool
		require.NoError(t, stock.Scan(&slug, &code, &sold, &held, &seated, &tickets, &passes, &seats))
		dated++
		require.Zero(t, held, "%s on %s holds nothing", code, slug)
		require.Positive(t, tickets, "%s on %s: tickets sold", code, slug)
		require.Equal(t, sold, tickets+passes, "%s on %s: sold is its tickets and the passes' places", code, slug)
		if seated {
			require.Equal(t, sold, seats, "%s on %s: each place sold has its seat", code, slug)
		}
	}
	require.NoError(t, stock.Err())
	require.Equal(t, 16, dated, "the demo league: 8 dates of 2 day types")

	// the console's view of an event with check-ins: sold is the tickets it lists
	org := NewOrganizerService(db, nil)
	for event := range events {
		ev, err := org.FindEvent(ctx, event)
		require.NoError(t, err)
		attendees, err := org.ListAttendees(ctx, ev.ID)
		require.NoError(t, err)
		sold := 0
		for _, tt := range ev.TicketTypes {
			sold += tt.Sold
		}
		var dates int
		require.NoError(t, db.read.QueryRowContext(ctx, `SELECT count(*) FROM event_dates WHERE event_id = ?`, ev.ID).Scan(&dates))
		if dates > 0 { // a series' day types count on their dates: its attendees are its issued tickets
			require.NoError(t, db.read.QueryRowContext(ctx, `SELECT count(*) FROM tickets t JOIN orders o ON o.id = t.order_id
				WHERE t.event_id = ? AND t.status IN ('valid', 'checked_in') AND o.status = 'paid'`, ev.ID).Scan(&sold))
			require.Greater(t, sold, 100, "%s: the demo league sold on its dates", event)
		}
		require.Equal(t, sold, len(attendees), "%s: attendees and sold", event)
	}
}
