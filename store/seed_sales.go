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

// seedOrders is orders.json: what the demo's paid orders are made of. Every ticket a demo ticket
// type counts as sold is issued, each of a paid one-ticket order: first a few per non-seated type
// of the CheckInEvents, checked in at Gates where the event has started (insertCheckIns), then the
// rest of every type (insertSoldTickets). Holders and Sources are taken in turn.
type seedOrders struct {
	Holders       []string `json:"holders"`
	Sources       []string `json:"sources"`
	CheckInEvents []string `json:"checkInEvents"`
	Gates         []string `json:"gates"`
}

// seedCheckInOrders is how many orders insertCheckIns adds at most per ticket type.
const seedCheckInOrders = 12

// insertCheckIns adds up to seedCheckInOrders paid orders of one ticket each per non-seated ticket
// type of the CheckInEvents (within what the ticket type counts as sold), and checks in two in
// three of them at events that have started.
func (s *seedOrders) insertCheckIns(ctx context.Context, tx *sql.Tx, now time.Time) error {
	for _, code := range s.CheckInEvents {
		var eventID int64
		var startsAt string
		err := tx.QueryRowContext(ctx, `SELECT id, starts_at FROM events WHERE code = ?`, code).Scan(&eventID, &startsAt)
		if err != nil {
			return fmt.Errorf("demo check-ins of %s: %w", code, err)
		}
		starts, _ := time.Parse(timeFormat, startsAt)
		rows, err := tx.QueryContext(ctx, `SELECT id, price, sold FROM ticket_types WHERE event_id = ? AND seated = 0
			ORDER BY id`, eventID)
		if err != nil {
			return err
		}
		type kind struct{ id, price, sold int64 }
		var kinds []kind
		for rows.Next() {
			var k kind
			if err := rows.Scan(&k.id, &k.price, &k.sold); err != nil {
				rows.Close()
				return err
			}
			kinds = append(kinds, k)
		}
		rows.Close()
		n := 0
		for _, k := range kinds {
			for i := range min(k.sold, seedCheckInOrders) {
				n++
				holder := s.Holders[(n+int(k.id))%len(s.Holders)]
				paid := starts.Add(-time.Duration(24*(n%9+1)) * time.Hour)
				t, err := insertSeedOrder(ctx, tx, eventID, k.id, k.price, holder, fmt.Sprintf("fan%d.%s@demo.palaro.ph", n, code), paid)
				if err != nil {
					return err
				}
				if started := !starts.After(now); started && i%3 != 2 {
					at := starts.Add(time.Duration(n) * 3 * time.Minute)
					if at.After(now) {
						at = now
					}
					if _, err := checkInTx(ctx, tx, palaro.CheckInRequest{EventID: eventID, Code: t.Code, Gate: s.Gates[n%len(s.Gates)],
						Actor: DemoGateEmail, At: at}, at, true); err != nil {
						return err
					}
				}
			}
		}
	}
	return nil
}

// insertSeedOrder records a paid one-ticket order and issues its ticket.
func insertSeedOrder(ctx context.Context, tx *sql.Tx, eventID, typeID, price int64, holder, email string,
	paid time.Time) (*palaro.Ticket, error) {
	buyer, _ := json.Marshal(palaro.Buyer{FullName: holder})
	payment := palaro.PaymentQR
	if price == 0 {
		payment = ""
	}
	orderID, err := insertID(ctx, tx, `INSERT INTO orders (public_id, kind, event_id, ticket_type_id, quantity, email, buyer,
		payment_type, unit_price, total, status, provider, paid_at, created_at)
		VALUES (?, 'tickets', ?, ?, 1, ?, ?, ?, ?, ?, 'paid', 'sandbox', ?, ?)`,
		newPublicID(), eventID, typeID, email, string(buyer), payment, price, price, formatTime(paid), formatTime(paid))
	if err != nil {
		return nil, err
	}
	t := &palaro.Ticket{OrderID: orderID, EventID: eventID, HolderName: holder, Email: email, Status: palaro.TicketValid,
		CreatedAt: paid}
	return t, insertTicket(ctx, tx, t, typeID)
}

// seedRowsPerInsert is how many orders (or tickets) one INSERT of insertSoldTickets writes.
const seedRowsPerInsert = 400

// insertSoldTickets gives every demo ticket type as many issued tickets as its sold counter says:
// after the orders of insertCheckIns, each type gets paid one-ticket orders for the rest, written
// many rows per INSERT with their ids chosen here (syncIDSequences then moves PostgreSQL's
// sequences past them). A seated type's tickets take the seats laid out as sold
// (ensureSeatLayouts), which then name their orders.
func (s *seedOrders) insertSoldTickets(ctx context.Context, tx *sql.Tx, now time.Time) error {
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
		var t soldType
		if err := rows.Scan(&t.id, &t.eventID, &t.price, &t.code, &t.event, &t.sold, &t.seated, &t.starts, &t.issued); err != nil {
			rows.Close()
			return err
		}
		if t.sold > t.issued {
			types = append(types, t)
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
			n := min(seedRowsPerInsert, missing-done)
			orderArgs := make([]any, 0, n*13)
			ticketArgs := make([]any, 0, n*10)
			for i := range n {
				k := tt.issued + done + i + 1 // the type's k-th ticket
				orderID++
				ticketID++
				holder := s.Holders[(k+int(tt.id))%len(s.Holders)]
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
					s.Sources[k%len(s.Sources)], payment, tt.price, tt.price, paid, paid)
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
		for i, order := range seatOrders { // the sold seats now belong to the orders whose tickets carry them
			if _, err := tx.ExecContext(ctx, `UPDATE seat_assignments SET order_id = ? WHERE ticket_type_id = ? AND seat = ?`,
				order, tt.id, seats[i]); err != nil {
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
