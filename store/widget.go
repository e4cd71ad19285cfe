package store

import (
	"context"
	"database/sql"
	"strings"
	"time"

	"palaro"
)

// SaveWidgetOrigins replaces the sites that may frame the event's ticket widget, audit-logged.
func (s *OrganizerService) SaveWidgetOrigins(ctx context.Context, eventID int64, actor string, origins []string, now time.Time) (err error) {
	defer wrapErr(&err, "store: SaveWidgetOrigins(%d)", eventID)

	checked, err := palaro.ParseWidgetOrigins(strings.Join(origins, " "))
	if err != nil {
		return err
	}
	list := strings.Join(checked, " ")
	return s.db.inWrite(ctx, func(ctx context.Context, tx *sql.Tx) error {
		res, err := tx.ExecContext(ctx, `UPDATE events SET widget_origins = ? WHERE id = ?`, list, eventID)
		if err != nil {
			return err
		}
		if n, _ := res.RowsAffected(); n == 0 {
			return palaro.Errorf(palaro.ENOTFOUND, "Event not found.")
		}
		detail := list
		if detail == "" {
			detail = "no site"
		}
		return auditOn(ctx, tx, eventID, actor, "widget sites saved", detail, now)
	})
}
