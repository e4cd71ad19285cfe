package store

import (
	"context"
	"database/sql"
	"time"

	"palaro"
)

// saveDiscounts writes a new order's senior citizen and PWD discounts, one row per discounted
// ticket. One discounted ticket per ID per event is the unique key on the live rows
// (order_discounts_one_per_id): a row of an order that can no longer be paid for in time
// (expired, refunded, or pending past its hold) stops being live first, then the insert either
// takes the ID or finds it taken (DiscountIDTaken), so two buyers at once never both get it.
func saveDiscounts(ctx context.Context, tx *sql.Tx, o *palaro.Order, now time.Time) error {
	for i, d := range o.Discounts {
		key := palaro.DiscountIDKey(d.IDNumber)
		if _, err := tx.ExecContext(ctx, `UPDATE order_discounts SET live = 0 WHERE event_id = ? AND id_key = ? AND live = 1
			AND order_id IN (SELECT id FROM orders WHERE status IN ('expired', 'refunded', 'refund')
				OR (status = 'pending' AND hold_expires_at <= ?))`, o.EventID, key, formatTime(now)); err != nil {
			return err
		}
		res, err := tx.ExecContext(ctx, `INSERT INTO order_discounts (order_id, position, event_id, type, holder, id_number,
			id_key, amount) VALUES (?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING`,
			o.ID, i, o.EventID, d.Type, d.HolderName, d.IDNumber, key, d.Amount)
		if err != nil {
			return err
		}
		if n, err := res.RowsAffected(); err != nil {
			return err
		} else if n == 0 {
			return palaro.DiscountIDTaken(i)
		}
	}
	return nil
}

// orderDiscounts returns an order's senior citizen and PWD discounts in ticket order.
func orderDiscounts(ctx context.Context, q querier, orderID int64) ([]palaro.TicketDiscount, error) {
	return queryRows(ctx, q, `SELECT type, holder, id_number, amount FROM order_discounts WHERE order_id = ? ORDER BY position`,
		[]any{orderID}, func(r rowScanner) (d palaro.TicketDiscount, err error) {
			err = r.Scan(&d.Type, &d.HolderName, &d.IDNumber, &d.Amount)
			return d, err
		})
}
