package store

import (
	"context"
	"database/sql"
	"encoding/json"

	"palaro"
)

// EachAttendee calls fn with every issued ticket of an event and its order's buyer, by order and
// then ticket, as one query reads them: nothing holds more than the row at hand, so the
// attendees export of a 55,000-ticket event streams in the memory of one row. It walks the
// event's orders by orders_event and each order's tickets by tickets_order, in the order asked,
// so the database sorts nothing either (CROSS JOIN keeps SQLite's planner to that order: left to
// itself it reads the tickets by event and sorts them all before the first row). A dateID other
// than 0 keeps the tickets valid on that date of a series: its day tickets and the passes holding
// a place there (each ticket checked by its own key, still in one walk). fn's error stops the walk and is returned.
func (s *OrganizerService) EachAttendee(ctx context.Context, eventID, dateID int64, fn func(*palaro.Attendee) error) (err error) {
	defer wrapErr(&err, "store: EachAttendee(%d, %d)", eventID, dateID)

	rows, err := s.db.read.QueryContext(ctx, `SELECT t.public_id, t.code, t.holder_name, t.email, t.seat, t.status,
		t.checked_in_at, o.public_id, o.buyer, o.paid_at, `+gateTypeName+`, o.unit_price, t.discount_type, t.discount_holder,
		t.discount_id_number, t.discount_amount, coalesce(d.slug, ''), tt.pass_kind
		FROM orders o CROSS JOIN tickets t JOIN ticket_types tt ON tt.id = t.ticket_type_id
		LEFT JOIN event_dates d ON d.id = t.date_id
		WHERE o.event_id = ? AND t.order_id = o.id AND (? = 0 OR t.date_id = ?
			OR EXISTS (SELECT 1 FROM pass_uses u WHERE u.ticket_id = t.id AND u.date_id = ?))
		ORDER BY o.id, t.id`, eventID, dateID, dateID, dateID)
	if err != nil {
		return err
	}
	defer rows.Close()
	var a palaro.Attendee
	var buyer string
	var checked, paid sql.NullString
	var slug string
	for rows.Next() {
		a = palaro.Attendee{}
		if err := rows.Scan(&a.PublicID, &a.Code, &a.HolderName, &a.Email, &a.Seat, &a.Status, &checked, &a.OrderID,
			&buyer, &paid, &a.TypeName, &a.UnitPrice, &a.Discount.Type, &a.Discount.HolderName, &a.Discount.IDNumber,
			&a.Discount.Amount, &slug, &a.PassKind); err != nil {
			return err
		}
		if slug != "" {
			a.Date = &palaro.EventDate{Slug: slug}
		}
		if err := json.Unmarshal([]byte(buyer), &a.Buyer); err != nil {
			return err
		}
		a.CheckedInAt, _ = parseTime(checked)
		a.PaidAt, _ = parseTime(paid)
		if err := fn(&a); err != nil {
			return err
		}
	}
	return rows.Err()
}

// ListAttendees returns every issued ticket of an event with its order's buyer (EachAttendee's
// rows in a slice, for the callers that need them all at once: not the export).
func (s *OrganizerService) ListAttendees(ctx context.Context, eventID int64) ([]palaro.Attendee, error) {
	var out []palaro.Attendee
	err := s.EachAttendee(ctx, eventID, 0, func(a *palaro.Attendee) error {
		out = append(out, *a)
		return nil
	})
	return out, err
}

// EachOrder calls fn with every order of an event, newest first, as the orders export shows it:
// its columns, ticket type (name and id only), promo code and tickets (code, status, discount).
// One query reads each order joined with its tickets (an add-on order with the ticket its add-ons
// are for), and an order is handed on when its last row is read: memory holds one order, whatever
// the event's size. The order's Event, AddOns, Invoices and the tickets' add-ons are not read; its
// Date carries its id and slug only. A dateID other than 0 keeps the orders with places on that
// date of a series (orderOnDate). fn's error stops the walk and is returned.
func (s *OrganizerService) EachOrder(ctx context.Context, eventID, dateID int64, fn func(*palaro.Order) error) (err error) {
	defer wrapErr(&err, "store: EachOrder(%d, %d)", eventID, dateID)

	rows, err := s.db.read.QueryContext(ctx, `SELECT `+orderColumns+`, tt.name, tt.pass_kind, coalesce(d.slug, ''),
		coalesce(t.id, a.id, 0), coalesce(t.code, a.code, ''), coalesce(t.status, a.status, ''),
		coalesce(t.discount_type, a.discount_type, ''), coalesce(t.discount_holder, a.discount_holder, ''),
		coalesce(t.discount_id_number, a.discount_id_number, '')
		FROM orders o LEFT JOIN promo_codes p ON p.id = o.promo_code_id
		JOIN ticket_types tt ON tt.id = o.ticket_type_id
		LEFT JOIN event_dates d ON d.id = o.date_id
		LEFT JOIN tickets t ON t.order_id = o.id AND o.kind = 'tickets'
		LEFT JOIN tickets a ON a.id = o.ticket_id AND o.kind = 'add_ons'
		WHERE o.event_id = ? AND o.source != 'competitor' AND `+orderOnDate+` ORDER BY o.id DESC, t.id`, eventID, dateID, dateID, dateID)
	if err != nil {
		return err
	}
	defer rows.Close()
	var cur *palaro.Order
	for rows.Next() {
		var typeName, passKind, slug string
		var t palaro.Ticket
		o, err := scanOrder(multiScanner{rows, []any{&typeName, &passKind, &slug, &t.ID, &t.Code, &t.Status, &t.Discount.Type,
			&t.Discount.HolderName, &t.Discount.IDNumber}})
		if err != nil {
			return err
		}
		if cur == nil || cur.ID != o.ID {
			if cur != nil {
				if err := fn(cur); err != nil {
					return err
				}
			}
			cur = o
			cur.TicketType = &palaro.TicketType{ID: o.TicketTypeID, Name: typeName, PassKind: passKind}
			if cur.Date != nil {
				cur.Date.Slug = slug
			}
		}
		if t.ID != 0 {
			t.OrderID = cur.ID
			cur.Tickets = append(cur.Tickets, t)
		}
	}
	if err := rows.Err(); err != nil {
		return err
	}
	if cur != nil {
		return fn(cur)
	}
	return nil
}

// orderOnDate is the condition on an order o (with its three parameters: the date id, 0 for any)
// that it has places on that date of a series: a day ticket order's date, a pass valid on every
// date's places there (order_dates), or a pass ticket holding a place there (pass_uses: a pass
// for some dates, once used there). Each is read by its own key.
const orderOnDate = `(? = 0 OR EXISTS (SELECT 1 FROM order_dates od WHERE od.order_id = o.id AND od.date_id = ?)
	OR EXISTS (SELECT 1 FROM tickets pt JOIN pass_uses u ON u.ticket_id = pt.id WHERE pt.order_id = o.id AND u.date_id = ?))`

// multiScanner is a row whose first columns scanOrder reads and whose further columns go to more.
type multiScanner struct {
	rows *sql.Rows
	more []any
}

// Scan scans the row into dest followed by the extra destinations.
func (m multiScanner) Scan(dest ...any) error {
	return m.rows.Scan(append(dest, m.more...)...)
}
