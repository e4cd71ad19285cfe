package store

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"palaro"
)

// TestGateList_SeriesPerDate: a series' gate list is of one date. A day ticket of another date
// reads wrong_date (naming its own date); a pass reads checked in on a date only once admitted
// there, with the dates it used, and a pass for some dates with none left reads used up. Every
// change of a pass's dates (pass_uses) is in the next delta of every date's list, and the list and
// its delta make the whole list read after them, on both engines (PALARO_TEST_POSTGRES). The
// check-in counts are the date's.
func TestGateList_SeriesPerDate(t *testing.T) {
	ctx := context.Background()
	sf := newSeriesFixture(t)
	dates, pass, two, dayTicket := sf.gateSeries(t)
	d0, d1, d2 := dates[0].Slug, dates[1].Slug, dates[2].Slug
	f := &gateFixture{purchaseFixture: sf.purchaseFixture, gate: NewCheckInService(sf.db), eventID: sf.eventID, date: d1}
	scan := func(code, date string) string {
		r, err := f.gate.CheckIn(ctx, palaro.CheckInRequest{EventID: f.eventID, Code: code, Gate: "North", Date: date})
		require.NoError(t, err)
		return r.Outcome
	}
	ticket := func(list []palaro.GateTicket, code string) palaro.GateTicket {
		for _, tk := range list {
			if tk.Code == code {
				return tk
			}
		}
		t.Fatalf("ticket %s is not in the list", code)
		return palaro.GateTicket{}
	}

	list, err := f.gate.GateChanges(ctx, f.eventID, d1, -1)
	require.NoError(t, err)
	require.False(t, list.Delta)
	p := ticket(list.Tickets, pass)
	require.Equal(t, palaro.TicketValid, p.Status)
	require.Equal(t, "Every date", p.Pass)
	require.Equal(t, d1, p.Date)
	require.Empty(t, p.UsedDates)
	require.Equal(t, palaro.TicketValid, ticket(list.Tickets, dayTicket).Status, "the day ticket is for the list's date")
	other, err := f.gate.GateChanges(ctx, f.eventID, d0, -1)
	require.NoError(t, err)
	wrong := ticket(other.Tickets, dayTicket)
	require.Equal(t, palaro.GateWrongDate, wrong.Status, "another date's list refuses it")
	require.Equal(t, d1, wrong.Date, "and names its date")

	before, err := f.gate.CheckInCounts(ctx, f.eventID, d1)
	require.NoError(t, err)
	require.Contains(t, before.ByType, palaro.GateCount{Name: "Pass gate-five", Sold: 1}, "a pass for 2 dates, none used, counts on every date")

	// admitted on the first date, the pass is still to come on the second, which knows it used one
	require.Equal(t, palaro.CheckInOK, scan(pass, d0))
	d, err := f.gate.GateChanges(ctx, f.eventID, d1, list.Version)
	require.NoError(t, err)
	current := requireDelta(t, f, list.Tickets, d, pass)
	p = ticket(current, pass)
	require.Equal(t, palaro.TicketValid, p.Status)
	require.True(t, p.CheckedInAt.IsZero())
	require.Equal(t, []string{d0}, p.UsedDates)
	first, err := f.gate.GateChanges(ctx, f.eventID, d0, -1)
	require.NoError(t, err)
	require.Equal(t, palaro.TicketCheckedIn, ticket(first.Tickets, pass).Status, "the first date's list has it in")

	// admitted on the second date: in there, at the gate that let it in
	require.Equal(t, palaro.CheckInOK, scan(pass, d1))
	d, err = f.gate.GateChanges(ctx, f.eventID, d1, d.Version)
	require.NoError(t, err)
	current = requireDelta(t, f, current, d, pass)
	p = ticket(current, pass)
	require.Equal(t, palaro.TicketCheckedIn, p.Status)
	require.Equal(t, "North", p.Gate)
	require.False(t, p.CheckedInAt.IsZero())
	require.Equal(t, []string{d0, d1}, p.UsedDates)

	// a pass for 2 dates that took the first and the third has none left for the second
	require.Equal(t, palaro.CheckInOK, scan(two, d0))
	require.Equal(t, palaro.CheckInOK, scan(two, d2))
	require.Equal(t, palaro.CheckInOK, scan(dayTicket, d1))
	d, err = f.gate.GateChanges(ctx, f.eventID, d1, d.Version)
	require.NoError(t, err)
	current = requireDelta(t, f, current, d, two, dayTicket)
	require.Equal(t, palaro.GateUsedUp, ticket(current, two).Status)
	require.Equal(t, []string{d0, d2}, ticket(current, two).UsedDates)
	require.Equal(t, palaro.TicketCheckedIn, ticket(current, dayTicket).Status)

	_, err = f.gate.GateChanges(ctx, f.eventID, "2030-01-05", -1)
	require.Equal(t, palaro.EINVALID, palaro.ErrorCode(err), "a date the series does not have")

	// the counts are the date's: on the second, the day ticket and the season pass are in; the
	// pass for 2 dates, which came on the first and the third, does not count on the second (its
	// gate list reads it used up there), as it did on each date before it was used up
	counts := func(date string) map[string][2]int {
		c, err := f.gate.CheckInCounts(ctx, f.eventID, date)
		require.NoError(t, err)
		out := map[string][2]int{}
		for _, g := range c.ByType {
			if g.Name != "Spectator" && g.Name != "Bracket Entry" { // the event's own types: nothing sold
				out[g.Name] = [2]int{g.CheckedIn, g.Sold}
			} else {
				require.Equal(t, 0, g.Sold+g.CheckedIn)
			}
		}
		for _, g := range c.ByGate {
			out["gate "+g.Name] = [2]int{g.CheckedIn, 0}
		}
		return out
	}
	require.Equal(t, map[string][2]int{"Test gate-day": {1, 1}, "Pass gate-season": {1, 1}, "Pass gate-five": {0, 0}, "gate North": {2, 0}}, counts(d1))
	require.Equal(t, map[string][2]int{"Test gate-day": {0, 0}, "Pass gate-season": {1, 1}, "Pass gate-five": {1, 1}, "gate North": {2, 0}}, counts(d0))
	require.Equal(t, map[string][2]int{"Test gate-day": {0, 0}, "Pass gate-season": {0, 1}, "Pass gate-five": {1, 1}, "gate North": {1, 0}}, counts(d2))
}

// TestGateSync_PassOnFullDate: a phone offline let a pass for some dates in on a date whose day
// ticket has no place left (it cannot know the date's places). The sync records that admission,
// the place taken over the date's capacity, and the other scans of the batch with it, on both
// engines; online, the same scan is refused as sold out (nobody is in yet).
func TestGateSync_PassOnFullDate(t *testing.T) {
	ctx := context.Background()
	f := newSeriesFixture(t)
	dates, pass, two, dayTicket := f.gateSeries(t)
	gate := NewCheckInService(f.db)
	_, err := f.db.write.Exec(`UPDATE date_stock SET capacity = sold + held WHERE date_id = ?
		AND ticket_type_id = (SELECT id FROM ticket_types WHERE code = 'gate-day')`, dates[1].ID)
	require.NoError(t, err)
	sold, _, capacity := f.stock(t, dates[1].ID, "gate-day")
	require.Equal(t, sold, capacity, "the second date is full")

	_, err = gate.CheckIn(ctx, palaro.CheckInRequest{EventID: f.eventID, Code: two, Gate: "North", Date: dates[1].Slug})
	require.Equal(t, palaro.ECONFLICT, palaro.ErrorCode(err), "online, no place is left for the pass")

	at := f.now.Add(time.Hour)
	results, err := gate.SyncCheckIns(ctx, []palaro.CheckInRequest{
		{EventID: f.eventID, Code: two, Gate: "North", Date: dates[1].Slug, At: at, ClientID: "phone:1"},
		{EventID: f.eventID, Code: pass, Gate: "North", Date: dates[1].Slug, At: at, ClientID: "phone:2"},
		{EventID: f.eventID, Code: dayTicket, Gate: "North", Date: dates[1].Slug, At: at, ClientID: "phone:3"},
	})
	require.NoError(t, err, "one admission over the date's places does not stop the phone's sync")
	for i, r := range results {
		require.Equal(t, palaro.CheckInOK, r.Outcome, "scan %d", i)
	}
	require.Equal(t, []string{dates[1].Slug}, results[0].Ticket.UsedDates)
	after, _, _ := f.stock(t, dates[1].ID, "gate-day")
	require.Equal(t, sold+1, after, "the pass's place on the date is counted, over its capacity")
}
