package store

import (
	"context"
	"testing"

	"github.com/stretchr/testify/require"

	"palaro"
)

// eventIDOf returns the id of the event a ticket type belongs to.
func (f *purchaseFixture) eventIDOf(t *testing.T, ticketTypeID int64) int64 {
	t.Helper()
	var id int64
	require.NoError(t, f.db.read.QueryRow(`SELECT event_id FROM ticket_types WHERE id = ?`, ticketTypeID).Scan(&id))
	return id
}

func TestOrganizerService_SetSeatPlan(t *testing.T) {
	ctx := context.Background()
	t.Run("OK round trip: seats, aisles, empty rows, blocked seats, capacity", func(t *testing.T) {
		f := newPurchaseFixture(t)
		code, id := f.addSeatedTicketType(t, "plan-ok", 0, 16, 4)
		org, seats := NewOrganizerService(f.db, nil), NewSeatService(f.db)
		legacy, err := seats.SeatPlan(ctx, id)
		require.NoError(t, err)
		require.Equal(t, palaro.SeatPlan{Rows: 8, SeatsPerRow: 2}, legacy, "a generated layout reads as a plan")

		plan := palaro.SeatPlan{Rows: 3, SeatsPerRow: 6, AisleAfter: []int{3}, GapAfterRows: []string{"A"}, Blocked: []string{"B4", "c1"}}
		require.NoError(t, org.SetSeatPlan(ctx, f.eventIDOf(t, id), code, "owner@x.ph", plan))
		got, err := seats.SeatPlan(ctx, id)
		require.NoError(t, err)
		require.Equal(t, plan.Normalize(), got)
		_, _, capacity := f.counts(t, code)
		require.Equal(t, 16, capacity, "18 seats, two blocked")
		rows, err := seats.SeatMap(ctx, id)
		require.NoError(t, err)
		require.Len(t, rows, 3)
		require.Len(t, rows[2].Seats, 6)
		require.Equal(t, 1, f.countRows(t, `SELECT count(*) FROM audit_log WHERE action = 'seat map of plan-ok changed'`))

		_, err = f.purchases.CreateOrder(ctx, seatRequest(code, "b@x.ph", "B4"), f.now)
		require.Equal(t, "Seat B4 was just taken. Please choose another seat.", palaro.ErrorMessage(err), "a blocked seat cannot be bought")
		_, err = f.purchases.CreateOrder(ctx, seatRequest(code, "b@x.ph", "A7"), f.now)
		require.Equal(t, "Seat A7 does not exist. Please choose a seat on the map.", palaro.ErrorMessage(err), "nor a seat past the row's end")
		_, err = f.purchases.CreateOrder(ctx, seatRequest(code, "b@x.ph", "D1"), f.now)
		require.Equal(t, palaro.EINVALID, palaro.ErrorCode(err), "nor one in a row the plan took away")
		o, err := f.purchases.CreateOrder(ctx, seatRequest(code, "b@x.ph", "A4", "C6"), f.now)
		require.NoError(t, err, "the seats across the aisle are for sale")
		require.Equal(t, []string{"A4", "C6"}, o.Seats)
	})
	t.Run("ErrInvalid a sold seat stays on the map and for sale", func(t *testing.T) {
		f := newPurchaseFixture(t)
		code, id := f.addSeatedTicketType(t, "plan-sold", 0, 16, 4)
		org := NewOrganizerService(f.db, nil)
		_, err := f.purchases.CreateOrder(ctx, seatRequest(code, "b@x.ph", "H2"), f.now)
		require.NoError(t, err)
		err = org.SetSeatPlan(ctx, f.eventIDOf(t, id), code, "owner@x.ph", palaro.SeatPlan{Rows: 4, SeatsPerRow: 4})
		require.Equal(t, "Seat H2 is sold or held, so it must stay on the seat map.", palaro.ErrorMessage(err))
		err = org.SetSeatPlan(ctx, f.eventIDOf(t, id), code, "owner@x.ph", palaro.SeatPlan{Rows: 8, SeatsPerRow: 2, Blocked: []string{"H2"}})
		require.Equal(t, "Seat H2 is sold or held, so it cannot be blocked.", palaro.ErrorMessage(err))
		_, _, capacity := f.counts(t, code)
		require.Equal(t, 16, capacity, "nothing changed")
		p, err := NewSeatService(f.db).SeatPlan(ctx, id)
		require.NoError(t, err)
		require.Equal(t, 8, p.Rows)
	})
	t.Run("ErrInvalid capacity below sold plus held", func(t *testing.T) {
		f := newPurchaseFixture(t)
		code, id := f.addSeatedTicketType(t, "plan-cap", 0, 16, 4)
		_, err := f.db.write.Exec(`UPDATE ticket_types SET sold = 5 WHERE id = ?`, id) // sold outside the app, without seats
		require.NoError(t, err)
		err = NewOrganizerService(f.db, nil).SetSeatPlan(ctx, f.eventIDOf(t, id), code, "owner@x.ph", palaro.SeatPlan{Rows: 2, SeatsPerRow: 2})
		require.Equal(t, palaro.EINVALID, palaro.ErrorCode(err))
		require.Contains(t, palaro.ErrorMessage(err), "This seat map has 4 seats for sale: ")
		require.Contains(t, palaro.ErrorMessage(err), "5")
	})
	t.Run("ErrInvalid the ticket type form cannot change a planned capacity", func(t *testing.T) {
		f := newPurchaseFixture(t)
		code, id := f.addSeatedTicketType(t, "plan-form", 0, 16, 4)
		org := NewOrganizerService(f.db, nil)
		require.NoError(t, org.SetSeatPlan(ctx, f.eventIDOf(t, id), code, "owner@x.ph", palaro.SeatPlan{Rows: 2, SeatsPerRow: 5}))
		ev, err := org.FindEvent(ctx, "tekken-tuesdays-cubao")
		require.NoError(t, err)
		var tt palaro.TicketType
		for _, x := range ev.TicketTypes {
			if x.Code == code {
				tt = x
			}
		}
		in := palaro.TicketTypeInputOf(tt)
		in.Capacity = 20
		_, err = org.UpdateTicketType(ctx, ev.ID, code, "owner@x.ph", in)
		require.Equal(t, palaro.EINVALID, palaro.ErrorCode(err))
		require.Contains(t, palaro.ErrorMessage(err), "change the seat map")
		in.Capacity = 10
		in.Name = "Renamed"
		_, err = org.UpdateTicketType(ctx, ev.ID, code, "owner@x.ph", in)
		require.NoError(t, err, "other changes keep the plan")
		p, err := NewSeatService(f.db).SeatPlan(ctx, id)
		require.NoError(t, err)
		require.Equal(t, 5, p.SeatsPerRow)
	})
}
