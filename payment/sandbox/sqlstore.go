package sandbox

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"palaro"
)

// sqlTime is how the SQL store writes times: UTC with a fixed width, so text order is time order.
const sqlTime = "2006-01-02T15:04:05.000Z"

// SQLStore is a SessionStore in a SQL database (the app's own), in its own table
// sandbox_sessions, the way an external gateway keeps its own storage.
type SQLStore struct {
	read  *sql.DB
	write WriteFunc
}

// WriteFunc runs fn in a write transaction of db and commits it when fn returns nil; on an error
// nothing of fn is applied. fn must not commit or roll back tx.
type WriteFunc func(ctx context.Context, fn func(ctx context.Context, tx *sql.Tx) error) error

// NewSQLStoreIn returns a store that reads from read and writes through write (the app passes
// its batching writer, store.DB.Write, and its read pool, store.DB.Reader). The sandbox_sessions
// table is the app's migrations' (00611).
func NewSQLStoreIn(read *sql.DB, write WriteFunc) *SQLStore {
	return &SQLStore{read: read, write: write}
}

// CreateSession saves a new pending session. Returns ECONFLICT when its ID is taken.
func (st *SQLStore) CreateSession(ctx context.Context, s Session) error {
	checkout, err := json.Marshal(s.Checkout)
	if err != nil {
		return err
	}
	err = st.write(ctx, func(ctx context.Context, tx *sql.Tx) error {
		_, err := tx.ExecContext(ctx,
			`INSERT INTO sandbox_sessions (id, order_id, checkout, status, created_at, expires_at) VALUES (?, ?, ?, ?, ?, ?)`,
			s.ID, s.Checkout.OrderID, string(checkout), palaro.PaymentPending, formatTime(s.CreatedAt), formatTime(s.ExpiresAt))
		return err
	})
	if err != nil && strings.Contains(err.Error(), "UNIQUE") {
		return palaro.Errorf(palaro.ECONFLICT, "Checkout session %s already exists.", s.ID)
	}
	return err
}

// FindSession returns the session with the given id. Returns ENOTFOUND when there is none.
func (st *SQLStore) FindSession(ctx context.Context, id string) (Session, error) {
	var s Session
	var checkout, created, expires, paid string
	err := st.read.QueryRowContext(ctx,
		`SELECT id, checkout, status, created_at, expires_at, payment_id, method, event_id, paid_at FROM sandbox_sessions WHERE id = ?`, id).
		Scan(&s.ID, &checkout, &s.Status, &created, &expires, &s.Payment.ID, &s.Payment.Method, &s.Payment.EventID, &paid)
	if errors.Is(err, sql.ErrNoRows) {
		return Session{}, palaro.Errorf(palaro.ENOTFOUND, "This checkout does not exist.")
	} else if err != nil {
		return Session{}, err
	}
	if err := json.Unmarshal([]byte(checkout), &s.Checkout); err != nil {
		return Session{}, fmt.Errorf("sandbox session %s: %w", id, err)
	}
	s.CreatedAt, s.ExpiresAt, s.Payment.PaidAt = parseTime(created), parseTime(expires), parseTime(paid)
	return s, nil
}

// PaySession records p on a pending, unexpired session and returns the session as stored.
// Returns ENOTFOUND for an unknown session and ECONFLICT when it expired unpaid.
func (st *SQLStore) PaySession(ctx context.Context, id string, p Payment) (Session, error) {
	err := st.write(ctx, func(ctx context.Context, tx *sql.Tx) error {
		_, err := tx.ExecContext(ctx,
			`UPDATE sandbox_sessions SET status = ?, payment_id = ?, method = ?, event_id = ?, paid_at = ?
		 WHERE id = ? AND status = ? AND expires_at > ?`,
			palaro.PaymentPaid, p.ID, p.Method, p.EventID, formatTime(p.PaidAt), id, palaro.PaymentPending, formatTime(p.PaidAt))
		return err
	})
	if err != nil {
		return Session{}, err
	}
	// Read once the update is committed: the payment stored, this one or an earlier one.
	s, err := st.FindSession(ctx, id)
	if err == nil && s.Status != palaro.PaymentPaid {
		return s, palaro.Errorf(palaro.ECONFLICT, "This checkout has expired.")
	}
	return s, err
}

// ExpireSession ends a pending session's time at now, as if its payment had been left too long.
// Returns the session as stored afterwards: a session paid before stays paid. Returns ENOTFOUND
// for an unknown session.
func (st *SQLStore) ExpireSession(ctx context.Context, id string, now time.Time) (Session, error) {
	err := st.write(ctx, func(ctx context.Context, tx *sql.Tx) error {
		_, err := tx.ExecContext(ctx, `UPDATE sandbox_sessions SET expires_at = ? WHERE id = ? AND status = ? AND expires_at > ?`,
			formatTime(now), id, palaro.PaymentPending, formatTime(now))
		return err
	})
	if err != nil {
		return Session{}, err
	}
	return st.FindSession(ctx, id)
}

func formatTime(t time.Time) string {
	if t.IsZero() {
		return ""
	}
	return t.UTC().Format(sqlTime)
}

func parseTime(s string) time.Time {
	t, err := time.Parse(sqlTime, s)
	if err != nil {
		return time.Time{}
	}
	return t
}
