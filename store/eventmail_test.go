package store

import (
	"context"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"palaro"
	"palaro/internal/testdb"
	"palaro/notify"
)

// mailComposer is the composer of these tests, with QR codes inline.
func mailComposer() notify.Composer {
	c := notify.NewComposer("https://palaro.test", "help@palaro.test")
	c.TicketQR = func(code string) string { return "QR:" + code }
	return c
}

// TestEventMailService_Reminders: the reminder job queues one reminder per valid ticket of an
// event once its reminder time has come, never again (also after a restart: another DB handle
// on the same database), not for a cancelled ticket, and to a transferred ticket's new holder;
// a ticket cancelled after its reminder was queued gets none; the reminder carries the QR code,
// the calendar links and the organizer's words, escaped. On either engine.
func TestEventMailService_Reminders(t *testing.T) {
	ctx := context.Background()
	url := testdb.URL(t)
	f := newPurchaseFixtureAt(t, url)
	composer := mailComposer()
	org := NewOrganizerService(f.db, composer)
	mail := NewEventMailService(f.db, composer)
	code := f.addTicketType(t, "remind", 0, 50, 4)
	var eventID int64
	require.NoError(t, f.db.read.QueryRow(`SELECT event_id FROM ticket_types WHERE code = ?`, code).Scan(&eventID))
	starts := f.now.Add(72 * time.Hour)
	_, err := f.db.write.Exec(`UPDATE events SET starts_at = ?, ends_at = ? WHERE id = ?`, formatTime(starts), formatTime(starts.Add(4*time.Hour)), eventID)
	require.NoError(t, err)
	tickets := map[string]palaro.Ticket{}
	for _, who := range []string{"a1", "a2", "b", "cancelled", "mover", "late"} {
		email := strings.TrimRight(who, "12") + "@x.ph"
		o, err := f.purchases.CreateOrder(ctx, freeRequest(code, 1, email), f.now)
		require.NoError(t, err)
		require.Len(t, o.Tickets, 1)
		tickets[who] = o.Tickets[0]
	}
	_, err = f.db.write.Exec(`UPDATE tickets SET created_at = ? WHERE id = ?`, formatTime(starts.Add(-2*time.Hour)), tickets["late"].ID)
	require.NoError(t, err) // bought after the reminder time: its confirmation just went out
	require.NoError(t, org.CancelTicket(ctx, eventID, tickets["cancelled"].Code, "owner@x.ph"))
	require.NoError(t, org.ChangeTicketEmail(ctx, eventID, tickets["mover"].Code, "new@x.ph", "owner@x.ph"))
	words := "Hello {name}! <b>{event}</b> at {venue}, {date}."
	require.NoError(t, mail.SaveEventEmails(ctx, eventID, "owner@x.ph", palaro.EventEmails{Reminder: words, ReminderHours: 24}, f.now))

	reminders := func() map[string]int {
		rows, err := f.db.read.Query(`SELECT o.recipient FROM outbox o JOIN tickets t ON t.id = o.ticket_id
			JOIN ticket_types tt ON tt.id = t.ticket_type_id WHERE o.kind = ? AND tt.code = ?`, palaro.MessageReminder, code)
		require.NoError(t, err)
		defer rows.Close()
		out := map[string]int{}
		for rows.Next() {
			var to string
			require.NoError(t, rows.Scan(&to))
			out[to]++
		}
		return out
	}
	_, err = mail.QueueReminders(ctx, starts.Add(-25*time.Hour))
	require.NoError(t, err)
	require.Empty(t, reminders(), "not yet: 25 hours before")

	now := starts.Add(-23 * time.Hour)
	_, err = mail.QueueReminders(ctx, now)
	require.NoError(t, err)
	want := map[string]int{"a@x.ph": 2, "b@x.ph": 1, "new@x.ph": 1}
	require.Equal(t, want, reminders())
	require.Equal(t, 4, f.countRows(t, `SELECT count(*) FROM ticket_reminders r JOIN tickets t ON t.id = r.ticket_id
		JOIN ticket_types tt ON tt.id = t.ticket_type_id WHERE tt.code = ?`, code))
	_, err = mail.QueueReminders(ctx, now.Add(time.Minute))
	require.NoError(t, err)
	require.Equal(t, want, reminders(), "once per ticket")

	// a restart: a new handle on the same database, new services
	db2, err := Open(url)
	require.NoError(t, err)
	t.Cleanup(func() { db2.Close() })
	require.NoError(t, db2.Migrate(ctx))
	mail2 := NewEventMailService(db2, composer)
	n, err := mail2.QueueReminders(ctx, now.Add(2*time.Minute))
	require.NoError(t, err)
	require.Zero(t, n)
	require.Equal(t, want, reminders(), "once per ticket across a restart")

	// a ticket cancelled (refunded) after its reminder was queued gets none
	require.NoError(t, org.CancelTicket(ctx, eventID, tickets["a2"].Code, "owner@x.ph"))
	outbox := NewComposingOutboxService(db2, composer)
	claimed, err := outbox.ClaimDue(ctx, now.Add(3*time.Minute), 1000, time.Minute)
	require.NoError(t, err)
	sent := map[string]int{}
	for _, m := range claimed {
		if m.Kind != palaro.MessageReminder || !strings.HasSuffix(m.To, "@x.ph") {
			continue
		}
		sent[m.To]++
		require.Len(t, m.Images, 1, "the ticket's QR code inline")
		require.Contains(t, m.HTML, `src="cid:`+m.Images[0].ContentID+`"`)
		require.Contains(t, m.HTML, "/calendar.ics")
		require.Contains(t, m.HTML, "https://calendar.google.com/calendar/render?")
		require.Contains(t, m.HTML, "&lt;b&gt;", "the organizer's words are escaped")
		require.NotContains(t, m.HTML, "<b>")
		require.Contains(t, m.Text, "Hello ")
		require.NotContains(t, m.Text, "{name}")
	}
	require.Equal(t, map[string]int{"a@x.ph": 1, "b@x.ph": 1, "new@x.ph": 1}, sent)
	require.Equal(t, 1, f.countRows(t, `SELECT count(*) FROM outbox WHERE ticket_id = ? AND status = 'failed'`, tickets["a2"].ID))
}

// TestEventMailService_Words: the words are checked when saved (an unknown placeholder is a
// field error), kept per event, and used by the confirmation.
func TestEventMailService_Words(t *testing.T) {
	ctx := context.Background()
	f := newPurchaseFixture(t)
	mail := NewEventMailService(f.db, mailComposer())
	code := f.addTicketType(t, "words", 0, 50, 1)
	var eventID int64
	require.NoError(t, f.db.read.QueryRow(`SELECT event_id FROM ticket_types WHERE code = ?`, code).Scan(&eventID))
	got, err := mail.EventEmails(ctx, eventID)
	require.NoError(t, err)
	require.Equal(t, palaro.EventEmails{ReminderHours: 24}, got)

	err = mail.SaveEventEmails(ctx, eventID, "owner@x.ph", palaro.EventEmails{Confirmation: "Hi {nmae}", ReminderHours: 24}, f.now)
	require.Equal(t, palaro.EINVALID, palaro.ErrorCode(err))
	require.Contains(t, err.(*palaro.Error).Fields[palaro.FieldConfirmationWords], "{nmae}")
	err = mail.SaveEventEmails(ctx, eventID, "owner@x.ph", palaro.EventEmails{ReminderHours: 200}, f.now)
	require.Contains(t, err.(*palaro.Error).Fields, palaro.FieldReminderHours)

	require.NoError(t, mail.SaveEventEmails(ctx, eventID, "owner@x.ph", palaro.EventEmails{Confirmation: "Salamat, {name}! See you at {venue}.", ReminderHours: 6}, f.now))
	got, err = mail.EventEmails(ctx, eventID)
	require.NoError(t, err)
	require.Equal(t, 6, got.ReminderHours)

	o, err := f.purchases.CreateOrder(ctx, palaro.PurchaseRequest{TicketCode: code, Quantity: 1, Email: "juan@x.ph", FullName: "Juan Cruz"}, f.now)
	require.NoError(t, err)
	claimed, err := f.outbox.ClaimDue(ctx, f.now, 1000, time.Minute)
	require.NoError(t, err)
	found := false
	for _, m := range claimed {
		if m.To == "juan@x.ph" && m.Kind == palaro.MessageOrderConfirmation {
			found = true
			require.Contains(t, m.Text, "Salamat, Juan Cruz! See you at ")
			require.Contains(t, m.Text, o.Tickets[0].Code, "the tickets stay Palaro's")
		}
	}
	require.True(t, found)

	org := NewOrganizerService(f.db, mailComposer())
	require.NoError(t, org.ResendTickets(ctx, eventID, o.PublicID, "owner@x.ph"))
	require.Equal(t, 1, f.countRows(t, `SELECT count(*) FROM outbox WHERE recipient = 'juan@x.ph' AND kind = ? AND body_text LIKE ?`,
		palaro.MessageOrderConfirmation, "%Salamat, Juan Cruz!%"), "sent again in the organizer's words")
}

// TestEventMailService_Messages: a message goes once to each address holding a valid ticket of
// the event (or of one ticket type), spread over time, and is recorded with its count.
func TestEventMailService_Messages(t *testing.T) {
	ctx := context.Background()
	f := newPurchaseFixture(t)
	mail := NewEventMailService(f.db, mailComposer())
	code := f.addTicketType(t, "msg", 0, 500, 4)
	var eventID int64
	require.NoError(t, f.db.read.QueryRow(`SELECT event_id FROM ticket_types WHERE code = ?`, code).Scan(&eventID))
	before, err := mail.CountRecipients(ctx, eventID, code)
	require.NoError(t, err)
	require.Zero(t, before)
	for i := range MessagesPerMinute + 5 {
		_, err := f.purchases.CreateOrder(ctx, freeRequest(code, 1, "fan"+strconv.Itoa(i)+"@x.ph"), f.now)
		require.NoError(t, err)
	}
	n, err := mail.CountRecipients(ctx, eventID, code)
	require.NoError(t, err)
	require.Equal(t, MessagesPerMinute+5, n)
	all, err := mail.CountRecipients(ctx, eventID, "")
	require.NoError(t, err)
	require.GreaterOrEqual(t, all, n)
	_, err = mail.CountRecipients(ctx, eventID, "nope")
	require.Equal(t, palaro.ENOTFOUND, palaro.ErrorCode(err))

	_, err = mail.SendMessage(ctx, eventID, "owner@x.ph", palaro.OrganizerMessage{Subject: "Gates", Body: "Hi {who}"}, f.now)
	require.Equal(t, palaro.EINVALID, palaro.ErrorCode(err))
	m, err := mail.SendMessage(ctx, eventID, "owner@x.ph", palaro.OrganizerMessage{TicketTypeCode: code, Subject: "Gates open at 5",
		Body: "Hi {name}, gates of {event} open at 5 PM."}, f.now)
	require.NoError(t, err)
	require.Equal(t, n, m.Recipients)
	require.Equal(t, n, f.countRows(t, `SELECT count(*) FROM outbox WHERE organizer_message_id = ?`, m.ID))
	require.Equal(t, MessagesPerMinute, f.countRows(t, `SELECT count(*) FROM outbox WHERE organizer_message_id = ? AND next_attempt_at <= ?`,
		m.ID, formatTime(f.now)), "throttled: the rest fall due a minute later")
	list, err := mail.ListMessages(ctx, eventID)
	require.NoError(t, err)
	require.Len(t, list, 1)
	require.Equal(t, "Gates open at 5", list[0].Subject)
	require.Equal(t, n, list[0].Recipients)
	require.Equal(t, code, list[0].TicketTypeCode)

	outbox := NewComposingOutboxService(f.db, mailComposer())
	claimed, err := outbox.ClaimDue(ctx, f.now, 1000, time.Minute)
	require.NoError(t, err)
	got := 0
	for _, c := range claimed {
		if c.Kind == palaro.MessageOrganizerMessage {
			got++
			require.Equal(t, "Gates open at 5", c.Subject)
			require.Contains(t, c.Text, "gates of ")
			require.Contains(t, c.Text, "/t/", "links the holder's tickets")
		}
	}
	require.Equal(t, MessagesPerMinute, got)
}
