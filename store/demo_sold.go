package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"palaro"
)

// demoMaxSold caps the sales of a demo ticket type that is far from sold out: every sale is a
// real paid order with its ticket (seedDemoSoldTickets), and the demo data is loaded by every test
// of the app, so thousands of them per type would only slow it down.
const demoMaxSold = 120

// demoSold is what a demo ticket type with the given sales figure and capacity counts as sold: the
// figure, within the capacity, capped at demoMaxSold unless at most 20 tickets are left (so sold-out
// and 'only a few left' types stay so).
func demoSold(sold, capacity int) int {
	sold = min(sold, capacity)
	if capacity-sold <= 20 {
		return sold
	}
	return min(sold, demoMaxSold)
}

// demoSources are the sources (?source=) of the demo's bulk orders, so the console's sales by
// source have something to show.
var demoSources = []string{"fb", "ig", "tiktok"}

// demoRowsPerInsert is how many orders (or tickets) one INSERT of seedDemoSoldTickets writes.
const demoRowsPerInsert = 400

// seedDemoSoldTickets gives every demo ticket type as many issued tickets as its sold counter says
// (demo counters were figures with no tickets behind them: the console counted sales of which a
// few dozen tickets existed): after the orders of seedDemoCheckIns, each type gets paid one-ticket orders for
// the rest, written many rows per INSERT with their ids chosen here (syncIDSequences then moves
// PostgreSQL's sequences past them). A seated type's tickets take the seats laid out as sold
// (ensureSeatLayouts), which then name their orders.
func seedDemoSoldTickets(ctx context.Context, tx *sql.Tx, now time.Time) error {
	type soldType struct {
		id, eventID, price int64
		code, event        string
		sold, issued       int
		seated             bool
		starts             string
	}
	rows, err := tx.QueryContext(ctx, `SELECT tt.id, tt.event_id, tt.price, tt.code, e.code, tt.sold, tt.seated, e.starts_at,
		(SELECT count(*) FROM tickets t WHERE t.ticket_type_id = tt.id AND t.status IN `+holderStatuses+`)
		FROM ticket_types tt JOIN events e ON e.id = tt.event_id ORDER BY tt.id`)
	if err != nil {
		return err
	}
	var types []soldType
	for rows.Next() {
		var s soldType
		if err := rows.Scan(&s.id, &s.eventID, &s.price, &s.code, &s.event, &s.sold, &s.seated, &s.starts, &s.issued); err != nil {
			rows.Close()
			return err
		}
		if s.sold > s.issued {
			types = append(types, s)
		}
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return err
	}
	var orderID, ticketID int64
	if err := tx.QueryRowContext(ctx, `SELECT coalesce(max(id), 0) FROM orders`).Scan(&orderID); err != nil {
		return err
	}
	if err := tx.QueryRowContext(ctx, `SELECT coalesce(max(id), 0) FROM tickets`).Scan(&ticketID); err != nil {
		return err
	}
	for _, tt := range types {
		missing := tt.sold - tt.issued
		var seats []string
		if tt.seated {
			if seats, err = queryStrings(ctx, tx, `SELECT seat FROM seat_assignments WHERE ticket_type_id = ? AND order_id IS NULL
				AND offer_id IS NULL AND blocked = 0 ORDER BY seat`, tt.id); err != nil {
				return err
			}
			if len(seats) < missing {
				return fmt.Errorf("demo tickets of %s: %d seats laid out as sold, %d tickets to issue", tt.code, len(seats), missing)
			}
		}
		base, _ := time.Parse(timeFormat, tt.starts)
		if now.Before(base) {
			base = now
		}
		base = base.AddDate(0, 0, -1) // paid before the seeding's day, whatever the event's date
		payment := palaro.PaymentQR
		if tt.price == 0 {
			payment = ""
		}
		var seatOrders []int64 // the order of each seat taken, in the order of seats
		for done := 0; done < missing; {
			n := min(demoRowsPerInsert, missing-done)
			orderArgs := make([]any, 0, n*12)
			ticketArgs := make([]any, 0, n*10)
			for i := range n {
				k := tt.issued + done + i + 1 // the type's k-th ticket
				orderID++
				ticketID++
				holder := demoHolders[(k+int(tt.id))%len(demoHolders)]
				email := fmt.Sprintf("fan%d.%s@demo.palaro.ph", k, tt.code)
				paid := formatTime(base.Add(-time.Duration(k%500+1) * 3 * time.Hour))
				buyer, _ := json.Marshal(palaro.Buyer{FullName: holder})
				seat, seatList := "", "[]"
				if tt.seated {
					seat = seats[done+i]
					seatList = `["` + seat + `"]`
					seatOrders = append(seatOrders, orderID)
				}
				orderArgs = append(orderArgs, orderID, newPublicID(), tt.eventID, tt.id, email, string(buyer), seatList,
					demoSources[k%len(demoSources)], payment, tt.price, tt.price, paid, paid)
				ticketArgs = append(ticketArgs, ticketID, newPublicID(), newTicketCode(), orderID, tt.eventID, tt.id, holder, email,
					seat, paid)
			}
			if _, err := tx.ExecContext(ctx, `INSERT INTO orders (id, public_id, kind, event_id, ticket_type_id, quantity, email,
				buyer, seats, source, payment_type, unit_price, total, status, provider, paid_at, created_at) VALUES `+
				valuesList(n, "(?, ?, 'tickets', ?, ?, 1, ?, ?, ?, ?, ?, ?, ?, 'paid', 'sandbox', ?, ?)"), orderArgs...); err != nil {
				return fmt.Errorf("demo orders of %s: %w", tt.code, err)
			}
			if _, err := tx.ExecContext(ctx, `INSERT INTO tickets (id, public_id, code, order_id, event_id, ticket_type_id,
				holder_name, email, seat, status, created_at) VALUES `+
				valuesList(n, "(?, ?, ?, ?, ?, ?, ?, ?, ?, 'valid', ?)"), ticketArgs...); err != nil {
				return fmt.Errorf("demo tickets of %s: %w", tt.code, err)
			}
			done += n
		}
		for i, seat := range seatOrders { // the sold seats now belong to the orders whose tickets carry them
			if _, err := tx.ExecContext(ctx, `UPDATE seat_assignments SET order_id = ? WHERE ticket_type_id = ? AND seat = ?`,
				seat, tt.id, seats[i]); err != nil {
				return fmt.Errorf("demo seats of %s: %w", tt.code, err)
			}
		}
	}
	return nil
}

// valuesList repeats one row's placeholders n times, comma-separated, for a many-row INSERT.
func valuesList(n int, row string) string {
	return strings.TrimSuffix(strings.Repeat(row+", ", n), ", ")
}
