package store

import (
	"context"
	"database/sql"
	"regexp"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"palaro"
)

// TestTransfer_RetriesLostDeadlock: a ticket transfer's acceptance (ConfirmEmailChange, a unit of
// the batching writer) that loses a real deadlock to another server's transaction on PostgreSQL
// runs again from its savepoint and succeeds, its lost try leaving nothing behind. The other
// transaction holds the transfer row, the unit takes the ticket row and waits for the transfer
// row, then the other asks for the ticket row: PostgreSQL aborts the unit (it waited first and
// the other's deadlock_timeout is longer), and the other's statement goes through (control).
func TestTransfer_RetriesLostDeadlock(t *testing.T) {
	f := newPurchaseFixture(t)
	if !f.db.postgres {
		t.Skip("SQLite has one writer: two transactions cannot deadlock")
	}
	ctx := context.Background()
	code := f.addTicketType(t, "deadlock", 0, 10, 1)
	o, err := f.purchases.CreateOrder(ctx, freeRequest(code, 1, "holder@x.ph"), f.now)
	require.NoError(t, err)
	tk := o.Tickets[0]
	tr, err := f.purchases.RequestEmailChange(ctx, tk.PublicID, "taker@x.ph", true, f.now)
	require.NoError(t, err)
	require.Equal(t, palaro.TransferAwaitingReceipt, tr.Status)
	msgs, err := f.outbox.ListOutbox(ctx, palaro.OutboxFilter{To: "taker@x.ph"})
	require.NoError(t, err)
	require.Len(t, msgs, 1)
	token := regexp.MustCompile(`/change-email/confirm/([a-z0-9]+)`).FindStringSubmatch(msgs[0].Text)
	require.NotNil(t, token, msgs[0].Text)
	var ticketID int64
	require.NoError(t, f.db.read.QueryRow(`SELECT id FROM tickets WHERE public_id = ?`, tk.PublicID).Scan(&ticketID))

	// PostgreSQL looks for a deadlock once, deadlock_timeout after a wait starts: the writer's 5 s
	// leave a busy machine time to make the other transaction ask for the ticket row.
	require.NoError(t, f.db.inWrite(ctx, func(ctx context.Context, tx *sql.Tx) error {
		_, err := tx.ExecContext(ctx, `SET deadlock_timeout = '5s'`)
		return err
	}))
	other, err := openPostgres(f.db.path, nil) // another server's connection
	require.NoError(t, err)
	defer other.Close()
	ext, err := other.BeginTx(ctx, nil)
	require.NoError(t, err)
	defer ext.Rollback()
	_, err = ext.Exec(`SET LOCAL deadlock_timeout = '60s'`)
	require.NoError(t, err)
	_, err = ext.Exec(`UPDATE ticket_transfers SET updated_at = updated_at WHERE ticket_id = ?`, ticketID)
	require.NoError(t, err)

	type outcome struct {
		tr  *palaro.TicketTransfer
		err error
	}
	done := make(chan outcome, 1)
	go func() {
		tr, err := f.purchases.ConfirmEmailChange(ctx, token[1], f.now)
		done <- outcome{tr, err}
	}()
	// The unit has taken the ticket row and waits for the transfer row.
	require.Eventually(t, func() bool {
		var waiting int
		err := other.QueryRow(`SELECT count(*) FROM pg_stat_activity WHERE datname = current_database()
			AND wait_event_type = 'Lock'`).Scan(&waiting)
		return err == nil && waiting == 1
	}, 30*time.Second, 10*time.Millisecond)
	_, err = ext.Exec(`UPDATE tickets SET email = email WHERE id = ?`, ticketID)
	require.NoError(t, err, "control: the unit was the deadlock's victim, not the other transaction")
	require.NoError(t, ext.Commit())

	got := <-done
	require.NoError(t, got.err, "the unit ran again after losing the deadlock")
	require.Equal(t, palaro.TransferDone, got.tr.Status)
	ticket, err := f.purchases.FindTicketByPublicID(ctx, got.tr.Ticket.PublicID)
	require.NoError(t, err)
	require.Equal(t, "taker@x.ph", ticket.Email)
	require.Equal(t, 1, f.countRows(t, `SELECT COUNT(*) FROM ticket_transfers WHERE ticket_id = ? AND status = 'done'`, ticketID))
	require.Equal(t, 2, f.countRows(t, `SELECT COUNT(*) FROM outbox WHERE kind = ?`, palaro.MessageTransferDone),
		"one e-mail to each address: the lost try's messages were rolled back")
}
