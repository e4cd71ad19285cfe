package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"palaro"
)

// holderStatuses are the ticket statuses whose holders are told of a change of their event.
const holderStatuses = `('` + palaro.TicketValid + `', '` + palaro.TicketCheckedIn + `')`

// recordEventChange, inside the unit that changed event ev (before is the event as it was), raises
// the event's iCalendar SEQUENCE, stores the change and queues one e-mail per address that holds a
// valid or checked-in ticket of the event: a small row naming the change, composed when it is sent
// (composeEventChangeMessages). The dedupe key (change, address) makes it once per holder per change.
func recordEventChange(ctx context.Context, tx *sql.Tx, ev, before *palaro.Event, kind string, now time.Time) error {
	if _, err := tx.ExecContext(ctx, `UPDATE events SET sequence = sequence + 1 WHERE id = ?`, ev.ID); err != nil {
		return fmt.Errorf("store: event change (%s): %w", ev.Code, err)
	}
	old, cur := palaro.ScheduleOf(before), palaro.ScheduleOf(ev)
	at := formatTime(now)
	changeID, err := insertID(ctx, tx, `INSERT INTO event_changes (event_id, kind, sequence, old_starts_at, old_ends_at, old_venue,
		starts_at, ends_at, venue, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`, ev.ID, kind, ev.Sequence+1,
		formatTime(old.StartsAt), formatTime(old.EndsAt), old.Venue, formatTime(cur.StartsAt), formatTime(cur.EndsAt), cur.Venue, at)
	if err != nil {
		return fmt.Errorf("store: event change (%s): %w", ev.Code, err)
	}
	_, err = tx.ExecContext(ctx, `INSERT INTO outbox (channel, kind, recipient, subject, body_text, body_html, dedupe_key,
		event_change_id, next_attempt_at, created_at)
		SELECT DISTINCT ?, ?, t.email, '', '', '', CAST(? AS TEXT) || t.email, CAST(? AS BIGINT), ?, ? FROM tickets t
		WHERE t.event_id = ? AND t.status IN `+holderStatuses+`
		ON CONFLICT (dedupe_key) DO NOTHING`, palaro.ChannelEmail, palaro.MessageEventChanged,
		"event-change:"+strconv.FormatInt(changeID, 10)+":", changeID, at, at, ev.ID)
	if err != nil {
		return fmt.Errorf("store: event change e-mails (%s): %w", ev.Code, err)
	}
	return nil
}

// holderTickets returns the valid and checked-in tickets the address email holds for the event.
func holderTickets(ctx context.Context, q querier, refs *refCache, email string, eventID int64) ([]*palaro.Ticket, error) {
	return queryTickets(ctx, q, refs, `t.email = ? AND t.event_id = ? AND t.status IN `+holderStatuses+` ORDER BY t.id`, email, eventID)
}

// composeEventChangeMessages composes, in place, the e-mails of msgs whose rows name an event
// change and carry no body yet, from the change and the holder's tickets as they are now, read in
// one read transaction. A message whose change no longer exists is named in gone.
func (s *OutboxService) composeEventChangeMessages(ctx context.Context, rows []outboxRow, msgs []palaro.OutboxMessage) (gone []int64, err error) {
	var ids []any
	for _, r := range rows {
		if r.eventChangeID.Valid && r.Text == "" && r.HTML == "" {
			ids = append(ids, r.eventChangeID.Int64)
		}
	}
	if len(ids) == 0 {
		return nil, nil
	}
	composer, ok := s.db.composer.(palaro.EventChangeComposer)
	if !ok {
		return nil, fmt.Errorf("outbox: no composer for event change e-mails")
	}
	tx, err := s.db.beginRead(ctx)
	if err != nil {
		return nil, err
	}
	defer tx.Rollback()
	changes := map[int64]palaro.EventChange{}
	eventOf := map[int64]int64{}
	q, err := tx.QueryContext(ctx, `SELECT id, event_id, kind, sequence, old_starts_at, old_ends_at, old_venue, starts_at,
		ends_at, venue, created_at FROM event_changes WHERE id IN (?`+strings.Repeat(", ?", len(ids)-1)+`)`, ids...)
	if err != nil {
		return nil, fmt.Errorf("outbox: event changes: %w", err)
	}
	for q.Next() {
		var c palaro.EventChange
		var eventID int64
		var times [5]sql.NullString
		if err := q.Scan(&c.ID, &eventID, &c.Kind, &c.Sequence, &times[0], &times[1], &c.Old.Venue, &times[2], &times[3],
			&c.New.Venue, &times[4]); err != nil {
			q.Close()
			return nil, err
		}
		for i, dst := range []*time.Time{&c.Old.StartsAt, &c.Old.EndsAt, &c.New.StartsAt, &c.New.EndsAt, &c.CreatedAt} {
			if *dst, err = parseTime(times[i]); err != nil {
				q.Close()
				return nil, err
			}
		}
		c.New.Status = c.Kind
		changes[c.ID], eventOf[c.ID] = c, eventID
	}
	q.Close()
	if err := q.Err(); err != nil {
		return nil, err
	}
	events := map[int64]*palaro.Event{}
	refs := newRefCache()
	for i, r := range rows {
		if !r.eventChangeID.Valid || r.Text != "" || r.HTML != "" {
			continue
		}
		c, ok := changes[r.eventChangeID.Int64]
		if !ok {
			gone = append(gone, r.ID)
			continue
		}
		eventID := eventOf[c.ID]
		ev := events[eventID]
		if ev == nil {
			ev, err = scanEvent(tx.QueryRowContext(ctx, `SELECT `+eventColumns+` `+eventJoins+` WHERE e.id = ?`, eventID))
			if errors.Is(err, sql.ErrNoRows) {
				gone = append(gone, r.ID)
				continue
			} else if err != nil {
				return nil, err
			}
			events[eventID] = ev
		}
		tickets, err := holderTickets(ctx, tx, refs, r.To, eventID)
		if err != nil {
			return nil, err
		}
		msgs[i].Message = composer.EventChanged(c, ev, r.To, tickets)
	}
	return gone, nil
}
