package store

import (
	"context"
	"fmt"
	"slices"
	"testing"

	"github.com/stretchr/testify/require"

	"palaro"
)

// TestSeries_UndoCheckInOnDate: an undo on a series names its date; a pass's admission there is
// undone (a pass for every date keeps its place, a pass for 2 dates gets the date back with its
// place), the gate list's changes and the date's counts see it, and the holder is admitted again.
func TestSeries_UndoCheckInOnDate(t *testing.T) {
	ctx := context.Background()
	f := newSeriesFixture(t)
	dates, passCode, twoCode, dayCode := f.gateSeries(t)
	gate := NewCheckInService(f.db)
	scan := func(code, date string) *palaro.CheckInResult {
		r, err := gate.CheckIn(ctx, palaro.CheckInRequest{EventID: f.eventID, Code: code, Gate: "North", Date: date})
		require.NoError(t, err)
		return r
	}
	undo := func(code, date string) error {
		return gate.UndoCheckIn(ctx, f.eventID, code, date, "manager@palaro.ph", f.now)
	}
	for _, s := range []struct{ code, date string }{{passCode, dates[0].Slug}, {passCode, dates[1].Slug}, {twoCode, dates[0].Slug}, {dayCode, dates[1].Slug}} {
		require.Equal(t, palaro.CheckInOK, scan(s.code, s.date).Outcome)
	}
	before, err := gate.GateChanges(ctx, f.eventID, dates[0].Slug, -1)
	require.NoError(t, err)
	in0, err := gate.CheckInCounts(ctx, f.eventID, dates[0].Slug)
	require.NoError(t, err)
	require.Equal(t, 2, in0.CheckedIn)

	// a series' undo names a date the event has
	err = undo(passCode, "")
	require.Equal(t, palaro.MsgDateRequired, dateField(t, err))
	require.Equal(t, palaro.MsgDateUnknown, dateField(t, undo(passCode, "no-such-date")))
	// and something checked in on it
	err = undo(passCode, dates[2].Slug)
	require.Equal(t, palaro.ECONFLICT, palaro.ErrorCode(err))
	require.Equal(t, "This ticket is not checked in on "+palaro.GateDateLabel(dates[2])+".", palaro.ErrorMessage(err))
	require.Equal(t, palaro.ECONFLICT, palaro.ErrorCode(undo(dayCode, dates[0].Slug)), "a day ticket of another date")

	// the pass for every date: undone on the first date only, its place there kept
	sold0, _, _ := f.stock(t, dates[0].ID, "gate-day")
	require.NoError(t, undo(passCode, dates[0].Slug))
	require.Equal(t, palaro.ECONFLICT, palaro.ErrorCode(undo(passCode, dates[0].Slug)), "undone once")
	after, _, _ := f.stock(t, dates[0].ID, "gate-day")
	require.Equal(t, sold0, after, "a pass for every date keeps its place on the date")
	changes, err := gate.GateChanges(ctx, f.eventID, dates[0].Slug, before.Version)
	require.NoError(t, err)
	require.True(t, changes.Delta)
	i := slices.IndexFunc(changes.Tickets, func(g palaro.GateTicket) bool { return g.Code == passCode })
	require.GreaterOrEqual(t, i, 0, "the undo reaches the gate phones' changes")
	require.Equal(t, palaro.TicketValid, changes.Tickets[i].Status)
	require.Equal(t, []string{dates[1].Slug}, changes.Tickets[i].UsedDates)
	in0, err = gate.CheckInCounts(ctx, f.eventID, dates[0].Slug)
	require.NoError(t, err)
	require.Equal(t, 1, in0.CheckedIn, "the date's count drops")
	require.Equal(t, []palaro.GateCount{{Name: "North", CheckedIn: 1}}, in0.ByGate)
	in1, err := gate.CheckInCounts(ctx, f.eventID, dates[1].Slug)
	require.NoError(t, err)
	require.Equal(t, 2, in1.CheckedIn, "another date's check-ins stand")
	r := scan(passCode, dates[0].Slug)
	require.Equal(t, palaro.CheckInOK, r.Outcome, "re-entry after the undo")
	require.Equal(t, []string{dates[0].Slug, dates[1].Slug}, r.Ticket.UsedDates)

	// the pass for 2 dates gets the date back, and the date its place
	require.NoError(t, undo(twoCode, dates[0].Slug))
	back, _, _ := f.stock(t, dates[0].ID, "gate-day")
	require.Equal(t, sold0-1, back, "the date's place is given back")
	var uses int
	require.NoError(t, f.db.read.QueryRow(`SELECT count(*) FROM pass_uses u JOIN tickets t ON t.id = u.ticket_id WHERE t.code = ?`,
		twoCode).Scan(&uses))
	require.Zero(t, uses)
	require.Equal(t, palaro.CheckInOK, scan(twoCode, dates[1].Slug).Outcome)
	require.Equal(t, palaro.CheckInOK, scan(twoCode, dates[2].Slug).Outcome, "both its dates are left to use")

	// a day ticket is undone on its date, as on a single-date event
	require.NoError(t, undo(dayCode, dates[1].Slug))
	require.Equal(t, palaro.CheckInOK, scan(dayCode, dates[1].Slug).Outcome)

	var detail string
	require.NoError(t, f.db.read.QueryRow(`SELECT detail FROM audit_log WHERE event_id = ? AND action = 'check_in.undo'
		ORDER BY id LIMIT 1`, f.eventID).Scan(&detail))
	require.JSONEq(t, fmt.Sprintf(`{"ticket": %q, "date": %q}`, passCode, dates[0].Slug), detail)
	var undone int
	require.NoError(t, f.db.read.QueryRow(`SELECT count(*) FROM check_ins WHERE event_id = ? AND undone_at IS NOT NULL`,
		f.eventID).Scan(&undone))
	require.Equal(t, 3, undone, "each undo marks its date's check-in only")
}

// TestSeries_UndoPassUseRace: managers on several phones undo one pass's admission on a date at
// once: one undo wins, the date's place is given back once.
func TestSeries_UndoPassUseRace(t *testing.T) {
	ctx := context.Background()
	f := newSeriesFixture(t)
	dates, _, twoCode, _ := f.gateSeries(t)
	gate := NewCheckInService(f.db)
	for round := range 3 {
		r, err := gate.CheckIn(ctx, palaro.CheckInRequest{EventID: f.eventID, Code: twoCode, Gate: "North", Date: dates[0].Slug})
		require.NoError(t, err)
		require.Equal(t, palaro.CheckInOK, r.Outcome, "round %d: admitted again", round)
		sold, _, _ := f.stock(t, dates[0].ID, "gate-day")
		won := storm(12, func(int) int {
			err := gate.UndoCheckIn(ctx, f.eventID, twoCode, dates[0].Slug, "m", f.now)
			if err == nil {
				return 1
			}
			if palaro.ErrorCode(err) != palaro.ECONFLICT {
				t.Errorf("undo: %v", err)
			}
			return 0
		})
		require.Equal(t, int64(1), won, "round %d: exactly one undo", round)
		after, _, _ := f.stock(t, dates[0].ID, "gate-day")
		require.Equal(t, sold-1, after, "round %d: one place given back", round)
	}
}

// TestSeries_BoxOfficeOnDate: the box office of a series sells for the gate's date (its stock,
// order_dates, the check-in there) and refuses a missing, cancelled or ended date; a rush at the
// door never oversells the date.
func TestSeries_BoxOfficeOnDate(t *testing.T) {
	ctx := context.Background()
	f := newSeriesFixture(t)
	dates, _, _, _ := f.gateSeries(t)
	gate := NewCheckInService(f.db)
	sale := func(typ, date string, n int) palaro.DoorSale {
		return palaro.DoorSale{EventID: f.eventID, TicketType: typ, Quantity: n, HolderName: "Walk In", PaymentMethod: palaro.PaymentCash,
			Gate: "Box", Date: date, Actor: "m", At: f.now}
	}
	fieldOf := func(s palaro.DoorSale) string {
		_, err := gate.SellAtDoor(ctx, s)
		return dateField(t, err)
	}
	require.Equal(t, palaro.MsgDateRequired, fieldOf(sale("gate-day", "", 1)))
	require.Equal(t, palaro.MsgDateUnknown, fieldOf(sale("gate-day", "nope", 1)))
	_, err := f.db.write.Exec(`UPDATE event_dates SET status = 'cancelled' WHERE id = ?`, dates[2].ID)
	require.NoError(t, err)
	require.Equal(t, palaro.MsgDateCancelled, fieldOf(sale("gate-day", dates[2].Slug, 1)))
	over := sale("gate-day", dates[0].Slug, 1)
	over.At = dates[0].EndsAt
	require.Equal(t, palaro.MsgDateOver, fieldOf(over))

	typeSold := func() (n int) {
		require.NoError(t, f.db.read.QueryRow(`SELECT sold FROM ticket_types WHERE code = 'gate-day'`).Scan(&n))
		return n
	}
	typeBefore := typeSold()
	sold0, _, _ := f.stock(t, dates[0].ID, "gate-day")
	sold1, _, _ := f.stock(t, dates[1].ID, "gate-day")
	tickets, err := gate.SellAtDoor(ctx, sale("gate-day", dates[1].Slug, 2))
	require.NoError(t, err)
	require.Len(t, tickets, 2)
	require.Equal(t, palaro.TicketCheckedIn, tickets[0].Status)
	after1, _, _ := f.stock(t, dates[1].ID, "gate-day")
	after0, _, _ := f.stock(t, dates[0].ID, "gate-day")
	require.Equal(t, sold1+2, after1, "the date's stock")
	require.Equal(t, sold0, after0, "no other date's")
	require.Equal(t, typeBefore, typeSold(), "a day ticket takes no place of the type's own")
	var od, dated, logged int
	require.NoError(t, f.db.read.QueryRow(`SELECT coalesce(sum(od.quantity), 0) FROM order_dates od JOIN orders o ON o.id = od.order_id
		WHERE o.source = 'box_office' AND od.date_id = ?`, dates[1].ID).Scan(&od))
	require.Equal(t, 2, od)
	require.NoError(t, f.db.read.QueryRow(`SELECT count(*) FROM tickets WHERE code IN (?, ?) AND date_id = ?`,
		tickets[0].Code, tickets[1].Code, dates[1].ID).Scan(&dated))
	require.Equal(t, 2, dated)
	require.NoError(t, f.db.read.QueryRow(`SELECT count(*) FROM check_ins c JOIN tickets t ON t.id = c.ticket_id
		WHERE t.code IN (?, ?) AND c.date_id = ?`, tickets[0].Code, tickets[1].Code, dates[1].ID).Scan(&logged))
	require.Equal(t, 2, logged, "checked in on the date")

	// a pass for every date sold at the door holds its coming dates and is admitted on the gate's
	passes, err := gate.SellAtDoor(ctx, sale("gate-season", dates[1].Slug, 1))
	require.NoError(t, err)
	require.Equal(t, []string{dates[1].Slug}, passes[0].UsedDates)
	var held int
	require.NoError(t, f.db.read.QueryRow(`SELECT count(*) FROM pass_uses u JOIN tickets t ON t.id = u.ticket_id WHERE t.code = ?`,
		passes[0].Code).Scan(&held))
	require.Equal(t, 2, held, "its places on the two dates neither cancelled nor over")

	// a rush at the door on one date: never more than its places
	left := 10 - (sold1 + 3)
	won := storm(left+4, func(i int) int {
		_, err := gate.SellAtDoor(ctx, sale("gate-day", dates[1].Slug, 1))
		if err == nil {
			return 1
		}
		if palaro.ErrorCode(err) != palaro.ECONFLICT {
			t.Errorf("sale %d: %v", i, err)
		}
		return 0
	})
	require.Equal(t, int64(left), won)
	full, _, capacity := f.stock(t, dates[1].ID, "gate-day")
	require.Equal(t, capacity, full)
}

// dateField is an EINVALID error's message for the date field.
func dateField(t *testing.T, err error) string {
	t.Helper()
	var e *palaro.Error
	require.ErrorAs(t, err, &e)
	require.Equal(t, palaro.EINVALID, e.Code)
	return e.Fields[palaro.FieldDate]
}
