package store

import (
	"context"
	"database/sql"
	"errors"
	"strings"

	"palaro"
)

// FindOrder returns an order of the event with its tickets. Returns ENOTFOUND.
func (s *OrganizerService) FindOrder(ctx context.Context, eventID int64, publicID string) (*palaro.Order, error) {
	tx, err := s.db.beginRead(ctx)
	if err != nil {
		return nil, err
	}
	defer tx.Rollback()
	return eventOrder(ctx, tx, eventID, publicID)
}

func eventOrder(ctx context.Context, q querier, eventID int64, publicID string) (*palaro.Order, error) {
	orders, err := loadOrders(ctx, q, `o.event_id = ? AND o.public_id = ?`, eventID, publicID)
	if err != nil {
		return nil, err
	}
	if len(orders) == 0 {
		return nil, palaro.Errorf(palaro.ENOTFOUND, "Order not found.")
	}
	return orders[0], nil
}

// ListRefundQueue returns the event's orders paid after their hold expired and not yet refunded.
func (s *OrganizerService) ListRefundQueue(ctx context.Context, eventID int64) ([]*palaro.Order, error) {
	tx, err := s.db.beginRead(ctx)
	if err != nil {
		return nil, err
	}
	defer tx.Rollback()
	return loadOrders(ctx, tx, `o.event_id = ? AND o.status = 'refund' AND o.refunded_at IS NULL ORDER BY o.id`, eventID)
}

// MarkRefunded moves a refund-queue or paid order to refunded, in the batching writer: a paid
// order's tickets are cancelled (the gate reads them so), the ticket type gets back the capacity of
// those still valid or checked in, and its seats go back on sale.
func (s *OrganizerService) MarkRefunded(ctx context.Context, eventID int64, publicID, actor string) error {
	return s.db.inWrite(ctx, func(ctx context.Context, tx *sql.Tx) error {
		var id, typeID int64
		var status, kind string
		err := tx.QueryRowContext(ctx, `SELECT id, status, kind, coalesce(ticket_type_id, 0) FROM orders WHERE event_id = ? AND public_id = ?`,
			eventID, publicID).Scan(&id, &status, &kind, &typeID)
		if errors.Is(err, sql.ErrNoRows) {
			return palaro.Errorf(palaro.ENOTFOUND, "No order to refund with that id.")
		} else if err != nil {
			return err
		}
		if status != palaro.OrderRefund && status != palaro.OrderPaid {
			return palaro.Errorf(palaro.EINVALID, "Only a paid order or one to be refunded can be marked refunded; this one is %s.", status)
		}
		cancelled := int64(0)
		if status == palaro.OrderPaid {
			res, err := tx.ExecContext(ctx, `UPDATE tickets SET status = 'cancelled' WHERE order_id = ? AND status IN ('valid', 'checked_in')`, id)
			if err != nil {
				return err
			}
			cancelled, _ = res.RowsAffected()
			if kind == palaro.OrderKindTickets && cancelled > 0 {
				if _, err := tx.ExecContext(ctx, `UPDATE ticket_types SET sold = CASE WHEN sold > ? THEN sold - ? ELSE 0 END WHERE id = ?`, cancelled, cancelled, typeID); err != nil {
					return err
				}
			}
			if err := releaseSeats(ctx, tx, id); err != nil {
				return err
			}
			if err := s.db.ticketsReturned(ctx, tx, s.db.Now()); err != nil {
				return err
			}
		}
		if _, err := tx.ExecContext(ctx, `UPDATE orders SET status = 'refunded', refunded_at = ? WHERE id = ?`,
			formatTime(s.db.Now()), id); err != nil {
			return err
		}
		return s.auditEvent(ctx, tx, eventID, actor, "order "+publicID+" marked refunded",
			palaro.AuditDetail(map[string]any{"from": status, "ticketsCancelled": cancelled}))
	})
}

// auditEvent appends to an event's audit log inside tx.
func (s *OrganizerService) auditEvent(ctx context.Context, tx *sql.Tx, eventID int64, actor, action, detail string) error {
	orgID, err := eventOrg(ctx, tx, eventID)
	if err != nil {
		return err
	}
	return audit(ctx, tx, orgID, eventID, actor, action, detail, s.db.Now())
}

// ResendTickets queues the order's confirmation e-mail (with its tickets) again.
func (s *OrganizerService) ResendTickets(ctx context.Context, eventID int64, publicID, actor string) error {
	return s.db.inWrite(ctx, func(ctx context.Context, tx *sql.Tx) error {
		o, err := eventOrder(ctx, tx, eventID, publicID)
		if err != nil {
			return err
		}
		if o.Status != palaro.OrderPaid || len(o.Tickets) == 0 {
			return palaro.Errorf(palaro.EINVALID, "Only a paid order with tickets can be sent again.")
		}
		if err := enqueue(ctx, tx, s.composer.OrderConfirmation(o), "", s.db.Now()); err != nil {
			return err
		}
		if err := s.auditEvent(ctx, tx, eventID, actor, "tickets of order "+publicID+" sent again to "+o.Email, ""); err != nil {
			return err
		}
		return nil
	})
}

// eventTicket returns the id, order id, type, seat, status and e-mail of a ticket of the event by its code.
func eventTicket(ctx context.Context, tx *sql.Tx, eventID int64, code string) (id, orderID, typeID int64, seat, status, email string, err error) {
	err = tx.QueryRowContext(ctx, `SELECT id, order_id, ticket_type_id, seat, status, email FROM tickets
		WHERE event_id = ? AND upper(code) = upper(?)`, eventID, strings.TrimSpace(code)).Scan(&id, &orderID, &typeID, &seat, &status, &email)
	if errors.Is(err, sql.ErrNoRows) {
		err = palaro.Errorf(palaro.ENOTFOUND, "Ticket not found.")
	}
	return
}

// ChangeTicketEmail moves a ticket of the event to another e-mail address.
func (s *OrganizerService) ChangeTicketEmail(ctx context.Context, eventID int64, code, newEmail, actor string) error {
	email, err := palaro.CheckEmail(newEmail)
	if err != nil {
		return err
	}
	return s.db.inWrite(ctx, func(ctx context.Context, tx *sql.Tx) error {
		id, _, _, _, _, old, err := eventTicket(ctx, tx, eventID, code)
		if err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, `UPDATE tickets SET email = ? WHERE id = ?`, email, id); err != nil {
			return err
		}
		return s.auditEvent(ctx, tx, eventID, actor, "ticket "+code+" moved to another e-mail",
			palaro.AuditDetail(map[string]string{"from": old, "to": email}))
	})
}

// CancelTicket cancels a valid ticket of the event: it no longer admits anyone, and its place
// (and seat) go back on sale. It is a unit of the batching writer, like the sales it undoes.
func (s *OrganizerService) CancelTicket(ctx context.Context, eventID int64, code, actor string) error {
	return s.db.inWrite(ctx, func(ctx context.Context, tx *sql.Tx) error {
		id, orderID, typeID, seat, status, _, err := eventTicket(ctx, tx, eventID, code)
		if err != nil {
			return err
		}
		if status != palaro.TicketValid {
			return palaro.Errorf(palaro.EINVALID, "Only a valid ticket can be cancelled; this one is %s.", strings.ReplaceAll(status, "_", " "))
		}
		if _, err := tx.ExecContext(ctx, `UPDATE tickets SET status = 'cancelled' WHERE id = ?`, id); err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, `UPDATE ticket_types SET sold = sold - 1 WHERE id = ? AND sold > 0`, typeID); err != nil {
			return err
		}
		if seat != "" {
			if _, err := tx.ExecContext(ctx, `DELETE FROM seat_assignments WHERE ticket_type_id = ? AND seat = ? AND order_id = ?`,
				typeID, seat, orderID); err != nil {
				return err
			}
		}
		if err := s.db.ticketsReturned(ctx, tx, s.db.Now()); err != nil {
			return err // the place goes to the waiting list first
		}
		return s.auditEvent(ctx, tx, eventID, actor, "ticket "+code+" cancelled", "")
	})
}
