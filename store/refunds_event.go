package store

import (
	"context"
	"database/sql"
	"errors"

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
// was started, and of the cancelled series dates whose refund was started (their day-ticket
// orders, reason RefundByOrganizer: a pass is not refunded in part for one date), in one write,
// and returns how many it wrote. Each order is refunded whole (what is left of it), so an order
// refunded before, in part or whole, is never refunded twice.
func (s *RefundService) RefundEventOrders(ctx context.Context, limit int) (_ int, err error) {
	defer wrapErr(&err, "store: RefundEventOrders")

	return write(ctx, s.db, func(ctx context.Context, tx *sql.Tx) (int, error) {
		orders, err := loadOrders(ctx, tx, `(o.event_id IN (SELECT id FROM events WHERE refund_all_at IS NOT NULL AND status = 'cancelled')
			OR o.date_id IN (SELECT id FROM event_dates WHERE refund_all_at IS NOT NULL AND status = 'cancelled'))
			AND `+eventOrdersToRefund+` ORDER BY o.id LIMIT ?`, limit)
		if err != nil {
			return 0, err
		}
		now := s.db.Now()
		for _, o := range orders {
			var by sql.NullString
			var byDate string
			if err := tx.QueryRowContext(ctx, `SELECT (SELECT refund_all_by FROM events WHERE id = ? AND refund_all_at IS NOT NULL
				AND status = 'cancelled'), coalesce((SELECT d.refund_all_by FROM orders x JOIN event_dates d ON d.id = x.date_id
				WHERE x.id = ?), '')`, o.EventID, o.ID).Scan(&by, &byDate); err != nil {
				return 0, err
			}
			reason, actor := palaro.RefundEventCancelled, by.String
			if !by.Valid {
				reason, actor = palaro.RefundByOrganizer, byDate
			}
			if _, err := s.refundOrder(ctx, tx, o, nil, reason, actor, now); err != nil {
				return 0, err
			}
		}
		return len(orders), nil
	})
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

// RefundCounts counts the refunds waiting for the gateway (pending) and those it refused
// (failed, until retried), for the metrics.
func (s *RefundService) RefundCounts(ctx context.Context) (pending, failed int, err error) {
	defer wrapErr(&err, "store: RefundCounts")

	return pendingFailed(ctx, s.db.read, "refunds")
}
