package store

import (
	"context"
	"database/sql"
	"fmt"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"palaro"
)

// TestSalesReport_OnePassMatchesFourPasses holds the dashboard's one grouped read of the paid
// orders to the four reads it replaced (one per figure, kept below as the reference), on every
// demo event and on one given orders of every kind the report treats apart: several Manila days
// (an order paid at 23:30 in Manila and one at 00:30 the next day), a paid order without paid_at,
// add-on orders, a competitor's order, promo codes, box office and other sources (two of equal
// revenue, whose order then comes from their labels), orders not paid (pending, refunded), and
// tickets valid, checked in, cancelled and of a competitor's pass.
func TestSalesReport_OnePassMatchesFourPasses(t *testing.T) {
	ctx := context.Background()
	f := newPurchaseFixture(t)
	f.addTicketType(t, "sales-pass-a", 20000, 100, 5)
	f.addTicketType(t, "sales-pass-b", 0, 100, 5)
	org := NewOrganizerService(f.db, nil)
	ev, err := org.FindEvent(ctx, "tekken-tuesdays-cubao")
	require.NoError(t, err)
	promo, err := org.CreatePromoCode(ctx, ev.ID, "owner@x.ph", palaro.PromoCode{Code: "ONEPASS", Kind: palaro.PromoFixed, Amount: 500})
	require.NoError(t, err)
	typeID := func(code string) int64 {
		var id int64
		require.NoError(t, f.db.read.QueryRow(`SELECT id FROM ticket_types WHERE code = ?`, code).Scan(&id))
		return id
	}
	a, b := typeID("sales-pass-a"), typeID("sales-pass-b")
	n := 0
	order := func(kind string, typ int64, qty int, source string, promoID any, total, addOns int64, status string, paidAt any) {
		n++
		_, err := f.db.write.Exec(`INSERT INTO orders (public_id, kind, event_id, ticket_type_id, quantity, email, source, promo_code_id,
			unit_price, add_ons_total, total, status, paid_at, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, 0, ?, ?, ?, ?, ?)`,
			fmt.Sprintf("one-pass-%d", n), kind, ev.ID, typ, qty, fmt.Sprintf("p%d@x.ph", n), source, promoID, addOns, total, status,
			paidAt, formatTime(f.now))
		require.NoError(t, err)
	}
	// 15:30 UTC is 23:30 in Manila; 16:30 UTC is 00:30 of the next day there.
	late, afterMidnight := "2025-06-10T15:30:00Z", "2025-06-10T16:30:00Z"
	order("tickets", a, 2, "", nil, 40000, 0, "paid", late)
	order("tickets", a, 1, "facebook", nil, 25000, 5000, "paid", afterMidnight)
	order("tickets", a, 1, "", promo.ID, 19500, 0, "paid", afterMidnight)
	order("tickets", a, 3, "box_office", nil, 60000, 0, "paid", "2025-06-01T02:00:00Z")
	order("tickets", b, 1, "Zed", nil, 7000, 0, "paid", late)
	order("tickets", b, 1, "apple", nil, 7000, 0, "paid", late)
	order("tickets", b, 2, "tiktok", nil, 3000, 4000, "paid", late) // a discount beyond the tickets' part
	order("add_ons", a, 0, "", nil, 8000, 8000, "paid", afterMidnight)
	order("tickets", a, 1, "competitor", nil, 0, 0, "paid", late)
	order("tickets", a, 2, "facebook", nil, 40000, 0, "paid", nil) // paid without a time: no day, but in the lines
	order("tickets", a, 4, "facebook", nil, 80000, 0, "pending", nil)
	order("tickets", a, 1, "", nil, 20000, 0, "refunded", late)

	// Tickets of each status, and a competitor's pass (no sale: not issued in the report).
	_, err = f.db.write.Exec(`INSERT INTO ticket_types (event_id, code, name, price, max_purchasable, capacity, competitor_pass)
		VALUES (?, 'sales-pass-player', 'Players', 0, 1, 10, 1)`, ev.ID)
	require.NoError(t, err)
	player := typeID("sales-pass-player")
	var firstOrder int64
	require.NoError(t, f.db.read.QueryRow(`SELECT id FROM orders WHERE public_id = 'one-pass-1'`).Scan(&firstOrder))
	for i, tk := range []struct {
		typ    int64
		status string
	}{{a, "valid"}, {a, "checked_in"}, {a, "cancelled"}, {b, "checked_in"}, {player, "checked_in"}, {player, "valid"}} {
		_, err := f.db.write.Exec(`INSERT INTO tickets (public_id, code, order_id, event_id, ticket_type_id, holder_name, email, status, created_at)
			VALUES (?, ?, ?, ?, ?, 'Holder', 'h@x.ph', ?, ?)`, fmt.Sprintf("one-pass-t%d", i), fmt.Sprintf("ONEPASS%d", i),
			firstOrder, ev.ID, tk.typ, tk.status, formatTime(f.now))
		require.NoError(t, err)
	}

	ids, err := queryRows(ctx, f.db.read, `SELECT id FROM events ORDER BY id`, nil, func(r rowScanner) (id int64, err error) {
		err = r.Scan(&id)
		return id, err
	})
	require.NoError(t, err)
	require.Greater(t, len(ids), 1)
	for _, id := range ids {
		want, err := salesReportFourPasses(ctx, org, id)
		require.NoError(t, err)
		got, err := org.SalesReport(ctx, id)
		require.NoError(t, err)
		require.Equal(t, want, got, "event %d", id)
	}
	got, err := org.SalesReport(ctx, ev.ID)
	require.NoError(t, err)
	require.Contains(t, got.Days, palaro.SalesDay{Date: time.Date(2025, 6, 11, 0, 0, 0, 0, palaro.Manila), Tickets: 2, Revenue: 25000 + 19500 + 8000},
		"the orders paid after midnight in Manila are on the next day")
	require.NotEmpty(t, got.BySource)
}

// salesReportFourPasses is SalesReport as it was before its one grouped read: one read of the
// paid orders per figure (days, ticket types, add-ons, sources). The test above holds the new
// one to it.
func salesReportFourPasses(ctx context.Context, s *OrganizerService, eventID int64) (*palaro.SalesReport, error) {
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
