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
// (expired, refunded, or pending past its hold), or whose ticket was cancelled (voided, refunded),
// stops being live first, then the insert either
// takes the ID or finds it taken (DiscountIDTaken), so two buyers at once never both get it.
func saveDiscounts(ctx context.Context, tx *sql.Tx, o *palaro.Order, now time.Time) error {
	for i, d := range o.Discounts {
		key := palaro.DiscountIDKey(d.IDNumber)
		if _, err := tx.ExecContext(ctx, `UPDATE order_discounts SET live = 0 WHERE event_id = ? AND id_key = ? AND live = 1
			AND (order_id IN (SELECT id FROM orders WHERE status IN ('expired', 'refunded', 'refund')
				OR (status = 'pending' AND hold_expires_at <= ?))
			OR EXISTS (SELECT 1 FROM tickets t WHERE t.order_id = order_discounts.order_id
				AND t.discount_id_number = order_discounts.id_number AND t.status = 'cancelled'))`,
			o.EventID, key, formatTime(now)); err != nil {
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

// DiscountIDYears is how many years after the end of an event's year its senior citizen and PWD
// ID numbers are kept in full: the BIR's record period for books and their supporting records.
const DiscountIDYears = 5

// MaskDiscountIDs reduces the senior citizen and PWD ID numbers of events that ended before the
// record period (DiscountIDYears after the end of the event's year, in Manila) to their last 4
// (palaro.MaskIDNumber), at most 500 tickets and their orders' rows a call; it returns how many
// tickets it masked. Run it again until it answers 0.
func (s *PurchaseService) MaskDiscountIDs(ctx context.Context, now time.Time) (_ int, err error) {
	defer wrapErr(&err, "store: MaskDiscountIDs")

	m := now.In(palaro.Manila)
	cutoff := formatTime(time.Date(m.Year()-DiscountIDYears, 1, 1, 0, 0, 0, 0, palaro.Manila))
	return write(ctx, s.db, func(ctx context.Context, tx *sql.Tx) (int, error) {
		type row struct {
			id, orderID int64 // id: the ticket's, or the order_discounts row's position
			number      string
		}
		rows, err := queryRows(ctx, tx, `SELECT t.id, t.order_id, t.discount_id_number FROM tickets t
			JOIN events e ON e.id = t.event_id WHERE t.discount_id_number != '' AND e.ends_at < ?
			AND t.discount_id_number NOT LIKE '••••%' LIMIT 500`, []any{cutoff}, func(r rowScanner) (x row, err error) {
			err = r.Scan(&x.id, &x.orderID, &x.number)
			return x, err
		})
		if err != nil {
			return 0, err
		}
		for _, x := range rows {
			masked := palaro.MaskIDNumber(x.number)
			if _, err := tx.ExecContext(ctx, `UPDATE tickets SET discount_id_number = ? WHERE id = ?`, masked, x.id); err != nil {
				return 0, err
			}
		}
		// every order's rows of those events, the unpaid ones' too
		kept, err := queryRows(ctx, tx, `SELECT d.order_id, d.position, d.id_number FROM order_discounts d
			JOIN events e ON e.id = d.event_id WHERE e.ends_at < ? AND d.id_number NOT LIKE '••••%' LIMIT 500`,
			[]any{cutoff}, func(r rowScanner) (x row, err error) {
				err = r.Scan(&x.orderID, &x.id, &x.number)
				return x, err
			})
		if err != nil {
			return 0, err
		}
		for _, x := range kept { // x.id is the row's position here
			masked := palaro.MaskIDNumber(x.number)
			if _, err := tx.ExecContext(ctx, `UPDATE order_discounts SET id_number = ?, id_key = ?, live = 0
				WHERE order_id = ? AND position = ?`, masked, masked, x.orderID, x.id); err != nil {
				return 0, err
			}
		}
		return len(rows), nil
	})
}
