package store

import (
	"context"
	"database/sql"
	"errors"
	"strings"

	"palaro"
)

// FindOrder returns an order of the event with its tickets. Returns ENOTFOUND.
func (s *OrganizerService) FindOrder(ctx context.Context, eventID int64, publicID string) (_ *palaro.Order, err error) {
	defer wrapErr(&err, "store: FindOrder(%d)", eventID)

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

// ListRefundQueue returns the event's orders to refund (paid after their hold expired, or every
// ticket cancelled) and not yet refunded.
func (s *OrganizerService) ListRefundQueue(ctx context.Context, eventID int64) (_ []*palaro.Order, err error) {
	defer wrapErr(&err, "store: ListRefundQueue(%d)", eventID)

	tx, err := s.db.beginRead(ctx)
	if err != nil {
		return nil, err
	}
	defer tx.Rollback()
	return loadOrders(ctx, tx, `o.event_id = ? AND o.status = 'refund' AND o.refunded_at IS NULL ORDER BY o.id`, eventID)
}

// MarkRefunded moves a refund-queue or paid order to refunded, in the batching writer: a paid
// order's tickets are cancelled (the gate reads them so), the ticket type gets back the capacity of
// those still valid or checked in, and its seats go back on sale. The buyer is e-mailed. It
// records a refund made outside Palaro: no money moves here.
func (s *OrganizerService) MarkRefunded(ctx context.Context, eventID int64, publicID, actor string) (err error) {
	defer wrapErr(&err, "store: MarkRefunded(%d)", eventID)

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
		var series int
		if err := tx.QueryRowContext(ctx, `SELECT count(*) FROM tickets t JOIN ticket_types tt ON tt.id = t.ticket_type_id
			WHERE t.order_id = ? AND (t.date_id IS NOT NULL OR tt.pass_kind != '')`, id).Scan(&series); err != nil {
			return err
		}
		if status == palaro.OrderPaid && series > 0 { // a series' tickets give back their places on their dates
			ids, err := queryRows(ctx, tx, `SELECT id FROM tickets WHERE order_id = ? AND status IN ('valid', 'checked_in')`,
				[]any{id}, func(r rowScanner) (tid int64, err error) { err = r.Scan(&tid); return tid, err })
			if err != nil {
				return err
			}
			for _, tid := range ids {
				if _, err := voidTicket(ctx, tx, tid); err != nil {
					return err
				}
			}
			cancelled = int64(len(ids))
			if err := s.db.ticketsReturned(ctx, tx, s.db.Now()); err != nil {
				return err
			}
		} else if status == palaro.OrderPaid {
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
		if err := issueCreditNoteForOrder(ctx, tx, id, s.db.Now()); err != nil {
			return err
		}
		if err := EnqueueRefundWebhook(ctx, tx, id, s.db.Now()); err != nil {
			return err
		}
		if s.composer != nil {
			o, err := eventOrder(ctx, tx, eventID, publicID)
			if err != nil {
				return err
			}
			if err := enqueue(ctx, tx, s.composer.OrderRefunded(o), "", s.db.Now()); err != nil {
				return err
			}
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

// ResendTickets queues the order's confirmation e-mail (with its tickets, in the event's words) again.
func (s *OrganizerService) ResendTickets(ctx context.Context, eventID int64, publicID, actor string) (err error) {
	defer wrapErr(&err, "store: ResendTickets(%d)", eventID)

	return s.db.inWrite(ctx, func(ctx context.Context, tx *sql.Tx) error {
		o, err := eventOrder(ctx, tx, eventID, publicID)
		if err != nil {
			return err
		}
		if o.Status != palaro.OrderPaid || len(o.Tickets) == 0 {
			return palaro.Errorf(palaro.EINVALID, "Only a paid order with tickets can be sent again.")
		}
		m := s.composer.OrderConfirmation(o)
		words, err := confirmationWords(ctx, tx, []any{eventID})
		if err != nil {
			return err
		}
		if withWords, ok := s.composer.(palaro.EventEmailComposer); ok && words[eventID] != "" {
			m = withWords.OrderConfirmationWith(o, words[eventID]) // the organizer's words, as the first time
		}
		if err := enqueue(ctx, tx, m, "", s.db.Now()); err != nil {
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

// ChangeTicketEmail moves a ticket of the event to another e-mail address as a buyer's confirmed
// transfer does (moveTicket): reissued with a new code, link and QR code, the old ones void, its
// open transfers voided and both addresses e-mailed.
func (s *OrganizerService) ChangeTicketEmail(ctx context.Context, eventID int64, code, newEmail, actor string) (err error) {
	defer wrapErr(&err, "store: ChangeTicketEmail(%d)", eventID)

	email, err := palaro.CheckEmail(newEmail)
	if err != nil {
		return err
	}
	return s.db.inWrite(ctx, func(ctx context.Context, tx *sql.Tx) error {
		id, _, _, _, status, old, err := eventTicket(ctx, tx, eventID, code)
		if err != nil {
			return err
		}
		if status != palaro.TicketValid {
			return palaro.Errorf(palaro.EINVALID, "Only a valid ticket can be moved; this one is %s.", strings.ReplaceAll(status, "_", " "))
		}
		if old == email {
			return &palaro.Error{Code: palaro.EINVALID, Message: "This ticket is already registered to " + email + ".",
				Fields: map[string]string{palaro.FieldEmail: "This ticket is already registered to " + email + "."}}
		}
		tickets, err := queryTickets(ctx, tx, newRefCache(), `t.id = ?`, id)
		if err != nil || len(tickets) == 0 {
			return cmpErr(err, "ticket vanished")
		}
		var composer transferDoneComposer
		if s.composer != nil {
			composer = s.composer
		}
		if err := moveTicket(ctx, tx, composer, tickets[0], email, s.db.Now()); err != nil {
			return err
		}
		return s.auditEvent(ctx, tx, eventID, actor, "ticket "+code+" moved to another e-mail and reissued as "+tickets[0].Code,
			palaro.AuditDetail(map[string]string{"from": old, "to": email}))
	})
}

// voidTicket cancels a valid (or checked-in) ticket inside tx: the gate refuses it (the tickets
// trigger records the change for the gate lists), its ticket type gets the place back and its
// seat goes back on sale. It reports false when the ticket was void already (its place was given
// back then). The caller then calls db.ticketsReturned once for the places it freed.
func voidTicket(ctx context.Context, tx *sql.Tx, id int64) (bool, error) {
	var typeID, orderID int64
	var seat string
	err := tx.QueryRowContext(ctx, `UPDATE tickets SET status = 'cancelled' WHERE id = ? AND status IN ('valid', 'checked_in')
		RETURNING ticket_type_id, seat, order_id`, id).Scan(&typeID, &seat, &orderID)
	if errors.Is(err, sql.ErrNoRows) {
		return false, nil
	} else if err != nil {
		return false, err
	}
	plan, dated, err := ticketPlaces(ctx, tx, id)
	if err != nil {
		return false, err
	}
	if !dated { // a series' day ticket's place is its date's alone
		if _, err := tx.ExecContext(ctx, `UPDATE ticket_types SET sold = sold - 1 WHERE id = ? AND sold > 0`, typeID); err != nil {
			return false, err
		}
	}
	if err := plan.unsell(ctx, tx, 1); err != nil {
		return false, err
	}
	if seat != "" { // on each of its dates for a pass
		if _, err := tx.ExecContext(ctx, `DELETE FROM seat_assignments WHERE ticket_type_id = ? AND seat = ? AND order_id = ?`,
			plan.stockType, seat, orderID); err != nil {
			return false, err
		}
	}
	return true, nil
}

// voidValidTicket is voidTicket for a ticket its caller found valid: one made void in the
// meantime (another server's write) is a conflict.
func voidValidTicket(ctx context.Context, tx *sql.Tx, id int64) error {
	voided, err := voidTicket(ctx, tx, id)
	if err == nil && !voided {
		return palaro.Errorf(palaro.ECONFLICT, "This ticket is no longer valid.")
	}
	return err
}

// CancelTicket cancels a valid ticket of the event: it no longer admits anyone, and its place
// (and seat) go back on sale; the holder and the buyer are e-mailed, and an order left with no
// ticket that admits anyone moves to the refund queue. It is a unit of the batching writer, like the sales it undoes.
func (s *OrganizerService) CancelTicket(ctx context.Context, eventID int64, code, actor string) (err error) {
	defer wrapErr(&err, "store: CancelTicket(%d)", eventID)

	return s.db.inWrite(ctx, func(ctx context.Context, tx *sql.Tx) error {
		id, orderID, _, _, status, _, err := eventTicket(ctx, tx, eventID, code)
		if err != nil {
			return err
		}
		if status != palaro.TicketValid {
			return palaro.Errorf(palaro.EINVALID, "Only a valid ticket can be cancelled; this one is %s.", strings.ReplaceAll(status, "_", " "))
		}
		if err := voidValidTicket(ctx, tx, id); err != nil {
			return err
		}
		if err := s.db.ticketsReturned(ctx, tx, s.db.Now()); err != nil {
			return err // the place goes to the waiting list first
		}
		// A paid order left without a ticket that admits anyone is no longer shown as paid: it goes
		// to the refund queue (a free one, with nothing to give back, is closed as refunded).
		now := formatTime(s.db.Now())
		res, err := tx.ExecContext(ctx, `UPDATE orders SET status = CASE WHEN total = 0 THEN 'refunded' ELSE 'refund' END,
			refunded_at = CASE WHEN total = 0 THEN ? ELSE refunded_at END
			WHERE id = ? AND status = 'paid' AND NOT EXISTS (SELECT 1 FROM tickets WHERE order_id = ? AND status IN ('valid', 'checked_in'))`,
			now, orderID, orderID)
		if err != nil {
			return err
		}
		if n, err := res.RowsAffected(); err != nil {
			return err
		} else if n == 1 { // the order admits no one any more
			if err := enqueueWebhook(ctx, tx, palaro.WebhookOrderCancelled, orderID, s.db.Now()); err != nil {
				return err
			}
		}
		if s.composer != nil {
			tickets, err := queryTickets(ctx, tx, newRefCache(), `t.id = ?`, id)
			if err != nil || len(tickets) == 0 {
				return cmpErr(err, "ticket vanished")
			}
			var buyer string
			if err := tx.QueryRowContext(ctx, `SELECT email FROM orders WHERE id = ?`, orderID).Scan(&buyer); err != nil {
				return err
			}
			to := []string{tickets[0].Email}
			if buyer != tickets[0].Email {
				to = append(to, buyer) // a ticket moved to someone else: its buyer is told too
			}
			for _, addr := range to {
				if err := enqueue(ctx, tx, s.composer.TicketCancelled(tickets[0], addr), "", s.db.Now()); err != nil {
					return err
				}
			}
		}
		return s.auditEvent(ctx, tx, eventID, actor, "ticket "+code+" cancelled", "")
	})
}
