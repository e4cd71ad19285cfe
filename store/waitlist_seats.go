package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"slices"

	"palaro"
)

// offerSeats returns the seats an offer of quantity tickets of a ticket type holds, inside tx, on a
// date of its series (dateID; 0 for the event itself): none for an unseated type (naming seats is
// EINVALID then), the named seats when they are free (their count is the quantity), else those
// palaro.PickSeats chooses among the free seats (ECONFLICT when fewer than quantity are free).
func offerSeats(ctx context.Context, tx *sql.Tx, typeID, dateID int64, quantity int, named []string) ([]string, error) {
	var on []int64
	if dateID != 0 {
		on = []int64{dateID}
	}
	var seated bool
	if err := tx.QueryRowContext(ctx, `SELECT seated FROM ticket_types WHERE id = ?`, typeID).Scan(&seated); err != nil {
		return nil, err
	}
	switch {
	case !seated && len(named) > 0:
		return nil, palaro.Errorf(palaro.EINVALID, "This ticket type has no seat map: offer a number of tickets.")
	case !seated:
		return nil, nil
	case len(named) > 0:
		if len(named) != quantity {
			return nil, palaro.Errorf(palaro.EINVALID, "Name %s.", seatCount(quantity))
		}
		if err := seatsFreeOn(ctx, tx, typeID, on, named); err != nil {
			return nil, err
		}
		return named, nil
	}
	rows, err := seatMapOn(ctx, tx, typeID, on)
	if err != nil {
		return nil, err
	}
	plan, err := seatPlan(ctx, tx, typeID)
	if err != nil {
		return nil, err
	}
	picked := palaro.PickSeats(rows, plan.AisleAfter, quantity)
	if picked == nil {
		return nil, palaro.Errorf(palaro.ECONFLICT, "Fewer than %s are free to offer.", seatCount(quantity))
	}
	return picked, nil
}

func seatCount(n int) string {
	if n == 1 {
		return "1 seat"
	}
	return fmt.Sprintf("%d seats", n)
}

// holdSeats gives an offer its seats (on its date of a series, dateID; 0 for the event itself):
// rows of seat_assignments with the offer and no order, so that no order can take them (their
// primary key) until the offer is claimed or expires.
func holdSeats(ctx context.Context, tx *sql.Tx, typeID, dateID, offerID int64, seats []string) error {
	for _, l := range seats {
		res, err := tx.ExecContext(ctx, `INSERT INTO seat_assignments (ticket_type_id, date_id, seat, order_id, offer_id)
			VALUES (?, ?, ?, NULL, ?) ON CONFLICT DO NOTHING`, typeID, dateID, l, offerID)
		if err != nil {
			return err
		}
		if n, err := res.RowsAffected(); err != nil {
			return err
		} else if n == 0 {
			return fmt.Errorf("seat %s of ticket type %d was taken while offer %d held the type's row", l, typeID, offerID)
		}
	}
	return nil
}

// releaseOfferSeats gives back the seats an offer held (it expired, or its order takes them).
func releaseOfferSeats(ctx context.Context, tx *sql.Tx, offerID int64) error {
	_, err := tx.ExecContext(ctx, `DELETE FROM seat_assignments WHERE offer_id = ?`, offerID)
	return err
}

// seatsJSON is the stored form of an offer's seats (waitlist_offers.seats).
func seatsJSON(seats []string) string {
	b, _ := json.Marshal(palaro.NonNilStrings(seats))
	return string(b)
}

// parseSeatList reads waitlist_offers.seats; nil for none.
func parseSeatList(stored string) []string {
	var seats []string
	if json.Unmarshal([]byte(stored), &seats) != nil || len(seats) == 0 {
		return nil
	}
	return seats
}

// sameSeats reports whether two lists name the same seats, in any order.
func sameSeats(a, b []string) bool {
	return len(a) == len(b) && slices.Equal(slices.Sorted(slices.Values(a)), slices.Sorted(slices.Values(b)))
}
