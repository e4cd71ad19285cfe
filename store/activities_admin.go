package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"

	"palaro"
)

var _ palaro.ActivityAdmin = (*ActivityService)(nil)

// SaveActivity creates or updates an event's activity by code, with its prizes, in one write
// transaction, and appends the change to the event's audit log. A prize's stock is set with
// `WHERE awarded <= ?`, so it never goes below what was already won.
func (s *ActivityService) SaveActivity(ctx context.Context, eventID int64, actor string, in palaro.ActivityInput) (_ *palaro.Activity, err error) {
	defer wrapErr(&err, "store: SaveActivity(%d)", eventID)

	if err := in.Validate(); err != nil {
		return nil, err
	}
	return write(ctx, s.db, func(ctx context.Context, tx *sql.Tx) (*palaro.Activity, error) {
		now := s.db.Now()
		var id int64
		err := tx.QueryRowContext(ctx, `INSERT INTO activities (event_id, code, kind, name, description, points, starts_at, ends_at,
		ticket_holders_only, win_percent, quiz, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
		ON CONFLICT (event_id, code) DO UPDATE SET kind = excluded.kind, name = excluded.name, description = excluded.description,
		points = excluded.points, starts_at = excluded.starts_at, ends_at = excluded.ends_at,
		ticket_holders_only = excluded.ticket_holders_only, win_percent = excluded.win_percent, quiz = excluded.quiz
		RETURNING id`, eventID, in.Code, in.Kind, in.Name, in.Description, in.Points, formatTime(in.StartsAt), formatTime(in.EndsAt),
			in.TicketHoldersOnly, in.WinPercent, in.Quiz, formatTime(now)).Scan(&id)
		if err != nil {
			return nil, err
		}
		for i, p := range in.Prizes {
			res, err := tx.ExecContext(ctx, `INSERT INTO prizes (activity_id, position, code, name, image_url, stock, claimable)
			VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT (activity_id, code) DO UPDATE SET position = excluded.position,
			name = excluded.name, image_url = excluded.image_url, stock = excluded.stock, claimable = excluded.claimable
			WHERE prizes.awarded <= excluded.stock`, id, i, p.Code, p.Name, p.ImageURL, p.Stock, p.Claimable)
			if err != nil {
				return nil, err
			}
			if n, _ := res.RowsAffected(); n == 0 {
				return nil, palaro.Errorf(palaro.ECONFLICT, "The stock of %s cannot go below the number already won.", p.Name)
			}
		}
		var orgID int64
		var code string
		if err := tx.QueryRowContext(ctx, `SELECT organizer_id, code FROM events WHERE id = ?`, eventID).Scan(&orgID, &code); err != nil {
			return nil, err
		}
		detail, _ := json.Marshal(in)
		if err := audit(ctx, tx, orgID, eventID, actor, "activity.save", string(detail), now); err != nil {
			return nil, err
		}
		a, err := findActivity(ctx, tx, code, in.Code)
		if err != nil {
			return nil, err
		}
		return a, nil
	})
}

// ListClaims returns the claimable prizes won at an activity, unclaimed first.
func (s *ActivityService) ListClaims(ctx context.Context, activityID int64) (_ []palaro.Claim, err error) {
	defer wrapErr(&err, "store: ListClaims(%d)", activityID)

	tx, err := s.db.beginRead(ctx)
	if err != nil {
		return nil, err
	}
	defer tx.Rollback()
	rows, err := tx.QueryContext(ctx, `SELECT v.id, pt.first_name || ' ' || pt.last_name, p.name, v.created_at, v.claimed_at, v.claimed_by
		FROM activity_visits v JOIN prizes p ON p.id = v.prize_id JOIN participants pt ON pt.id = v.participant_id
		WHERE v.activity_id = ? AND p.claimable = 1 ORDER BY v.claimed_at IS NOT NULL, v.created_at`, activityID)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := []palaro.Claim{}
	for rows.Next() {
		var c palaro.Claim
		var won, claimed sql.NullString
		if err := rows.Scan(&c.VisitID, &c.Participant, &c.PrizeName, &won, &claimed, &c.ClaimedBy); err != nil {
			return nil, err
		}
		if c.WonAt, err = parseTime(won); err != nil {
			return nil, err
		}
		if c.ClaimedAt, err = parseTime(claimed); err != nil {
			return nil, err
		}
		out = append(out, c)
	}
	return out, rows.Err()
}

// ClaimPrize marks a won prize handed over, once (`WHERE claimed_at IS NULL`).
func (s *ActivityService) ClaimPrize(ctx context.Context, activityID, visitID int64, actor string) (err error) {
	defer wrapErr(&err, "store: ClaimPrize(%d)", activityID)

	return s.db.inWrite(ctx, func(ctx context.Context, tx *sql.Tx) error {
		var claimed sql.NullString
		err := tx.QueryRowContext(ctx, `SELECT v.claimed_at FROM activity_visits v JOIN prizes p ON p.id = v.prize_id
		WHERE v.id = ? AND v.activity_id = ? AND p.claimable = 1`, visitID, activityID).Scan(&claimed)
		if errors.Is(err, sql.ErrNoRows) {
			return palaro.Errorf(palaro.ENOTFOUND, "No such prize to claim.")
		} else if err != nil {
			return err
		}
		res, err := tx.ExecContext(ctx, `UPDATE activity_visits SET claimed_at = ?, claimed_by = ? WHERE id = ? AND claimed_at IS NULL`,
			formatTime(s.db.Now()), actor, visitID)
		if err != nil {
			return err
		}
		if n, _ := res.RowsAffected(); n == 0 {
			return palaro.Errorf(palaro.ECONFLICT, "This prize was already claimed.")
		}
		return nil
	})
}

// SetPrizeImage stores an uploaded prize picture (or takes a built-in picture's name) and sets it
// on the prize, in one write transaction with its audit entry. Cards already drawn keep theirs.
func (s *ActivityService) SetPrizeImage(ctx context.Context, eventID int64, actor, activityCode, prizeCode string, png []byte, imageURL string) (_ string, err error) {
	defer wrapErr(&err, "store: SetPrizeImage(%d)", eventID)

	err = s.db.inWrite(ctx, func(ctx context.Context, tx *sql.Tx) error {
		now := s.db.Now()
		if png != nil {
			name := newPublicID()
			if _, err := tx.ExecContext(ctx, `INSERT INTO prize_images (event_id, content_type, data, created_at, name) VALUES (?, 'image/png', ?, ?, ?)`,
				eventID, png, formatTime(now), name); err != nil {
				return err
			}
			imageURL = palaro.PrizeImageURL(name)
		}
		res, err := tx.ExecContext(ctx, `UPDATE prizes SET image_url = ? WHERE code = ?
			AND activity_id = (SELECT id FROM activities WHERE event_id = ? AND code = ?)`, imageURL, prizeCode, eventID, activityCode)
		if err != nil {
			return err
		}
		if n, _ := res.RowsAffected(); n == 0 {
			return palaro.Errorf(palaro.ENOTFOUND, "Prize not found.")
		}
		var orgID int64
		if err := tx.QueryRowContext(ctx, `SELECT organizer_id FROM events WHERE id = ?`, eventID).Scan(&orgID); err != nil {
			return err
		}
		detail, _ := json.Marshal(map[string]string{"activity": activityCode, "prize": prizeCode, "imageUrl": imageURL})
		return audit(ctx, tx, orgID, eventID, actor, "prize.image", string(detail), now)
	})
	return imageURL, err
}

// FindPrizeImage returns the uploaded prize picture of that random name.
func (s *ActivityService) FindPrizeImage(ctx context.Context, name string) (_ []byte, err error) {
	defer wrapErr(&err, "store: FindPrizeImage(%q)", name)

	var data []byte
	err = s.db.read.QueryRowContext(ctx, `SELECT data FROM prize_images WHERE name = ?`, name).Scan(&data)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, palaro.Errorf(palaro.ENOTFOUND, "Image not found.")
	}
	return data, err
}
