package store

import (
	"context"
	"database/sql"
	"errors"
	"slices"
	"time"

	"palaro"
)

// LinkLifetime is how long an e-mailed link (e-mail change, tickets list) works.
const LinkLifetime = 24 * time.Hour

// AddOnsAvailableForTicket returns the event's add-ons the ticket does not hold yet.
func (s *PurchaseService) AddOnsAvailableForTicket(ctx context.Context, ticketPublicID string) (_ []palaro.AddOn, err error) {
	defer wrapErr(&err, "store: AddOnsAvailableForTicket")

	tx, err := s.db.beginRead(ctx)
	if err != nil {
		return nil, err
	}
	defer tx.Rollback()
	t, err := findTicket(ctx, tx, ticketPublicID)
	if err != nil {
		return nil, err
	}
	return availableAddOns(ctx, tx, t)
}

func availableAddOns(ctx context.Context, q querier, t *palaro.Ticket) ([]palaro.AddOn, error) {
	return queryAddOns(ctx, q, `SELECT a.id, a.event_id, a.name, a.price, a.category, a.notes, a.image_url
		FROM add_ons a WHERE a.event_id = ? AND a.hidden = 0 AND a.id NOT IN (SELECT add_on_id FROM ticket_add_ons WHERE ticket_id = ?)
		ORDER BY a.category, a.name, a.id`, t.EventID, t.ID)
}

// CreateAddOnOrder creates an order for add-ons of an existing ticket.
func (s *PurchaseService) CreateAddOnOrder(ctx context.Context, ticketPublicID string, addOnIDs []int64, paymentType string, now time.Time) (_ *palaro.Order, err error) {
	defer wrapErr(&err, "store: CreateAddOnOrder")

	if len(addOnIDs) == 0 {
		return nil, palaro.Errorf(palaro.EINVALID, "Please choose at least one add-on.")
	}
	return write(ctx, s.db, func(ctx context.Context, tx *sql.Tx) (*palaro.Order, error) {
		t, err := findTicket(ctx, tx, ticketPublicID)
		if err != nil {
			return nil, err
		}
		if t.Status == palaro.TicketCancelled {
			return nil, palaro.Errorf(palaro.ECONFLICT, "This ticket is cancelled.")
		}
		available, err := availableAddOns(ctx, tx, t)
		if err != nil {
			return nil, err
		}
		addOns, err := pickAddOns(available, addOnIDs)
		if err != nil {
			return nil, err
		}
		o := &palaro.Order{
			PublicID: newPublicID(), Kind: palaro.OrderKindAddOns, TicketID: t.ID, EventID: t.EventID,
			TicketTypeID: t.TicketType.ID, Email: t.Email, Buyer: palaro.Buyer{FullName: t.HolderName},
			PaymentType: paymentType, AddOns: addOns, Status: palaro.OrderPending, HoldExpiresAt: now.Add(s.hold),
			CreatedAt: now, Event: t.Event, TicketType: &t.TicketType,
		}
		for _, a := range addOns {
			o.AddOnsTotal += a.Price
		}
		o.Total = o.AddOnsTotal
		if o.Free() {
			o.Status, o.PaidAt, o.HoldExpiresAt, o.PaymentType = palaro.OrderPaid, now, time.Time{}, ""
		} else if o.PaymentType == "" {
			o.PaymentType = t.TicketType.PaymentTypes[0]
		} else if !slices.Contains(t.TicketType.PaymentTypes, o.PaymentType) {
			return nil, palaro.Errorf(palaro.EINVALID, "Please choose a payment method")
		}
		if err := s.saveOrder(ctx, tx, o, nil, now, datePlan{}); err != nil {
			return nil, err
		}
		o.Tickets = []palaro.Ticket{*t}
		return o, nil
	})
}

// SendTicketsLink queues a job (palaro.JobTicketsLink) that e-mails the address a link to its
// tickets when it has any. The same work is done whatever the address, so the answer's timing
// tells nothing; the outbox worker resolves the job (RunJob).
func (s *PurchaseService) SendTicketsLink(ctx context.Context, email string, now time.Time) (err error) {
	defer wrapErr(&err, "store: SendTicketsLink")

	email, err = palaro.CheckEmail(email)
	if err != nil {
		return err
	}
	return s.db.inWrite(ctx, func(ctx context.Context, tx *sql.Tx) error {
		job := palaro.Message{Channel: palaro.ChannelEmail, Kind: palaro.JobTicketsLink, To: email, Subject: "Tickets link request"}
		return enqueue(ctx, tx, job, "", now)
	})
}

// RunJob does the work of a job message of the outbox (palaro.JobRunner).
func (s *PurchaseService) RunJob(ctx context.Context, m palaro.Message, now time.Time) (err error) {
	defer wrapErr(&err, "store: RunJob")

	switch m.Kind {
	case palaro.JobTicketsLink:
		return s.sendTicketsLink(ctx, m.To, now)
	}
	return palaro.Errorf(palaro.EINVALID, "Unknown job %q.", m.Kind)
}

// sendTicketsLink e-mails an address a link to its tickets, when it has any.
func (s *PurchaseService) sendTicketsLink(ctx context.Context, email string, now time.Time) error {
	// The tickets are read and the e-mail composed before the unit, which only stores the link.
	tickets, err := queryTickets(ctx, s.db.read, newRefCache(), `t.email = ? ORDER BY t.id DESC LIMIT 500`, email)
	if err != nil || len(tickets) == 0 {
		return err
	}
	token, hash := newToken()
	var msg *palaro.Message
	if s.composer != nil {
		m := s.composer.TicketsLink(email, token, tickets)
		msg = &m
	}
	return s.db.inWrite(ctx, func(ctx context.Context, tx *sql.Tx) error {
		if _, err := tx.ExecContext(ctx, `INSERT INTO link_tokens (token_hash, purpose, email, expires_at, created_at)
		VALUES (?, 'tickets', ?, ?, ?)`, hash, email, formatTime(now.Add(LinkLifetime)), formatTime(now)); err != nil {
			return err
		}
		if msg != nil {
			return enqueue(ctx, tx, *msg, "", now)
		}
		return nil
	})
}

// TicketsByLink returns the address and tickets of an unexpired tickets link.
func (s *PurchaseService) TicketsByLink(ctx context.Context, token string, now time.Time) (_ string, _ []*palaro.Ticket, err error) {
	defer wrapErr(&err, "store: TicketsByLink")

	var email string
	err = s.db.read.QueryRowContext(ctx, `SELECT email FROM link_tokens WHERE token_hash = ? AND purpose = 'tickets'
		AND expires_at > ?`, hashToken(token), formatTime(now)).Scan(&email)
	if errors.Is(err, sql.ErrNoRows) {
		return "", nil, palaro.Errorf(palaro.ENOTFOUND, "This link has expired. Please ask for a new one.")
	} else if err != nil {
		return "", nil, err
	}
	tickets, err := s.ListTicketsByEmail(ctx, email)
	return email, tickets, err
}
