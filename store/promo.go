package store

import (
	"context"
	"database/sql"
	"errors"
	"strings"
	"time"

	"palaro"
)

// FindPromoCode returns a usable promo code for an event.
func (s *PurchaseService) FindPromoCode(ctx context.Context, code string, eventID int64, now time.Time) (_ *palaro.PromoCode, err error) {
	defer wrapErr(&err, "store: FindPromoCode(%q)", code)

	p, err := findPromo(ctx, s.db.read, code)
	if err != nil {
		return nil, err
	}
	if err := p.Check(eventID, now); err != nil {
		return nil, err
	}
	return p, nil
}

func findPromo(ctx context.Context, q queryRower, code string) (*palaro.PromoCode, error) {
	code = strings.TrimSpace(code)
	if code == "" || len(code) > 64 {
		return nil, palaro.Errorf(palaro.ENOTFOUND, "Promo code not found.")
	}
	var p palaro.PromoCode
	var eventID sql.NullInt64
	var from, until sql.NullString
	err := q.QueryRowContext(ctx, `SELECT id, code, event_id, kind, percent, amount, valid_from, valid_until,
		usage_limit, used, paused, retired FROM promo_codes WHERE lower(code) = lower(?)`, code).Scan(&p.ID, &p.Code, &eventID, &p.Kind,
		&p.Percent, &p.Amount, &from, &until, &p.UsageLimit, &p.Used, &p.Paused, &p.Retired)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, palaro.Errorf(palaro.ENOTFOUND, "Promo code not found.")
	} else if err != nil {
		return nil, err
	}
	p.EventID = eventID.Int64
	p.ValidFrom, _ = parseTime(from)
	p.ValidUntil, _ = parseTime(until)
	if p.TicketTypeIDs, err = promoTicketTypes(ctx, q, p.ID); err != nil {
		return nil, err
	}
	return &p, nil
}

// CreatePromoCode stores a new promo code (operator tools, demo data and tests).
func (s *PurchaseService) CreatePromoCode(ctx context.Context, p *palaro.PromoCode) (err error) {
	defer wrapErr(&err, "store: CreatePromoCode")

	return s.db.inWrite(ctx, func(ctx context.Context, tx *sql.Tx) error {
		return insertPromo(ctx, tx, p)
	})
}

func insertPromo(ctx context.Context, tx *sql.Tx, p *palaro.PromoCode) error {
	if p.Kind != palaro.PromoPercent && p.Kind != palaro.PromoFixed {
		return palaro.Errorf(palaro.EINVALID, "Unknown promo kind %q.", p.Kind)
	}
	var eventID any
	if p.EventID != 0 {
		eventID = p.EventID
	}
	id, err := insertID(ctx, tx, `INSERT INTO promo_codes (code, event_id, kind, percent, amount, valid_from,
		valid_until, usage_limit) VALUES (?, ?, ?, ?, ?, ?, ?, ?)`, p.Code, eventID, p.Kind, p.Percent, p.Amount,
		nullTime(p.ValidFrom), nullTime(p.ValidUntil), p.UsageLimit)
	if isUniqueViolation(err) {
		return palaro.Errorf(palaro.ECONFLICT, "Promo code %s already exists.", p.Code)
	} else if err != nil {
		return err
	}
	p.ID = id
	return nil
}

// usePromo counts one use of a promo code, atomically against its usage limit and its being
// paused or retired (an organizer may stop it while the order is being placed).
func usePromo(ctx context.Context, tx *sql.Tx, p *palaro.PromoCode) error {
	res, err := tx.ExecContext(ctx, `UPDATE promo_codes SET used = used + 1
		WHERE id = ? AND paused = 0 AND retired = 0 AND (usage_limit = 0 OR used < usage_limit)`, p.ID)
	if err != nil {
		return err
	}
	if n, _ := res.RowsAffected(); n == 0 {
		var paused, retired bool
		if err := tx.QueryRowContext(ctx, `SELECT paused, retired FROM promo_codes WHERE id = ?`, p.ID).Scan(&paused, &retired); err != nil {
			return err
		}
		switch {
		case retired:
			return palaro.PromoRetired(p.Code)
		case paused:
			return palaro.PromoPaused(p.Code)
		}
		return palaro.PromoUsedUp(p.Code)
	}
	return nil
}
