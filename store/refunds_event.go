package store

import (
	"cmp"
	"context"
	"database/sql"
	"errors"
	"fmt"
	"slices"
	"time"

	"palaro"
)

// eventOrdersToRefund selects the orders of events whose refund was started that still have
// something to refund: a paid (or refund-queue) order with a ticket not refunded yet, or an
// add-on order without a refund.
const eventOrdersToRefund = `o.status IN ('paid', 'refund') AND (
	EXISTS (SELECT 1 FROM tickets t WHERE t.order_id = o.id AND NOT EXISTS (SELECT 1 FROM refund_tickets rt WHERE rt.ticket_id = t.id))
	OR (o.kind = 'add_ons' AND NOT EXISTS (SELECT 1 FROM refunds x WHERE x.order_id = o.id)))`

// RefundEvent starts the refund of every paid order of a cancelled event (palaro.RefundService).
func (s *RefundService) RefundEvent(ctx context.Context, eventID int64, actor string) (err error) {
	defer wrapErr(&err, "store: RefundEvent(%d)", eventID)

	return s.db.inWrite(ctx, func(ctx context.Context, tx *sql.Tx) error {
		var status string
		var started sql.NullString
		err := tx.QueryRowContext(ctx, `SELECT status, refund_all_at FROM events WHERE id = ?`, eventID).Scan(&status, &started)
		if errors.Is(err, sql.ErrNoRows) {
			return palaro.Errorf(palaro.ENOTFOUND, "Event not found.")
		} else if err != nil {
			return err
		}
		if status != palaro.EventCancelled {
			return palaro.Errorf(palaro.EINVALID, "Only a cancelled event's orders can all be refunded; cancel the event first.")
		}
		if started.Valid {
			return nil // started already
		}
		now := s.db.Now()
		if _, err := tx.ExecContext(ctx, `UPDATE events SET refund_all_at = ?, refund_all_by = ? WHERE id = ?`, formatTime(now), actor, eventID); err != nil {
			return err
		}
		orgID, err := eventOrg(ctx, tx, eventID)
		if err != nil {
			return err
		}
		return audit(ctx, tx, orgID, eventID, actor, "refund of every order started", "", now)
	})
}

// RefundEventOrders writes the pending refunds of up to limit orders of the events whose refund
// was started and of the cancelled series dates whose refund was started, in one write, and
// returns how many it wrote. Each order is refunded whole (what is left of it), so an order
// refunded before, in part or whole, is never refunded twice. A cancelled date refunds (reason
// RefundDateCancelled, naming the date) its day-ticket orders, with their add-ons, and the add-on
// orders of their tickets: an order is for one date (orders.date_id and its tickets' come from
// the same plan and never move), so no such order also holds tickets of a date that goes on.
// Then, within the same limit, it decides the part refunds of the passes covering those dates
// (refundDatePasses).
func (s *RefundService) RefundEventOrders(ctx context.Context, limit int) (_ int, err error) {
	defer wrapErr(&err, "store: RefundEventOrders")

	return write(ctx, s.db, func(ctx context.Context, tx *sql.Tx) (int, error) {
		orders, err := loadOrders(ctx, tx, `(o.event_id IN (SELECT id FROM events WHERE refund_all_at IS NOT NULL AND status = 'cancelled')
			OR `+dateOrdersOf(cancelledDates)+`) AND `+eventOrdersToRefund+` ORDER BY o.id LIMIT ?`, limit)
		if err != nil {
			return 0, err
		}
		now := s.db.Now()
		for _, o := range orders {
			var by sql.NullString
			var dateID int64
			if err := tx.QueryRowContext(ctx, `SELECT (SELECT refund_all_by FROM events WHERE id = ? AND refund_all_at IS NOT NULL
				AND status = 'cancelled'), coalesce((SELECT x.date_id FROM orders x WHERE x.id = ?),
				(SELECT t.date_id FROM orders x JOIN tickets t ON t.id = x.ticket_id WHERE x.id = ?), 0)`, o.EventID, o.ID, o.ID).
				Scan(&by, &dateID); err != nil {
				return 0, err
			}
			why, actor := refundWhy{reason: palaro.RefundEventCancelled}, by.String
			if !by.Valid {
				d, err := cancelledDate(ctx, tx, dateID)
				if err != nil {
					return 0, err
				}
				why, actor = refundWhy{reason: palaro.RefundDateCancelled, date: &d.RefundDate}, d.by
			}
			if _, err := s.refundOrder(ctx, tx, o, nil, why, actor, now); err != nil {
				return 0, err
			}
		}
		n, err := s.refundDatePasses(ctx, tx, limit-len(orders), now)
		return len(orders) + n, err
	})
}

// cancelledDates selects the cancelled dates of series whose refund was started.
const cancelledDates = `SELECT id FROM event_dates WHERE refund_all_at IS NOT NULL AND status = 'cancelled'`

// dateOrdersOf selects (over orders o) the orders of the dates whose ids dates selects (SQL):
// their day-ticket orders and the add-on orders of their tickets.
func dateOrdersOf(dates string) string {
	return `(o.date_id IN (` + dates + `)
		OR (o.kind = 'add_ons' AND o.ticket_id IN (SELECT t.id FROM tickets t WHERE t.date_id IN (` + dates + `))))`
}

// refundDateRow is a cancelled date of a series as its refunds read it: when its refund was
// started (cancelledAt) and by whom.
type refundDateRow struct {
	palaro.RefundDate
	eventID     int64
	cancelledAt time.Time
	by          string
}

// cancelledDate reads date id as its refunds name it.
func cancelledDate(ctx context.Context, q querier, id int64) (refundDateRow, error) {
	var d refundDateRow
	var starts, at sql.NullString
	if err := q.QueryRowContext(ctx, `SELECT id, event_id, slug, name, starts_at, refund_all_at, refund_all_by FROM event_dates
		WHERE id = ?`, id).Scan(&d.ID, &d.eventID, &d.Slug, &d.Name, &starts, &at, &d.by); err != nil {
		return d, fmt.Errorf("date %d: %w", id, err)
	}
	d.StartsAt, _ = parseTime(starts)
	d.cancelledAt, _ = parseTime(at)
	return d, nil
}

// passCandidatesOf selects (date, order, pass ticket) of the dates chosen by dates (over
// event_dates d) and the live passes of paid orders not refunded whole that may be owed a share
// of them and were not decided yet: a pass valid on every date whose order covered the date when
// bought (order_dates), or a pass for some dates ordered at or before cutoff (SQL, the
// cancellation's time).
func passCandidatesOf(dates, cutoff string) string {
	return `SELECT d.id, t.order_id, t.id FROM event_dates d
	JOIN tickets t ON t.event_id = d.event_id
	JOIN ticket_types tt ON tt.id = t.ticket_type_id
	JOIN orders o ON o.id = t.order_id
	WHERE ` + dates + `
		AND o.status = 'paid' AND t.status IN ` + holderStatuses + `
		AND NOT EXISTS (SELECT 1 FROM refund_tickets rt WHERE rt.ticket_id = t.id)
		AND NOT EXISTS (SELECT 1 FROM pass_date_refunds p WHERE p.ticket_id = t.id AND p.date_id = d.id)
		AND ((tt.pass_kind = 'every' AND EXISTS (SELECT 1 FROM order_dates od WHERE od.order_id = o.id AND od.date_id = d.id))
			OR (tt.pass_kind = 'count' AND o.created_at <= ` + cutoff + `))
	ORDER BY d.id, t.order_id, t.id`
}

// passCandidates are the passes of the cancelled dates whose refund was started (their event's
// whole refund not) still to decide (passCandidatesOf), up to a limit.
var passCandidates = passCandidatesOf(`d.refund_all_at IS NOT NULL AND d.status = 'cancelled'
		AND NOT EXISTS (SELECT 1 FROM events e WHERE e.id = d.event_id AND e.refund_all_at IS NOT NULL)`, `d.refund_all_at`) + ` LIMIT ?`

// passCandidate is one row of passCandidates.
type passCandidate struct{ dateID, orderID, ticketID int64 }

// queryPassCandidates reads the pass candidates query selects (passCandidatesOf).
func queryPassCandidates(ctx context.Context, q querier, query string, args ...any) ([]passCandidate, error) {
	return queryRows(ctx, q, query, args, func(r rowScanner) (c passCandidate, err error) {
		err = r.Scan(&c.dateID, &c.orderID, &c.ticketID)
		return c, err
	})
}

// passRuns splits candidates ordered by date and order into runs of one date and one order,
// each as its pass tickets' ids, for f; it stops at f's first error.
func passRuns(cands []passCandidate, f func(dateID, orderID int64, tickets []int64) error) error {
	for len(cands) > 0 {
		n := 1
		for n < len(cands) && cands[n].orderID == cands[0].orderID && cands[n].dateID == cands[0].dateID {
			n++
		}
		ids := make([]int64, n)
		for i, c := range cands[:n] {
			ids[i] = c.ticketID
		}
		if err := f(cands[0].dateID, cands[0].orderID, ids); err != nil {
			return err
		}
		cands = cands[n:]
	}
	return nil
}

// refundDatePasses decides, inside the refund job's write, the part refunds of up to limit pass
// tickets for cancelled dates of their series (passCandidates), an order and a date at a time:
// one pending refund (reason RefundDateCancelled, naming the date) of the shares owed
// (passDateShare), each recorded in pass_date_refunds, whose key (ticket, date) makes the
// decision once; a pass owed nothing is recorded too, with no refund, so it is not asked again.
// On PostgreSQL the dates' rows are locked first, so two servers' jobs decide one after the
// other. It returns how many passes it decided.
func (s *RefundService) refundDatePasses(ctx context.Context, tx *sql.Tx, limit int, now time.Time) (int, error) {
	if limit <= 0 {
		return 0, nil
	}
	found, err := queryPassCandidates(ctx, tx, passCandidates, limit)
	if err != nil || len(found) == 0 {
		return 0, err
	}
	var locked []int64
	for _, c := range found {
		if !slices.Contains(locked, c.dateID) {
			if err := s.db.lockRow(ctx, tx, "event_dates", c.dateID); err != nil {
				return 0, err
			}
			locked = append(locked, c.dateID)
		}
	}
	cands, err := queryPassCandidates(ctx, tx, passCandidates, limit) // again, after any other server's decisions
	if err != nil {
		return 0, err
	}
	if len(cands) == limit { // the last order's passes may go on past the limit: decide them together next time
		last, cut := cands[len(cands)-1], len(cands)
		for cut > 0 && cands[cut-1].orderID == last.orderID && cands[cut-1].dateID == last.dateID {
			cut--
		}
		if cut > 0 {
			cands = cands[:cut]
		}
	}
	dates := map[int64]refundDateRow{}
	return len(cands), passRuns(cands, func(dateID, orderID int64, tickets []int64) error {
		d, ok := dates[dateID]
		if !ok {
			if d, err = cancelledDate(ctx, tx, dateID); err != nil {
				return err
			}
			dates[dateID] = d
		}
		return s.refundPassesForDate(ctx, tx, d, orderID, tickets, now)
	})
}

// passesOwed splits the pass tickets ids of order orderID into those owed a part refund for
// cancelled date d (with the amount: passDateShare, at most what is left of the ticket and of the
// order) and those owed nothing; o is the order.
func passesOwed(ctx context.Context, q querier, d refundDateRow, orderID int64, ids []int64) (o *palaro.Order, owed, nothing []pendingTicket, err error) {
	if o, err = loadOrder(ctx, q, `o.id = ?`, orderID); err != nil {
		return nil, nil, nil, err
	}
	tickets, err := orderRefundTickets(ctx, q, o.ID)
	if err != nil {
		return nil, nil, nil, err
	}
	ticketShares(o, tickets)
	orderLeft, err := refundLeft(ctx, q, o)
	if err != nil {
		return nil, nil, nil, err
	}
	for _, t := range tickets {
		if !slices.Contains(ids, t.id) {
			continue
		}
		per, err := passDateShare(ctx, q, d, t)
		if err != nil {
			return nil, nil, nil, err
		}
		got := min(per, max(t.share-t.parted, 0), orderLeft)
		if got <= 0 {
			nothing = append(nothing, pendingTicket{ticketID: t.id, code: t.code})
			continue
		}
		owed = append(owed, pendingTicket{ticketID: t.id, code: t.code, amount: got})
		orderLeft -= got
	}
	return o, owed, nothing, nil
}

// refundPassesForDate writes the part refund of the pass tickets ids of order orderID for
// cancelled date d (one refund, its e-mail and audit line), and records the passes owed nothing.
func (s *RefundService) refundPassesForDate(ctx context.Context, tx *sql.Tx, d refundDateRow, orderID int64, ids []int64, now time.Time) error {
	o, owed, nothing, err := passesOwed(ctx, tx, d, orderID, ids)
	if err != nil {
		return err
	}
	var amount palaro.Money
	for _, p := range owed {
		amount += p.amount
	}
	for _, p := range nothing {
		if err := decidePassDate(ctx, tx, p, d.ID, 0, now); err != nil {
			return err
		}
	}
	if len(owed) == 0 {
		return nil
	}
	r := palaro.Refund{OrderID: o.ID, Amount: amount, Reason: palaro.RefundDateCancelled, Status: palaro.RefundPending,
		RequestedBy: d.by, CreatedAt: now, Date: &d.RefundDate}
	if r.ID, r.PublicID, err = insertPendingRefund(ctx, tx, pendingRefund{orderID: o.ID, amount: amount,
		reason: palaro.RefundDateCancelled, requestedBy: d.by, dateID: d.ID, passes: owed}, now); err != nil {
		return err
	}
	for _, p := range owed {
		r.PassCodes = append(r.PassCodes, p.code)
	}
	if s.composer != nil {
		if err := enqueue(ctx, tx, s.composer.RefundStarted(o, r), "", now); err != nil {
			return err
		}
	}
	orgID, err := eventOrg(ctx, tx, o.EventID)
	if err != nil {
		return err
	}
	return audit(ctx, tx, orgID, o.EventID, d.by, "part refund "+r.PublicID+" of order "+o.PublicID+" for cancelled date "+d.Slug,
		palaro.AuditDetail(map[string]any{"amount": amount.String(), "passes": r.PassCodes, "reason": r.Reason}), now)
}

// passDateShare is what pass ticket t is owed for cancelled date d: its share of the order
// divided by the dates it covered when bought (order_dates) for a pass valid on every date, or
// by its number of dates for a pass for some dates, rounded up to the centavo (in the buyer's
// favour; the caller caps it at what is left of the ticket). A pass for some dates is owed it
// only when, as of the cancellation, the dates left to it (dates not over, not cancelled before
// this one, not used by it) are fewer than its uses left, so it can no longer be used in full;
// a use on the cancelled date itself stays used, as the gate counts it. 0 when nothing is owed.
func passDateShare(ctx context.Context, q querier, d refundDateRow, t refundTicket) (palaro.Money, error) {
	var kind string
	var dates int
	if err := q.QueryRowContext(ctx, `SELECT pass_kind, pass_dates FROM ticket_types WHERE id = ?`, t.typeID).Scan(&kind, &dates); err != nil {
		return 0, err
	}
	switch kind {
	case palaro.PassEvery:
		if err := q.QueryRowContext(ctx, `SELECT count(DISTINCT od.date_id) FROM order_dates od JOIN tickets t ON t.order_id = od.order_id
			WHERE t.id = ?`, t.id).Scan(&dates); err != nil {
			return 0, err
		}
	case palaro.PassCount:
		left, err := passCanStillBeUsed(ctx, q, d, t.id, dates)
		if err != nil || left {
			return 0, err
		}
	default:
		return 0, nil
	}
	if dates <= 0 || t.share <= 0 {
		return 0, nil
	}
	n := palaro.Money(dates)
	return (t.share + n - 1) / n, nil
}

// passCanStillBeUsed reports whether pass ticket ticketID, for uses dates of the holder's choice,
// could still be used in full after date d's cancellation, as things stood then.
func passCanStillBeUsed(ctx context.Context, q querier, d refundDateRow, ticketID int64, uses int) (bool, error) {
	at := formatTime(d.cancelledAt)
	var used, left int
	err := q.QueryRowContext(ctx, `SELECT (SELECT count(*) FROM pass_uses WHERE ticket_id = ? AND created_at <= ?),
		(SELECT count(*) FROM event_dates e WHERE e.event_id = ? AND e.id <> ? AND e.ends_at > ?
			AND (e.status <> 'cancelled' OR e.refund_all_at > ? OR (e.refund_all_at = ? AND e.id > ?))
			AND NOT EXISTS (SELECT 1 FROM pass_uses u WHERE u.ticket_id = ? AND u.date_id = e.id AND u.created_at <= ?))`,
		ticketID, at, d.eventID, d.ID, at, at, at, d.ID, ticketID, at).Scan(&used, &left)
	if err != nil {
		return false, err
	}
	return left >= uses-used, nil
}

// decidePassDate records, inside the write that decides it, what pass ticket p gets for
// cancelled date dateID: p.amount of refund refundID, or nothing (refundID 0). A decision made
// already (another server's job) is a conflict, so the unit is undone and nothing is written twice.
func decidePassDate(ctx context.Context, tx *sql.Tx, p pendingTicket, dateID, refundID int64, now time.Time) error {
	var refund any
	if refundID != 0 {
		refund = refundID
	}
	res, err := tx.ExecContext(ctx, `INSERT INTO pass_date_refunds (ticket_id, date_id, refund_id, amount, created_at)
		VALUES (?, ?, ?, ?, ?) ON CONFLICT (ticket_id, date_id) DO NOTHING`, p.ticketID, dateID, refund, p.amount, formatTime(now))
	if err != nil {
		return err
	}
	if n, err := res.RowsAffected(); err != nil {
		return err
	} else if n == 0 {
		return palaro.Errorf(palaro.ECONFLICT, "Pass %s is being refunded for this date already.", cmp.Or(p.code, "of this order"))
	}
	return nil
}

// passRefunded returns what part refunds for cancelled dates gave back of each pass ticket of the
// order, by ticket id.
func passRefunded(ctx context.Context, q querier, orderID int64) (map[int64]palaro.Money, error) {
	type row struct {
		id     int64
		amount palaro.Money
	}
	rows, err := queryRows(ctx, q, `SELECT p.ticket_id, sum(p.amount) FROM pass_date_refunds p JOIN tickets t ON t.id = p.ticket_id
		WHERE t.order_id = ? GROUP BY p.ticket_id`, []any{orderID}, func(r rowScanner) (x row, err error) {
		err = r.Scan(&x.id, &x.amount)
		return x, err
	})
	out := make(map[int64]palaro.Money, len(rows))
	for _, x := range rows {
		out[x.id] = x.amount
	}
	return out, err
}

// EventRefundProgress says how far the refund of every order of the event has come.
func (s *RefundService) EventRefundProgress(ctx context.Context, eventID int64) (_ palaro.RefundProgress, err error) {
	defer wrapErr(&err, "store: EventRefundProgress(%d)", eventID)

	var p palaro.RefundProgress
	tx, err := s.db.beginRead(ctx)
	if err != nil {
		return p, err
	}
	defer tx.Rollback()
	var started sql.NullString
	if err := tx.QueryRowContext(ctx, `SELECT refund_all_at FROM events WHERE id = ?`, eventID).Scan(&started); errors.Is(err, sql.ErrNoRows) {
		return p, palaro.Errorf(palaro.ENOTFOUND, "Event not found.")
	} else if err != nil {
		return p, err
	}
	p.Started, _ = parseTime(started)
	err = tx.QueryRowContext(ctx, `SELECT count(DISTINCT r.order_id),
		coalesce(sum(CASE WHEN r.status = 'refunded' THEN 1 ELSE 0 END), 0),
		coalesce(sum(CASE WHEN r.status = 'failed' THEN 1 ELSE 0 END), 0),
		coalesce(sum(CASE WHEN r.status = 'pending' THEN 1 ELSE 0 END), 0)
		FROM refunds r JOIN orders o ON o.id = r.order_id WHERE o.event_id = ? AND r.reason = ?`, eventID, palaro.RefundEventCancelled).
		Scan(&p.Orders, &p.Refunded, &p.Failed, &p.Pending)
	if err != nil {
		return p, err
	}
	err = tx.QueryRowContext(ctx, `SELECT count(*) FROM orders o WHERE o.event_id = ? AND `+eventOrdersToRefund, eventID).Scan(&p.Left)
	return p, err
}

// DateRefunds says, for each cancelled date of the event's series with refunds, how far its
// refunds are (palaro.RefundService), by date.
func (s *RefundService) DateRefunds(ctx context.Context, eventID int64) (_ []palaro.DateRefunds, err error) {
	defer wrapErr(&err, "store: DateRefunds(%d)", eventID)

	return queryRows(ctx, s.db.read, `SELECT d.id, d.slug, d.name, d.starts_at, count(*),
		coalesce(sum(CASE WHEN r.status = 'refunded' THEN 1 ELSE 0 END), 0),
		coalesce(sum(CASE WHEN r.status = 'pending' THEN 1 ELSE 0 END), 0),
		coalesce(sum(CASE WHEN r.status = 'failed' THEN 1 ELSE 0 END), 0), coalesce(sum(r.amount), 0)
		FROM refunds r JOIN event_dates d ON d.id = r.date_id WHERE d.event_id = ? AND r.reason = ?
		GROUP BY d.id, d.slug, d.name, d.starts_at ORDER BY d.starts_at`, []any{eventID, palaro.RefundDateCancelled},
		func(r rowScanner) (x palaro.DateRefunds, err error) {
			var starts sql.NullString
			if err := r.Scan(&x.Date.ID, &x.Date.Slug, &x.Date.Name, &starts, &x.Refunds, &x.Refunded, &x.Pending, &x.Failed, &x.Amount); err != nil {
				return x, err
			}
			x.Date.StartsAt, err = parseTime(starts)
			return x, err
		})
}

// RefundCounts counts the refunds waiting for the gateway (pending) and those it refused
// (failed, until retried), for the metrics.
func (s *RefundService) RefundCounts(ctx context.Context) (pending, failed int, err error) {
	defer wrapErr(&err, "store: RefundCounts")

	return pendingFailed(ctx, s.db.read, "refunds")
}
