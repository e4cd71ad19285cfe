package store

import (
	"context"
	"database/sql"
	"errors"

	"palaro"
)

// SetEventCover stores a cover's images as a new version and points the event at its widest one.
func (s *OrganizerService) SetEventCover(ctx context.Context, eventID int64, actor string, images map[int][]byte) (_ string, err error) {
	defer wrapErr(&err, "store: SetEventCover(%d)", eventID)

	return write(ctx, s.db, func(ctx context.Context, tx *sql.Tx) (string, error) {
		var version int64
		if err := tx.QueryRowContext(ctx, `SELECT coalesce(max(version), 0) + 1 FROM event_images`).Scan(&version); err != nil {
			return "", err
		}
		now := formatTime(s.db.Now())
		name := newPublicID()
		for width, data := range images {
			if _, err := tx.ExecContext(ctx, `INSERT INTO event_images (version, width, event_id, content_type, data, created_at, name)
			VALUES (?, ?, ?, 'image/jpeg', ?, ?, ?)`, version, width, eventID, data, now, name); err != nil {
				return "", err
			}
		}
		url := palaro.CoverPath(name, palaro.CoverWidths[0])
		res, err := tx.ExecContext(ctx, `UPDATE events SET image_url = ?, updated_at = ? WHERE id = ?`, url, now, eventID)
		if err != nil {
			return "", err
		}
		if n, _ := res.RowsAffected(); n == 0 {
			return "", palaro.Errorf(palaro.ENOTFOUND, "Event not found.")
		}
		// Older versions are no longer shown anywhere.
		if _, err := tx.ExecContext(ctx, `DELETE FROM event_images WHERE event_id = ? AND version != ?`, eventID, version); err != nil {
			return "", err
		}
		if err := s.auditEvent(ctx, tx, eventID, actor, "cover image changed", ""); err != nil {
			return "", err
		}
		return url, nil
	})
}

// FindEventImage returns the JPEG bytes of the cover of that random name at a width.
func (s *OrganizerService) FindEventImage(ctx context.Context, name string, width int) (_ []byte, err error) {
	defer wrapErr(&err, "store: FindEventImage(%q)", name)

	var data []byte
	err = s.db.read.QueryRowContext(ctx, `SELECT data FROM event_images WHERE name = ? AND width = ?`, name, width).Scan(&data)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, palaro.Errorf(palaro.ENOTFOUND, "Image not found.")
	}
	return data, err
}
