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

// EventMailService implements palaro.EventMailService: an event's e-mail words, its reminders and
// its organizers' messages.
type EventMailService struct {
	db       *DB
	composer palaro.EventEmailComposer
}

var _ palaro.EventMailService = (*EventMailService)(nil)

// NewEventMailService returns the service backed by db; composer writes the samples and, set as
// the outbox's composer too, the queued e-mails when they are sent.
func NewEventMailService(db *DB, composer palaro.EventEmailComposer) *EventMailService {
	return &EventMailService{db: db, composer: composer}
}

// MessagesPerMinute is how many e-mails of one organizer's message fall due each minute: the
// message's outbox rows are spread over time, so a large message does not hold up other mail
// (confirmations, reminders) nor flood the mail provider.
const MessagesPerMinute = 120

// EventEmails returns an event's e-mail settings, the defaults when never saved.
func (s *EventMailService) EventEmails(ctx context.Context, eventID int64) (_ palaro.EventEmails, err error) {
	defer wrapErr(&err, "store: EventEmails(%d)", eventID)

	return eventEmails(ctx, s.db.read, eventID)
}

// eventEmails reads an event's e-mail settings with q.
func eventEmails(ctx context.Context, q querier, eventID int64) (palaro.EventEmails, error) {
	e := palaro.EventEmails{ReminderHours: palaro.DefaultReminderHours}
	var updated sql.NullString
	err := q.QueryRowContext(ctx, `SELECT confirmation, reminder, reminder_hours, updated_at, updated_by FROM event_emails
		WHERE event_id = ?`, eventID).Scan(&e.Confirmation, &e.Reminder, &e.ReminderHours, &updated, &e.UpdatedBy)
	if errors.Is(err, sql.ErrNoRows) {
		return e, nil
	}
	e.UpdatedAt, _ = parseTime(updated)
	return e, err
}

// SaveEventEmails stores an event's e-mail settings, audit-logged.
func (s *EventMailService) SaveEventEmails(ctx context.Context, eventID int64, actor string, e palaro.EventEmails, now time.Time) (err error) {
	defer wrapErr(&err, "store: SaveEventEmails(%d)", eventID)

	e.Confirmation, e.Reminder = strings.TrimSpace(e.Confirmation), strings.TrimSpace(e.Reminder)
	if err := e.Check(); err != nil {
		return err
	}
	return s.db.inWrite(ctx, func(ctx context.Context, tx *sql.Tx) error {
		if _, err := tx.ExecContext(ctx, `INSERT INTO event_emails (event_id, confirmation, reminder, reminder_hours, updated_at, updated_by)
			VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (event_id) DO UPDATE SET confirmation = excluded.confirmation,
			reminder = excluded.reminder, reminder_hours = excluded.reminder_hours, updated_at = excluded.updated_at,
			updated_by = excluded.updated_by`, eventID, e.Confirmation, e.Reminder, e.ReminderHours, formatTime(now), actor); err != nil {
			return err
		}
		return auditOn(ctx, tx, eventID, actor, "e-mail words saved", "reminders "+palaro.Plural(e.ReminderHours, "hour", "hours")+" before", now)
	})
}

// SampleEmail composes an event's confirmation or reminder in words with a sample ticket.
func (s *EventMailService) SampleEmail(ctx context.Context, ev *palaro.Event, kind, words, to, name string) (palaro.Message, error) {
	field := palaro.FieldConfirmationWords
	if kind == palaro.EmailReminder {
		field = palaro.FieldReminderWords
	}
	words = strings.TrimSpace(words)
	if err := palaro.CheckEmailWords(field, words); err != nil {
		return palaro.Message{}, err
	}
	tt := palaro.TicketType{Name: "General Admission"}
	if len(ev.TicketTypes) > 0 {
		tt = ev.TicketTypes[0]
	}
	// A sample ticket: no code, so no QR code a gate could be shown; its link opens nothing.
	t := palaro.Ticket{PublicID: "sample", Event: ev, EventID: ev.ID, TicketType: tt, HolderName: name, Email: to, Status: palaro.TicketValid}
	var m palaro.Message
	if kind == palaro.EmailReminder {
		m = s.composer.Reminder(&t, words)
	} else {
		o := &palaro.Order{PublicID: "sample", Kind: palaro.OrderKindTickets, Email: to, Quantity: 1, Event: ev, TicketType: &tt,
			Buyer: palaro.Buyer{FullName: name}, Total: tt.Price, Tickets: []palaro.Ticket{t}}
		m = s.composer.OrderConfirmationWith(o, words)
	}
	m.Kind, m.Subject = palaro.MessageEmailTest, "[Test] "+m.Subject
	return m, nil
}

// SendTestEmail queues a sample of the event's confirmation or reminder to the address to.
func (s *EventMailService) SendTestEmail(ctx context.Context, ev *palaro.Event, kind, words, to, name string, now time.Time) (err error) {
	defer wrapErr(&err, "store: SendTestEmail(%s)", ev.Code)

	m, err := s.SampleEmail(ctx, ev, kind, words, to, name)
	if err != nil {
		return err
	}
	return s.db.inWrite(ctx, func(ctx context.Context, tx *sql.Tx) error {
		return enqueue(ctx, tx, m, "", now)
	})
}

// recipientsWhere selects the tickets whose holders get an organizer's message: valid or
// checked-in tickets of the event (and of the ticket type, when typeID is not 0).
func recipientsWhere(eventID, typeID int64) (string, []any) {
	if typeID == 0 {
		return `t.event_id = ? AND t.status IN ` + holderStatuses, []any{eventID}
	}
	return `t.event_id = ? AND t.ticket_type_id = ? AND t.status IN ` + holderStatuses, []any{eventID, typeID}
}

// ticketTypeOf returns the id and name of the event's ticket type code (0 for "").
func ticketTypeOf(ctx context.Context, q querier, eventID int64, code string) (id int64, name string, err error) {
	if code == "" {
		return 0, "", nil
	}
	err = q.QueryRowContext(ctx, `SELECT id, name FROM ticket_types WHERE event_id = ? AND code = ?`, eventID, code).Scan(&id, &name)
	if errors.Is(err, sql.ErrNoRows) {
		return 0, "", palaro.Errorf(palaro.ENOTFOUND, "Ticket type %s not found.", code)
	}
	return id, name, err
}

// CountRecipients returns how many addresses hold a valid or checked-in ticket of the event (or
// of one of its ticket types).
func (s *EventMailService) CountRecipients(ctx context.Context, eventID int64, ticketTypeCode string) (n int, err error) {
	defer wrapErr(&err, "store: CountRecipients(%d)", eventID)

	typeID, _, err := ticketTypeOf(ctx, s.db.read, eventID, ticketTypeCode)
	if err != nil {
		return 0, err
	}
	where, args := recipientsWhere(eventID, typeID)
	err = s.db.read.QueryRowContext(ctx, `SELECT count(DISTINCT t.email) FROM tickets t WHERE `+where, args...).Scan(&n)
	return n, err
}

// SendMessage records an organizer's message and queues one e-mail per address holding a ticket,
// in one write: rows naming the message, composed when sent, due MessagesPerMinute a minute.
func (s *EventMailService) SendMessage(ctx context.Context, eventID int64, actor string, m palaro.OrganizerMessage, now time.Time) (_ *palaro.OrganizerMessage, err error) {
	defer wrapErr(&err, "store: SendMessage(%d)", eventID)

	m.Subject, m.Body = strings.TrimSpace(m.Subject), strings.TrimSpace(m.Body)
	if err := m.Check(); err != nil {
		return nil, err
	}
	return write(ctx, s.db, func(ctx context.Context, tx *sql.Tx) (*palaro.OrganizerMessage, error) {
		out := m
		out.EventID, out.SentBy, out.CreatedAt = eventID, actor, now
		typeID, typeName, err := ticketTypeOf(ctx, tx, eventID, m.TicketTypeCode)
		if err != nil {
			return nil, err
		}
		out.TicketTypeName = typeName
		where, args := recipientsWhere(eventID, typeID)
		emails, err := queryStrings(ctx, tx, `SELECT DISTINCT t.email FROM tickets t WHERE `+where+` ORDER BY t.email`, args...)
		if err != nil {
			return nil, err
		}
		if len(emails) == 0 {
			return nil, &palaro.Error{Code: palaro.EINVALID, Message: "Nobody holds a ticket yet: there is nobody to send it to.",
				Fields: map[string]string{palaro.FieldMessageTicketType: "Nobody holds these tickets yet."}}
		}
		out.Recipients = len(emails)
		var typeRef any
		if typeID != 0 {
			typeRef = typeID
		}
		if out.ID, err = insertID(ctx, tx, `INSERT INTO organizer_messages (event_id, ticket_type_id, subject, body, recipients,
			sent_by, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)`, eventID, typeRef, out.Subject, out.Body, out.Recipients, actor,
			formatTime(now)); err != nil {
			return nil, err
		}
		key := "organizer-message:" + strconv.FormatInt(out.ID, 10) + ":"
		const chunk = 100
		for start := 0; start < len(emails); start += chunk {
			part := emails[start:min(start+chunk, len(emails))]
			args := make([]any, 0, len(part)*6)
			for i, email := range part {
				due := now.Add(time.Duration((start+i)/MessagesPerMinute) * time.Minute)
				args = append(args, email, key+email, out.ID, formatTime(due), formatTime(now))
			}
			if _, err := tx.ExecContext(ctx, `INSERT INTO outbox (channel, kind, recipient, subject, body_text, body_html, dedupe_key,
				organizer_message_id, next_attempt_at, created_at) VALUES `+
				valuesList(len(part), "('"+palaro.ChannelEmail+"', '"+palaro.MessageOrganizerMessage+"', ?, '', '', '', ?, ?, ?, ?)")+
				` ON CONFLICT (dedupe_key) DO NOTHING`, args...); err != nil {
				return nil, err
			}
		}
		detail := m.Subject + " · " + palaro.Plural(out.Recipients, "recipient", "recipients")
		if err := auditOn(ctx, tx, eventID, actor, "message sent to ticket holders", detail, now); err != nil {
			return nil, err
		}
		return &out, nil
	})
}

// ListMessages returns the event's sent messages, newest first.
func (s *EventMailService) ListMessages(ctx context.Context, eventID int64) (_ []palaro.OrganizerMessage, err error) {
	defer wrapErr(&err, "store: ListMessages(%d)", eventID)

	return queryRows(ctx, s.db.read, `SELECT m.id, m.event_id, coalesce(tt.code, ''), coalesce(tt.name, ''), m.subject, m.body,
		m.recipients, m.sent_by, m.created_at FROM organizer_messages m LEFT JOIN ticket_types tt ON tt.id = m.ticket_type_id
		WHERE m.event_id = ? ORDER BY m.id DESC LIMIT 200`, []any{eventID}, scanOrganizerMessage)
}

func scanOrganizerMessage(r rowScanner) (m palaro.OrganizerMessage, err error) {
	var created sql.NullString
	if err = r.Scan(&m.ID, &m.EventID, &m.TicketTypeCode, &m.TicketTypeName, &m.Subject, &m.Body, &m.Recipients, &m.SentBy, &created); err != nil {
		return m, err
	}
	m.CreatedAt, err = parseTime(created)
	return m, err
}

// reminderEventStatuses are the event statuses whose ticket holders get reminders: not a draft,
// not cancelled nor postponed (no date to remind of).
const reminderEventStatuses = `('` + palaro.EventScheduled + `', '` + palaro.EventRescheduled + `')`

// QueueReminders queues, in one write, the reminder of every valid or checked-in ticket whose
// event starts within its reminder time of now (and not yet), issued before that time (a ticket
// bought later has just had its confirmation), and not reminded yet: an outbox row naming the
// ticket, composed when sent (from the ticket as it is then: a transferred ticket reminds its new
// holder), and the ticket's row in ticket_reminders, which makes it once per ticket whatever
// restarts or servers come between.
func (s *EventMailService) QueueReminders(ctx context.Context, now time.Time) (queued int, err error) {
	defer wrapErr(&err, "store: QueueReminders")

	type due struct {
		id       int64
		remindAt time.Time
	}
	events, err := queryRows(ctx, s.db.read, `SELECT e.id, e.starts_at, coalesce(m.reminder_hours, ?) FROM events e
		LEFT JOIN event_emails m ON m.event_id = e.id
		WHERE e.status IN `+reminderEventStatuses+` AND e.starts_at > ? AND e.starts_at <= ?`,
		[]any{palaro.DefaultReminderHours, formatTime(now), formatTime(now.Add(palaro.MaxReminderHours * time.Hour))},
		func(r rowScanner) (d due, err error) {
			var starts sql.NullString
			var hours int
			if err = r.Scan(&d.id, &starts, &hours); err != nil {
				return d, err
			}
			start, err := parseTime(starts)
			if hours <= 0 {
				return due{}, err // reminders are off
			}
			d.remindAt = start.Add(-time.Duration(hours) * time.Hour)
			return d, err
		})
	if err != nil {
		return 0, err
	}
	var todo []due
	for _, d := range events {
		if d.id != 0 && !d.remindAt.After(now) {
			todo = append(todo, d)
		}
	}
	if len(todo) == 0 {
		return 0, nil
	}
	return write(ctx, s.db, func(ctx context.Context, tx *sql.Tx) (int, error) {
		n := 0
		at := formatTime(now)
		for _, d := range todo {
			// the same tickets in both statements: the first does not touch ticket_reminders
			pending := `FROM tickets t JOIN events e ON e.id = t.event_id WHERE t.event_id = ? AND t.status IN ` + holderStatuses +
				` AND e.status IN ` + reminderEventStatuses + ` AND e.starts_at > ? AND t.created_at <= ?
				AND NOT EXISTS (SELECT 1 FROM ticket_reminders r WHERE r.ticket_id = t.id)`
			res, err := tx.ExecContext(ctx, `INSERT INTO outbox (channel, kind, recipient, subject, body_text, body_html, dedupe_key,
				ticket_id, next_attempt_at, created_at) SELECT ?, ?, t.email, '', '', '', CAST(? AS TEXT) || CAST(t.id AS TEXT), t.id, ?, ? `+
				pending+` ON CONFLICT (dedupe_key) DO NOTHING`, palaro.ChannelEmail, palaro.MessageReminder, "reminder:", at, at,
				d.id, at, formatTime(d.remindAt))
			if err != nil {
				return 0, fmt.Errorf("reminders of event %d: %w", d.id, err)
			}
			if _, err := tx.ExecContext(ctx, `INSERT INTO ticket_reminders (ticket_id, event_id, queued_at) SELECT t.id, t.event_id, ? `+
				pending+` ON CONFLICT (ticket_id) DO NOTHING`, at, d.id, at, formatTime(d.remindAt)); err != nil {
				return 0, fmt.Errorf("reminders of event %d: %w", d.id, err)
			}
			k, err := res.RowsAffected()
			if err != nil {
				return 0, err
			}
			n += int(k)
		}
		return n, nil
	})
}

// composeEventMail composes, in place, the e-mails of msgs whose rows name a ticket (reminders)
// or an organizer's message and carry no body yet, from the ticket (the message and the holder's
// tickets) as they are now, read in one read transaction. A reminder whose ticket is no longer
// valid or checked in (cancelled, refunded), or whose event is no longer on, and a message of a
// deleted event, are named in gone, with the reason.
func (s *OutboxService) composeEventMail(ctx context.Context, rows []outboxRow, msgs []palaro.OutboxMessage) (gone map[int64]string, err error) {
	var some bool
	for _, r := range rows {
		if (r.ticketID.Valid || r.messageID.Valid) && r.Text == "" && r.HTML == "" {
			some = true
		}
	}
	if !some {
		return nil, nil
	}
	composer, ok := s.db.composer.(palaro.EventEmailComposer)
	if !ok {
		return nil, fmt.Errorf("outbox: no composer for reminders and organizers' messages")
	}
	tx, err := s.db.beginRead(ctx)
	if err != nil {
		return nil, err
	}
	defer tx.Rollback()
	gone = map[int64]string{}
	refs := newRefCache()
	words := map[int64]palaro.EventEmails{}
	for i, r := range rows {
		if r.Text != "" || r.HTML != "" {
			continue
		}
		switch {
		case r.ticketID.Valid:
			tickets, err := queryTickets(ctx, tx, refs, `t.id = ?`, r.ticketID.Int64)
			if err != nil {
				return nil, err
			}
			if len(tickets) == 0 || (tickets[0].Status != palaro.TicketValid && tickets[0].Status != palaro.TicketCheckedIn) {
				gone[r.ID] = "its ticket is no longer valid"
				continue
			}
			t := tickets[0]
			if st := t.Event.Status; st != palaro.EventScheduled && st != palaro.EventRescheduled {
				gone[r.ID] = "its event is " + st
				continue
			}
			e, ok := words[t.EventID]
			if !ok {
				if e, err = eventEmails(ctx, tx, t.EventID); err != nil {
					return nil, err
				}
				words[t.EventID] = e
			}
			msgs[i].Message = composer.Reminder(t, e.Reminder)
		case r.messageID.Valid:
			m, err := scanOrganizerMessage(tx.QueryRowContext(ctx, `SELECT m.id, m.event_id, coalesce(tt.code, ''), coalesce(tt.name, ''),
				m.subject, m.body, m.recipients, m.sent_by, m.created_at FROM organizer_messages m
				LEFT JOIN ticket_types tt ON tt.id = m.ticket_type_id WHERE m.id = ?`, r.messageID.Int64))
			if errors.Is(err, sql.ErrNoRows) {
				gone[r.ID] = "its message no longer exists"
				continue
			} else if err != nil {
				return nil, err
			}
			ev, err := scanEvent(tx.QueryRowContext(ctx, `SELECT `+eventColumns+` `+eventJoins+` WHERE e.id = ?`, m.EventID))
			if err != nil {
				return nil, err
			}
			tickets, err := holderTickets(ctx, tx, refs, r.To, changeScope{ev: ev})
			if err != nil {
				return nil, err
			}
			msgs[i].Message = composer.OrganizerMessage(ev, m, r.To, tickets)
		}
	}
	return gone, nil
}

// confirmationWords returns the organizer's confirmation words of the events, by event id
// (events without words are left out).
func confirmationWords(ctx context.Context, q querier, eventIDs []any) (map[int64]string, error) {
	out := map[int64]string{}
	if len(eventIDs) == 0 {
		return out, nil
	}
	rows, err := q.QueryContext(ctx, `SELECT event_id, confirmation FROM event_emails WHERE confirmation != '' AND event_id IN (`+
		placeholders(len(eventIDs))+`)`, eventIDs...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	for rows.Next() {
		var id int64
		var w string
		if err := rows.Scan(&id, &w); err != nil {
			return nil, err
		}
		out[id] = w
	}
	return out, rows.Err()
}
