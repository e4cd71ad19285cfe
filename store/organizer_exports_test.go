package store

import (
	"context"
	"database/sql"
	"math"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"palaro"
)

// TestEachOrder_SameAsSearch: the orders export's walk (one query, an order handed on when its
// last row is read) gives, for every demo event, the orders SearchOrders loads, in the same order
// (newest first), each with the same ticket type name, buyer, amounts and tickets (codes, statuses
// and discounts, in the same order); and EachAttendee gives ListAttendees' rows. Both engines.
func TestEachOrder_SameAsSearch(t *testing.T) {
	ctx := context.Background()
	db := openTestDB(t)
	require.NoError(t, db.SeedDemo(ctx, time.Date(2026, 3, 18, 10, 0, 0, 0, palaro.Manila)))
	org := NewOrganizerService(db, nil)
	// the demo's orders are of one ticket each: add one of three tickets (one with a senior
	// citizen discount, one cancelled) and an add-on order for one of them
	require.NoError(t, db.Write(ctx, func(ctx context.Context, tx *sql.Tx) error {
		var eventID, typeID int64
		if err := tx.QueryRowContext(ctx, `SELECT event_id, id FROM ticket_types ORDER BY id LIMIT 1`).Scan(&eventID, &typeID); err != nil {
			return err
		}
		now := formatTime(time.Date(2026, 3, 18, 2, 0, 0, 0, time.UTC))
		orderID, err := insertID(ctx, tx, `INSERT INTO orders (public_id, event_id, ticket_type_id, quantity, email, unit_price, total,
			status, paid_at, created_at) VALUES ('each-three', ?, ?, 3, 'three@example.ph', 100, 300, 'paid', ?, ?)`, eventID, typeID, now, now)
		if err != nil {
			return err
		}
		var first int64
		for i, t := range []struct{ code, status, discount string }{{"EACHA23456", "valid", "senior"}, {"EACHB23456", "cancelled", ""}, {"EACHC23456", "checked_in", ""}} {
			id, err := insertID(ctx, tx, `INSERT INTO tickets (public_id, code, order_id, event_id, ticket_type_id, email, status, created_at,
				discount_type, discount_holder, discount_id_number, discount_amount) VALUES (?, ?, ?, ?, ?, 'three@example.ph', ?, ?, ?, ?, ?, ?)`,
				"each-t-"+t.code, t.code, orderID, eventID, typeID, t.status, now, t.discount, map[bool]string{true: "Lola Reyes"}[t.discount != ""],
				map[bool]string{true: "OSCA-9"}[t.discount != ""], map[bool]int{true: 20}[t.discount != ""])
			if err != nil {
				return err
			}
			if i == 0 {
				first = id
			}
		}
		_, err = tx.ExecContext(ctx, `INSERT INTO orders (public_id, kind, event_id, ticket_type_id, ticket_id, quantity, email, unit_price,
			add_ons_total, total, status, paid_at, created_at) VALUES ('each-addons', 'add_ons', ?, ?, ?, 0, 'three@example.ph', 0, 50, 50, 'paid', ?, ?)`,
			eventID, typeID, first, now, now)
		return err
	}))
	var events []int64
	rows, err := db.read.QueryContext(ctx, `SELECT id FROM events ORDER BY id`)
	require.NoError(t, err)
	for rows.Next() {
		var id int64
		require.NoError(t, rows.Scan(&id))
		events = append(events, id)
	}
	require.NoError(t, rows.Close())
	orders, multi, withDiscount, busiest := 0, 0, 0, int64(0)
	for _, id := range events {
		want, err := org.SearchOrders(ctx, palaro.OrderSearch{EventID: id, Limit: math.MaxInt32})
		require.NoError(t, err)
		var got []*palaro.Order
		require.NoError(t, org.EachOrder(ctx, id, 0, func(o *palaro.Order) error {
			got = append(got, o)
			return nil
		}))
		require.Len(t, got, len(want), "event %d", id)
		if len(want) > 0 {
			busiest = id
		}
		for i, w := range want {
			g := got[i]
			require.Equal(t, w.PublicID, g.PublicID)
			require.Equal(t, w.TicketType.Name, g.TicketType.Name, w.PublicID)
			require.Equal(t, w.Buyer, g.Buyer, w.PublicID)
			require.Equal(t, []any{w.Status, w.Email, w.Quantity, w.Seats, w.Source, w.PromoCode, w.Total, w.AddOnsTotal, w.PaidAt, w.SeniorPWDDiscount},
				[]any{g.Status, g.Email, g.Quantity, g.Seats, g.Source, g.PromoCode, g.Total, g.AddOnsTotal, g.PaidAt, g.SeniorPWDDiscount}, w.PublicID)
			require.Len(t, g.Tickets, len(w.Tickets), w.PublicID)
			for k, wt := range w.Tickets {
				gt := g.Tickets[k]
				require.Equal(t, []any{wt.Code, wt.Status, wt.Discount.Type, wt.Discount.HolderName, wt.Discount.IDNumber},
					[]any{gt.Code, gt.Status, gt.Discount.Type, gt.Discount.HolderName, gt.Discount.IDNumber}, w.PublicID)
				if wt.Discount.Type != "" {
					withDiscount++
				}
			}
			if len(w.Tickets) > 1 {
				multi++
			}
			orders++
		}
		all, err := org.ListAttendees(ctx, id)
		require.NoError(t, err)
		n := 0
		require.NoError(t, org.EachAttendee(ctx, id, 0, func(a *palaro.Attendee) error {
			require.Equal(t, all[n].Code, a.Code)
			n++
			return nil
		}))
		require.Equal(t, len(all), n)
	}
	require.Positive(t, orders)
	require.Positive(t, multi, "an order of several tickets compared")
	require.Positive(t, withDiscount, "a discounted ticket compared")
	t.Logf("%d orders compared, %d with several tickets, %d discounted tickets", orders, multi, withDiscount)

	// fn's error stops the walk and comes back
	stop := palaro.Errorf(palaro.EINVALID, "stop")
	calls := 0
	err = org.EachOrder(ctx, busiest, 0, func(*palaro.Order) error { calls++; return stop })
	require.ErrorIs(t, err, stop)
	require.Equal(t, 1, calls)
}
