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

// MarkRefunded records that a refund-queue order was refunded.
func (s *OrganizerService) MarkRefunded(ctx context.Context, eventID int64, publicID, actor string) error {
	tx, err := s.db.beginWrite(ctx)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	now := s.db.Now()
	res, err := tx.ExecContext(ctx, `UPDATE orders SET refunded_at = ? WHERE event_id = ? AND public_id = ?
		AND status = 'refund' AND refunded_at IS NULL`, formatTime(now), eventID, publicID)
	if err != nil {
		return err
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return palaro.Errorf(palaro.ENOTFOUND, "No order to refund with that id.")
	}
	if err := s.auditEvent(ctx, tx, eventID, actor, "order "+publicID+" marked refunded", ""); err != nil {
		return err
	}
	return tx.Commit()
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
	tx, err := s.db.beginWrite(ctx)
	if err != nil {
		return err
	}
	defer tx.Rollback()
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
	return tx.Commit()
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
	tx, err := s.db.beginWrite(ctx)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	id, _, _, _, _, old, err := eventTicket(ctx, tx, eventID, code)
	if err != nil {
		return err
	}
	if _, err := tx.ExecContext(ctx, `UPDATE tickets SET email = ? WHERE id = ?`, email, id); err != nil {
		return err
	}
	if err := s.auditEvent(ctx, tx, eventID, actor, "ticket "+code+" moved to another e-mail",
		palaro.AuditDetail(map[string]string{"from": old, "to": email})); err != nil {
		return err
	}
	return tx.Commit()
}

// CancelTicket cancels a valid ticket of the event: it no longer admits anyone, and its place
// (and seat) go back on sale.
func (s *OrganizerService) CancelTicket(ctx context.Context, eventID int64, code, actor string) error {
	tx, err := s.db.beginWrite(ctx)
	if err != nil {
		return err
	}
	defer tx.Rollback()
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
	if err := s.auditEvent(ctx, tx, eventID, actor, "ticket "+code+" cancelled", ""); err != nil {
		return err
	}
	return tx.Commit()
}
