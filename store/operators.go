package store

import (
	"context"
	"database/sql"
	"errors"

	"palaro"
)

// OperatorService implements palaro.Operators on SQLite.
type OperatorService struct {
	db *DB
}

var _ palaro.Operators = (*OperatorService)(nil)

// NewOperatorService returns the operator service.
func NewOperatorService(db *DB) *OperatorService { return &OperatorService{db: db} }

// IsOperator reports whether the account is an operator.
func (s *OperatorService) IsOperator(ctx context.Context, userID int64) (_ bool, err error) {
	defer wrapErr(&err, "store: IsOperator(%d)", userID)

	var n int
	err = s.db.read.QueryRowContext(ctx, `SELECT COUNT(*) FROM operators WHERE user_id = ?`, userID).Scan(&n)
	return n > 0, err
}

// SetOperator grants or revokes the operator role of the account with the e-mail address.
func (s *OperatorService) SetOperator(ctx context.Context, email string, operator bool) (err error) {
	defer wrapErr(&err, "store: SetOperator")

	return s.db.inWrite(ctx, func(ctx context.Context, tx *sql.Tx) error {
		var id int64
		err := tx.QueryRowContext(ctx, `SELECT id FROM users WHERE lower(email) = ?`, palaro.NormalizeEmail(email)).Scan(&id)
		if errors.Is(err, sql.ErrNoRows) {
			return palaro.Errorf(palaro.ENOTFOUND, "No account has this e-mail address.")
		} else if err != nil {
			return err
		}
		if !operator {
			_, err = tx.ExecContext(ctx, `DELETE FROM operators WHERE user_id = ?`, id)
			return err
		}
		_, err = tx.ExecContext(ctx, `INSERT INTO operators (user_id, granted_at) VALUES (?, ?) ON CONFLICT (user_id) DO NOTHING`,
			id, formatTime(s.db.Now()))
		return err
	})
}

// ListOperators returns the operators' e-mail addresses, alphabetically.
func (s *OperatorService) ListOperators(ctx context.Context) (_ []string, err error) {
	defer wrapErr(&err, "store: ListOperators")

	return queryStrings(ctx, s.db.read, `SELECT u.email FROM operators o JOIN users u ON u.id = o.user_id ORDER BY u.email`)
}
