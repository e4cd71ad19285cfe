package store

import (
	"context"
	"slices"
	"strings"

	"palaro"
)

// BlockedSeats returns the labels of a ticket type's blocked seats.
func (s *OrganizerService) BlockedSeats(ctx context.Context, ticketTypeID int64) ([]string, error) {
	return queryStrings(ctx, s.db.read, `SELECT seat FROM seat_assignments WHERE ticket_type_id = ? AND blocked = 1 ORDER BY seat`, ticketTypeID)
}

// SetBlockedSeats blocks and unblocks seats of a seated ticket type, moving its capacity with them.
func (s *OrganizerService) SetBlockedSeats(ctx context.Context, eventID int64, ticketTypeCode, actor string, labels []string) error {
	tx, _, err := s.beginEventWrite(ctx, eventID)
	if err != nil {
		return err
	}
	defer tx.Rollback()
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
	if len(block)+len(unblock) > 0 {
		if err := s.auditEvent(ctx, tx, eventID, actor, "seats of "+tt.Code+" blocked or unblocked",
			palaro.AuditDetail(map[string][]string{"blocked": block, "unblocked": unblock})); err != nil {
			return err
		}
	}
	return tx.Commit()
}
