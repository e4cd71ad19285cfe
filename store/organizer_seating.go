package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"palaro"
)

// BlockedSeats returns the labels of a ticket type's blocked seats.
func (s *OrganizerService) BlockedSeats(ctx context.Context, ticketTypeID int64) (_ []string, err error) {
	defer wrapErr(&err, "store: BlockedSeats(%d)", ticketTypeID)

	return queryStrings(ctx, s.db.read, `SELECT seat FROM seat_assignments WHERE ticket_type_id = ? AND blocked = 1 ORDER BY seat`, ticketTypeID)
}

// SetBlockedSeats blocks and unblocks seats of a seated ticket type, moving its capacity with them.
func (s *OrganizerService) SetBlockedSeats(ctx context.Context, eventID int64, ticketTypeCode, actor string, labels []string) (err error) {
	defer wrapErr(&err, "store: SetBlockedSeats(%d)", eventID)

	return s.db.inWrite(ctx, func(ctx context.Context, tx *sql.Tx) error {
		if _, err := eventOrg(ctx, tx, eventID); err != nil {
			return err
		}
		return s.setBlockedSeats(ctx, tx, eventID, ticketTypeCode, actor, labels)
	})
}

// setBlockedSeats is SetBlockedSeats inside the writer's unit tx.
func (s *OrganizerService) setBlockedSeats(ctx context.Context, tx *sql.Tx, eventID int64, ticketTypeCode, actor string, labels []string) error {
	tt, err := findTicketTypeTx(ctx, tx, eventID, ticketTypeCode)
	if err != nil {
		return err
	}
	if !tt.Seated {
		return palaro.Errorf(palaro.EINVALID, "This ticket type has no seat map.")
	}
	current, err := queryStrings(ctx, tx, `SELECT seat FROM seat_assignments WHERE ticket_type_id = ? AND blocked = 1`, tt.ID)
	if err != nil {
		return err
	}
	want := make([]string, 0, len(labels))
	for _, l := range labels {
		if l = strings.ToUpper(strings.TrimSpace(l)); l != "" && !slices.Contains(want, l) {
			want = append(want, l)
		}
	}
	var block, unblock []string
	for _, l := range want {
		if !slices.Contains(current, l) {
			block = append(block, l)
		}
	}
	for _, l := range current {
		if !slices.Contains(want, l) {
			unblock = append(unblock, l)
		}
	}
	if err := seatsFree(ctx, tx, tt.ID, block); err != nil {
		return &palaro.Error{Code: palaro.EINVALID, Message: "Only free seats can be blocked: " + palaro.ErrorMessage(err)}
	}
	capacity := tt.Capacity - len(block) + len(unblock)
	if err := palaro.CheckCapacity(capacity, tt.Sold, tt.Held); err != nil {
		return err
	}
	for _, l := range block {
		if _, err := tx.ExecContext(ctx, `INSERT INTO seat_assignments (ticket_type_id, seat, order_id, blocked) VALUES (?, ?, NULL, 1)`, tt.ID, l); err != nil {
			return err
		}
	}
	for _, l := range unblock {
		if _, err := tx.ExecContext(ctx, `DELETE FROM seat_assignments WHERE ticket_type_id = ? AND seat = ? AND blocked = 1`, tt.ID, l); err != nil {
			return err
		}
	}
	if _, err := tx.ExecContext(ctx, `UPDATE ticket_types SET capacity = ? WHERE id = ?`, capacity, tt.ID); err != nil {
		return err
	}
	if len(unblock) > 0 { // the seats set free go to the waiting list first
		if err := s.db.ticketsReturned(ctx, tx, s.db.Now()); err != nil {
			return err
		}
	}
	if len(block)+len(unblock) > 0 {
		if err := s.auditEvent(ctx, tx, eventID, actor, "seats of "+tt.Code+" blocked or unblocked",
			palaro.AuditDetail(map[string][]string{"blocked": block, "unblocked": unblock})); err != nil {
			return err
		}
	}
	return nil
}

// SetSeatPlan replaces a seated ticket type's layout, in the batching writer: seats leave and join
// the map, the blocked seats become the plan's, and the capacity becomes its number of sellable
// seats. A sold or held seat must stay on the map and for sale, and the capacity cannot go below
// sold plus held.
func (s *OrganizerService) SetSeatPlan(ctx context.Context, eventID int64, ticketTypeCode, actor string, p palaro.SeatPlan) (err error) {
	defer wrapErr(&err, "store: SetSeatPlan(%d)", eventID)

	p = p.Normalize()
	if err := p.Validate(); err != nil {
		return err
	}
	stored, _ := json.Marshal(palaro.SeatPlan{Rows: p.Rows, SeatsPerRow: p.SeatsPerRow, AisleAfter: append([]int{}, p.AisleAfter...),
		GapAfterRows: palaro.NonNilStrings(p.GapAfterRows), Blocked: []string{}, Sections: p.Sections})
	return s.db.inWrite(ctx, func(ctx context.Context, tx *sql.Tx) error {
		orgID, err := eventOrg(ctx, tx, eventID)
		if err != nil {
			return err
		}
		tt, err := findTicketTypeTx(ctx, tx, eventID, ticketTypeCode)
		if err != nil {
			return err
		}
		if !tt.Seated {
			return palaro.Errorf(palaro.EINVALID, "This ticket type has no seat map.")
		}
		taken, err := queryStrings(ctx, tx, `SELECT seat FROM seat_assignments WHERE ticket_type_id = ? AND blocked = 0 ORDER BY seat`, tt.ID)
		if err != nil {
			return err
		}
		for _, l := range taken {
			if !p.Has(l) {
				return palaro.Errorf(palaro.EINVALID, "Seat %s is sold or held, so it must stay on the seat map.", l)
			}
			if slices.Contains(p.Blocked, l) {
				return palaro.Errorf(palaro.EINVALID, "Seat %s is sold or held, so it cannot be blocked.", l)
			}
		}
		if err := palaro.CheckCapacity(p.Sellable(), tt.Sold, tt.Held); err != nil {
			return &palaro.Error{Code: palaro.EINVALID, Message: fmt.Sprintf("This seat map has %s for sale: %s",
				palaro.Plural(p.Sellable(), "seat", "seats"), palaro.ErrorMessage(err))}
		}
		current, err := queryStrings(ctx, tx, `SELECT label FROM seats WHERE ticket_type_id = ?`, tt.ID)
		if err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, `DELETE FROM seat_assignments WHERE ticket_type_id = ? AND blocked = 1`, tt.ID); err != nil {
			return err
		}
		for _, l := range current {
			if !p.Has(l) {
				if _, err := tx.ExecContext(ctx, `DELETE FROM seats WHERE ticket_type_id = ? AND label = ?`, tt.ID, l); err != nil {
					return err
				}
			}
		}
		index := map[string]int{} // the next row index of each section
		for _, row := range p.Seats() {
			i := index[row.Section]
			index[row.Section] = i + 1
			for _, seat := range row.Seats {
				if _, err := tx.ExecContext(ctx, `INSERT INTO seats (ticket_type_id, label, row_index, row_label, number, section)
					VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING`, tt.ID, seat.Label, i, seat.Row, seat.Number, row.Section); err != nil {
					return err
				}
			}
		}
		for _, l := range p.Blocked {
			if _, err := tx.ExecContext(ctx, `INSERT INTO seat_assignments (ticket_type_id, seat, order_id, blocked) VALUES (?, ?, NULL, 1)`, tt.ID, l); err != nil {
				return err
			}
		}
		if _, err := tx.ExecContext(ctx, `UPDATE ticket_types SET capacity = ?, seat_plan = ? WHERE id = ?`, p.Sellable(), string(stored), tt.ID); err != nil {
			return err
		}
		if p.Sellable() > tt.Capacity { // new seats go to the waiting list first
			if err := s.db.ticketsReturned(ctx, tx, s.db.Now()); err != nil {
				return err
			}
		}
		return audit(ctx, tx, orgID, eventID, actor, "seat map of "+tt.Code+" changed", palaro.AuditDetail(p), s.db.Now())
	})
}
