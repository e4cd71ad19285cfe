package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"

	"palaro"
)

// SeatService implements palaro.SeatService.
type SeatService struct {
	db *DB
}

// NewSeatService returns the seat service backed by db.
func NewSeatService(db *DB) *SeatService { return &SeatService{db: db} }

var _ palaro.SeatService = (*SeatService)(nil)

// SeatMap returns the rows of a ticket type's seats with their states.
func (s *SeatService) SeatMap(ctx context.Context, ticketTypeID int64) (_ []palaro.SeatRow, err error) {
	defer wrapErr(&err, "store: SeatMap(%d)", ticketTypeID)

	return seatMap(ctx, s.db.read, ticketTypeID)
}

// seatMap reads a ticket type's seats with their states with q (see SeatService.SeatMap): a seat
// held by a waiting-list offer is held, like one of a pending order.
func seatMap(ctx context.Context, q querier, ticketTypeID int64) ([]palaro.SeatRow, error) {
	return seatMapOn(ctx, q, ticketTypeID, nil)
}

// seatMapOn reads a ticket type's seats with their states on the given dates of a series (none:
// the event itself): a seat taken on any of them (or blocked) is taken, sold before held, so a
// pass, which keeps one seat on every date, is offered only the seats free on all its dates.
func seatMapOn(ctx context.Context, q querier, ticketTypeID int64, dateIDs []int64) ([]palaro.SeatRow, error) {
	out, err := seatStates(ctx, q, dateIDs, `s.ticket_type_id = ?`, ticketTypeID)
	if err == nil && len(out) == 0 {
		return nil, palaro.Errorf(palaro.ENOTFOUND, "This ticket has no seat map.")
	}
	return out, err
}

// seatStates reads the seats the condition on seats s picks, section by section and row by row,
// with their states on the given dates of a series (none: the event itself): a seat taken on any
// of them (or blocked) is taken, sold before held; a seat held by a waiting-list offer or a
// best-available hold is held, like one of a pending order.
func seatStates(ctx context.Context, q querier, dateIDs []int64, where string, whereArgs ...any) ([]palaro.SeatRow, error) {
	dates := seatDates(dateIDs)
	args := append(append([]any{}, dates...), whereArgs...)
	rows, err := q.QueryContext(ctx, `SELECT s.section, s.label, s.row_label, s.number,
		coalesce(max(CASE WHEN a.seat IS NULL THEN NULL WHEN a.offer_id IS NOT NULL OR a.hold_id IS NOT NULL THEN 'held'
			WHEN a.order_id IS NULL OR o.status = 'paid' THEN 'sold' ELSE 'held' END), 'available')
		FROM seats s
		LEFT JOIN seat_assignments a ON a.ticket_type_id = s.ticket_type_id AND a.seat = s.label
			AND a.date_id IN (`+placeholders(len(dates))+`)
		LEFT JOIN orders o ON o.id = a.order_id
		WHERE `+where+` GROUP BY s.section, s.label, s.row_label, s.number, s.row_index
		ORDER BY s.section, s.row_index, s.number`, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []palaro.SeatRow
	for rows.Next() {
		var seat palaro.Seat
		var section string
		if err := rows.Scan(&section, &seat.Label, &seat.Row, &seat.Number, &seat.Status); err != nil {
			return nil, err
		}
		if len(out) == 0 || out[len(out)-1].Row != seat.Row || out[len(out)-1].Section != section {
			out = append(out, palaro.SeatRow{Section: section, Row: seat.Row})
		}
		out[len(out)-1].Seats = append(out[len(out)-1].Seats, seat)
	}
	return out, rows.Err()
}

// CheckSeats checks that every label is a free seat of the ticket type, as of now.
func (s *SeatService) CheckSeats(ctx context.Context, ticketTypeID int64, labels []string) (err error) {
	defer wrapErr(&err, "store: CheckSeats(%d)", ticketTypeID)

	return seatsFree(ctx, s.db.read, ticketTypeID, labels)
}

// SeatMapOn returns the rows of a ticket type's seats with their states on the given dates.
func (s *SeatService) SeatMapOn(ctx context.Context, ticketTypeID int64, dateIDs []int64) (_ []palaro.SeatRow, err error) {
	defer wrapErr(&err, "store: SeatMapOn(%d, %v)", ticketTypeID, dateIDs)

	return seatMapOn(ctx, s.db.read, ticketTypeID, dateIDs)
}

// CheckSeatsOn checks that every label is a seat of the ticket type free on the given dates.
func (s *SeatService) CheckSeatsOn(ctx context.Context, ticketTypeID int64, dateIDs []int64, labels []string) (err error) {
	defer wrapErr(&err, "store: CheckSeatsOn(%d, %v)", ticketTypeID, dateIDs)

	return seatsFreeOn(ctx, s.db.read, ticketTypeID, dateIDs, labels)
}

// seatsFree returns UnknownSeatsError for labels that are not seats of the ticket type, else
// SeatsTakenError for seats someone holds or owns, else nil.
func seatsFree(ctx context.Context, q querier, ticketTypeID int64, labels []string) error {
	return seatsFreeOn(ctx, q, ticketTypeID, nil, labels)
}

// seatDates are the seat_assignments date ids a seat is looked up on: 0 (the event itself, and
// seats blocked on every date) and the given dates of a series.
func seatDates(dateIDs []int64) []any {
	dates := []any{int64(0)}
	for _, id := range dateIDs {
		dates = append(dates, id)
	}
	return dates
}

// seatsFreeOn is seatsFree on the given dates of a series (none: the event itself): a seat taken
// on any of them, or blocked, is taken.
func seatsFreeOn(ctx context.Context, q querier, ticketTypeID int64, dateIDs []int64, labels []string) error {
	if len(labels) == 0 {
		return nil
	}
	args := make([]any, 0, len(labels)+1)
	args = append(args, ticketTypeID)
	for _, l := range labels {
		args = append(args, l)
	}
	in := strings.TrimSuffix(strings.Repeat("?,", len(labels)), ",")
	known, err := queryStrings(ctx, q, `SELECT label FROM seats WHERE ticket_type_id = ? AND label IN (`+in+`)`, args...)
	if err != nil {
		return err
	}
	if unknown := without(labels, known); len(unknown) > 0 {
		return palaro.UnknownSeatsError(unknown)
	}
	dates := seatDates(dateIDs)
	taken, err := queryStrings(ctx, q, `SELECT DISTINCT seat FROM seat_assignments WHERE ticket_type_id = ? AND seat IN (`+in+`)
		AND date_id IN (`+placeholders(len(dates))+`)`, append(args, dates...)...)
	if err != nil {
		return err
	}
	if len(taken) > 0 {
		return palaro.SeatsTakenError(without(labels, without(labels, taken))) // in the buyer's order
	}
	return nil
}

// takeSeats gives an order its seats inside the caller's write transaction. The check gives the
// buyer a clear message; the primary key of seat_assignments is what guarantees that a seat goes
// to one order only, whatever the check said.
func takeSeats(ctx context.Context, tx *sql.Tx, ticketTypeID, orderID int64, labels []string) error {
	return takeSeatsOn(ctx, tx, ticketTypeID, nil, orderID, labels)
}

// takeSeatsOn is takeSeats on the given dates of a series (none: the event itself): the order
// gets each seat on every one of them (a pass keeps its seat on every date), under the primary
// key (ticket_type_id, date_id, seat).
func takeSeatsOn(ctx context.Context, tx *sql.Tx, ticketTypeID int64, dateIDs []int64, orderID int64, labels []string) error {
	if err := seatsFreeOn(ctx, tx, ticketTypeID, dateIDs, labels); err != nil {
		return err
	}
	on := []int64{0}
	if len(dateIDs) > 0 {
		on = dateIDs
	}
	for _, l := range labels {
		for _, d := range on {
			_, err := tx.ExecContext(ctx, `INSERT INTO seat_assignments (ticket_type_id, date_id, seat, order_id) VALUES (?, ?, ?, ?)`,
				ticketTypeID, d, l, orderID)
			if isUniqueViolation(err) {
				return palaro.SeatsTakenError([]string{l})
			} else if err != nil {
				return err
			}
		}
	}
	return nil
}

// releaseSeats gives back the seats of an order that will not be paid.
func releaseSeats(ctx context.Context, tx *sql.Tx, orderID int64) error {
	_, err := tx.ExecContext(ctx, `DELETE FROM seat_assignments WHERE order_id = ?`, orderID)
	return err
}

// ensureSeatLayouts gives every seated ticket type without seats its generated layout
// (palaro.SeatLayout of its capacity); a pass has none (its seats are its day type's). The seats of its pending and paid orders are assigned to
// them; the rest of its sold tickets (sold before seats existed, or outside the app) take
// scattered seats, the same ones on every run for a ticket type.
func ensureSeatLayouts(ctx context.Context, tx *sql.Tx) error {
	type pending struct {
		id             int64
		capacity, sold int
	}
	rows, err := tx.QueryContext(ctx, `SELECT id, capacity, sold FROM ticket_types tt
		WHERE seated = 1 AND pass_kind = '' AND NOT EXISTS (SELECT 1 FROM seats s WHERE s.ticket_type_id = tt.id)`)
	if err != nil {
		return err
	}
	var types []pending
	for rows.Next() {
		var p pending
		if err := rows.Scan(&p.id, &p.capacity, &p.sold); err != nil {
			rows.Close()
			return err
		}
		types = append(types, p)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return err
	}
	for _, tt := range types {
		var free []string
		for i, row := range palaro.SeatLayout(tt.capacity) {
			for _, seat := range row.Seats {
				if _, err := tx.ExecContext(ctx, `INSERT INTO seats (ticket_type_id, label, row_index, row_label, number)
					VALUES (?, ?, ?, ?, ?)`, tt.id, seat.Label, i, seat.Row, seat.Number); err != nil {
					return err
				}
				free = append(free, seat.Label)
			}
		}
		if err := assignOrderedSeats(ctx, tx, tt.id); err != nil {
			return err
		}
		var paid int
		if err := tx.QueryRowContext(ctx, `SELECT COUNT(*) FROM seat_assignments a JOIN orders o ON o.id = a.order_id
			WHERE a.ticket_type_id = ? AND o.status = 'paid'`, tt.id).Scan(&paid); err != nil {
			return err
		}
		taken, err := queryStrings(ctx, tx, `SELECT seat FROM seat_assignments WHERE ticket_type_id = ?`, tt.id)
		if err != nil {
			return err
		}
		free = without(free, taken)
		rand.New(rand.NewPCG(uint64(tt.id), 0x5ea7)).Shuffle(len(free), func(i, j int) { free[i], free[j] = free[j], free[i] })
		for _, l := range free[:min(max(tt.sold-paid, 0), len(free))] {
			if _, err := tx.ExecContext(ctx, `INSERT INTO seat_assignments (ticket_type_id, seat, order_id) VALUES (?, ?, NULL)`,
				tt.id, l); err != nil {
				return err
			}
		}
	}
	return nil
}

// assignOrderedSeats gives the pending and paid orders of a ticket type that has just been laid
// out the seats they name (orders.seats, a JSON list), where those seats exist and are free.
func assignOrderedSeats(ctx context.Context, tx *sql.Tx, ticketTypeID int64) error {
	rows, err := tx.QueryContext(ctx, `SELECT id, seats FROM orders WHERE ticket_type_id = ? AND kind = 'tickets'
		AND status IN ('pending', 'paid') AND seats != '[]' ORDER BY id`, ticketTypeID)
	if err != nil {
		return err
	}
	type ordered struct {
		order int64
		seat  string
	}
	var all []ordered
	for rows.Next() {
		var id int64
		var list string
		if err := rows.Scan(&id, &list); err != nil {
			rows.Close()
			return err
		}
		var labels []string
		if json.Unmarshal([]byte(list), &labels) == nil {
			for _, l := range labels {
				all = append(all, ordered{id, strings.ToUpper(l)})
			}
		}
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return err
	}
	for _, o := range all {
		if _, err := tx.ExecContext(ctx, `INSERT INTO seat_assignments (ticket_type_id, seat, order_id)
			SELECT ticket_type_id, label, ? FROM seats WHERE ticket_type_id = ? AND label = ? ON CONFLICT DO NOTHING`,
			o.order, ticketTypeID, o.seat); err != nil {
			return err
		}
	}
	return nil
}

// without returns the items of all that are not in drop, in their order.
func without(all, drop []string) []string {
	var out []string
	for _, s := range all {
		if !slices.Contains(drop, s) {
			out = append(out, s)
		}
	}
	return out
}

// SeatPlan returns the layout of a seated ticket type: its stored plan, or the plan its generated
// seats form, with its blocked seats.
func (s *SeatService) SeatPlan(ctx context.Context, ticketTypeID int64) (_ palaro.SeatPlan, err error) {
	defer wrapErr(&err, "store: SeatPlan(%d)", ticketTypeID)

	return seatPlan(ctx, s.db.read, ticketTypeID)
}

// seatPlan reads a ticket type's seat plan (see SeatService.SeatPlan) with q.
func seatPlan(ctx context.Context, q querier, ticketTypeID int64) (palaro.SeatPlan, error) {
	var stored string
	var seated bool
	err := q.QueryRowContext(ctx, `SELECT seat_plan, seated FROM ticket_types WHERE id = ?`, ticketTypeID).Scan(&stored, &seated)
	if errors.Is(err, sql.ErrNoRows) || (err == nil && !seated) {
		return palaro.SeatPlan{}, palaro.Errorf(palaro.ENOTFOUND, "This ticket has no seat map.")
	} else if err != nil {
		return palaro.SeatPlan{}, err
	}
	blocked, err := queryStrings(ctx, q, `SELECT seat FROM seat_assignments WHERE ticket_type_id = ? AND blocked = 1`, ticketTypeID)
	if err != nil {
		return palaro.SeatPlan{}, err
	}
	if stored != "" {
		var p palaro.SeatPlan
		if err := json.Unmarshal([]byte(stored), &p); err != nil {
			return palaro.SeatPlan{}, fmt.Errorf("seat plan of ticket type %d: %w", ticketTypeID, err)
		}
		p.Blocked = blocked
		return p.Normalize(), nil
	}
	rows, err := seatRows(ctx, q, ticketTypeID)
	if err != nil {
		return palaro.SeatPlan{}, err
	}
	if len(rows) == 0 {
		return palaro.SeatPlan{}, palaro.Errorf(palaro.ENOTFOUND, "This ticket has no seat map.")
	}
	return palaro.PlanOfSeats(rows, blocked), nil
}

// seatRows returns a ticket type's seats, row by row, without their states.
func seatRows(ctx context.Context, q querier, ticketTypeID int64) ([]palaro.SeatRow, error) {
	rows, err := seatStates(ctx, q, nil, `s.ticket_type_id = ?`, ticketTypeID)
	for _, r := range rows {
		for i := range r.Seats {
			r.Seats[i].Status = palaro.SeatAvailable
		}
	}
	return rows, err
}
