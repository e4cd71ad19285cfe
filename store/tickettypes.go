package store

import (
	"context"
	"database/sql"
	"errors"

	"palaro"
)

// FindTicketType returns a ticket type of a public event, with the event (required fields,
// survey) and its add-ons. Returns ENOTFOUND when the code is unknown or its event is not public.
func (s *EventService) FindTicketType(ctx context.Context, code string) (_ *palaro.TicketType, _ *palaro.Event, err error) {
	defer wrapErr(&err, "store: FindTicketType(%q)", code)

	notFound := palaro.Errorf(palaro.ENOTFOUND, "Ticket not found.")
	if !palaro.ValidCode(code) {
		return nil, nil, notFound
	}
	var eventCode string
	err = s.db.read.QueryRowContext(ctx, `SELECT e.code FROM ticket_types tt JOIN events e ON e.id = tt.event_id WHERE tt.code = ?`, code).Scan(&eventCode)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, nil, notFound
	} else if err != nil {
		return nil, nil, err
	}
	ev, err := s.FindEventByCode(ctx, eventCode)
	if palaro.ErrorCode(err) == palaro.ENOTFOUND {
		return nil, nil, notFound
	} else if err != nil {
		return nil, nil, err
	}
	for i := range ev.TicketTypes {
		if ev.TicketTypes[i].Code == code {
			tt := ev.TicketTypes[i]
			return &tt, ev, nil
		}
	}
	return nil, nil, notFound
}
