package store

import (
	"context"
	"database/sql"
	"errors"

	"palaro"
)

// purchaseTicketType returns a ticket type (with its sold and held counts) and its event as an
// order needs them, from the catalog (read again once any of them changes): the event's row and
// add-ons, without the tags, links and other ticket types that FindTicketType also loads and no
// purchase reads. It is on the path of every buyer of a rush, sold-out ones included. Returns
// ENOTFOUND like FindTicketType (unknown code, or an event still in draft).
func purchaseTicketType(ctx context.Context, db *DB, code string) (*palaro.TicketType, *palaro.Event, error) {
	if !palaro.ValidCode(code) {
		return nil, nil, palaro.Errorf(palaro.ENOTFOUND, "Ticket not found.")
	}
	if db.catalog == nil {
		return readPurchaseTicketType(ctx, db, code)
	}
	return db.catalog.lookup(code, func() (*palaro.TicketType, *palaro.Event, error) {
		return readPurchaseTicketType(context.WithoutCancel(ctx), db, code)
	})
}

// readPurchaseTicketType reads what purchaseTicketType returns, in one read transaction.
func readPurchaseTicketType(ctx context.Context, db *DB, code string) (*palaro.TicketType, *palaro.Event, error) {
	notFound := palaro.Errorf(palaro.ENOTFOUND, "Ticket not found.")
	tx, err := db.beginRead(ctx)
	if err != nil {
		return nil, nil, err
	}
	defer tx.Rollback()
	tt, err := scanTicketType(tx.QueryRowContext(ctx, `SELECT `+ticketTypeColumns+` FROM ticket_types tt WHERE tt.code = ?`, code))
	if errors.Is(err, sql.ErrNoRows) {
		return nil, nil, notFound
	} else if err != nil {
		return nil, nil, err
	}
	ev, err := scanEvent(tx.QueryRowContext(ctx, `SELECT `+eventColumns+` `+eventJoins+` WHERE e.id = ? AND e.status != 'draft'`, tt.EventID))
	if errors.Is(err, sql.ErrNoRows) {
		return nil, nil, notFound
	} else if err != nil {
		return nil, nil, err
	}
	if ev.AddOns, err = eventAddOns(ctx, tx, ev.ID); err != nil {
		return nil, nil, err
	}
	return &tt, ev, nil
}
