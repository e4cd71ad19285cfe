package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"strings"
	"time"

	"palaro"
)

var _ palaro.SeatAreaService = (*SeatService)(nil)

// SectionCounts returns the seats and free seats of each section of a ticket type's plan on the
// given dates of a series (none: the event itself; a seat taken on any of them, or blocked, is
// taken), in the plan's order (one unnamed section for a plan without sections). It reads one row
// per taken seat of the type there, never the seats themselves.
func (s *SeatService) SectionCounts(ctx context.Context, ticketTypeID int64, dateIDs []int64) (_ []palaro.SectionCount, err error) {
	defer wrapErr(&err, "store: SectionCounts(%d, %v)", ticketTypeID, dateIDs)

	plan, err := seatPlan(ctx, s.db.read, ticketTypeID)
	if err != nil {
		return nil, err
	}
	dates := seatDates(dateIDs)
	rows, err := s.db.read.QueryContext(ctx, `SELECT s.section, COUNT(DISTINCT a.seat) FROM seat_assignments a
		JOIN seats s ON s.ticket_type_id = a.ticket_type_id AND s.label = a.seat
		WHERE a.ticket_type_id = ? AND a.date_id IN (`+placeholders(len(dates))+`) GROUP BY s.section`,
		append([]any{ticketTypeID}, dates...)...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	taken := map[string]int{}
	for rows.Next() {
		var section string
		var n int
		if err := rows.Scan(&section, &n); err != nil {
			return nil, err
		}
		taken[section] = n
	}
	if err := rows.Err(); err != nil {
		return nil, err
	}
	var out []palaro.SectionCount
	for _, g := range plan.Grids() {
		out = append(out, palaro.SectionCount{Section: g.Name, Seats: g.Seats(), Free: max(g.Seats()-taken[g.Name], 0)})
	}
	return out, nil
}

// SectionSeats returns one section's rows with their seats' states on the given dates of a series
// (none: the event itself).
func (s *SeatService) SectionSeats(ctx context.Context, ticketTypeID int64, dateIDs []int64, section string) (_ []palaro.SeatRow, err error) {
	defer wrapErr(&err, "store: SectionSeats(%d, %v, %s)", ticketTypeID, dateIDs, section)

	rows, err := seatStates(ctx, s.db.read, dateIDs, `s.ticket_type_id = ? AND s.section = ?`, ticketTypeID, section)
	if err == nil && len(rows) == 0 {
		return nil, palaro.Errorf(palaro.ENOTFOUND, "This seat map has no section %s.", section)
	}
	return rows, err
}

// HoldBestSeats chooses the best free seats (palaro.BestSeats) on the request's date and holds
// them there, in one unit of the batching writer: under the ticket type's row lock (PostgreSQL;
// SQLite has one writer) it checks the date against the event's (a series' day ticket needs one
// of its dates: a hold on date 0 would hold the seats on every date), ends the type's expired
// holds and the buyer's Replace hold, reads the seats taken on the date (or blocked), chooses,
// and inserts the hold's seat_assignments rows on the date, whose primary key is what guarantees
// that no seat goes to two buyers on a date whatever was read.
func (s *SeatService) HoldBestSeats(ctx context.Context, req palaro.BestSeatsRequest, now time.Time) (_ *palaro.SeatHold, err error) {
	defer wrapErr(&err, "store: HoldBestSeats(%d, %d)", req.TicketTypeID, req.DateID)

	req.Section = strings.ToUpper(strings.TrimSpace(req.Section))
	var hold *palaro.SeatHold
	err = s.db.inWrite(ctx, func(ctx context.Context, tx *sql.Tx) error {
		hold = nil
		if err := s.db.lockRow(ctx, tx, "ticket_types", req.TicketTypeID); err != nil {
			return err
		}
		var name string
		var limit int
		var eventID int64
		err := tx.QueryRowContext(ctx, `SELECT name, max_purchasable, event_id FROM ticket_types WHERE id = ?`,
			req.TicketTypeID).Scan(&name, &limit, &eventID)
		if errors.Is(err, sql.ErrNoRows) {
			return palaro.Errorf(palaro.ENOTFOUND, "This ticket does not exist.")
		} else if err != nil {
			return err
		}
		if req.Quantity < 1 || req.Quantity > min(max(limit, 1), palaro.MaxSeatsPerRequest) {
			return &palaro.Error{Code: palaro.EINVALID, Message: palaro.MaxTicketsMessage(min(max(limit, 1), palaro.MaxSeatsPerRequest)),
				Fields: map[string]string{palaro.FieldQuantity: "Please choose 1 to " + palaro.Plural(min(max(limit, 1), palaro.MaxSeatsPerRequest), "seat", "seats") + "."}}
		}
		if err := endSeatHolds(ctx, tx, `ticket_type_id = ? AND expires_at <= ?`, req.TicketTypeID, formatTime(now)); err != nil {
			return err
		}
		if req.Replace != "" {
			if err := endSeatHolds(ctx, tx, `ticket_type_id = ? AND public_id = ?`, req.TicketTypeID, req.Replace); err != nil {
				return err
			}
		}
		plan, err := seatPlan(ctx, tx, req.TicketTypeID)
		if err != nil {
			return err
		}
		if req.Section != "" {
			if _, ok := plan.Section(req.Section); !ok {
				return &palaro.Error{Code: palaro.EINVALID, Message: "This seat map has no section " + req.Section + ".",
					Fields: map[string]string{"section": "This seat map has no section " + req.Section + "."}}
			}
		}
		if err := checkSeatDate(ctx, tx, eventID, req.DateID); err != nil {
			return err
		}
		dates := seatDates(dateIDsOf(req.DateID))
		q, args := `SELECT seat FROM seat_assignments WHERE ticket_type_id = ? AND date_id IN (`+placeholders(len(dates))+`)`,
			append([]any{req.TicketTypeID}, dates...)
		if req.Section != "" {
			q, args = q+` AND seat LIKE ?`, append(args, req.Section+"-%")
		}
		taken, err := queryStrings(ctx, tx, q, args...)
		if err != nil {
			return err
		}
		takenSet := make(map[string]bool, len(taken))
		for _, l := range taken {
			takenSet[l] = true
		}
		seats := palaro.BestSeats(plan, takenSet, req.Quantity, req.Section, req.AcrossAisle)
		if seats == nil {
			return palaro.NoBestSeatsError(name, req.Quantity, req.AcrossAisle)
		}
		list, _ := json.Marshal(seats)
		h := &palaro.SeatHold{ID: newPublicID(), TicketTypeID: req.TicketTypeID, DateID: req.DateID, Seats: seats,
			ExpiresAt: now.Add(palaro.SeatHoldTime)}
		id, err := insertID(ctx, tx, `INSERT INTO seat_holds (public_id, ticket_type_id, date_id, seats, expires_at, created_at)
			VALUES (?, ?, ?, ?, ?, ?)`, h.ID, h.TicketTypeID, h.DateID, string(list), formatTime(h.ExpiresAt), formatTime(now))
		if err != nil {
			return err
		}
		args = args[:0]
		for _, l := range seats {
			args = append(args, req.TicketTypeID, req.DateID, l, id)
		}
		_, err = tx.ExecContext(ctx, `INSERT INTO seat_assignments (ticket_type_id, date_id, seat, order_id, hold_id) VALUES `+
			valuesList(len(seats), "(?, ?, ?, NULL, ?)"), args...)
		if isUniqueViolation(err) {
			return palaro.SeatsTakenError(seats)
		} else if err != nil {
			return err
		}
		hold = h
		return nil
	})
	return hold, err
}

// HeldSeats returns the seats a hold of the ticket type on the date (a date of a series; 0: the
// event itself) still holds, nil for an unknown one, one of another date or one whose seats were
// given back. A hold past its end keeps its seats until the job loop gives them back
// (ExpireHolds), and until then they are still its buyer's: CreateOrder ends the buyer's hold on
// the order's date, whatever its time, before it takes the seats.
func (s *SeatService) HeldSeats(ctx context.Context, ticketTypeID, dateID int64, holdID string) (_ []string, err error) {
	defer wrapErr(&err, "store: HeldSeats(%d, %d)", ticketTypeID, dateID)

	if holdID == "" {
		return nil, nil
	}
	var list string
	err = s.db.read.QueryRowContext(ctx, `SELECT seats FROM seat_holds WHERE public_id = ? AND ticket_type_id = ? AND date_id = ?`,
		holdID, ticketTypeID, dateID).Scan(&list)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, nil
	} else if err != nil {
		return nil, err
	}
	var seats []string
	return seats, json.Unmarshal([]byte(list), &seats)
}

// endSeatHolds gives back the seats of the best-available holds the condition on seat_holds
// picks and deletes them.
func endSeatHolds(ctx context.Context, tx *sql.Tx, where string, args ...any) error {
	if _, err := tx.ExecContext(ctx, `DELETE FROM seat_assignments WHERE hold_id IN (SELECT id FROM seat_holds WHERE `+where+`)`,
		args...); err != nil {
		return err
	}
	_, err := tx.ExecContext(ctx, `DELETE FROM seat_holds WHERE `+where, args...)
	return err
}

// dateIDsOf is the dates a hold on dateID looks its seats up on (seatDates): none for date 0,
// the event itself.
func dateIDsOf(dateID int64) []int64 {
	if dateID == 0 {
		return nil
	}
	return []int64{dateID}
}

// checkSeatDate checks a best-available hold's date against the event's dates: a series needs one
// of them (date 0 would hold the seats on every date), a single-date event none. Refusals are
// field errors naming the date, as the buy body's (planDates).
func checkSeatDate(ctx context.Context, q querier, eventID, dateID int64) error {
	var dates, match int
	if err := q.QueryRowContext(ctx, `SELECT COUNT(*), COUNT(CASE WHEN id = ? THEN 1 END) FROM event_dates WHERE event_id = ?`,
		dateID, eventID).Scan(&dates, &match); err != nil {
		return err
	}
	switch {
	case dates == 0 && dateID != 0:
		return dateFieldError(palaro.MsgDateNotForSingle)
	case dates > 0 && dateID == 0:
		return dateFieldError(palaro.MsgDateRequired)
	case dates > 0 && match == 0:
		return dateFieldError(palaro.MsgDateUnknown)
	}
	return nil
}
