package store

import (
	"cmp"
	"context"
	"database/sql"
	"errors"
	"strconv"
	"time"

	"palaro"
)

// ReturnsService runs buyers' self-cancellations and face-value returns (issue 21). It writes
// pending refunds; the refund job settles them through the gateway.
type ReturnsService struct {
	db       *DB
	composer palaro.ReturnsComposer
}

var _ palaro.ReturnsService = (*ReturnsService)(nil)

// NewReturnsService returns the returns service backed by db; composer (nil in tests that send
// nothing; it then leaves the one set before) writes its e-mails, also the one a sale of a
// returned ticket sends from the purchase path.
func NewReturnsService(db *DB, composer palaro.ReturnsComposer) *ReturnsService {
	if composer != nil {
		db.returnsComposer = composer
	}
	return &ReturnsService{db: db, composer: composer}
}

// SelfCancelPolicy returns an event's self-cancel policy (the zero policy when none is set).
func (s *ReturnsService) SelfCancelPolicy(ctx context.Context, eventID int64) (_ palaro.SelfCancelPolicy, err error) {
	defer wrapErr(&err, "store: SelfCancelPolicy(%d)", eventID)
	return selfCancelPolicy(ctx, s.db.read, eventID)
}

func selfCancelPolicy(ctx context.Context, q querier, eventID int64) (palaro.SelfCancelPolicy, error) {
	var p palaro.SelfCancelPolicy
	err := q.QueryRowContext(ctx, `SELECT hours_before, fee, percent_bp FROM self_cancel_settings WHERE event_id = ?`,
		eventID).Scan(&p.HoursBefore, &p.Fee, &p.PercentBP)
	if errors.Is(err, sql.ErrNoRows) {
		return palaro.SelfCancelPolicy{}, nil
	}
	p.Enabled = err == nil
	return p, err
}

// SetSelfCancelPolicy saves an event's self-cancel policy, with an audit line; a disabled
// policy deletes it (no buyer may cancel).
func (s *ReturnsService) SetSelfCancelPolicy(ctx context.Context, eventID int64, p palaro.SelfCancelPolicy, actor string, now time.Time) (err error) {
	defer wrapErr(&err, "store: SetSelfCancelPolicy(%d)", eventID)

	if p.HoursBefore < 0 || p.Fee < 0 || p.PercentBP < 0 || p.PercentBP > 10000 {
		return palaro.Errorf(palaro.EINVALID, "Hours and fee must be 0 or more, the percentage from 0 to 100.")
	}
	return s.db.inWrite(ctx, func(ctx context.Context, tx *sql.Tx) error {
		detail := "off"
		if !p.Enabled {
			if _, err := tx.ExecContext(ctx, `DELETE FROM self_cancel_settings WHERE event_id = ?`, eventID); err != nil {
				return err
			}
		} else {
			detail = strconv.Itoa(p.HoursBefore) + " h before, keeping " + p.FeeText()
			if _, err := tx.ExecContext(ctx, `INSERT INTO self_cancel_settings (event_id, hours_before, fee, percent_bp, updated_at)
				VALUES (?, ?, ?, ?, ?) ON CONFLICT (event_id) DO UPDATE SET hours_before = excluded.hours_before,
				fee = excluded.fee, percent_bp = excluded.percent_bp, updated_at = excluded.updated_at`,
				eventID, p.HoursBefore, p.Fee, p.PercentBP, formatTime(now)); err != nil {
				return err
			}
		}
		return auditOn(ctx, tx, eventID, actor, "buyers' self-cancel set", detail, now)
	})
}

// admissionShares splits what an order paid for its tickets (its total without add-ons, at most the
// tickets' prices) among its tickets, by each ticket's price after its own discount; the
// centavos left by the division go to the first tickets; a pass's part refunds for cancelled
// dates are taken off its share. Keyed by ticket id.
func admissionShares(ctx context.Context, q querier, o *palaro.Order) (map[int64]palaro.Money, error) {
	type row struct {
		id     int64
		weight int64
	}
	rows, err := queryRows(ctx, q, `SELECT id, discount_amount FROM tickets WHERE order_id = ? ORDER BY id`, []any{o.ID},
		func(r rowScanner) (x row, err error) {
			var discount int64
			err = r.Scan(&x.id, &discount)
			x.weight = max(int64(o.UnitPrice)-discount, 0)
			return x, err
		})
	if err != nil || len(rows) == 0 {
		return nil, err
	}
	parted, err := passRefunded(ctx, q, o.ID)
	if err != nil {
		return nil, err
	}
	var sum int64
	for _, x := range rows {
		sum += x.weight
	}
	total := min(max(int64(o.Total-o.AddOnsTotal), 0), sum)
	shares := make(map[int64]palaro.Money, len(rows))
	left := total
	for _, x := range rows {
		var v int64
		if sum > 0 {
			v = total * x.weight / sum
		}
		shares[x.id] = palaro.Money(v)
		left -= v
	}
	for i := 0; left > 0 && len(rows) > 0; i = (i + 1) % len(rows) {
		shares[rows[i].id]++
		left--
	}
	for id := range shares { // what was given back of a pass for its cancelled dates is paid no more
		shares[id] = max(shares[id]-parted[id], 0)
	}
	return shares, nil
}

// quoteSelfCancel decides whether order o may be cancelled by its buyer at now and for how much.
func quoteSelfCancel(ctx context.Context, q querier, o *palaro.Order, now time.Time) (*palaro.SelfCancelQuote, []pendingTicket, error) {
	p, err := selfCancelPolicy(ctx, q, o.EventID)
	if err != nil {
		return nil, nil, err
	}
	qt := &palaro.SelfCancelQuote{Policy: p}
	if o.Event != nil {
		qt.Deadline = p.Deadline(o.Event.StartsAt)
	}
	switch {
	case !p.Enabled:
		qt.Reason = "The organizer does not let buyers cancel their own orders for this event."
	case o.Kind != palaro.OrderKindTickets || o.Status != palaro.OrderPaid || o.Total <= 0:
		qt.Reason = "Only a paid order of tickets can be cancelled here."
	case o.Event == nil || o.Event.Status == palaro.EventCancelled:
		qt.Reason = "This event is cancelled: the organizer refunds its orders."
	case !p.Open(o.Event.StartsAt, now):
		qt.Reason = "Cancelling closed on " + qt.Deadline.In(palaro.Manila).Format("January 2 at 3:04 PM") + "."
	}
	if qt.Reason != "" {
		return qt, nil, nil
	}
	shares, err := admissionShares(ctx, q, o)
	if err != nil {
		return nil, nil, err
	}
	var lines []pendingTicket
	for _, t := range o.Tickets {
		if t.Status != palaro.TicketValid {
			continue
		}
		lines = append(lines, pendingTicket{ticketID: t.ID, amount: shares[t.ID]})
		qt.Paid += shares[t.ID]
	}
	if len(lines) == 0 {
		qt.Reason = "No ticket of this order is left to cancel."
		return qt, nil, nil
	}
	qt.Allowed, qt.Tickets = true, len(lines)
	qt.Fee = p.FeeOn(qt.Paid)
	qt.Refund = qt.Paid - qt.Fee
	fee := qt.Fee // the fee is taken from the first tickets' amounts
	for i := range lines {
		take := min(fee, lines[i].amount)
		lines[i].amount -= take
		fee -= take
	}
	return qt, lines, nil
}

// QuoteSelfCancel says whether the order's buyer may cancel it at now and what they get back.
func (s *ReturnsService) QuoteSelfCancel(ctx context.Context, orderPublicID string, now time.Time) (_ *palaro.SelfCancelQuote, err error) {
	defer wrapErr(&err, "store: QuoteSelfCancel")

	tx, err := s.db.beginRead(ctx)
	if err != nil {
		return nil, err
	}
	defer tx.Rollback()
	o, err := loadOrder(ctx, tx, `o.public_id = ?`, orderPublicID)
	if err != nil {
		return nil, err
	}
	q, _, err := quoteSelfCancel(ctx, tx, o, now)
	return q, err
}

// SelfCancel cancels the order's valid tickets and writes the pending refund of what was paid for
// them minus the organizer's fee, in one unit of the writer: the tickets are void at once (the
// gate reads them so), their places go back on sale (waiting list first) and the buyer is
// e-mailed. A second call finds nothing left to cancel.
func (s *ReturnsService) SelfCancel(ctx context.Context, orderPublicID string, now time.Time) (_ *palaro.SelfCancelQuote, err error) {
	defer wrapErr(&err, "store: SelfCancel")

	var out *palaro.SelfCancelQuote
	err = s.db.inWrite(ctx, func(ctx context.Context, tx *sql.Tx) error {
		o, err := loadOrder(ctx, tx, `o.public_id = ?`, orderPublicID)
		if err != nil {
			return err
		}
		q, lines, err := quoteSelfCancel(ctx, tx, o, now)
		if err != nil {
			return err
		}
		if !q.Allowed {
			return palaro.Errorf(palaro.ECONFLICT, "%s", q.Reason)
		}
		for _, l := range lines {
			if err := voidValidTicket(ctx, tx, l.ticketID); err != nil {
				return err
			}
		}
		if err := s.db.ticketsReturned(ctx, tx, now); err != nil {
			return err
		}
		if _, _, err := insertPendingRefund(ctx, tx, pendingRefund{orderID: o.ID, amount: q.Refund, fee: q.Fee,
			reason: "buyer_cancelled", requestedBy: "buyer", tickets: lines}, now); err != nil {
			return err
		}
		if s.composer != nil {
			if err := enqueue(ctx, tx, s.composer.SelfCancelled(o, q), "", now); err != nil {
				return err
			}
		}
		out = q
		return auditOn(ctx, tx, o.EventID, o.Email, "order "+o.PublicID+" cancelled by its buyer",
			palaro.AuditDetail(map[string]any{"tickets": q.Tickets, "refund": int64(q.Refund), "fee": int64(q.Fee)}), now)
	})
	return out, err
}

// pendingTicket is one ticket of a refund and the centavos refunded for it.
type pendingTicket struct {
	ticketID int64
	code     string // named in the conflict when the ticket is in another refund already
	amount   palaro.Money
}

// pendingRefund is a refund decided now, for the refund job to settle through the gateway.
type pendingRefund struct {
	orderID     int64
	amount, fee palaro.Money
	reason      string // 'organizer', 'event_cancelled', 'buyer_cancelled', 'returned' or 'date_cancelled'
	requestedBy string
	tickets     []pendingTicket
	// dateID is the cancelled date of a 'date_cancelled' refund (0 for none); passes are the
	// pass tickets it refunds in part for that date (pass_date_refunds), which stay valid.
	dateID int64
	passes []pendingTicket
}

// insertPendingRefund writes a pending refunds row with its refund_tickets (and the part refunds
// of its passes) inside tx, whose caller makes the tickets void. It returns the refund's id and
// public id. A ticket already in a refund (refund_tickets' unique key), or a pass already decided
// for the date (pass_date_refunds' key), is a conflict, so nothing is refunded twice.
func insertPendingRefund(ctx context.Context, tx *sql.Tx, r pendingRefund, now time.Time) (int64, string, error) {
	publicID := "rf_" + newPublicID()
	var dateID any
	if r.dateID != 0 {
		dateID = r.dateID
	}
	id, err := insertID(ctx, tx, `INSERT INTO refunds (public_id, order_id, amount, fee, reason, status, requested_by, created_at, date_id)
		VALUES (?, ?, ?, ?, ?, 'pending', ?, ?, ?)`,
		publicID, r.orderID, r.amount, r.fee, r.reason, r.requestedBy, formatTime(now), dateID)
	if err != nil {
		return 0, "", err
	}
	for _, p := range r.passes {
		if err := decidePassDate(ctx, tx, p, r.dateID, id, now); err != nil {
			return 0, "", err
		}
	}
	for _, t := range r.tickets {
		res, err := tx.ExecContext(ctx, `INSERT INTO refund_tickets (refund_id, ticket_id, amount) VALUES (?, ?, ?)
			ON CONFLICT (ticket_id) DO NOTHING`, id, t.ticketID, t.amount)
		if err != nil {
			return 0, "", err
		}
		if n, err := res.RowsAffected(); err != nil {
			return 0, "", err
		} else if n == 0 { // another server's write refunded it in the meantime
			return 0, "", palaro.Errorf(palaro.ECONFLICT, "Ticket %s is being refunded already.", cmp.Or(t.code, "of this order"))
		}
	}
	return id, publicID, nil
}

// ReturnTicket puts a valid, unseated ticket of a paid order back on sale at face value: the
// ticket is void at once (nobody can use it while it is resold), its place is given back (the
// waiting list is offered it first) and the return stays open until another buyer pays for a
// ticket of its type, which writes this buyer's refund (sellReturns), or until the buyer takes it
// back (WithdrawReturn).
func (s *ReturnsService) ReturnTicket(ctx context.Context, orderPublicID, ticketPublicID string, now time.Time) (err error) {
	defer wrapErr(&err, "store: ReturnTicket")

	return s.db.inWrite(ctx, func(ctx context.Context, tx *sql.Tx) error {
		o, err := loadOrder(ctx, tx, `o.public_id = ?`, orderPublicID)
		if err != nil {
			return err
		}
		var t *palaro.Ticket
		for i := range o.Tickets {
			if o.Tickets[i].PublicID == ticketPublicID && o.Tickets[i].Email == o.Email {
				t = &o.Tickets[i]
			}
		}
		switch {
		case t == nil:
			return palaro.Errorf(palaro.ENOTFOUND, "Ticket not found.")
		case o.Status != palaro.OrderPaid || o.Total <= 0:
			return palaro.Errorf(palaro.ECONFLICT, "Only a ticket of a paid order can be returned.")
		case t.Status != palaro.TicketValid:
			return palaro.Errorf(palaro.ECONFLICT, "Only a valid ticket can be returned; this one is %s.", t.Status)
		case t.Seat != "":
			return palaro.Errorf(palaro.ECONFLICT, "A ticket with a seat cannot be returned here; write to the organizer.")
		case o.Event == nil || o.Event.Status == palaro.EventCancelled || !now.Before(o.Event.StartsAt):
			return palaro.Errorf(palaro.ECONFLICT, "This event has started or is cancelled: its tickets can no longer be returned.")
		case o.TicketType != nil && !o.TicketType.SalesEnd.IsZero() && !now.Before(o.TicketType.SalesEnd):
			return palaro.Errorf(palaro.ECONFLICT, "Sales of %s have ended, so a returned ticket could not be sold.", o.TicketType.Name)
		}
		shares, err := admissionShares(ctx, tx, o)
		if err != nil {
			return err
		}
		if err := voidValidTicket(ctx, tx, t.ID); err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, `INSERT INTO ticket_returns (ticket_id, order_id, ticket_type_id, amount, status, created_at)
			VALUES (?, ?, ?, ?, 'open', ?)`, t.ID, o.ID, o.TicketTypeID, shares[t.ID], formatTime(now)); err != nil {
			return err
		}
		if err := s.db.ticketsReturned(ctx, tx, now); err != nil {
			return err // the place goes to the waiting list first
		}
		return auditOn(ctx, tx, o.EventID, o.Email, "ticket "+t.Code+" returned for resale by its buyer", "", now)
	})
}

// WithdrawReturn gives an open return's ticket back to its buyer, valid again with the same code,
// if its place can be taken back: while another buyer holds it (an unpaid order or a waiting-list
// offer) it cannot, and the answer is a conflict.
func (s *ReturnsService) WithdrawReturn(ctx context.Context, orderPublicID, ticketPublicID string, now time.Time) (err error) {
	defer wrapErr(&err, "store: WithdrawReturn")

	return s.db.inWrite(ctx, func(ctx context.Context, tx *sql.Tx) error {
		var id, ticketID, typeID, eventID int64
		var code string
		err := tx.QueryRowContext(ctx, `SELECT r.id, r.ticket_id, r.ticket_type_id, t.event_id, t.code FROM ticket_returns r
			JOIN tickets t ON t.id = r.ticket_id JOIN orders o ON o.id = r.order_id
			WHERE o.public_id = ? AND t.public_id = ? AND r.status = 'open'`, orderPublicID, ticketPublicID).
			Scan(&id, &ticketID, &typeID, &eventID, &code)
		if errors.Is(err, sql.ErrNoRows) {
			return palaro.Errorf(palaro.ECONFLICT, "This ticket is not on sale any more: it was bought by someone else or already taken back.")
		} else if err != nil {
			return err
		}
		res, err := tx.ExecContext(ctx, `UPDATE ticket_types SET sold = sold + 1 WHERE id = ? AND sold + held + 1 <= capacity`, typeID)
		if err != nil {
			return err
		}
		if n, _ := res.RowsAffected(); n == 0 {
			return palaro.Errorf(palaro.ECONFLICT, "Someone is buying your returned ticket right now, so it cannot be taken back.")
		}
		if _, err := tx.ExecContext(ctx, `UPDATE ticket_returns SET status = 'withdrawn', closed_at = ? WHERE id = ? AND status = 'open'`,
			formatTime(now), id); err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, `UPDATE tickets SET status = 'valid' WHERE id = ? AND status = 'cancelled'`, ticketID); err != nil {
			return err
		}
		return auditOn(ctx, tx, eventID, "buyer", "return of ticket "+code+" taken back by its buyer", "", now)
	})
}

// sellReturns closes, oldest first, up to one open return of the ticket type per ticket just
// issued to order orderID (online or at the box office) (the paid sale took the place the return gave back), each with its buyer's pending
// refund of the face value paid and an e-mail. It runs inside the unit that issues the paid
// order's tickets; a return is closed by a conditional UPDATE, so it is sold once. Most types have
// no open return: one read of the index (ticket_returns_queue) says so first, in the same
// transaction, and spares every order the UPDATE, which costs several times more even when it
// changes nothing (SQLite opens a statement journal for it inside the unit's savepoint).
func sellReturns(ctx context.Context, tx *sql.Tx, db *DB, orderID, typeID int64, issued int, now time.Time) error {
	var open bool
	if err := tx.QueryRowContext(ctx, `SELECT EXISTS (SELECT 1 FROM ticket_returns WHERE ticket_type_id = ? AND status = 'open')`,
		typeID).Scan(&open); err != nil || !open {
		return err
	}
	for range issued {
		var id, ticketID, firstID int64
		var amount palaro.Money
		err := tx.QueryRowContext(ctx, `UPDATE ticket_returns SET status = 'sold', sold_order_id = ?, closed_at = ?
			WHERE id = (SELECT id FROM ticket_returns WHERE ticket_type_id = ? AND status = 'open' ORDER BY id LIMIT 1)
			AND status = 'open' RETURNING id, ticket_id, order_id, amount`, orderID, formatTime(now), typeID).
			Scan(&id, &ticketID, &firstID, &amount)
		if errors.Is(err, sql.ErrNoRows) {
			return nil
		} else if err != nil {
			return err
		}
		refundID, _, err := insertPendingRefund(ctx, tx, pendingRefund{orderID: firstID, amount: amount, reason: "returned",
			requestedBy: "return", tickets: []pendingTicket{{ticketID: ticketID, amount: amount}}}, now)
		if err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, `UPDATE ticket_returns SET refund_id = ? WHERE id = ?`, refundID, id); err != nil {
			return err
		}
		if db.returnsComposer != nil {
			first, err := loadOrder(ctx, tx, `o.id = ?`, firstID)
			if err != nil {
				return err
			}
			var code string
			if err := tx.QueryRowContext(ctx, `SELECT code FROM tickets WHERE id = ?`, ticketID).Scan(&code); err != nil {
				return err
			}
			if err := enqueue(ctx, tx, db.returnsComposer.ReturnSold(first, code, amount), "", now); err != nil {
				return err
			}
		}
	}
	return nil
}

// closeReturns closes as refunded the open returns of tickets refunded now by refundID (with their
// order: the event cancelled, or the organizer's refund). Their tickets are void already and were
// not in any refund, so refundOrder took them with the rest; closed, they can neither be sold
// (which would refund them a second time) nor taken back.
func closeReturns(ctx context.Context, tx *sql.Tx, tickets []*refundTicket, refundID int64, now time.Time) error {
	for _, t := range tickets {
		if _, err := tx.ExecContext(ctx, `UPDATE ticket_returns SET status = 'refunded', refund_id = ?, closed_at = ?
			WHERE ticket_id = ? AND status = 'open'`, refundID, formatTime(now), t.id); err != nil {
			return err
		}
	}
	return nil
}

// OrderReturns lists the order's returns, newest first, with the status of each one's refund.
func (s *ReturnsService) OrderReturns(ctx context.Context, orderPublicID string) (_ []palaro.TicketReturn, err error) {
	defer wrapErr(&err, "store: OrderReturns")
	return queryReturns(ctx, s.db.read, `o.public_id = ?`, orderPublicID)
}

// EventReturns lists the event's returns, newest first, with the status of each one's refund.
func (s *ReturnsService) EventReturns(ctx context.Context, eventID int64) (_ []palaro.TicketReturn, err error) {
	defer wrapErr(&err, "store: EventReturns(%d)", eventID)
	return queryReturns(ctx, s.db.read, `o.event_id = ?`, eventID)
}

func queryReturns(ctx context.Context, q querier, where string, args ...any) ([]palaro.TicketReturn, error) {
	return queryRows(ctx, q, `SELECT r.id, r.ticket_id, t.code, r.amount, r.status, coalesce(f.status, ''),
		r.created_at, r.closed_at FROM ticket_returns r JOIN tickets t ON t.id = r.ticket_id
		JOIN orders o ON o.id = r.order_id LEFT JOIN refunds f ON f.id = r.refund_id
		WHERE `+where+` ORDER BY r.id DESC`, args,
		func(r rowScanner) (x palaro.TicketReturn, err error) {
			var created, closed sql.NullString
			if err := r.Scan(&x.ID, &x.TicketID, &x.TicketCode, &x.Amount, &x.Status, &x.RefundStatus, &created, &closed); err != nil {
				return x, err
			}
			x.CreatedAt, _ = parseTime(created)
			x.ClosedAt, _ = parseTime(closed)
			return x, nil
		})
}

// OrderRefunds lists the refunds written for the order, oldest first.
func (s *ReturnsService) OrderRefunds(ctx context.Context, orderPublicID string) (_ []palaro.OrderRefundLine, err error) {
	defer wrapErr(&err, "store: OrderRefunds")

	return queryRows(ctx, s.db.read, `SELECT f.public_id, f.reason, f.status, f.amount, f.fee FROM refunds f
		JOIN orders o ON o.id = f.order_id WHERE o.public_id = ? ORDER BY f.id`, []any{orderPublicID},
		func(r rowScanner) (x palaro.OrderRefundLine, err error) {
			err = r.Scan(&x.PublicID, &x.Reason, &x.Status, &x.Amount, &x.Fee)
			return x, err
		})
}
