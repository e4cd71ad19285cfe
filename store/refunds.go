package store

import (
	"context"
	"database/sql"
	"errors"
	"slices"
	"strings"
	"time"

	"palaro"
)

// RefundService refunds orders (palaro.RefundService): the decision to refund is one write that
// inserts a pending refund with its tickets already void; the refund job settles pending refunds
// through the gateway (palaro.SettleRefunds), whoever wrote them.
type RefundService struct {
	db       *DB
	composer palaro.RefundComposer
}

var _ palaro.RefundService = (*RefundService)(nil)

// NewRefundService returns the refund service; composer may be nil (no e-mail).
func NewRefundService(db *DB, composer palaro.RefundComposer) *RefundService {
	return &RefundService{db: db, composer: composer}
}

// refundColumns are the columns scanRefund reads (refundFrom).
const refundColumns = `r.id, r.public_id, r.order_id, o.public_id, o.event_id, o.provider, o.provider_ref, r.amount, r.fee,
	r.reason, r.status, r.provider, r.provider_ref, r.failure, r.requested_by, r.attempts, r.created_at, r.done_at,
	coalesce(rd.id, 0), coalesce(rd.slug, ''), coalesce(rd.name, ''), rd.starts_at`

// refundFrom is what refundColumns are read from: the refund, its order and its cancelled date.
const refundFrom = ` FROM refunds r JOIN orders o ON o.id = r.order_id LEFT JOIN event_dates rd ON rd.id = r.date_id`

func scanRefund(row rowScanner) (palaro.Refund, error) {
	var r palaro.Refund
	var amount, fee int64
	var created, done, dateStarts sql.NullString
	var date palaro.RefundDate
	err := row.Scan(&r.ID, &r.PublicID, &r.OrderID, &r.OrderPublicID, &r.EventID, &r.OrderProvider, &r.SessionID, &amount, &fee,
		&r.Reason, &r.Status, &r.Provider, &r.ProviderRef, &r.Failure, &r.RequestedBy, &r.Attempts, &created, &done,
		&date.ID, &date.Slug, &date.Name, &dateStarts)
	r.Amount, r.Fee = palaro.Money(amount), palaro.Money(fee)
	r.CreatedAt, _ = parseTime(created)
	r.DoneAt, _ = parseTime(done)
	if date.ID != 0 {
		date.StartsAt, _ = parseTime(dateStarts)
		r.Date = &date
	}
	return r, err
}

// queryRefunds returns the refunds matching where (over refundFrom) with their ticket codes and
// the codes of the passes they refund in part.
func queryRefunds(ctx context.Context, q querier, where string, args ...any) ([]palaro.Refund, error) {
	refunds, err := queryRows(ctx, q, `SELECT `+refundColumns+refundFrom+` WHERE `+where, args, scanRefund)
	if err != nil || len(refunds) == 0 {
		return refunds, err
	}
	ids := make([]any, len(refunds))
	at := map[int64]int{}
	for i, r := range refunds {
		ids[i], at[r.ID] = r.ID, i
	}
	type code struct {
		refund int64
		code   string
		pass   bool
	}
	codes, err := queryRows(ctx, q, `SELECT rt.refund_id, t.code, 0, t.id FROM refund_tickets rt JOIN tickets t ON t.id = rt.ticket_id
		WHERE rt.refund_id IN (`+placeholders(len(ids))+`) UNION ALL SELECT p.refund_id, t.code, 1, t.id FROM pass_date_refunds p
		JOIN tickets t ON t.id = p.ticket_id WHERE p.refund_id IN (`+placeholders(len(ids))+`) ORDER BY 4`, append(ids, ids...),
		func(r rowScanner) (c code, err error) {
			var pass, id int64
			err = r.Scan(&c.refund, &c.code, &pass, &id)
			c.pass = pass == 1
			return c, err
		})
	for _, c := range codes {
		r := &refunds[at[c.refund]]
		if c.pass {
			r.PassCodes = append(r.PassCodes, c.code)
		} else {
			r.TicketCodes = append(r.TicketCodes, c.code)
		}
	}
	return refunds, err
}

// RequestRefund refunds tickets of an order of the event (palaro.RefundService).
func (s *RefundService) RequestRefund(ctx context.Context, eventID int64, orderPublicID string, codes []string, reason, actor string) (_ []palaro.Refund, err error) {
	defer wrapErr(&err, "store: RequestRefund(%d)", eventID)

	return write(ctx, s.db, func(ctx context.Context, tx *sql.Tx) ([]palaro.Refund, error) {
		o, err := eventOrder(ctx, tx, eventID, orderPublicID)
		if err != nil {
			return nil, err
		}
		if _, err := s.refundOrder(ctx, tx, o, codes, refundWhy{reason: reason}, actor, s.db.Now()); err != nil {
			return nil, err
		}
		return queryRefunds(ctx, tx, `r.order_id = ? ORDER BY r.id DESC`, o.ID)
	})
}

// refundedOf reads what the refunds of an order (its id the argument) give back, pending ones included.
const refundedOf = `SELECT coalesce(sum(amount), 0) FROM refunds WHERE order_id = ?`

// refundLeft is what is left to refund of order o: what it cost less what its refunds give back.
func refundLeft(ctx context.Context, q querier, o *palaro.Order) (palaro.Money, error) {
	var before palaro.Money
	if err := q.QueryRowContext(ctx, refundedOf, o.ID).Scan(&before); err != nil {
		return 0, err
	}
	return max(o.Total-before, 0), nil
}

// refundTicket is a ticket of an order as a refund reads it; parted is what part refunds of a
// pass for its cancelled dates gave back of it.
type refundTicket struct {
	id, typeID            int64
	code, seat            string
	discount              palaro.Money
	refunded              bool
	status                string
	share, amount, parted palaro.Money
}

// refundWhy is why a refund is written: its reason and, for a cancelled date, that date.
type refundWhy struct {
	reason string
	date   *palaro.RefundDate
}

// orderRefundTickets reads the tickets of order orderID as a refund reads them, by id.
func orderRefundTickets(ctx context.Context, q querier, orderID int64) ([]refundTicket, error) {
	return queryRows(ctx, q, `SELECT t.id, t.ticket_type_id, t.code, t.seat, t.discount_amount, t.status,
		EXISTS (SELECT 1 FROM refund_tickets rt WHERE rt.ticket_id = t.id),
		coalesce((SELECT sum(p.amount) FROM pass_date_refunds p WHERE p.ticket_id = t.id), 0)
		FROM tickets t WHERE t.order_id = ? ORDER BY t.id`,
		[]any{orderID}, func(r rowScanner) (t refundTicket, err error) {
			var discount, parted int64
			err = r.Scan(&t.id, &t.typeID, &t.code, &t.seat, &discount, &t.status, &t.refunded, &parted)
			t.discount, t.parted = palaro.Money(discount), palaro.Money(parted)
			return t, err
		})
}

// refundOrder writes, inside tx, the pending refund of the tickets of o whose codes are given
// (every ticket not refunded yet when codes is empty): the refund and its tickets, the tickets
// made void, the buyer's e-mail and the audit line. A ticket's amount is its share less what part
// refunds of a pass gave back of it, and the refund never gives back more than is left of the
// order. It returns nil when there was nothing left to refund (asked again).
func (s *RefundService) refundOrder(ctx context.Context, tx *sql.Tx, o *palaro.Order, codes []string, why refundWhy, actor string, now time.Time) (*palaro.Refund, error) {
	reason := why.reason
	switch o.Status {
	case palaro.OrderPaid, palaro.OrderRefund, palaro.OrderRefunded:
	default:
		return nil, palaro.Errorf(palaro.EINVALID, "Only a paid order can be refunded; this one is %s.", o.Status)
	}
	tickets, err := orderRefundTickets(ctx, tx, o.ID)
	if err != nil {
		return nil, err
	}
	var before palaro.Money // what earlier refunds of the order give back
	if err := tx.QueryRowContext(ctx, refundedOf, o.ID).Scan(&before); err != nil {
		return nil, err
	}
	var chosen []*refundTicket
	for _, c := range codes {
		i := slices.IndexFunc(tickets, func(t refundTicket) bool { return strings.EqualFold(t.code, strings.TrimSpace(c)) })
		if i < 0 {
			return nil, palaro.Errorf(palaro.ENOTFOUND, "Ticket %s is not in order %s.", c, o.PublicID)
		}
		if !tickets[i].refunded && !slices.Contains(chosen, &tickets[i]) {
			chosen = append(chosen, &tickets[i])
		}
	}
	if o.Status == palaro.OrderRefunded {
		return nil, nil // refunded already (through Palaro, or marked refunded by hand)
	}
	left := 0
	for i := range tickets {
		if !tickets[i].refunded {
			left++
			if len(codes) == 0 {
				chosen = append(chosen, &tickets[i])
			}
		}
	}
	var amount palaro.Money
	switch {
	case len(tickets) == 0 && before == 0 && len(codes) == 0: // an add-on order, refunded whole
		amount = o.Total
	case len(chosen) == 0:
		return nil, nil // every ticket asked for is refunded already
	case len(chosen) == left: // the rest of the order: what it cost less what was given back
		amount = max(o.Total-before, 0)
		ticketShares(o, tickets)
		rest := amount
		for _, t := range chosen[:len(chosen)-1] {
			t.amount = min(max(t.share-t.parted, 0), rest)
			rest -= t.amount
		}
		chosen[len(chosen)-1].amount = rest
	default: // some of the tickets left: their shares, never more in all than is left of the order
		ticketShares(o, tickets)
		rest := max(o.Total-before, 0)
		for _, t := range chosen {
			t.amount = min(max(t.share-t.parted, 0), rest)
			rest -= t.amount
			amount += t.amount
		}
	}

	r := palaro.Refund{OrderID: o.ID, Amount: amount, Reason: reason, Status: palaro.RefundPending,
		RequestedBy: actor, CreatedAt: now, Date: why.date}
	lines := make([]pendingTicket, len(chosen))
	for i, t := range chosen {
		lines[i] = pendingTicket{ticketID: t.id, code: t.code, amount: t.amount}
	}
	pending := pendingRefund{orderID: o.ID, amount: amount, reason: reason, requestedBy: actor, tickets: lines}
	if why.date != nil {
		pending.dateID = why.date.ID
	}
	if r.ID, r.PublicID, err = insertPendingRefund(ctx, tx, pending, now); err != nil {
		return nil, err
	}
	for _, t := range chosen {
		if _, err := voidTicket(ctx, tx, t.id); err != nil {
			return nil, err
		}
		r.TicketCodes = append(r.TicketCodes, t.code)
	}
	if err := closeReturns(ctx, tx, chosen, r.ID, now); err != nil {
		return nil, err
	}
	if len(chosen) > 0 {
		if err := s.db.ticketsReturned(ctx, tx, now); err != nil {
			return nil, err // the places go to the waiting list first
		}
	}
	if s.composer != nil {
		if err := enqueue(ctx, tx, s.composer.RefundStarted(o, r), "", now); err != nil {
			return nil, err
		}
	}
	orgID, err := eventOrg(ctx, tx, o.EventID)
	if err != nil {
		return nil, err
	}
	return &r, audit(ctx, tx, orgID, o.EventID, actor, "refund "+r.PublicID+" of order "+o.PublicID+" requested",
		palaro.AuditDetail(map[string]any{"amount": amount.String(), "tickets": r.TicketCodes, "reason": reason}), now)
}

// ticketShares sets each ticket's share of what the order cost: the ticket type's price less the
// ticket's senior/PWD discount, plus an equal share of the add-ons less the promo discount (the
// last ticket takes what does not divide evenly). The shares add up to the order's total.
func ticketShares(o *palaro.Order, tickets []refundTicket) {
	if len(tickets) == 0 {
		return
	}
	extra := o.Total
	for _, t := range tickets {
		extra -= o.UnitPrice - t.discount
	}
	n := palaro.Money(len(tickets))
	for i := range tickets {
		tickets[i].share = o.UnitPrice - tickets[i].discount + extra/n
	}
	tickets[len(tickets)-1].share += extra % n
	for i := range tickets {
		tickets[i].share = max(tickets[i].share, 0)
	}
}

// OrderRefunds returns the refunds of the orders, by order id, newest first.
func (s *RefundService) OrderRefunds(ctx context.Context, orderIDs ...int64) (_ map[int64][]palaro.Refund, err error) {
	defer wrapErr(&err, "store: OrderRefunds")

	out := map[int64][]palaro.Refund{}
	if len(orderIDs) == 0 {
		return out, nil
	}
	args := make([]any, len(orderIDs))
	for i, id := range orderIDs {
		args[i] = id
	}
	refunds, err := queryRefunds(ctx, s.db.read, `r.order_id IN (`+placeholders(len(args))+`) ORDER BY r.id DESC`, args...)
	for _, r := range refunds {
		out[r.OrderID] = append(out[r.OrderID], r)
	}
	return out, err
}

// OrderEvent returns the code of the event of the order with this public id. Returns ENOTFOUND.
func (s *RefundService) OrderEvent(ctx context.Context, orderPublicID string) (_ string, err error) {
	defer wrapErr(&err, "store: OrderEvent")

	var code string
	err = s.db.read.QueryRowContext(ctx, `SELECT e.code FROM orders o JOIN events e ON e.id = o.event_id WHERE o.public_id = ?`,
		orderPublicID).Scan(&code)
	if errors.Is(err, sql.ErrNoRows) {
		return "", palaro.Errorf(palaro.ENOTFOUND, "Order not found.")
	}
	return code, err
}

// PendingRefunds returns up to limit pending refunds, oldest first.
func (s *RefundService) PendingRefunds(ctx context.Context, limit int) (_ []palaro.Refund, err error) {
	defer wrapErr(&err, "store: PendingRefunds")

	return queryRefunds(ctx, s.db.read, `r.status = 'pending' ORDER BY r.id LIMIT ?`, limit)
}

// FinishRefund ends a pending refund with the provider's answer and tells the buyer
// (palaro.RefundStore).
func (s *RefundService) FinishRefund(ctx context.Context, id int64, provider string, res palaro.RefundResult, now time.Time) (err error) {
	defer wrapErr(&err, "store: FinishRefund(%d)", id)

	if res.Status != palaro.RefundRefunded && res.Status != palaro.RefundFailed {
		return palaro.Errorf(palaro.EINVALID, "A refund ends refunded or failed, not %q.", res.Status)
	}
	return s.db.inWrite(ctx, func(ctx context.Context, tx *sql.Tx) error {
		var orderID int64
		err := tx.QueryRowContext(ctx, `UPDATE refunds SET status = ?, provider = ?, provider_ref = ?, failure = ?,
			attempts = attempts + 1, done_at = ? WHERE id = ? AND status = 'pending' RETURNING order_id`,
			res.Status, provider, res.ID, res.Failure, formatTime(now), id).Scan(&orderID)
		if errors.Is(err, sql.ErrNoRows) {
			return nil // ended already (the job and an API call asked at once)
		} else if err != nil {
			return err
		}
		if err := s.tellRefundEnded(ctx, tx, id, orderID, now); err != nil {
			return err
		}
		if res.Status != palaro.RefundRefunded {
			return nil
		}
		if err := issueCreditNoteForRefund(ctx, tx, id, now); err != nil {
			return err // the refund and its credit note are committed together, once
		}
		// The order is refunded once each of its tickets is.
		done, err := tx.ExecContext(ctx, `UPDATE orders SET status = 'refunded', refunded_at = ?
			WHERE id = ? AND status IN ('paid', 'refund') AND NOT EXISTS (SELECT 1 FROM tickets t WHERE t.order_id = orders.id
				AND NOT EXISTS (SELECT 1 FROM refund_tickets rt JOIN refunds r ON r.id = rt.refund_id
					WHERE rt.ticket_id = t.id AND r.status = 'refunded'))`, formatTime(now), orderID)
		if err != nil {
			return err
		}
		if n, err := done.RowsAffected(); err != nil || n == 0 {
			return err
		}
		return EnqueueRefundWebhook(ctx, tx, orderID, now) // the order is refunded now
	})
}

// tellRefundEnded queues, inside the write that ends refund id of order orderID, the buyer's
// e-mail saying how it ended; a refund of nothing (a free order's) that went through needs none.
func (s *RefundService) tellRefundEnded(ctx context.Context, tx *sql.Tx, id, orderID int64, now time.Time) error {
	if s.composer == nil {
		return nil
	}
	refunds, err := queryRefunds(ctx, tx, `r.id = ?`, id)
	if err != nil || len(refunds) == 0 {
		return err
	}
	r := refunds[0]
	if r.Status == palaro.RefundRefunded && r.Amount == 0 {
		return nil
	}
	o, err := loadOrder(ctx, tx, `o.id = ?`, orderID)
	if err != nil {
		return err
	}
	return enqueue(ctx, tx, s.composer.RefundEnded(o, r), "", now)
}

// NoteRefundAttempt counts an attempt of a pending refund that got no final answer.
func (s *RefundService) NoteRefundAttempt(ctx context.Context, id int64, failure string, now time.Time) (err error) {
	defer wrapErr(&err, "store: NoteRefundAttempt(%d)", id)

	return s.db.inWrite(ctx, func(ctx context.Context, tx *sql.Tx) error {
		_, err := tx.ExecContext(ctx, `UPDATE refunds SET attempts = attempts + 1, failure = ? WHERE id = ? AND status = 'pending'`, failure, id)
		return err
	})
}

// RetryRefund sets a failed refund of the event pending again, with the same key: a gateway that
// made the refund after all answers with it, and one that refused it is asked anew.
func (s *RefundService) RetryRefund(ctx context.Context, eventID int64, refundPublicID, actor string) (err error) {
	defer wrapErr(&err, "store: RetryRefund(%d)", eventID)

	return s.db.inWrite(ctx, func(ctx context.Context, tx *sql.Tx) error {
		res, err := tx.ExecContext(ctx, `UPDATE refunds SET status = 'pending', attempts = 0, done_at = NULL
			WHERE public_id = ? AND status = 'failed' AND order_id IN (SELECT id FROM orders WHERE event_id = ?)`, refundPublicID, eventID)
		if err != nil {
			return err
		}
		if n, err := res.RowsAffected(); err != nil || n == 0 {
			if err == nil {
				err = palaro.Errorf(palaro.EINVALID, "Only a failed refund of this event can be tried again.")
			}
			return err
		}
		orgID, err := eventOrg(ctx, tx, eventID)
		if err != nil {
			return err
		}
		return audit(ctx, tx, orgID, eventID, actor, "refund "+refundPublicID+" tried again", "", s.db.Now())
	})
}
