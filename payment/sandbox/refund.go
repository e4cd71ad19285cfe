package sandbox

import (
	"context"
	"database/sql"
	"errors"
	"time"

	"palaro"
)

// RefundRecord is one refund the sandbox made: at most one per idempotency key.
type RefundRecord struct {
	ID        string
	Key       string
	SessionID string
	Amount    palaro.Money
	Reason    string
	CreatedAt time.Time
}

// RefundStore keeps the sandbox's refunds; SQLStore is one.
type RefundStore interface {
	// SaveRefund records r unless a refund with r.Key exists, and returns the refund stored
	// under that key (r or the earlier one). Returns EINVALID when the session's refunds would
	// come to more than paid.
	SaveRefund(ctx context.Context, r RefundRecord, paid palaro.Money) (RefundRecord, error)
	// CountRefunds counts the refunds made, for tests that check money moved once.
	CountRefunds(ctx context.Context) (int, error)
}

// Refund gives back part or all of a paid session's payment, at once: the sandbox confirms every
// refund it accepts (after Config.RefundDelay, a slow gateway for tests). Asking again with the
// same key returns the first refund and moves nothing. Returns EINVALID for an unknown or unpaid
// session or an amount over what is left of the payment.
func (p *Provider) Refund(ctx context.Context, r palaro.RefundRequest) (palaro.RefundResult, error) {
	if err := r.Validate(); err != nil {
		return palaro.RefundResult{}, err
	}
	st, ok := p.cfg.Store.(RefundStore)
	if !ok {
		return palaro.RefundResult{}, errors.New("sandbox: the session store keeps no refunds")
	}
	s, err := p.cfg.Store.FindSession(ctx, r.SessionID)
	if isCode(err, palaro.ENOTFOUND) {
		return palaro.RefundResult{}, palaro.Errorf(palaro.EINVALID, "The payment provider has no such payment to refund.")
	} else if err != nil {
		return palaro.RefundResult{}, err
	}
	if s.Status != palaro.PaymentPaid {
		return palaro.RefundResult{}, palaro.Errorf(palaro.EINVALID, "The payment provider has no payment for this order to refund.")
	}
	if p.cfg.RefundDelay > 0 {
		select {
		case <-time.After(p.cfg.RefundDelay):
		case <-ctx.Done():
			return palaro.RefundResult{}, ctx.Err()
		}
	}
	rec, err := st.SaveRefund(ctx, RefundRecord{ID: newID("ref_"), Key: r.Key, SessionID: s.ID, Amount: r.Amount, Reason: r.Reason,
		CreatedAt: p.cfg.Now()}, s.Checkout.Total)
	if err != nil {
		return palaro.RefundResult{}, err
	}
	return palaro.RefundResult{ID: rec.ID, Status: palaro.RefundRefunded}, nil
}

// SaveRefund records r unless its key is taken, in one write, and returns the refund stored under
// the key. Returns EINVALID when the session's refunds would come to more than paid.
func (st *SQLStore) SaveRefund(ctx context.Context, r RefundRecord, paid palaro.Money) (RefundRecord, error) {
	err := st.write(ctx, func(ctx context.Context, tx *sql.Tx) error {
		// The key first: a repeat is answered with the first refund, even when nothing is left.
		var n int
		if err := tx.QueryRowContext(ctx, `SELECT count(*) FROM sandbox_refunds WHERE refund_key = ?`, r.Key).Scan(&n); err != nil || n > 0 {
			return err
		}
		res, err := tx.ExecContext(ctx, `INSERT INTO sandbox_refunds (id, refund_key, session_id, amount, reason, created_at)
			SELECT ?, ?, ?, ?, ?, ? WHERE (SELECT coalesce(sum(amount), 0) FROM sandbox_refunds WHERE session_id = ?) + ? <= ?
			ON CONFLICT (refund_key) DO NOTHING`,
			r.ID, r.Key, r.SessionID, int64(r.Amount), r.Reason, formatTime(r.CreatedAt), r.SessionID, int64(r.Amount), int64(paid))
		if err != nil {
			return err
		}
		if n, err := res.RowsAffected(); err != nil || n == 1 {
			return err
		}
		return palaro.Errorf(palaro.EINVALID, "The refund is more than what is left of the payment.")
	})
	if err != nil {
		return RefundRecord{}, err
	}
	var out RefundRecord
	var amount int64
	var created string
	err = st.read.QueryRowContext(ctx, `SELECT id, refund_key, session_id, amount, reason, created_at FROM sandbox_refunds WHERE refund_key = ?`, r.Key).
		Scan(&out.ID, &out.Key, &out.SessionID, &amount, &out.Reason, &created)
	out.Amount, out.CreatedAt = palaro.Money(amount), parseTime(created)
	return out, err
}

// CountRefunds counts the refunds the sandbox made.
func (st *SQLStore) CountRefunds(ctx context.Context) (int, error) {
	var n int
	err := st.read.QueryRowContext(ctx, `SELECT count(*) FROM sandbox_refunds`).Scan(&n)
	return n, err
}
