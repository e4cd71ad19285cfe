package store

import (
	"context"
	"database/sql"
	"errors"
	"time"

	"palaro"
)

// RequestEmailChange starts moving a ticket to newEmail: a consent link goes to the ticket's
// current address, or, when byOwner (the signed-in owner of that address asked), a receipt link
// goes to the new address at once.
func (s *PurchaseService) RequestEmailChange(ctx context.Context, ticketPublicID, newEmail string, byOwner bool, now time.Time) (_ *palaro.TicketTransfer, err error) {
	defer wrapErr(&err, "store: RequestEmailChange")

	newEmail, err = palaro.CheckEmail(newEmail)
	if err != nil {
		return nil, err
	}
	return write(ctx, s.db, func(ctx context.Context, tx *sql.Tx) (*palaro.TicketTransfer, error) {
		t, err := findTicket(ctx, tx, ticketPublicID)
		if err != nil {
			return nil, err
		}
		if t.Email == newEmail {
			return nil, palaro.Errorf(palaro.EINVALID, "This ticket is already registered to %s.", newEmail)
		}
		if t.Status == palaro.TicketCancelled {
			return nil, palaro.Errorf(palaro.ECONFLICT, "This ticket is cancelled.")
		}
		tr := &palaro.TicketTransfer{Ticket: t, FromEmail: t.Email, ToEmail: newEmail, Status: palaro.TransferAwaitingHolder}
		token, hash := newToken()
		column, msg := "consent_hash", palaro.Message{}
		if byOwner {
			tr.Status, column = palaro.TransferAwaitingReceipt, "receipt_hash"
		}
		if _, err := tx.ExecContext(ctx, `INSERT INTO ticket_transfers (ticket_id, from_email, to_email, `+column+`,
		status, expires_at, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)`, t.ID, t.Email, newEmail, hash,
			tr.Status, formatTime(now.Add(LinkLifetime)), formatTime(now), formatTime(now)); err != nil {
			return nil, err
		}
		if s.composer != nil {
			if byOwner {
				msg = s.composer.TransferReceipt(t, newEmail, token)
			} else {
				msg = s.composer.EmailChangeConfirmation(t, newEmail, token)
			}
			if err := enqueue(ctx, tx, msg, "", now); err != nil {
				return nil, err
			}
		}
		return tr, nil
	})
}

// openTransfer is a transfer found by one of its link tokens.
type openTransfer struct {
	id int64
	palaro.TicketTransfer
}

// findTransfer returns the transfer whose consent or receipt link is token, while that link
// works: its step is the one waiting, it has not expired, and the ticket is still at the
// address it moves from.
func findTransfer(ctx context.Context, q querier, token string, now time.Time) (*openTransfer, error) {
	hash := hashToken(token)
	var tr openTransfer
	var ticketID int64
	err := q.QueryRowContext(ctx, `SELECT tr.id, tr.ticket_id, tr.from_email, tr.to_email, tr.status
		FROM ticket_transfers tr JOIN tickets t ON t.id = tr.ticket_id
		WHERE ((tr.consent_hash = ? AND tr.status = 'awaiting_holder') OR (tr.receipt_hash = ? AND tr.status = 'awaiting_receipt'))
		AND tr.expires_at > ? AND t.email = tr.from_email AND t.status != 'cancelled'`,
		hash, hash, formatTime(now)).Scan(&tr.id, &ticketID, &tr.FromEmail, &tr.ToEmail, &tr.Status)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, palaro.Errorf(palaro.ENOTFOUND, "This link has expired or was already used.")
	} else if err != nil {
		return nil, err
	}
	tickets, err := queryTickets(ctx, q, newRefCache(), `t.id = ?`, ticketID)
	if err != nil || len(tickets) == 0 {
		return nil, errors.Join(err, errors.New("ticket vanished"))
	}
	tr.Ticket = tickets[0]
	return &tr, nil
}

// FindEmailChange returns the transfer of a working link token, without changing it.
func (s *PurchaseService) FindEmailChange(ctx context.Context, token string, now time.Time) (_ *palaro.TicketTransfer, err error) {
	defer wrapErr(&err, "store: FindEmailChange")

	tr, err := findTransfer(ctx, s.db.read, token, now)
	if err != nil {
		return nil, err
	}
	return &tr.TicketTransfer, nil
}

// ConfirmEmailChange takes the step a link confirms: the holder's consent sends the new address
// a receipt link; the receipt reissues the ticket to the new address, voids the ticket's other
// transfers and e-mails both addresses.
func (s *PurchaseService) ConfirmEmailChange(ctx context.Context, token string, now time.Time) (_ *palaro.TicketTransfer, err error) {
	defer wrapErr(&err, "store: ConfirmEmailChange")

	return write(ctx, s.db, func(ctx context.Context, tx *sql.Tx) (*palaro.TicketTransfer, error) {
		tr, err := findTransfer(ctx, tx, token, now)
		if err != nil {
			return nil, err
		}
		if tr.Status == palaro.TransferAwaitingHolder {
			receipt, hash := newToken()
			if _, err := tx.ExecContext(ctx, `UPDATE ticket_transfers SET status = 'awaiting_receipt', consent_hash = NULL,
			receipt_hash = ?, expires_at = ?, updated_at = ? WHERE id = ?`, hash, formatTime(now.Add(LinkLifetime)),
				formatTime(now), tr.id); err != nil {
				return nil, err
			}
			if s.composer != nil {
				if err := enqueue(ctx, tx, s.composer.TransferReceipt(tr.Ticket, tr.ToEmail, receipt), "", now); err != nil {
					return nil, err
				}
			}
			tr.Status = palaro.TransferAwaitingReceipt
			return &tr.TicketTransfer, nil
		}
		if _, err := tx.ExecContext(ctx, `UPDATE ticket_transfers SET status = 'done', receipt_hash = NULL, updated_at = ?
		WHERE id = ?`, formatTime(now), tr.id); err != nil {
			return nil, err
		}
		if err := moveTicket(ctx, tx, s.composer, tr.Ticket, tr.ToEmail, now); err != nil {
			return nil, err
		}
		tr.Status = palaro.TransferDone
		return &tr.TicketTransfer, nil
	})
}

// transferDoneComposer writes the e-mails of a completed ticket move (palaro.Composer and
// palaro.OrganizerComposer both do).
type transferDoneComposer interface {
	TransferDone(t *palaro.Ticket, to, fromEmail string) palaro.Message
}

// moveTicket completes a ticket's move to email, for a buyer's confirmed transfer and for an
// organizer's change alike: the ticket is reissued there (new public id, code and QR code, so its
// old link stops working), its other open transfers are voided and both addresses are e-mailed
// (when composer is not nil).
func moveTicket(ctx context.Context, tx *sql.Tx, composer transferDoneComposer, t *palaro.Ticket, email string, now time.Time) error {
	from := t.Email
	if err := reissueTicket(ctx, tx, t, email); err != nil {
		return err
	}
	if _, err := tx.ExecContext(ctx, `UPDATE ticket_transfers SET status = 'void', consent_hash = NULL,
		receipt_hash = NULL, updated_at = ? WHERE ticket_id = ? AND status IN ('awaiting_holder', 'awaiting_receipt')`,
		formatTime(now), t.ID); err != nil {
		return err
	}
	if err := enqueueWebhook(ctx, tx, palaro.WebhookTicketTransferred, t.ID, now); err != nil {
		return err
	}
	if composer == nil {
		return nil
	}
	for _, to := range []string{from, email} {
		if err := enqueue(ctx, tx, composer.TransferDone(t, to, from), "", now); err != nil {
			return err
		}
	}
	return nil
}

// reissueTicket gives a ticket to email under a new public id and a new code, so its old link,
// code and QR code stop working.
func reissueTicket(ctx context.Context, tx *sql.Tx, t *palaro.Ticket, email string) error {
	for attempt := 0; ; attempt++ {
		publicID, code := newPublicID(), newTicketCode()
		_, err := tx.ExecContext(ctx, `UPDATE tickets SET public_id = ?, code = ?, email = ? WHERE id = ?`,
			publicID, code, email, t.ID)
		if isUniqueViolation(err) && attempt < 5 {
			continue // a code collision: draw again
		} else if err != nil {
			return err
		}
		t.PublicID, t.Code, t.Email = publicID, code, email
		return nil
	}
}
