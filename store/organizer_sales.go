package store

import (
	"cmp"
	"context"
	"database/sql"
	"maps"
	"slices"
	"time"

	"palaro"
)

// SalesReport sums an event's paid orders per Manila day, per ticket type and per promo code or
// source, and counts its issued and checked-in tickets. The paid orders are read once: one query
// groups them by day, ticket type, source and promo code (from the covering index
// orders_event_paid), and those few hundred groups are folded here into the report's lines; the
// tickets are counted per status and type.
func (s *OrganizerService) SalesReport(ctx context.Context, eventID int64) (_ *palaro.SalesReport, err error) {
	defer wrapErr(&err, "store: SalesReport(%d)", eventID)

	tx, err := s.db.beginRead(ctx)
	if err != nil {
		return nil, err
	}
	defer tx.Rollback()
	r := &palaro.SalesReport{}
	// Competitor passes (free tickets of players) are no sale: left out of the types, sources and issued tickets.
	type typeRow struct {
		id         int64
		name       string
		competitor bool
	}
	typeRows, err := queryRows(ctx, tx, `SELECT id, name, competitor_pass FROM ticket_types WHERE event_id = ?
		ORDER BY position, id`, []any{eventID}, func(rs rowScanner) (t typeRow, err error) {
		err = rs.Scan(&t.id, &t.name, &t.competitor)
		return t, err
	})
	if err != nil {
		return nil, err
	}
	types := map[int64]int{}       // ticket type id → its index in r.ByType
	competitor := map[int64]bool{} // the event's competitor pass types
	for _, t := range typeRows {
		if t.competitor {
			competitor[t.id] = true
			continue
		}
		types[t.id] = len(r.ByType)
		r.ByType = append(r.ByType, palaro.SalesLine{Label: t.name})
	}
	// Manila is UTC+8 without daylight saving: a paid_at shifted by 8 hours falls on its Manila date.
	// A ticket order's revenue is split: its add-ons' part (add_ons_total, less any discount beyond
	// the tickets' part) goes to the add-ons line, the rest to its ticket type; an add-on order is all
	// add-ons. The groups come ordered by their source's label, so that sources of equal revenue keep
	// the database's order of labels once sorted by revenue below.
	rows, err := tx.QueryContext(ctx, `SELECT g.day, g.ticket_type_id, g.source = 'competitor', CASE WHEN p.code IS NOT NULL THEN 'Promo ' || p.code
		WHEN g.source = 'box_office' THEN 'Box office' WHEN g.source != '' THEN g.source ELSE 'Direct' END AS label,
		g.tickets, g.total, g.ticket_part, g.add_on_part
		FROM (SELECT `+s.db.manilaDate("o.paid_at")+` AS day, o.ticket_type_id, o.source, o.promo_code_id,
			sum(CASE WHEN o.kind = 'tickets' THEN o.quantity ELSE 0 END) AS tickets, sum(o.total) AS total,
			sum(CASE WHEN o.kind = 'tickets' AND o.total > o.add_ons_total THEN o.total - o.add_ons_total ELSE 0 END) AS ticket_part,
			sum(CASE WHEN o.kind = 'add_ons' THEN o.total WHEN o.total > o.add_ons_total THEN o.add_ons_total ELSE o.total END) AS add_on_part
			FROM orders o WHERE o.event_id = ? AND o.status = 'paid'
			GROUP BY day, o.ticket_type_id, o.source, o.promo_code_id) g
		LEFT JOIN promo_codes p ON p.id = g.promo_code_id ORDER BY label`, eventID)
	if err != nil {
		return nil, err
	}
	days := map[string]palaro.SalesLine{}
	sources := map[string]int{} // label → its index in r.BySource
	for rows.Next() {
		var day sql.NullString
		var typeID sql.NullInt64
		var fromCompetitor bool
		var label string
		var tickets int
		var total, ticketPart, addOnPart palaro.Money
		if err := rows.Scan(&day, &typeID, &fromCompetitor, &label, &tickets, &total, &ticketPart, &addOnPart); err != nil {
			rows.Close()
			return nil, err
		}
		if day.Valid {
			d := days[day.String]
			d.Tickets, d.Revenue = d.Tickets+tickets, d.Revenue+total
			days[day.String] = d
		}
		if i, ok := types[typeID.Int64]; ok && typeID.Valid {
			r.ByType[i].Tickets += tickets
			r.ByType[i].Revenue += ticketPart
		}
		r.AddOnRevenue += addOnPart
		if !fromCompetitor {
			i, ok := sources[label]
			if !ok {
				i = len(r.BySource)
				sources[label] = i
				r.BySource = append(r.BySource, palaro.SalesLine{Label: label})
			}
			r.BySource[i].Tickets += tickets
			r.BySource[i].Revenue += total
		}
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, err
	}
	slices.SortStableFunc(r.BySource, func(a, b palaro.SalesLine) int { return cmp.Compare(b.Revenue, a.Revenue) })
	for _, day := range slices.Sorted(maps.Keys(days)) {
		t, err := time.ParseInLocation("2006-01-02", day, palaro.Manila)
		if err != nil {
			return nil, err
		}
		r.Days = append(r.Days, palaro.SalesDay{Date: t, Tickets: days[day].Tickets, Revenue: days[day].Revenue})
		r.Revenue += days[day].Revenue
	}
	// The tickets issued and checked in: counted per status and type in the order of the index
	// tickets_event_counts (no sorting), the cancelled ones and competitor passes left out here.
	type countRow struct {
		status string
		typeID int64
		n      int
	}
	counts, err := queryRows(ctx, tx, `SELECT status, ticket_type_id, count(*) FROM tickets WHERE event_id = ?
		GROUP BY status, ticket_type_id`, []any{eventID}, func(rs rowScanner) (c countRow, err error) {
		err = rs.Scan(&c.status, &c.typeID, &c.n)
		return c, err
	})
	if err != nil {
		return nil, err
	}
	for _, c := range counts {
		if c.status == palaro.TicketCancelled || competitor[c.typeID] {
			continue
		}
		r.Issued += c.n
		if c.status == palaro.TicketCheckedIn {
			r.CheckedIn += c.n
		}
	}
	if err := tx.QueryRowContext(ctx, `SELECT count(*), coalesce(sum(discount_amount), 0) FROM tickets
		WHERE event_id = ? AND status != 'cancelled' AND discount_type != ''`, eventID).Scan(&r.SeniorPWDTickets, &r.SeniorPWDDiscount); err != nil {
		return nil, err
	}
	return r, nil
}
