package e2e

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"palaro"
	"palaro/internal/testdb"
	"palaro/notify"
	"palaro/store"
)

// stored is a time as the store writes it.
func stored(t time.Time) string { return t.UTC().Format("2006-01-02T15:04:05Z") }

// TestReminders_OncePerTicketAcrossRestart runs the real bin/palaro: its job loop queues and
// sends one reminder per valid ticket of an event once the reminder time comes (the organizer
// moves it from 24 to 48 hours while the server runs), none for a cancelled (refunded) ticket;
// the process is killed and started again, and no ticket is reminded twice. The binary runs on
// the wall clock, so the event is placed relative to it.
func TestReminders_OncePerTicketAcrossRestart(t *testing.T) {
	bin := buildPalaro(t)
	ctx := context.Background()
	url := testdb.URL(t)
	db, err := store.Open(url)
	require.NoError(t, err)
	t.Cleanup(func() { db.Close() })
	require.NoError(t, db.Migrate(ctx))
	now := time.Now() // the binary's clock
	require.NoError(t, db.SeedDemo(ctx, now))
	composer := notify.NewComposer("http://palaro.test", "help@palaro.test")
	organizers := store.NewOrganizerService(db, composer)
	ev, err := organizers.FindEvent(ctx, changedEvent)
	require.NoError(t, err)
	starts := now.Add(30 * time.Hour) // outside the default 24 hours, inside 48
	_, err = db.Writer().ExecContext(ctx, `UPDATE events SET starts_at = ?, ends_at = ?, status = 'scheduled' WHERE id = ?`,
		stored(starts), stored(starts.Add(4*time.Hour)), ev.ID)
	require.NoError(t, err)
	_, err = db.Writer().ExecContext(ctx, `INSERT INTO ticket_types (event_id, code, name, price, max_purchasable, capacity)
		VALUES (?, 'remind', 'Reminded', 0, 1, 50)`, ev.ID)
	require.NoError(t, err)
	purchases := store.NewPurchaseService(db, composer, 15*time.Minute)
	var tickets []palaro.Ticket
	for _, email := range []string{"ana@remind.test", "ben@remind.test", "cy@remind.test", "di@remind.test"} {
		o, err := purchases.CreateOrder(ctx, palaro.PurchaseRequest{TicketCode: "remind", Quantity: 1, Email: email, FullName: "Juan Dela Cruz"}, now)
		require.NoError(t, err)
		require.Len(t, o.Tickets, 1)
		tickets = append(tickets, o.Tickets[0])
	}
	_, err = db.Writer().ExecContext(ctx, `UPDATE tickets SET created_at = ? WHERE event_id = ?`, stored(now.Add(-7*24*time.Hour)), ev.ID)
	require.NoError(t, err) // bought a week ago
	cancelled := tickets[0]
	valid := map[int64]bool{}
	for _, tk := range tickets[1:] {
		valid[tk.ID] = true
	}
	require.NoError(t, organizers.CancelTicket(ctx, ev.ID, cancelled.Code, "owner@palaro.test")) // as a refund does

	// reminders of the event's tickets: ticket id → rows, and how many were sent
	reminders := func() (rows map[int64]int, sent int) {
		rows = map[int64]int{}
		q, err := db.Reader().QueryContext(ctx, `SELECT o.ticket_id, o.status FROM outbox o JOIN tickets t ON t.id = o.ticket_id
			JOIN ticket_types tt ON tt.id = t.ticket_type_id WHERE o.kind = ? AND tt.code = 'remind'`, palaro.MessageReminder)
		require.NoError(t, err)
		defer q.Close()
		for q.Next() {
			var id int64
			var status string
			require.NoError(t, q.Scan(&id, &status))
			rows[id]++
			if status == palaro.MessageSent {
				sent++
			}
		}
		require.NoError(t, q.Err())
		return rows, sent
	}

	env := []string{"PALARO_DB=" + url, "PALARO_JOB_SECONDS=1"}
	first := startServe(t, bin, env...)
	time.Sleep(3 * time.Second) // three rounds of the job loop
	rows, _ := reminders()
	require.Empty(t, rows, "30 hours before the start: no reminder yet")

	mail := store.NewEventMailService(db, composer)
	require.NoError(t, mail.SaveEventEmails(ctx, ev.ID, "owner@palaro.test", palaro.EventEmails{ReminderHours: 48}, now))
	deadline := time.Now().Add(time.Minute)
	for {
		_, sent := reminders()
		if sent >= len(valid) || time.Now().After(deadline) {
			require.Equal(t, len(valid), sent, "every valid ticket's reminder is sent")
			break
		}
		time.Sleep(200 * time.Millisecond)
	}

	require.NoError(t, first.cmd.Process.Kill())
	<-first.done
	startServe(t, bin, env...)
	time.Sleep(6 * time.Second) // the dead server's lease runs out (3 rounds), then the loop runs again
	rows, sent := reminders()
	require.Len(t, rows, len(valid))
	for id, n := range rows {
		require.True(t, valid[id], "ticket %d", id)
		require.Equal(t, 1, n, "one reminder for ticket %d across the restart", id)
	}
	require.Equal(t, len(valid), sent)
	require.Zero(t, rows[cancelled.ID], "no reminder for the cancelled ticket")
}
