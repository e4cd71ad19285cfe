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

// changeScope is what a change concerns: an event, or one date of its series (date non-nil).
type changeScope struct {
	ev   *palaro.Event
	date *palaro.EventDate
}

// holders is the SQL condition (on tickets t) of the tickets whose holders are told of a change
// of the scope, with its arguments: the event's valid and checked-in tickets; for a date, of
// those, its day tickets, the passes holding a place on it (pass_uses) and the passes for some
// dates with dates left to pick.
func (sc changeScope) holders() (string, []any) {
	if sc.date == nil {
		return `t.event_id = ? AND t.status IN ` + holderStatuses, []any{sc.ev.ID}
	}
	return `t.event_id = ? AND t.status IN ` + holderStatuses + ` AND (t.date_id = ?
		OR EXISTS (SELECT 1 FROM pass_uses u WHERE u.ticket_id = t.id AND u.date_id = ?)
		OR EXISTS (SELECT 1 FROM ticket_types x WHERE x.id = t.ticket_type_id AND x.pass_kind = 'count'
			AND x.pass_dates > (SELECT count(*) FROM pass_uses u WHERE u.ticket_id = t.id)))`,
		[]any{sc.ev.ID, sc.date.ID, sc.date.ID}
}

// recordEventChange, inside the unit that changed the scope from schedule old to cur, raises its
// iCalendar SEQUENCE (the event's, or the date's), stores the change and queues one e-mail per
// address that holds a ticket concerned (changeScope.holders): a small row naming the change,
// composed when it is sent (composeEventChangeMessages). The dedupe key (change, address) makes
// it once per holder per change.
func recordEventChange(ctx context.Context, tx *sql.Tx, sc changeScope, old, cur palaro.EventSchedule, kind string, now time.Time) error {
	key, raise, sequence, dateID := sc.ev.Code, `UPDATE events SET sequence = sequence + 1 WHERE id = ?`, sc.ev.Sequence+1, any(nil)
	raiseID := sc.ev.ID
	if sc.date != nil {
		key += "/" + sc.date.Slug
		raise, sequence, dateID, raiseID = `UPDATE event_dates SET sequence = sequence + 1 WHERE id = ?`, sc.date.Sequence+1, sc.date.ID, sc.date.ID
	}
	if _, err := tx.ExecContext(ctx, raise, raiseID); err != nil {
		return fmt.Errorf("store: event change (%s): %w", key, err)
	}
	at := formatTime(now)
	changeID, err := insertID(ctx, tx, `INSERT INTO event_changes (event_id, date_id, kind, sequence, old_starts_at, old_ends_at,
		old_venue, starts_at, ends_at, venue, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`, sc.ev.ID, dateID, kind, sequence,
		formatTime(old.StartsAt), formatTime(old.EndsAt), old.Venue, formatTime(cur.StartsAt), formatTime(cur.EndsAt), cur.Venue, at)
	if err != nil {
		return fmt.Errorf("store: event change (%s): %w", key, err)
	}
	where, args := sc.holders()
	_, err = tx.ExecContext(ctx, `INSERT INTO outbox (channel, kind, recipient, subject, body_text, body_html, dedupe_key,
		event_change_id, next_attempt_at, created_at)
		SELECT DISTINCT ?, ?, t.email, '', '', '', CAST(? AS TEXT) || t.email, CAST(? AS BIGINT), ?, ? FROM tickets t
		WHERE `+where+`
		ON CONFLICT (dedupe_key) DO NOTHING`, append([]any{palaro.ChannelEmail, palaro.MessageEventChanged,
		"event-change:" + strconv.FormatInt(changeID, 10) + ":", changeID, at, at}, args...)...)
	if err != nil {
		return fmt.Errorf("store: event change e-mails (%s): %w", key, err)
	}
	return nil
}

// holderTickets returns the tickets concerned by a change of the scope that the address email holds.
func holderTickets(ctx context.Context, q querier, refs *refCache, email string, sc changeScope) ([]*palaro.Ticket, error) {
	where, args := sc.holders()
	return queryTickets(ctx, q, refs, `t.email = ? AND `+where+` ORDER BY t.id`, append([]any{email}, args...)...)
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
	eventOf, dateOf := map[int64]int64{}, map[int64]int64{}
	q, err := tx.QueryContext(ctx, `SELECT c.id, c.event_id, coalesce(c.date_id, 0), coalesce(d.slug, ''), coalesce(d.name, ''),
		c.kind, c.sequence, c.old_starts_at, c.old_ends_at, c.old_venue, c.starts_at, c.ends_at, c.venue, c.created_at
		FROM event_changes c LEFT JOIN event_dates d ON d.id = c.date_id WHERE c.id IN (?`+strings.Repeat(", ?", len(ids)-1)+`)`, ids...)
	if err != nil {
		return nil, fmt.Errorf("outbox: event changes: %w", err)
	}
	for q.Next() {
		var c palaro.EventChange
		var eventID, dateID int64
		var times [5]sql.NullString
		if err := q.Scan(&c.ID, &eventID, &dateID, &c.Date, &c.DateName, &c.Kind, &c.Sequence, &times[0], &times[1], &c.Old.Venue, &times[2], &times[3],
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
		changes[c.ID], eventOf[c.ID], dateOf[c.ID] = c, eventID, dateID
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
		sc := changeScope{ev: ev}
		if id := dateOf[c.ID]; id != 0 {
			sc.date = &palaro.EventDate{ID: id, Slug: c.Date}
		}
		tickets, err := holderTickets(ctx, tx, refs, r.To, sc)
		if err != nil {
			return nil, err
		}
		msgs[i].Message = composer.EventChanged(c, ev, r.To, tickets)
	}
	return gone, nil
}
