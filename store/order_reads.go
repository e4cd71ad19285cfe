package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"palaro"
)

// FindOrderByPublicID returns an order with its event, ticket type, tickets and add-ons.
func (s *PurchaseService) FindOrderByPublicID(ctx context.Context, publicID string) (_ *palaro.Order, err error) {
	defer wrapErr(&err, "store: FindOrderByPublicID")

	tx, err := s.db.beginRead(ctx)
	if err != nil {
		return nil, err
	}
	defer tx.Rollback()
	return loadOrder(ctx, tx, `o.public_id = ?`, publicID)
}

// ListOrders returns the most recent orders matching the filter.
func (s *PurchaseService) ListOrders(ctx context.Context, f palaro.OrderFilter) (_ []*palaro.Order, err error) {
	defer wrapErr(&err, "store: ListOrders")

	switch f.Status {
	case "", palaro.OrderPending, palaro.OrderPaid, palaro.OrderExpired, palaro.OrderRefund, palaro.OrderRefunded:
	default:
		return nil, palaro.Errorf(palaro.EINVALID, "Unknown order status %q.", f.Status)
	}
	if f.Limit <= 0 || f.Limit > 1000 {
		f.Limit = 100
	}
	tx, err := s.db.beginRead(ctx)
	if err != nil {
		return nil, err
	}
	defer tx.Rollback()
	return loadOrders(ctx, tx, `(? = '' OR o.status = ?) ORDER BY o.id DESC LIMIT ?`, f.Status, f.Status, f.Limit)
}

const orderColumns = `o.id, o.public_id, o.kind, o.event_id, o.ticket_type_id, o.ticket_id, o.quantity, o.email,
	o.buyer, o.seats, o.source, coalesce(p.code, ''), o.payment_type, o.unit_price, o.add_ons_total,
	o.promo_discount, o.total, o.status, o.provider, o.provider_ref, o.checkout_url, o.hold_expires_at,
	o.paid_at, o.created_at, o.payment_method, o.payment_account, o.payment_failed, o.senior_pwd_discount, coalesce(o.date_id, 0)`

func scanOrder(r rowScanner) (*palaro.Order, error) {
	var o palaro.Order
	var ticketID sql.NullInt64
	var dateID int64
	var buyer, seats string
	var hold, paid, created sql.NullString
	err := r.Scan(&o.ID, &o.PublicID, &o.Kind, &o.EventID, &o.TicketTypeID, &ticketID, &o.Quantity, &o.Email,
		&buyer, &seats, &o.Source, &o.PromoCode, &o.PaymentType, &o.UnitPrice, &o.AddOnsTotal, &o.PromoDiscount,
		&o.Total, &o.Status, &o.Provider, &o.ProviderRef, &o.CheckoutURL, &hold, &paid, &created,
		&o.PaymentMethod, &o.PaymentAccount, &o.PaymentFailed, &o.SeniorPWDDiscount, &dateID)
	if err != nil {
		return nil, err
	}
	if dateID != 0 {
		o.Date = &palaro.EventDate{ID: dateID} // loadOrders fills the rest
	}
	o.TicketID = ticketID.Int64
	if err := json.Unmarshal([]byte(buyer), &o.Buyer); err != nil {
		return nil, fmt.Errorf("order %d buyer: %w", o.ID, err)
	}
	if err := json.Unmarshal([]byte(seats), &o.Seats); err != nil {
		return nil, fmt.Errorf("order %d seats: %w", o.ID, err)
	}
	o.HoldExpiresAt, _ = parseTime(hold)
	o.PaidAt, _ = parseTime(paid)
	o.CreatedAt, _ = parseTime(created)
	return &o, nil
}

// loadOrders returns the orders matching where (which may end in ORDER BY / LIMIT), with their
// event, ticket type, add-ons and tickets: a few queries for all of them, not a few per order.
func loadOrders(ctx context.Context, q querier, where string, args ...any) ([]*palaro.Order, error) {
	rows, err := q.QueryContext(ctx, `SELECT `+orderColumns+` FROM orders o
		LEFT JOIN promo_codes p ON p.id = o.promo_code_id WHERE `+where, args...)
	if err != nil {
		return nil, err
	}
	var orders []*palaro.Order
	for rows.Next() {
		o, err := scanOrder(rows)
		if err != nil {
			rows.Close()
			return nil, err
		}
		orders = append(orders, o)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, err
	}
	if len(orders) == 0 {
		return orders, nil
	}
	// the orders' add-ons and tickets, each in one query for all of them
	refs := newRefCache()
	ids, ticketOrders, addOnTickets := make([]any, len(orders)), []any{}, []any{}
	for i, o := range orders {
		if o.Event, o.TicketType, err = refs.get(ctx, q, o.EventID, o.TicketTypeID); err != nil {
			return nil, err
		}
		if o.Date != nil {
			if o.Date, err = refs.date(ctx, q, o.Date.ID); err != nil {
				return nil, err
			}
		}
		ids[i] = o.ID
		if o.Kind == palaro.OrderKindAddOns {
			addOnTickets = append(addOnTickets, o.TicketID)
		} else {
			ticketOrders = append(ticketOrders, o.ID)
		}
	}
	addOns, err := queryAddOnsOf(ctx, q, `SELECT oa.order_id, a.id, a.event_id, a.name, oa.price, a.category, a.notes,
		a.image_url, oa.quantity FROM order_add_ons oa JOIN add_ons a ON a.id = oa.add_on_id WHERE oa.order_id IN (`+
		placeholders(len(ids))+`) ORDER BY oa.order_id, a.category, a.name`, ids...)
	if err != nil {
		return nil, err
	}
	var tickets []*palaro.Ticket
	if len(ticketOrders) > 0 {
		ts, err := queryTickets(ctx, q, refs, `t.order_id IN (`+placeholders(len(ticketOrders))+`) ORDER BY t.id`, ticketOrders...)
		if err != nil {
			return nil, err
		}
		tickets = append(tickets, ts...)
	}
	if len(addOnTickets) > 0 {
		ts, err := queryTickets(ctx, q, refs, `t.id IN (`+placeholders(len(addOnTickets))+`) ORDER BY t.id`, addOnTickets...)
		if err != nil {
			return nil, err
		}
		tickets = append(tickets, ts...)
	}
	byOrder, byID := map[int64][]palaro.Ticket{}, map[int64]*palaro.Ticket{}
	for _, t := range tickets {
		byOrder[t.OrderID] = append(byOrder[t.OrderID], *t)
		byID[t.ID] = t
	}
	invoices, err := queryRows(ctx, q, `SELECT order_id, public_id, kind, serial FROM invoices WHERE order_id IN (`+
		placeholders(len(ids))+`) ORDER BY kind DESC, serial`, ids, func(r rowScanner) (ref orderInvoiceRef, err error) {
		var serial int64
		err = r.Scan(&ref.orderID, &ref.PublicID, &ref.Kind, &serial)
		ref.Number = palaro.InvoiceNumber(ref.Kind, serial)
		return ref, err
	})
	if err != nil {
		return nil, err
	}
	byOrderInvoices := map[int64][]palaro.InvoiceRef{}
	for _, ref := range invoices {
		byOrderInvoices[ref.orderID] = append(byOrderInvoices[ref.orderID], ref.InvoiceRef)
	}
	for _, o := range orders {
		o.Invoices = byOrderInvoices[o.ID]
		o.AddOns = addOns[o.ID]
		if o.Kind != palaro.OrderKindAddOns {
			o.Tickets = byOrder[o.ID]
		} else if t, ok := byID[o.TicketID]; ok {
			o.Tickets = []palaro.Ticket{*t}
		}
	}
	return orders, nil
}

// orderInvoiceRef is an invoice of one of the orders loadOrders reads.
type orderInvoiceRef struct {
	palaro.InvoiceRef
	orderID int64
}

func loadOrder(ctx context.Context, q querier, where string, args ...any) (*palaro.Order, error) {
	orders, err := loadOrders(ctx, q, where, args...)
	if err != nil {
		return nil, err
	}
	if len(orders) == 0 {
		return nil, palaro.Errorf(palaro.ENOTFOUND, "Order not found.")
	}
	return orders[0], nil
}

// refCache loads events, ticket types and series dates once per query.
type refCache struct {
	events map[int64]*palaro.Event
	types  map[int64]*palaro.TicketType
	dates  map[int64]*palaro.EventDate
}

func newRefCache() *refCache {
	return &refCache{events: map[int64]*palaro.Event{}, types: map[int64]*palaro.TicketType{}, dates: map[int64]*palaro.EventDate{}}
}

// date returns the series date with that id; nil for 0 (no date).
func (c *refCache) date(ctx context.Context, q querier, id int64) (*palaro.EventDate, error) {
	if id == 0 {
		return nil, nil
	}
	if d, ok := c.dates[id]; ok {
		return d, nil
	}
	d, err := scanDate(q.QueryRowContext(ctx, `SELECT `+dateColumns+dateFrom+`WHERE d.id = ?`, id))
	if err != nil {
		return nil, fmt.Errorf("date %d: %w", id, err)
	}
	c.dates[id] = &d
	return &d, nil
}

func (c *refCache) get(ctx context.Context, q querier, eventID, ticketTypeID int64) (*palaro.Event, *palaro.TicketType, error) {
	ev, ok := c.events[eventID]
	if !ok {
		var err error
		ev, err = scanEvent(q.QueryRowContext(ctx, `SELECT `+eventColumns+` `+eventJoins+` WHERE e.id = ?`, eventID))
		if err != nil {
			return nil, nil, fmt.Errorf("event %d: %w", eventID, err)
		}
		c.events[eventID] = ev
	}
	tt, ok := c.types[ticketTypeID]
	if !ok {
		t, err := scanTicketType(q.QueryRowContext(ctx, `SELECT `+ticketTypeColumns+` FROM ticket_types tt
			WHERE tt.id = ?`, ticketTypeID))
		if err != nil {
			return nil, nil, fmt.Errorf("ticket type %d: %w", ticketTypeID, err)
		}
		tt = &t
		c.types[ticketTypeID] = tt
	}
	return ev, tt, nil
}

func queryAddOns(ctx context.Context, q querier, query string, args ...any) ([]palaro.AddOn, error) {
	rows, err := q.QueryContext(ctx, query, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var addOns []palaro.AddOn
	cols, err := rows.Columns()
	if err != nil {
		return nil, err
	}
	for rows.Next() {
		var a palaro.AddOn
		if err := rows.Scan(addOnDest(&a, len(cols) > 7)...); err != nil {
			return nil, err
		}
		addOns = append(addOns, a)
	}
	return addOns, rows.Err()
}

// addOnDest is where an add-on's columns are scanned: id, event_id, name, price, category, notes,
// image_url and, for order lines, their quantity.
func addOnDest(a *palaro.AddOn, withQuantity bool) []any {
	dest := []any{&a.ID, &a.EventID, &a.Name, &a.Price, &a.Category, &a.Notes, &a.ImageURL}
	if withQuantity {
		dest = append(dest, &a.Quantity) // order lines carry their quantity
	}
	return dest
}

// queryAddOnsOf returns the add-ons of several orders or tickets by their id: query's first column
// is that id, the others queryAddOns's, in the order each owner's add-ons are listed.
func queryAddOnsOf(ctx context.Context, q querier, query string, args ...any) (map[int64][]palaro.AddOn, error) {
	rows, err := q.QueryContext(ctx, query, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	cols, err := rows.Columns()
	if err != nil {
		return nil, err
	}
	byOwner := map[int64][]palaro.AddOn{}
	for rows.Next() {
		var owner int64
		var a palaro.AddOn
		if err := rows.Scan(append([]any{&owner}, addOnDest(&a, len(cols) > 8)...)...); err != nil {
			return nil, err
		}
		byOwner[owner] = append(byOwner[owner], a)
	}
	return byOwner, rows.Err()
}

const ticketColumns = `t.id, t.public_id, t.code, t.order_id, t.event_id, t.ticket_type_id, t.holder_name, t.email,
	t.seat, t.status, t.checked_in_at, t.created_at, t.discount_type, t.discount_holder, t.discount_id_number,
	t.discount_amount, coalesce(t.date_id, 0)`

// queryTickets returns the tickets matching where, with their event, ticket type and add-ons (read
// for all of them in one query).
func queryTickets(ctx context.Context, q querier, refs *refCache, where string, args ...any) ([]*palaro.Ticket, error) {
	rows, err := q.QueryContext(ctx, `SELECT `+ticketColumns+` FROM tickets t WHERE `+where, args...)
	if err != nil {
		return nil, err
	}
	var tickets []*palaro.Ticket
	var typeIDs, dateIDs []int64
	for rows.Next() {
		var t palaro.Ticket
		var typeID, dateID int64
		var checked, created sql.NullString
		if err := rows.Scan(&t.ID, &t.PublicID, &t.Code, &t.OrderID, &t.EventID, &typeID, &t.HolderName, &t.Email,
			&t.Seat, &t.Status, &checked, &created, &t.Discount.Type, &t.Discount.HolderName, &t.Discount.IDNumber,
			&t.Discount.Amount, &dateID); err != nil {
			rows.Close()
			return nil, err
		}
		t.CheckedInAt, _ = parseTime(checked)
		t.CreatedAt, _ = parseTime(created)
		tickets = append(tickets, &t)
		typeIDs, dateIDs = append(typeIDs, typeID), append(dateIDs, dateID)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, err
	}
	if len(tickets) == 0 {
		return tickets, nil
	}
	ids := make([]any, len(tickets))
	for i, t := range tickets {
		ev, tt, err := refs.get(ctx, q, t.EventID, typeIDs[i])
		if err != nil {
			return nil, err
		}
		t.Event, t.TicketType = ev, *tt
		if t.Date, err = refs.date(ctx, q, dateIDs[i]); err != nil {
			return nil, err
		}
		ids[i] = t.ID
	}
	addOns, err := queryAddOnsOf(ctx, q, `SELECT ta.ticket_id, a.id, a.event_id, a.name, a.price, a.category, a.notes,
		a.image_url FROM ticket_add_ons ta JOIN add_ons a ON a.id = ta.add_on_id WHERE ta.ticket_id IN (`+
		placeholders(len(ids))+`) ORDER BY ta.ticket_id, a.category, a.name`, ids...)
	if err != nil {
		return nil, err
	}
	for _, t := range tickets {
		t.AddOns = addOns[t.ID]
	}
	return tickets, nil
}

// FindTicketByPublicID returns a ticket with its event, ticket type and add-ons.
func (s *PurchaseService) FindTicketByPublicID(ctx context.Context, publicID string) (_ *palaro.Ticket, err error) {
	defer wrapErr(&err, "store: FindTicketByPublicID")

	tx, err := s.db.beginRead(ctx)
	if err != nil {
		return nil, err
	}
	defer tx.Rollback()
	return findTicket(ctx, tx, publicID)
}

func findTicket(ctx context.Context, q querier, publicID string) (*palaro.Ticket, error) {
	tickets, err := queryTickets(ctx, q, newRefCache(), `t.public_id = ?`, publicID)
	if err != nil {
		return nil, err
	}
	if len(tickets) == 0 {
		return nil, palaro.Errorf(palaro.ENOTFOUND, "Ticket not found.")
	}
	return tickets[0], nil
}

// ListTicketsByEmail returns the tickets held by an e-mail address, newest first.
func (s *PurchaseService) ListTicketsByEmail(ctx context.Context, email string) (_ []*palaro.Ticket, err error) {
	defer wrapErr(&err, "store: ListTicketsByEmail")

	tx, err := s.db.beginRead(ctx)
	if err != nil {
		return nil, err
	}
	defer tx.Rollback()
	return queryTickets(ctx, tx, newRefCache(), `t.email = ? ORDER BY t.id DESC LIMIT 500`, palaro.NormalizeEmail(email))
}

// TicketStatus returns the status of the ticket with a short code.
func (s *PurchaseService) TicketStatus(ctx context.Context, code string) (_ *palaro.TicketStatusInfo, err error) {
	defer wrapErr(&err, "store: TicketStatus")

	var info palaro.TicketStatusInfo
	var checked sql.NullString
	err = s.db.read.QueryRowContext(ctx, `SELECT t.code, t.status, e.code, e.name, tt.code, tt.name, t.checked_in_at
		FROM tickets t JOIN events e ON e.id = t.event_id JOIN ticket_types tt ON tt.id = t.ticket_type_id
		WHERE t.code = ?`, strings.ToUpper(strings.TrimSpace(code))).Scan(&info.Code, &info.Status, &info.EventCode,
		&info.EventName, &info.TicketTypeCode, &info.TicketTypeName, &checked)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, palaro.Errorf(palaro.ENOTFOUND, "Ticket not found.")
	} else if err != nil {
		return nil, err
	}
	info.CheckedInAt, _ = parseTime(checked)
	return &info, nil
}
