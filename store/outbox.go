package store

import (
	"context"
	"database/sql"
	"strings"
	"time"

	"palaro"
)

// OutboxService implements palaro.Outbox.
type OutboxService struct{ db *DB }

// NewOutboxService returns the outbox backed by db.
func NewOutboxService(db *DB) *OutboxService { return &OutboxService{db: db} }

var _ palaro.Outbox = (*OutboxService)(nil)

// Enqueue writes one message to the outbox on its own, for messages not tied to another change.
// Messages caused by a change (an order, a sign-up) are written in that change's transaction.
func (s *OutboxService) Enqueue(ctx context.Context, m palaro.Message, now time.Time) error {
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

const outboxColumns = `id, channel, kind, recipient, subject, body_text, body_html, status, attempts,
	last_error, next_attempt_at, created_at, sent_at`

func scanOutbox(r rowScanner) (palaro.OutboxMessage, error) {
	var m palaro.OutboxMessage
	var next, created, sent sql.NullString
	err := r.Scan(&m.ID, &m.Channel, &m.Kind, &m.To, &m.Subject, &m.Text, &m.HTML, &m.Status, &m.Attempts,
		&m.LastError, &next, &created, &sent)
	if err != nil {
		return m, err
	}
	m.NextAttemptAt, _ = parseTime(next)
	m.CreatedAt, _ = parseTime(created)
	m.SentAt, _ = parseTime(sent)
	return m, nil
}

// ClaimDue claims up to limit due pending messages for lease and returns them, oldest first.
func (s *OutboxService) ClaimDue(ctx context.Context, now time.Time, limit int, lease time.Duration) ([]palaro.OutboxMessage, error) {
	var msgs []palaro.OutboxMessage
	err := s.db.inWrite(ctx, func(ctx context.Context, tx *sql.Tx) error {
		msgs = nil
		rows, err := tx.QueryContext(ctx, `SELECT `+outboxColumns+` FROM outbox
			WHERE status = 'pending' AND next_attempt_at <= ? AND (claimed_until IS NULL OR claimed_until <= ?)
			ORDER BY next_attempt_at, id LIMIT ?`, formatTime(now), formatTime(now), limit)
		if err != nil {
			return err
		}
		for rows.Next() {
			m, err := scanOutbox(rows)
			if err != nil {
				rows.Close()
				return err
			}
			msgs = append(msgs, m)
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return err
		}
		for i := range msgs {
			msgs[i].Attempts++
			if _, err := tx.ExecContext(ctx, `UPDATE outbox SET claimed_until = ?, attempts = attempts + 1 WHERE id = ?`,
				formatTime(now.Add(lease)), msgs[i].ID); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return msgs, nil
}

// MarkSent records a sent message.
func (s *OutboxService) MarkSent(ctx context.Context, id int64, now time.Time) error {
	return s.update(ctx, `UPDATE outbox SET status = 'sent', sent_at = ?, claimed_until = NULL, last_error = ''
		WHERE id = ?`, formatTime(now), id)
}

// MarkFailed records a failed attempt and when to retry it; a zero retryAt gives up.
func (s *OutboxService) MarkFailed(ctx context.Context, id int64, errText string, retryAt time.Time) error {
	if len(errText) > 500 {
		errText = errText[:500]
	}
	if retryAt.IsZero() {
		return s.update(ctx, `UPDATE outbox SET status = 'failed', last_error = ?, claimed_until = NULL WHERE id = ?`,
			errText, id)
	}
	return s.update(ctx, `UPDATE outbox SET last_error = ?, next_attempt_at = ?, claimed_until = NULL WHERE id = ?`,
		errText, formatTime(retryAt), id)
}

func (s *OutboxService) update(ctx context.Context, query string, args ...any) error {
	return s.db.inWrite(ctx, func(ctx context.Context, tx *sql.Tx) error {
		res, err := tx.ExecContext(ctx, query, args...)
		if err != nil {
			return err
		}
		if n, _ := res.RowsAffected(); n == 0 {
			return palaro.Errorf(palaro.ENOTFOUND, "Message not found.")
		}
		return nil
	})
}

// ListOutbox returns messages matching the filter, newest first.
func (s *OutboxService) ListOutbox(ctx context.Context, f palaro.OutboxFilter) ([]palaro.OutboxMessage, error) {
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
	rows, err := s.db.read.QueryContext(ctx, `SELECT `+outboxColumns+` FROM outbox WHERE `+
		strings.Join(where, " AND ")+` ORDER BY id DESC LIMIT ?`, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var msgs []palaro.OutboxMessage
	for rows.Next() {
		m, err := scanOutbox(rows)
		if err != nil {
			return nil, err
		}
		msgs = append(msgs, m)
	}
	return msgs, rows.Err()
}
