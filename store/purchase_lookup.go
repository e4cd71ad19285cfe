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
// ENOTFOUND like FindTicketType (unknown code, or an event still in draft). Its sold and held
// counters are the committed ones even when the rest comes from memory.
func purchaseTicketType(ctx context.Context, db *DB, code string) (*palaro.TicketType, *palaro.Event, error) {
	if !palaro.ValidCode(code) {
		return nil, nil, palaro.Errorf(palaro.ENOTFOUND, "Ticket not found.")
	}
	if db.catalog == nil {
		return readPurchaseTicketType(ctx, db, code)
	}
	tt, ev, counted, err := db.catalog.lookup(code, db.Now(), func() (*palaro.TicketType, *palaro.Event, error) {
		return readPurchaseTicketType(context.WithoutCancel(ctx), db, code)
	})
	if err != nil || counted {
		return tt, ev, err
	}
	// Orders changed the counters since the lookup was read: the committed ones, from the
	// writer's exact counts when it knows them, else read alone.
	if c, ok := db.stockCount(tt.ID); ok {
		tt.Sold, tt.Held = c.sold, c.held
		return tt, ev, nil
	}
	err = db.read.QueryRowContext(ctx, `SELECT sold, held FROM ticket_types WHERE id = ?`, tt.ID).Scan(&tt.Sold, &tt.Held)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, nil, palaro.Errorf(palaro.ENOTFOUND, "Ticket not found.")
	} else if err != nil {
		return nil, nil, err
	}
	return tt, ev, nil
}

// stockCount returns a ticket type's committed counts from the writer's memory, when known.
func (db *DB) stockCount(ticketTypeID int64) (stockCount, bool) {
	if db.stock == nil {
		return stockCount{}, false
	}
	return db.stock.count(ticketTypeID)
}

// readPurchaseTicketType reads what purchaseTicketType returns, in one read transaction.
func readPurchaseTicketType(ctx context.Context, db *DB, code string) (*palaro.TicketType, *palaro.Event, error) {
	notFound := palaro.Errorf(palaro.ENOTFOUND, "Ticket not found.")
	tx, err := db.beginRead(ctx)
	if err != nil {
		return nil, nil, err
	}
	defer tx.Rollback()
	tt, err := scanTicketType(tx.QueryRowContext(ctx, `SELECT `+ticketTypeColumns+` FROM ticket_types tt WHERE tt.code = ?
		AND tt.tournament_id IS NULL`, code)) // an entry fee is paid by registering a team
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
