package store

import (
	"context"
	"database/sql"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"palaro"
)

// OutboxService implements palaro.Outbox.
type OutboxService struct{ db *DB }

// NewOutboxService returns the outbox backed by db.
func NewOutboxService(db *DB) *OutboxService { return &OutboxService{db: db} }

// NewComposingOutboxService returns the outbox backed by db that composes the e-mails stored as
// rows naming their cause (orders, event changes) with composer, as the server's worker does; a
// command that lists the outbox uses it.
func NewComposingOutboxService(db *DB, composer palaro.Composer) *OutboxService {
	db.composer = composer
	return &OutboxService{db: db}
}

var _ palaro.Outbox = (*OutboxService)(nil)

// Enqueue writes one message to the outbox on its own, for messages not tied to another change.
// Messages caused by a change (an order, a sign-up) are written in that change's transaction.
func (s *OutboxService) Enqueue(ctx context.Context, m palaro.Message, now time.Time) (err error) {
	defer wrapErr(&err, "store: Enqueue")

	return s.db.inWrite(ctx, func(ctx context.Context, tx *sql.Tx) error {
		return enqueue(ctx, tx, m, "", now)
	})
}

// enqueue writes a message to the outbox inside tx. A non-empty dedupeKey makes the write
// happen at most once: a second message with the same key is dropped.
func enqueue(ctx context.Context, tx *sql.Tx, m palaro.Message, dedupeKey string, now time.Time) error {
	if m.Channel == "" {
		m.Channel = palaro.ChannelEmail
	}
	var key any
	if dedupeKey != "" {
		key = dedupeKey
	}
	_, err := tx.ExecContext(ctx, `INSERT INTO outbox (channel, kind, recipient, subject, body_text, body_html,
		dedupe_key, next_attempt_at, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
		ON CONFLICT (dedupe_key) DO NOTHING`,
		m.Channel, m.Kind, m.To, m.Subject, m.Text, m.HTML, key, formatTime(now), formatTime(now))
	return err
}

// enqueueOrderMessage queues an order's confirmation e-mail (or add-on receipt) inside the
// order's transaction, once: a small row naming the order, composed from the order when it is
// sent (composeOrderMessages), so nothing is rendered while the write lock is held.
func enqueueOrderMessage(ctx context.Context, tx *sql.Tx, o *palaro.Order, now time.Time) error {
	kind := palaro.MessageOrderConfirmation
	if o.Kind == palaro.OrderKindAddOns {
		kind = palaro.MessageAddOnReceipt
	}
	at := formatTime(now)
	_, err := tx.ExecContext(ctx, `INSERT INTO outbox (channel, kind, recipient, subject, body_text, body_html,
		dedupe_key, order_id, next_attempt_at, created_at) VALUES (?, ?, ?, '', '', '', ?, ?, ?, ?)
		ON CONFLICT (dedupe_key) DO NOTHING`,
		palaro.ChannelEmail, kind, o.Email, "order-confirmation:"+strconv.FormatInt(o.ID, 10), o.ID, at, at)
	return err
}

const outboxColumns = `id, channel, kind, recipient, subject, body_text, body_html, status, attempts,
	last_error, next_attempt_at, created_at, sent_at, order_id, event_change_id, ticket_id, organizer_message_id`

// outboxRow is a stored message and, for an e-mail not composed yet, its order's, event
// change's, ticket's (a reminder) or organizer's message's id.
type outboxRow struct {
	palaro.OutboxMessage
	orderID       sql.NullInt64
	eventChangeID sql.NullInt64
	ticketID      sql.NullInt64
	messageID     sql.NullInt64
}

func scanOutbox(r rowScanner) (outboxRow, error) {
	var m outboxRow
	var next, created, sent sql.NullString
	err := r.Scan(&m.ID, &m.Channel, &m.Kind, &m.To, &m.Subject, &m.Text, &m.HTML, &m.Status, &m.Attempts,
		&m.LastError, &next, &created, &sent, &m.orderID, &m.eventChangeID, &m.ticketID, &m.messageID)
	if err != nil {
		return m, err
	}
	m.NextAttemptAt, _ = parseTime(next)
	m.CreatedAt, _ = parseTime(created)
	m.SentAt, _ = parseTime(sent)
	return m, nil
}

// composeOrderMessages composes the e-mails of rows that name an order and carry no body yet,
// from their orders as they are now, read together in one read transaction of the read pool
// (outside the writer), their events and ticket types once. An order that no longer exists leaves
// its message as it is and is named in gone.
func (s *OutboxService) composeOrderMessages(ctx context.Context, rows []outboxRow) (msgs []palaro.OutboxMessage, gone []int64, err error) {
	msgs = make([]palaro.OutboxMessage, len(rows))
	var ids []any
	for i, r := range rows {
		msgs[i] = r.OutboxMessage
		if r.orderID.Valid && r.Text == "" && r.HTML == "" {
			ids = append(ids, r.orderID.Int64)
		}
	}
	if len(ids) == 0 {
		return msgs, nil, nil
	}
	composer := s.db.composer
	if composer == nil {
		return nil, nil, fmt.Errorf("outbox message %d: no composer for order e-mails", rows[0].ID)
	}
	tx, err := s.db.beginRead(ctx)
	if err != nil {
		return nil, nil, err
	}
	defer tx.Rollback()
	orders, err := loadOrders(ctx, tx, `o.id IN (?`+strings.Repeat(", ?", len(ids)-1)+`)`, ids...)
	if err != nil {
		return nil, nil, fmt.Errorf("outbox messages: %w", err)
	}
	byID := make(map[int64]*palaro.Order, len(orders))
	var eventIDs []any
	for _, o := range orders {
		byID[o.ID] = o
		eventIDs = append(eventIDs, o.EventID)
	}
	words, err := confirmationWords(ctx, tx, eventIDs)
	if err != nil {
		return nil, nil, fmt.Errorf("outbox messages: %w", err)
	}
	withWords, _ := composer.(palaro.EventEmailComposer)
	for i, r := range rows {
		if !r.orderID.Valid || r.Text != "" || r.HTML != "" {
			continue
		}
		o, ok := byID[r.orderID.Int64]
		if !ok {
			gone = append(gone, r.ID)
			continue
		}
		if w := words[o.EventID]; w != "" && withWords != nil && o.Kind != palaro.OrderKindAddOns {
			msgs[i].Message = withWords.OrderConfirmationWith(o, w)
		} else {
			msgs[i].Message = composer.OrderConfirmation(o)
		}
	}
	return msgs, gone, nil
}

// ClaimDue claims up to limit due pending messages for lease and returns them, oldest first,
// composing order e-mails after the claim is committed. With several app servers a message is
// claimed by one of them only: each claim is a conditional UPDATE that takes a message only while
// it is still unclaimed (or its lease ran out), so of two servers that read the same message the
// second one's UPDATE changes nothing and it skips the message. A server that dies mid-send leaves
// its claim to run out; the message is then claimed again (sent at least once: a message sent
// just before the crash may go twice).
func (s *OutboxService) ClaimDue(ctx context.Context, now time.Time, limit int, lease time.Duration) (_ []palaro.OutboxMessage, err error) {
	defer wrapErr(&err, "store: ClaimDue(%d)", limit)

	var claimed []outboxRow
	err = s.db.inWrite(ctx, func(ctx context.Context, tx *sql.Tx) (err error) {
		claimed, err = claimDue(ctx, tx, "outbox", outboxColumns, "", scanOutbox, now, limit, lease)
		for i := range claimed {
			claimed[i].Attempts++
		}
		return err
	})
	if err != nil || len(claimed) == 0 {
		return nil, err
	}
	msgs, gone, err := s.composeOrderMessages(ctx, claimed)
	if err != nil {
		return nil, err
	}
	goneChanges, err := s.composeEventChangeMessages(ctx, claimed, msgs)
	if err != nil {
		return nil, err
	}
	goneMail, err := s.composeEventMail(ctx, claimed, msgs)
	if err != nil || len(gone)+len(goneChanges)+len(goneMail) == 0 {
		return msgs, err
	}
	// a message whose order (or event change) no longer exists cannot be written: it fails for good, alone
	outcomes := make([]palaro.OutboxOutcome, 0, len(gone)+len(goneChanges))
	for _, id := range gone {
		outcomes = append(outcomes, palaro.OutboxOutcome{ID: id, Error: "its order no longer exists"})
	}
	for _, id := range goneChanges {
		outcomes = append(outcomes, palaro.OutboxOutcome{ID: id, Error: "its event change no longer exists"})
	}
	gone = append(gone, goneChanges...)
	for id, why := range goneMail {
		outcomes = append(outcomes, palaro.OutboxOutcome{ID: id, Error: why})
		gone = append(gone, id)
	}
	if err := s.Record(ctx, outcomes); err != nil {
		return nil, err
	}
	return slices.DeleteFunc(msgs, func(m palaro.OutboxMessage) bool { return slices.Contains(gone, m.ID) }), nil
}

// claimDue claims, inside a unit of the writer, up to limit due pending rows of table (the outbox,
// webhook_deliveries: each has id, status, next_attempt_at, claimed_until and attempts) that also
// match where (a condition on the table's columns, or ""), and returns them as scan reads them,
// oldest first, their attempts not yet counted. Each claim is a conditional UPDATE that takes a row
// only while it is still unclaimed (or its lease ran out), so of two servers that read the same row
// the second one's UPDATE changes nothing and it skips the row; on PostgreSQL the SELECT also skips
// rows another server has locked.
func claimDue[T interface{ rowID() int64 }](ctx context.Context, tx *sql.Tx, table, columns, where string,
	scan func(rowScanner) (T, error), now time.Time, limit int, lease time.Duration) ([]T, error) {
	if where != "" {
		where = " AND " + where
	}
	at := formatTime(now)
	due, err := queryRows(ctx, tx, `SELECT `+columns+` FROM `+table+`
		WHERE status = 'pending' AND next_attempt_at <= ? AND (claimed_until IS NULL OR claimed_until <= ?)`+where+`
		ORDER BY next_attempt_at, id LIMIT ?`+forUpdateSkipLocked, []any{at, at, limit}, scan)
	if err != nil {
		return nil, err
	}
	until := formatTime(now.Add(lease))
	var claimed []T
	for _, r := range due {
		res, err := tx.ExecContext(ctx, `UPDATE `+table+` SET claimed_until = ?, attempts = attempts + 1
			WHERE id = ? AND status = 'pending' AND (claimed_until IS NULL OR claimed_until <= ?)`, until, r.rowID(), at)
		if err != nil {
			return nil, err
		}
		if n, err := res.RowsAffected(); err != nil {
			return nil, err
		} else if n == 1 { // else another server claimed it since the SELECT
			claimed = append(claimed, r)
		}
	}
	return claimed, nil
}

func (r outboxRow) rowID() int64 { return r.ID }

// Record stores the outcomes of sends in one unit of the writer: a failed one keeps its error and
// when to retry (never, at a zero time). An order's e-mail stays a small row once sent too: the
// operator's list composes it again from the order.
func (s *OutboxService) Record(ctx context.Context, outcomes []palaro.OutboxOutcome) (err error) {
	defer wrapErr(&err, "store: Record")

	var missing []string
	err = s.db.inWrite(ctx, func(ctx context.Context, tx *sql.Tx) error {
		missing = missing[:0]
		for _, o := range outcomes {
			var res sql.Result
			var err error
			errText := o.Error
			if len(errText) > 500 {
				errText = errText[:500]
			}
			switch {
			case o.Sent:
				res, err = tx.ExecContext(ctx, `UPDATE outbox SET status = 'sent', sent_at = ?, claimed_until = NULL,
					last_error = '' WHERE id = ?`, formatTime(o.SentAt), o.ID)
			case o.RetryAt.IsZero():
				res, err = tx.ExecContext(ctx, `UPDATE outbox SET status = 'failed', last_error = ?, claimed_until = NULL
					WHERE id = ?`, errText, o.ID)
			default:
				res, err = tx.ExecContext(ctx, `UPDATE outbox SET last_error = ?, next_attempt_at = ?, claimed_until = NULL
					WHERE id = ?`, errText, formatTime(o.RetryAt), o.ID)
			}
			if err != nil {
				return err
			}
			if n, _ := res.RowsAffected(); n == 0 {
				missing = append(missing, strconv.FormatInt(o.ID, 10))
			}
		}
		return nil
	})
	if err != nil {
		return err
	}
	if len(missing) > 0 {
		return palaro.Errorf(palaro.ENOTFOUND, "Message not found: %s.", strings.Join(missing, ", "))
	}
	return nil
}

// ListOutbox returns messages matching the filter, newest first.
func (s *OutboxService) ListOutbox(ctx context.Context, f palaro.OutboxFilter) (_ []palaro.OutboxMessage, err error) {
	defer wrapErr(&err, "store: ListOutbox")

	switch f.Status {
	case "", palaro.MessagePending, palaro.MessageSent, palaro.MessageFailed:
	default:
		return nil, palaro.Errorf(palaro.EINVALID, "Unknown message status %q.", f.Status)
	}
	if f.Limit <= 0 || f.Limit > 1000 {
		f.Limit = 100
	}
	where, args := []string{"1 = 1"}, []any{}
	if f.To != "" {
		where, args = append(where, "recipient = ?"), append(args, strings.ToLower(strings.TrimSpace(f.To)))
	}
	if f.Status != "" {
		where, args = append(where, "status = ?"), append(args, f.Status)
	}
	args = append(args, f.Limit)
	found, err := queryRows(ctx, s.db.read, `SELECT `+outboxColumns+` FROM outbox WHERE `+
		strings.Join(where, " AND ")+` ORDER BY id DESC LIMIT ?`, args, scanOutbox)
	if err != nil {
		return nil, err
	}
	msgs, _, err := s.composeOrderMessages(ctx, found)
	if err != nil {
		return nil, err
	}
	if _, err := s.composeEventChangeMessages(ctx, found, msgs); err != nil {
		return nil, err
	}
	if _, err := s.composeEventMail(ctx, found, msgs); err != nil {
		return nil, err
	}
	return msgs, nil
}

// OutboxCounts returns how many messages wait to be sent (pending) and how many were given up on
// (failed), for the operator's metrics (an index-only count: outbox_due).
func (s *OutboxService) OutboxCounts(ctx context.Context) (pending, failed int, err error) {
	defer wrapErr(&err, "store: OutboxCounts")

	return pendingFailed(ctx, s.db.read, "outbox")
}
