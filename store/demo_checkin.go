package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"time"

	"palaro"
)

// demoCheckInEvents are the demo events that get paid orders with tickets, so the console's
// orders, attendees and gate figures are not empty; events under way or past get check-ins.
var demoCheckInEvents = []string{"mlbb-manila-showdown", "tekken-tuesdays-cubao", "mlbb-season-opener", "tekken-tuesdays-last-week"}

// demoHolders are the names on the demo tickets.
var demoHolders = []string{"Andrea Santos", "Miguel Reyes", "Bea Cruz", "Paolo Garcia", "Kim Mendoza", "Jomar Bautista",
	"Trisha Villanueva", "Carlo Ramos", "Isabel Aquino", "Renz Navarro", "Liza Fernandez", "Joaquin dela Cruz"}

// demoGates are the gates of the demo check-ins.
var demoGates = []string{"North gate", "South gate"}

// seedDemoCheckIns adds up to 12 paid orders of one ticket each per non-seated ticket type of the
// demoCheckInEvents (within what the ticket type already counts as sold), and checks in part of
// them at events that have started.
func seedDemoCheckIns(ctx context.Context, tx *sql.Tx, now time.Time) error {
	for _, code := range demoCheckInEvents {
		var eventID int64
		var startsAt string
		err := tx.QueryRowContext(ctx, `SELECT id, starts_at FROM events WHERE code = ?`, code).Scan(&eventID, &startsAt)
		if err != nil {
			return fmt.Errorf("demo check-ins of %s: %w", code, err)
		}
		starts, _ := time.Parse(timeFormat, startsAt)
		rows, err := tx.QueryContext(ctx, `SELECT id, price, sold FROM ticket_types WHERE event_id = ? AND seated = 0 ORDER BY id`, eventID)
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
			for i := range min(k.sold, 12) {
				n++
				holder := demoHolders[(n+int(k.id))%len(demoHolders)]
				paid := starts.Add(-time.Duration(24*(n%9+1)) * time.Hour)
				t, err := insertDemoOrder(ctx, tx, eventID, k.id, k.price, holder, fmt.Sprintf("fan%d.%s@demo.palaro.ph", n, code), paid)
				if err != nil {
					return err
				}
				if started := !starts.After(now); started && i%3 != 2 {
					at := starts.Add(time.Duration(n) * 3 * time.Minute)
					if at.After(now) {
						at = now
					}
					if _, err := checkInTx(ctx, tx, palaro.CheckInRequest{EventID: eventID, Code: t.Code, Gate: demoGates[n%2],
						Actor: DemoGateEmail, At: at}, at, true); err != nil {
						return err
					}
				}
			}
		}
	}
	return nil
}

// insertDemoOrder records a paid one-ticket order and issues its ticket.
func insertDemoOrder(ctx context.Context, tx *sql.Tx, eventID, typeID, price int64, holder, email string, paid time.Time) (*palaro.Ticket, error) {
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
	t := &palaro.Ticket{OrderID: orderID, EventID: eventID, HolderName: holder, Email: email, Status: palaro.TicketValid, CreatedAt: paid}
	return t, insertTicket(ctx, tx, t, typeID)
}
