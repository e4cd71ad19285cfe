package store

import (
	"context"
	"database/sql"
	"errors"

	"palaro"
)

// purchaseTicketType returns a ticket type (with its sold and held counts) and its event as an
// order needs them: the ticket type's row read now, and the event's row and add-ons from the
// catalog (read again once they change), without the tags, links and other ticket types that
// FindTicketType also loads and no purchase reads. It is on the path of every buyer of a rush,
// sold-out ones included. Returns ENOTFOUND like FindTicketType (unknown code, or an event still
// in draft).
func purchaseTicketType(ctx context.Context, db *DB, code string) (*palaro.TicketType, *palaro.Event, error) {
	notFound := palaro.Errorf(palaro.ENOTFOUND, "Ticket not found.")
	if !palaro.ValidCode(code) {
		return nil, nil, notFound
	}
	tt, err := scanTicketType(db.read.QueryRowContext(ctx, `SELECT `+ticketTypeColumns+` FROM ticket_types tt WHERE tt.code = ?`, code))
	if errors.Is(err, sql.ErrNoRows) {
		return nil, nil, notFound
	} else if err != nil {
		return nil, nil, err
	}
	ev, err := db.catalog.event(tt.EventID, func() (*palaro.Event, error) {
		tx, err := db.beginRead(ctx)
		if err != nil {
			return nil, err
		}
		defer tx.Rollback()
		ev, err := scanEvent(tx.QueryRowContext(ctx, `SELECT `+eventColumns+` `+eventJoins+` WHERE e.id = ?`, tt.EventID))
		if err != nil {
			return nil, err
		}
		if ev.AddOns, err = eventAddOns(ctx, tx, ev.ID); err != nil {
			return nil, err
		}
		return ev, nil
	})
	if errors.Is(err, sql.ErrNoRows) {
		return nil, nil, notFound
	} else if err != nil {
		return nil, nil, err
	}
	if ev.Status == palaro.EventDraft {
		return nil, nil, notFound
	}
	return &tt, ev, nil
}
