package store

import (
	"context"
	"database/sql"
	"time"

	"palaro"
)

// CancelOrder releases a pending order's hold at once; the waiting list gets first go at it.
func (s *PurchaseService) CancelOrder(ctx context.Context, orderID int64) (err error) {
	defer wrapErr(&err, "store: CancelOrder(%d)", orderID)

	return s.db.inWrite(ctx, func(ctx context.Context, tx *sql.Tx) error {
		if n, err := releaseOrders(ctx, tx, `id = ? AND status = 'pending'`, orderID); err != nil || n == 0 {
			return err
		}
		return s.db.ticketsReturned(ctx, tx, s.db.Now())
	})
}

// ExpireHolds releases the holds of pending orders whose hold ended at or before now, and ends
// best available's seat holds that ended.
func (s *PurchaseService) ExpireHolds(ctx context.Context, now time.Time) (_ int, err error) {
	defer wrapErr(&err, "store: ExpireHolds")

	var n int
	err = s.db.inWrite(ctx, func(ctx context.Context, tx *sql.Tx) error {
		// best available's ended holds give their seats back (they hold no tickets of the count)
		if err := endSeatHolds(ctx, tx, `expires_at <= ?`, formatTime(now)); err != nil {
			return err
		}
		var err error
		if n, err = releaseOrders(ctx, tx, `status = 'pending' AND hold_expires_at <= ?`, formatTime(now)); err != nil || n == 0 {
			return err
		}
		return s.db.ticketsReturned(ctx, tx, now) // offered to the waiting lists before anyone else can buy them
	})
	return n, err
}

// releaseOrders marks the matching pending orders expired and gives back their held tickets,
// seats and promo code uses.
func releaseOrders(ctx context.Context, tx *sql.Tx, where string, args ...any) (int, error) {
	rows, err := tx.QueryContext(ctx, `SELECT id, ticket_type_id, quantity, promo_code_id, date_id IS NOT NULL FROM orders WHERE `+where, args...)
	if err != nil {
		return 0, err
	}
	type held struct {
		id, ticketType int64
		quantity       int
		promo          sql.NullInt64
		dated          bool // a series' day ticket: its places are its date's alone
	}
	var orders []held
	for rows.Next() {
		var h held
		if err := rows.Scan(&h.id, &h.ticketType, &h.quantity, &h.promo, &h.dated); err != nil {
			rows.Close()
			return 0, err
		}
		orders = append(orders, h)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return 0, err
	}
	released := 0
	for _, h := range orders {
		// Conditional: another server (or a payment) may have changed the order since the SELECT;
		// then its tickets are not this release's to give back.
		res, err := tx.ExecContext(ctx, `UPDATE orders SET status = 'expired' WHERE id = ? AND status = 'pending'`, h.id)
		if err != nil {
			return 0, err
		}
		// its senior citizen and PWD IDs may be used again (a late payment still issues them)
		if _, err := tx.ExecContext(ctx, `UPDATE order_discounts SET live = 0 WHERE order_id = ?`, h.id); err != nil {
			return 0, err
		}
		if n, err := res.RowsAffected(); err != nil {
			return 0, err
		} else if n == 0 {
			continue
		}
		released++
		if !h.dated {
			if _, err := tx.ExecContext(ctx, `UPDATE ticket_types SET held = held - ? WHERE id = ?`, h.quantity, h.ticketType); err != nil {
				return 0, err
			}
		}
		plan, err := orderPlan(ctx, tx, h.id, h.ticketType)
		if err != nil {
			return 0, err
		}
		if err := plan.release(ctx, tx, h.quantity); err != nil {
			return 0, err
		}
		if err := releaseSeats(ctx, tx, h.id); err != nil {
			return 0, err
		}
		if h.promo.Valid {
			if _, err := tx.ExecContext(ctx, `UPDATE promo_codes SET used = CASE WHEN used > 0 THEN used - 1 ELSE 0 END WHERE id = ?`, h.promo.Int64); err != nil {
				return 0, err
			}
		}
	}
	return released, nil
}

// PendingOrdersForReconciliation returns orders with a checkout that are pending (or expired
// within the last day) and older than minAge.
func (s *PurchaseService) PendingOrdersForReconciliation(ctx context.Context, now time.Time, minAge time.Duration) (_ []*palaro.Order, err error) {
	defer wrapErr(&err, "store: PendingOrdersForReconciliation")

	tx, err := s.db.beginRead(ctx)
	if err != nil {
		return nil, err
	}
	defer tx.Rollback()
	return loadOrders(ctx, tx, `o.provider_ref != '' AND o.created_at <= ? AND (o.status = 'pending'
		OR (o.status = 'expired' AND o.hold_expires_at > ?)) ORDER BY o.id LIMIT 200`,
		formatTime(now.Add(-minAge)), formatTime(now.Add(-24*time.Hour)))
}
