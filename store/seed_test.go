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
// type's sold seats are its tickets' seats, and the organizer console's figures agree.
func TestSeedDemo_SoldCountersAreTickets(t *testing.T) {
	ctx := context.Background()
	db := openTestDB(t)
	now := time.Date(2026, 3, 18, 10, 0, 0, 0, palaro.Manila)
	start := time.Now()
	require.NoError(t, db.SeedDemo(ctx, now))
	t.Logf("demo seeded in %v", time.Since(start))

	rows, err := db.read.QueryContext(ctx, `SELECT e.code, tt.code, tt.sold, tt.held, tt.seated,
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
		var event, code string
		var sold, held, tickets, seatedTickets, orphanSeats int
		var seated bool
		require.NoError(t, rows.Scan(&event, &code, &sold, &held, &seated, &tickets, &seatedTickets, &orphanSeats))
		types++
		events[event] = true
		require.Equal(t, sold, tickets, "%s: sold counter and tickets", code)
		require.Zero(t, held, "%s holds nothing", code)
		if seated {
			require.Equal(t, sold, seatedTickets, "%s: each sold seat is a ticket's", code)
			require.Zero(t, orphanSeats, "%s: no seat sold without a ticket", code)
		}
	}
	require.NoError(t, rows.Err())
	require.GreaterOrEqual(t, len(events), 30, "every demo event")
	require.Positive(t, types)

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
		require.Len(t, attendees, sold, "%s: attendees and sold", event)
	}
}
