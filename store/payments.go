package store

import (
	"cmp"
	"context"
	"database/sql"
	"errors"
	"strconv"
	"strings"
	"time"

	"palaro"
)

// ConfirmPayment applies a provider's payment event to its order, once. Everything happens in
// one write transaction: the event is recorded (a redelivery hits the primary key and changes
// nothing), then a paid event issues the order's tickets, from its hold while the order is
// pending, or from the remaining capacity when the hold already expired; without capacity the
// order is marked for refund; a failed attempt leaves a pending order pending (the buyer may
// retry) and marks it failed for its page. The order is found by the provider's checkout session,
// or by its payment intent when the event names no session; an
// event for no order, of the other mode (live), or paid in another currency or amount is stored
// as refused and changes nothing.
func (s *PurchaseService) ConfirmPayment(ctx context.Context, provider string, live bool, ev palaro.PaymentEvent) (_ *palaro.Order, err error) {
	defer wrapErr(&err, "store: ConfirmPayment(%q)", provider)

	if ev.ID == "" {
		return nil, palaro.Errorf(palaro.EINVALID, "A payment event needs an id.")
	}
	now := s.db.Now()
	var o *palaro.Order
	var refused string
	var seen bool
	// one unit of the batching writer: twenty deliveries of one event at once run one after
	// another in it, and only the first finds the event new
	err = s.db.inWrite(ctx, func(ctx context.Context, tx *sql.Tx) error {
		var err error
		o, refused, seen = nil, "", false
		if ev.SessionID != "" {
			o, err = loadOrder(ctx, tx, `o.provider = ? AND o.provider_ref = ? AND o.provider_ref != ''`, provider, ev.SessionID)
		} else {
			o, err = loadOrder(ctx, tx, `o.provider = ? AND o.provider_intent = ? AND o.provider_intent != ''`, provider, ev.IntentID)
		}
		switch {
		case palaro.ErrorCode(err) == palaro.ENOTFOUND:
			o, refused = nil, "no order has checkout session "+strconv.Quote(ev.SessionID+ev.IntentID)
		case err != nil:
			return err
		default:
			refused = ev.Refusal(o, live)
		}
		var orderID any
		if o != nil {
			orderID = o.ID
		}
		res, err := tx.ExecContext(ctx, `INSERT INTO payment_events (provider, event_id, order_id, status, received_at, refused)
			VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING`, provider, ev.ID, orderID, ev.Status, formatTime(now), refused)
		if err != nil {
			return err
		}
		if n, err := res.RowsAffected(); err != nil {
			return err
		} else if n == 0 {
			if err := tx.QueryRowContext(ctx, `SELECT refused FROM payment_events WHERE provider = ? AND event_id = ?`,
				provider, ev.ID).Scan(&refused); err != nil {
				return err
			}
			seen = refused == "" // seen before: already applied
			return nil
		}
		if refused != "" {
			return nil // recorded as refused; the caller hears why once it is committed
		}
		switch {
		case ev.Status == palaro.PaymentExpired && o.Status == palaro.OrderPending:
			if _, err := releaseOrders(ctx, tx, `id = ? AND status = 'pending'`, o.ID); err != nil {
				return err
			}
			return s.db.ticketsReturned(ctx, tx, now)
		case ev.Status == palaro.PaymentFailed && o.Status == palaro.OrderPending:
			// a declined card or wallet can be retried on the same checkout: the order stays
			// pending and its page says the attempt failed
			_, err := tx.ExecContext(ctx, `UPDATE orders SET payment_failed = ? WHERE id = ? AND status = 'pending'`,
				cmp.Or(ev.Method, o.PaymentType), o.ID)
			return err
		case ev.Status != palaro.PaymentPaid:
			// pending, or a failed attempt on an order no longer pending: nothing to do
		case o.Status == palaro.OrderPaid || o.Status == palaro.OrderRefund || o.Status == palaro.OrderRefunded:
			// settled by an earlier event (a different id for the same payment): nothing to do
		default:
			if _, err := tx.ExecContext(ctx, `UPDATE orders SET payment_method = ?, payment_account = ?, payment_failed = '' WHERE id = ?`,
				ev.Method, maskedAccount(ev.Account), o.ID); err != nil {
				return err
			}
			return s.settlePaid(ctx, tx, o, now)
		}
		return nil
	})
	switch {
	case err != nil:
		return nil, err
	case seen:
		return o, nil
	case refused != "" && o == nil:
		return nil, palaro.Errorf(palaro.ENOTFOUND, "Payment event refused: %s.", refused)
	case refused != "":
		return nil, palaro.Errorf(palaro.EINVALID, "Payment event refused: %s.", refused)
	}
	return s.FindOrderByPublicID(ctx, o.PublicID)
}

// settlePaid turns a paid order's hold into sold tickets, or, when its hold was released,
// takes them from what capacity remains; if none remains, the order is marked for refund.
func (s *PurchaseService) settlePaid(ctx context.Context, tx *sql.Tx, o *palaro.Order, now time.Time) error {
	if entry, err := teamOrderOf(ctx, tx, o.ID); err != nil {
		return err
	} else if entry != nil {
		if refused, err := entryRefused(ctx, tx, entry); err != nil {
			return err
		} else if refused { // another team took its name or tag while it was unpaid
			return s.refuseEntry(ctx, tx, o, entry, now)
		}
	}
	if o.Kind == palaro.OrderKindTickets {
		plan, err := orderPlan(ctx, tx, o.ID, o.TicketTypeID)
		if err != nil {
			return err
		}
		if o.Status == palaro.OrderExpired && len(o.Seats) > 0 {
			// the expiry gave the seats back: the payment keeps them only if nobody took them since
			if err := takeSeatsOn(ctx, tx, plan.stockType, plan.dates, o.ID, o.Seats); err != nil {
				if palaro.ErrorCode(err) == palaro.EINTERNAL {
					return err
				}
				return s.settle(ctx, tx, o, palaro.OrderRefund, now)
			}
		}
		if ok, err := plan.sell(ctx, tx, o.Quantity, o.Status != palaro.OrderExpired); err != nil {
			return err
		} else if !ok { // a date's places went to others after the hold expired
			return s.settle(ctx, tx, o, palaro.OrderRefund, now)
		}
		if o.Date == nil { // a series' day ticket has no stock but its date's
			query := `UPDATE ticket_types SET held = held - ?, sold = sold + ? WHERE id = ?`
			args := []any{o.Quantity, o.Quantity, o.TicketTypeID}
			if o.Status == palaro.OrderExpired {
				query = `UPDATE ticket_types SET sold = sold + ? WHERE id = ? AND sold + held + ? <= capacity`
				args = []any{o.Quantity, o.TicketTypeID, o.Quantity}
			}
			res, err := tx.ExecContext(ctx, query, args...)
			if err != nil {
				return err
			}
			if n, _ := res.RowsAffected(); n == 0 {
				if err := plan.unsell(ctx, tx, o.Quantity); err != nil { // a pass's places on its dates
					return err
				}
				return s.settle(ctx, tx, o, palaro.OrderRefund, now)
			}
		}
		if o.Status == palaro.OrderExpired && o.PromoCode != "" {
			// the expiry gave the promo use back; a paid order keeps it, beyond the limit if need be
			if _, err := tx.ExecContext(ctx, `UPDATE promo_codes SET used = used + 1 WHERE code = ?`, o.PromoCode); err != nil {
				return err
			}
		}
	}
	return s.settle(ctx, tx, o, palaro.OrderPaid, now)
}

// settle records a final status: a refund gives back the order's seats; a paid order's tickets
// are issued and its e-mail written.
func (s *PurchaseService) settle(ctx context.Context, tx *sql.Tx, o *palaro.Order, status string, now time.Time) error {
	if o.Status == palaro.OrderPending && o.Kind == palaro.OrderKindTickets && status == palaro.OrderRefund {
		// a pending order still holds its tickets: give them back
		if o.Date == nil {
			if _, err := tx.ExecContext(ctx, `UPDATE ticket_types SET held = held - ? WHERE id = ?`, o.Quantity, o.TicketTypeID); err != nil {
				return err
			}
		}
		plan, err := orderPlan(ctx, tx, o.ID, o.TicketTypeID)
		if err != nil {
			return err
		}
		if err := plan.release(ctx, tx, o.Quantity); err != nil {
			return err
		}
		if err := s.db.ticketsReturned(ctx, tx, now); err != nil {
			return err
		}
	}
	if status == palaro.OrderRefund {
		if err := releaseSeats(ctx, tx, o.ID); err != nil {
			return err
		}
	}
	res, err := tx.ExecContext(ctx, `UPDATE orders SET status = ?, paid_at = ? WHERE id = ? AND status IN ('pending', 'expired')`,
		status, formatTime(now), o.ID)
	if err != nil {
		return err
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return errors.New("order changed while settling")
	}
	if status != palaro.OrderPaid {
		return nil
	}
	o.Status, o.PaidAt, o.Tickets = status, now, nil
	return s.issue(ctx, tx, o, now)
}

// ListPaymentEvents returns the payment events received, newest first, with the reason of each
// refused one.
func (s *PurchaseService) ListPaymentEvents(ctx context.Context, f palaro.PaymentEventFilter) (_ []palaro.PaymentEventRecord, err error) {
	defer wrapErr(&err, "store: ListPaymentEvents")

	if f.Limit <= 0 || f.Limit > 1000 {
		f.Limit = 100
	}
	refusedOnly := 0
	if f.Refused {
		refusedOnly = 1
	}
	return queryRows(ctx, s.db.read, `SELECT pe.provider, pe.event_id, coalesce(o.public_id, ''), pe.status,
		pe.refused, pe.received_at FROM payment_events pe LEFT JOIN orders o ON o.id = pe.order_id
		WHERE (? = 0 OR pe.refused != '') ORDER BY pe.received_at DESC, pe.event_id LIMIT ?`, []any{refusedOnly, f.Limit},
		func(r rowScanner) (e palaro.PaymentEventRecord, err error) {
			var received sql.NullString
			if err := r.Scan(&e.Provider, &e.EventID, &e.OrderPublicID, &e.Status, &e.Refused, &received); err != nil {
				return e, err
			}
			e.ReceivedAt, _ = parseTime(received)
			return e, nil
		})
}

// maskedAccount keeps at most the last four digits of an account number a provider reported, so
// that no full card or wallet number is ever stored.
func maskedAccount(account string) string {
	digits := strings.Map(func(r rune) rune {
		if r >= '0' && r <= '9' {
			return r
		}
		return -1
	}, account)
	return digits[max(0, len(digits)-4):]
}
