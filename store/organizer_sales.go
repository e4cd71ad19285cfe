package store

import (
	"context"
	"database/sql"
	"time"

	"palaro"
)

// SalesReport sums an event's paid orders per Manila day, per ticket type and per promo code or
// source, and counts its issued and checked-in tickets.
func (s *OrganizerService) SalesReport(ctx context.Context, eventID int64) (_ *palaro.SalesReport, err error) {
	defer wrapErr(&err, "store: SalesReport(%d)", eventID)

	tx, err := s.db.beginRead(ctx)
	if err != nil {
		return nil, err
	}
	defer tx.Rollback()
	r := &palaro.SalesReport{}
	lines := func(query string) ([]palaro.SalesLine, error) {
		rows, err := tx.QueryContext(ctx, query, eventID)
		if err != nil {
			return nil, err
		}
		defer rows.Close()
		var out []palaro.SalesLine
		for rows.Next() {
			var l palaro.SalesLine
			if err := rows.Scan(&l.Label, &l.Tickets, &l.Revenue); err != nil {
				return nil, err
			}
			out = append(out, l)
		}
		return out, rows.Err()
	}
	// Manila is UTC+8 without daylight saving: a paid_at shifted by 8 hours falls on its Manila date.
	days, err := lines(`SELECT ` + s.db.manilaDate("o.paid_at") + ` AS day, sum(CASE WHEN o.kind = 'tickets' THEN o.quantity ELSE 0 END),
		sum(o.total) FROM orders o WHERE o.event_id = ? AND o.status = 'paid' AND o.paid_at IS NOT NULL GROUP BY day ORDER BY day`)
	if err != nil {
		return nil, err
	}
	for _, d := range days {
		t, err := time.ParseInLocation("2006-01-02", d.Label, palaro.Manila)
		if err != nil {
			return nil, err
		}
		r.Days = append(r.Days, palaro.SalesDay{Date: t, Tickets: d.Tickets, Revenue: d.Revenue})
		r.Revenue += d.Revenue
	}
	// Competitor passes (free tickets of players) are no sale: left out of the types, sources and issued tickets.
	// A ticket order's revenue is split: its add-ons' part (add_ons_total, less any discount beyond
	// the tickets' part) goes to the add-ons line, the rest to its ticket type; an add-on order is all add-ons.
	if r.ByType, err = lines(`SELECT tt.name, coalesce(sum(CASE WHEN o.kind = 'tickets' THEN o.quantity END), 0),
		coalesce(sum(CASE WHEN o.kind = 'tickets' AND o.total > o.add_ons_total THEN o.total - o.add_ons_total ELSE 0 END), 0)
		FROM ticket_types tt
		LEFT JOIN orders o ON o.ticket_type_id = tt.id AND o.status = 'paid'
		WHERE tt.event_id = ? AND tt.competitor_pass = 0 GROUP BY tt.id ORDER BY tt.position, tt.id`); err != nil {
		return nil, err
	}
	if err := tx.QueryRowContext(ctx, `SELECT coalesce(sum(CASE WHEN o.kind = 'add_ons' THEN o.total
		WHEN o.total > o.add_ons_total THEN o.add_ons_total ELSE o.total END), 0)
		FROM orders o WHERE o.event_id = ? AND o.status = 'paid'`, eventID).Scan(&r.AddOnRevenue); err != nil {
		return nil, err
	}
	if r.BySource, err = lines(`SELECT CASE WHEN p.code IS NOT NULL THEN 'Promo ' || p.code
		WHEN o.source = 'box_office' THEN 'Box office' WHEN o.source != '' THEN o.source ELSE 'Direct' END AS label,
		sum(CASE WHEN o.kind = 'tickets' THEN o.quantity ELSE 0 END), sum(o.total)
		FROM orders o LEFT JOIN promo_codes p ON p.id = o.promo_code_id
		WHERE o.event_id = ? AND o.status = 'paid' AND o.source != 'competitor' GROUP BY label ORDER BY 3 DESC, 1`); err != nil {
		return nil, err
	}
	var checked sql.NullInt64
	if err := tx.QueryRowContext(ctx, `SELECT count(*), sum(CASE WHEN status = 'checked_in' THEN 1 ELSE 0 END) FROM tickets
		WHERE event_id = ? AND status != 'cancelled' AND ticket_type_id NOT IN (SELECT id FROM ticket_types WHERE competitor_pass = 1)`,
		eventID).Scan(&r.Issued, &checked); err != nil {
		return nil, err
	}
	r.CheckedIn = int(checked.Int64)
	if err := tx.QueryRowContext(ctx, `SELECT count(*), coalesce(sum(discount_amount), 0) FROM tickets
		WHERE event_id = ? AND status != 'cancelled' AND discount_type != ''`, eventID).Scan(&r.SeniorPWDTickets, &r.SeniorPWDDiscount); err != nil {
		return nil, err
	}
	return r, nil
}
