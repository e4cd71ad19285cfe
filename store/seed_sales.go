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
	var sales []seedSale
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
			// the seats laid out as sold are taken again below, by the orders whose tickets carry them
			if _, err := tx.ExecContext(ctx, `DELETE FROM seat_assignments WHERE ticket_type_id = ? AND order_id IS NULL
				AND offer_id IS NULL AND blocked = 0`, tt.id); err != nil {
				return err
			}
		}
		base, _ := time.Parse(timeFormat, tt.starts)
		if now.Before(base) {
			base = now
		}
		base = base.AddDate(0, 0, -1) // paid before the seeding's day, whatever the event's date
		for i := range missing {
			k := tt.issued + i + 1 // the type's k-th ticket
			sale := seedSale{eventID: tt.eventID, typeID: tt.id, price: tt.price, quantity: 1,
				holder: s.Holders[(k+int(tt.id))%len(s.Holders)], email: fmt.Sprintf("fan%d.%s@demo.palaro.ph", k, tt.code),
				source: s.Sources[k%len(s.Sources)], paid: base.Add(-time.Duration(k%500+1) * 3 * time.Hour)}
			if tt.seated {
				sale.seats = []string{seats[i]}
			}
			sales = append(sales, sale)
		}
	}
	return insertSeedSales(ctx, tx, sales)
}

// seedSale is one paid order of a seeded sale: quantity tickets of one type, each with its seat
// when the type is seated, issued to holder.
type seedSale struct {
	eventID, typeID int64
	price           int64
	quantity        int
	seats           []string
	holder, email   string
	source          string
	paid            time.Time
}

// insertSeedSales writes paid orders with their tickets and seat assignments as a sale leaves
// them, many rows per INSERT with ids chosen here (syncIDSequences then moves PostgreSQL's
// sequences past them). The ticket types' sold counters are the caller's.
func insertSeedSales(ctx context.Context, tx *sql.Tx, sales []seedSale) error {
	var orderID, ticketID int64
	if err := tx.QueryRowContext(ctx, `SELECT coalesce(max(id), 0) FROM orders`).Scan(&orderID); err != nil {
		return err
	}
	if err := tx.QueryRowContext(ctx, `SELECT coalesce(max(id), 0) FROM tickets`).Scan(&ticketID); err != nil {
		return err
	}
	var orderArgs, ticketArgs, seatArgs []any
	var orders, tickets, seats int
	// every list is written when one is full, orders first, so that what the rows name exists
	flush := func(force bool) error {
		force = force || orders >= seedRowsPerInsert || tickets >= seedRowsPerInsert || seats >= seedRowsPerInsert
		if orders > 0 && force {
			if _, err := tx.ExecContext(ctx, `INSERT INTO orders (id, public_id, kind, event_id, ticket_type_id, quantity, email,
				buyer, seats, source, payment_type, unit_price, total, status, provider, paid_at, created_at) VALUES `+
				valuesList(orders, "(?, ?, 'tickets', ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 'paid', 'sandbox', ?, ?)"), orderArgs...); err != nil {
				return fmt.Errorf("seed orders: %w", err)
			}
			orderArgs, orders = orderArgs[:0], 0
		}
		if tickets > 0 && force {
			if _, err := tx.ExecContext(ctx, `INSERT INTO tickets (id, public_id, code, order_id, event_id, ticket_type_id,
				holder_name, email, seat, status, created_at) VALUES `+
				valuesList(tickets, "(?, ?, ?, ?, ?, ?, ?, ?, ?, 'valid', ?)"), ticketArgs...); err != nil {
				return fmt.Errorf("seed tickets: %w", err)
			}
			ticketArgs, tickets = ticketArgs[:0], 0
		}
		if seats > 0 && force {
			if _, err := tx.ExecContext(ctx, `INSERT INTO seat_assignments (ticket_type_id, seat, order_id) VALUES `+
				valuesList(seats, "(?, ?, ?)"), seatArgs...); err != nil {
				return fmt.Errorf("seed seats: %w", err)
			}
			seatArgs, seats = seatArgs[:0], 0
		}
		return nil
	}
	for _, o := range sales {
		orderID++
		payment := palaro.PaymentQR
		if o.price == 0 {
			payment = ""
		}
		buyer, _ := json.Marshal(palaro.Buyer{FullName: o.holder})
		seatList, _ := json.Marshal(palaro.NonNilStrings(o.seats))
		paid := formatTime(o.paid)
		orderArgs = append(orderArgs, orderID, newPublicID(), o.eventID, o.typeID, o.quantity, o.email, string(buyer),
			string(seatList), o.source, payment, o.price, o.price*int64(o.quantity), paid, paid)
		orders++
		for i := range o.quantity {
			seat := ""
			if i < len(o.seats) {
				seat = o.seats[i]
				seatArgs = append(seatArgs, o.typeID, seat, orderID)
				seats++
			}
			ticketID++
			ticketArgs = append(ticketArgs, ticketID, newPublicID(), newTicketCode(), orderID, o.eventID, o.typeID, o.holder,
				o.email, seat, paid)
			tickets++
		}
		if err := flush(false); err != nil {
			return err
		}
	}
	return flush(true)
}

// valuesList repeats one row's placeholders n times, comma-separated, for a many-row INSERT.
func valuesList(n int, row string) string {
	return strings.TrimSuffix(strings.Repeat(row+", ", n), ", ")
}
