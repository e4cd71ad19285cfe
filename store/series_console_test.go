package store

import (
	"context"
	"database/sql"
	"fmt"
	"math"
	"slices"
	"testing"

	"github.com/stretchr/testify/require"

	"palaro"
)

// demoLeague is the demo series: eight match days (two over at the golden clock), a day ticket,
// a seated lower box and a season pass of the box valid on every date.
const demoLeague = "palaro-league-season-1"

// leagueFixture is the demo data at the golden clock with the league's ids.
type leagueFixture struct {
	db      *DB
	org     *OrganizerService
	series  *SeriesService
	eventID int64
	dates   []palaro.EventDate
}

func newLeagueFixture(t *testing.T) *leagueFixture {
	t.Helper()
	ctx := context.Background()
	db := openTestDB(t)
	require.NoError(t, db.SeedDemo(ctx, demoGoldenNow))
	f := &leagueFixture{db: db, org: NewOrganizerService(db, nil), series: NewSeriesService(db)}
	require.NoError(t, db.read.QueryRow(`SELECT id FROM events WHERE code = ?`, demoLeague).Scan(&f.eventID))
	var err error
	f.dates, err = f.series.ListEventDates(ctx, f.eventID)
	require.NoError(t, err)
	require.Len(t, f.dates, 8)
	return f
}

// count runs a count query on the read pool.
func (f *leagueFixture) count(t *testing.T, query string, args ...any) int {
	t.Helper()
	var n int
	require.NoError(t, f.db.read.QueryRow(query, args...).Scan(&n))
	return n
}

// TestSeries_DateSalesOnDemoLeague counts each match day of the demo league as the console shows
// it, against counts made here from the tickets themselves: a day type's places on a date are its
// day tickets there plus the passes of it holding a place there; the pass has its 16 holders on
// every date; the dates over have check-ins, the others none; a day type's total over the
// dates is never 0; and the hidden entry-fee type of the league's tournament is no row.
func TestSeries_DateSalesOnDemoLeague(t *testing.T) {
	f := newLeagueFixture(t)
	ctx := context.Background()
	require.NoError(t, f.db.inWrite(ctx, func(ctx context.Context, tx *sql.Tx) error {
		var id int64
		if err := tx.QueryRowContext(ctx, `SELECT min(id) FROM tournaments WHERE event_id = ?`, f.eventID).Scan(&id); err != nil {
			return err
		}
		return saveEntryType(ctx, tx, f.eventID, id, palaro.Tournament{Name: "MLBB Cup", EntryFee: 50_000})
	}))
	sales, err := f.series.DateSales(ctx, f.eventID)
	require.NoError(t, err)
	require.Len(t, sales, 8)
	over := 0
	for i, d := range sales {
		require.Equal(t, f.dates[i].ID, d.Date.ID, "by start")
		require.Len(t, d.Types, 3)
		byName := map[string]palaro.DateTypeSales{}
		for _, ty := range d.Types {
			byName[ty.Name] = ty
		}
		pass := byName["Season Pass: Lower Box"]
		require.Equal(t, palaro.PassEvery, pass.PassKind)
		require.Equal(t, 16, pass.Sold, "%s: every pass holds a place on every date", d.Date.Slug)
		for _, ty := range d.Types {
			if ty.PassKind != "" {
				continue
			}
			dayTickets := f.count(t, `SELECT count(*) FROM tickets WHERE date_id = ? AND ticket_type_id = ? AND status != 'cancelled'`,
				d.Date.ID, ty.TicketTypeID)
			passes := f.count(t, `SELECT count(*) FROM pass_uses u JOIN tickets t ON t.id = u.ticket_id
				JOIN ticket_types tt ON tt.id = t.ticket_type_id WHERE u.date_id = ? AND tt.pass_of = ? AND t.status != 'cancelled'`,
				d.Date.ID, ty.TicketTypeID)
			require.Positive(t, dayTickets, "%s %s: the demo sells day tickets on every date", d.Date.Slug, ty.Name)
			require.Equal(t, dayTickets+passes, ty.Sold, "%s %s", d.Date.Slug, ty.Name)
			require.Equal(t, passes, ty.Passes, "%s %s", d.Date.Slug, ty.Name)
			require.Positive(t, ty.Capacity)
		}
		require.Equal(t, 16, byName["Lower Box (one match day)"].Passes)
		admits := f.count(t, `SELECT count(*) FROM tickets WHERE date_id = ? AND status != 'cancelled'`, d.Date.ID) + 16
		require.Equal(t, admits, d.Admits, d.Date.Slug)
		checked := f.count(t, `SELECT count(*) FROM tickets WHERE date_id = ? AND status = 'checked_in'`, d.Date.ID) +
			f.count(t, `SELECT count(*) FROM pass_uses WHERE date_id = ? AND checked_in_at IS NOT NULL`, d.Date.ID)
		require.Equal(t, checked, d.CheckedIn, d.Date.Slug)
		if d.Date.Past(demoGoldenNow) {
			over++
			require.Positive(t, d.CheckedIn, "%s is over: two in three were admitted", d.Date.Slug)
		} else {
			require.Zero(t, d.CheckedIn, "%s is to come", d.Date.Slug)
		}
	}
	require.Equal(t, 2, over)

	totals := palaro.SeriesTotals(sales)
	require.Len(t, totals, 2, "the pass is left out: its own counters are its total")
	ev, err := f.org.FindEvent(ctx, demoLeague)
	require.NoError(t, err)
	for _, tt := range ev.TicketTypes {
		if tt.IsPass() {
			require.Equal(t, 16, tt.Sold, "a pass counts on its own type")
			require.Equal(t, "palaro-league-season-1-box", tt.PassOfCode)
			continue
		}
		require.Zero(t, tt.Sold, "a day type's own counter stays 0 (its places are on its dates)")
		sum := totals[tt.ID]
		require.Equal(t, f.count(t, `SELECT sum(sold) FROM date_stock WHERE ticket_type_id = ?`, tt.ID), sum.Sold)
		require.Positive(t, sum.Sold, "%s: never 0", tt.Name)
		require.Equal(t, 8*tt.Capacity, sum.Capacity, "no date of the demo sets its own capacity")
	}

	single, err := f.series.DateSales(ctx, int64(f.count(t, `SELECT min(id) FROM events WHERE id NOT IN (SELECT event_id FROM event_dates)`)))
	require.NoError(t, err)
	require.Empty(t, single, "a single-date event has no dates")

	// the console's event list counts the series as its dashboard does: the places on its dates
	listed, err := f.org.ListEvents(ctx, []int64{int64(f.count(t, `SELECT organizer_id FROM events WHERE id = ?`, f.eventID))})
	require.NoError(t, err)
	sold, capacity := 0, 0
	for _, sum := range totals {
		sold, capacity = sold+sum.Sold, capacity+sum.Capacity
	}
	found := 0
	for _, e := range listed {
		if e.ID == f.eventID {
			found++
			require.Equal(t, sold, e.Sold)
			require.Equal(t, capacity, e.Capacity)
		} else if len(e.TicketTypes) > 0 && f.count(t, `SELECT count(*) FROM event_dates WHERE event_id = ?`, e.ID) == 0 {
			require.Equal(t, f.count(t, `SELECT coalesce(sum(sold), 0) FROM ticket_types WHERE event_id = ? AND tournament_id IS NULL`, e.ID),
				e.Sold, "%s: a single-date event by its types' counters", e.Code)
		}
	}
	require.Equal(t, 1, found)
}

// TestSeries_OrdersByDate filters the demo league's orders and attendees by date, in the search
// and in both streamed exports, against the orders and tickets of that date counted here: a day
// ticket's order is on its own date only, a pass's on every date it holds a place on.
func TestSeries_OrdersByDate(t *testing.T) {
	f := newLeagueFixture(t)
	ctx := context.Background()
	allOrders, passOrders := 0, 0
	require.NoError(t, f.org.EachOrder(ctx, f.eventID, 0, func(o *palaro.Order) error {
		allOrders++
		if o.TicketType.IsPass() {
			passOrders++
			require.Nil(t, o.Date)
		} else if o.Kind == palaro.OrderKindTickets {
			require.NotNil(t, o.Date)
			require.NotEmpty(t, o.Date.Slug, "the export names the date")
		}
		return nil
	}))
	require.Equal(t, 16, passOrders, "the demo's 16 passes are one order each")
	seen := 0
	for _, d := range []palaro.EventDate{f.dates[0], f.dates[5]} {
		want := f.count(t, `SELECT count(*) FROM orders WHERE date_id = ?`, d.ID) + passOrders
		var got []string
		require.NoError(t, f.org.EachOrder(ctx, f.eventID, d.ID, func(o *palaro.Order) error {
			if !o.TicketType.IsPass() {
				require.Equal(t, d.Slug, o.Date.Slug)
			}
			got = append(got, o.PublicID)
			return nil
		}))
		require.Len(t, got, want, d.Slug)
		seen += len(got) - passOrders
		found, err := f.org.SearchOrders(ctx, palaro.OrderSearch{EventID: f.eventID, DateID: d.ID, Limit: math.MaxInt32})
		require.NoError(t, err)
		require.Len(t, found, want, "the search agrees with the export on %s", d.Slug)
		for i, o := range found {
			require.Equal(t, got[i], o.PublicID, "newest first, as the export")
		}

		tickets := f.count(t, `SELECT count(*) FROM tickets WHERE date_id = ?`, d.ID)
		attendees, passes := 0, 0
		require.NoError(t, f.org.EachAttendee(ctx, f.eventID, d.ID, func(a *palaro.Attendee) error {
			attendees++
			if a.PassKind != "" {
				passes++
				require.Nil(t, a.Date)
			} else {
				require.Equal(t, d.Slug, a.Date.Slug)
			}
			return nil
		}))
		require.Equal(t, 16, passes, d.Slug)
		require.Equal(t, tickets+16, attendees, d.Slug)
	}
	require.Less(t, seen, allOrders-passOrders, "a date keeps only its own day tickets' orders")
	none, err := f.org.SearchOrders(ctx, palaro.OrderSearch{EventID: f.eventID, DateID: f.dates[0].ID, Query: "nobody@example.ph"})
	require.NoError(t, err)
	require.Empty(t, none, "the date filter and the query both apply")
}

// TestOrganizer_PassSettings creates and edits passes on the demo league: the settings are
// saved and read back, and each refusal names its field (a count beyond the eight dates, a pass
// of a pass, an unknown day ticket, a pass on a single-date event, a day ticket passes take the
// places of becoming a pass, and any change of a pass that is sold).
func TestOrganizer_PassSettings(t *testing.T) {
	f := newLeagueFixture(t)
	ctx := context.Background()
	in := func(code, kind string, dates int, of string) palaro.TicketTypeInput {
		return palaro.TicketTypeInput{Code: code, Name: "Pass " + code, Price: 100000, Capacity: 20, PassKind: kind,
			PassDates: dates, PassOf: of}
	}
	field := func(err error, name string) string {
		t.Helper()
		var e *palaro.Error
		require.ErrorAs(t, err, &e)
		require.Equal(t, palaro.EINVALID, e.Code, e.Message)
		return e.Fields[name]
	}
	const day, box, season = demoLeague + "-day", demoLeague + "-box", demoLeague + "-season"

	t.Run("OK", func(t *testing.T) {
		tt, err := f.org.CreateTicketType(ctx, f.eventID, "test", in("league-five", " Count ", 5, day))
		require.NoError(t, err)
		require.Equal(t, palaro.PassCount, tt.PassKind)
		require.Equal(t, 5, tt.PassDates)
		require.Equal(t, day, tt.PassOfCode)
		require.Equal(t, "5 dates of your choice", tt.PassLabel())
		require.Zero(t, f.count(t, `SELECT count(*) FROM date_stock WHERE ticket_type_id = ?`, tt.ID), "a pass has no places of its own on dates")

		edit := palaro.TicketTypeInputOf(*tt)
		require.Equal(t, day, edit.PassOf, "an edit starts from the pass's own settings")
		edit.PassKind, edit.PassOf = palaro.PassEvery, box
		tt, err = f.org.UpdateTicketType(ctx, f.eventID, tt.Code, "test", edit)
		require.NoError(t, err, "nothing sold yet: the settings change")
		require.Equal(t, palaro.PassEvery, tt.PassKind)
		require.Zero(t, tt.PassDates, "a pass of every date has no count")
		require.Equal(t, box, tt.PassOfCode)

		edit = palaro.TicketTypeInputOf(*tt)
		edit.PassKind, edit.PassOf = "", ""
		tt, err = f.org.UpdateTicketType(ctx, f.eventID, tt.Code, "test", edit)
		require.NoError(t, err, "an unsold pass can become a day ticket")
		require.False(t, tt.IsPass())
	})
	t.Run("ErrCountBeyondDates", func(t *testing.T) {
		_, err := f.org.CreateTicketType(ctx, f.eventID, "test", in("league-nine", palaro.PassCount, 9, day))
		require.Equal(t, "A pass for 9 dates needs as many dates: this event has 8.", field(err, palaro.FieldPassDates))
	})
	t.Run("ErrPassOfPass", func(t *testing.T) {
		_, err := f.org.CreateTicketType(ctx, f.eventID, "test", in("league-pp", palaro.PassEvery, 0, season))
		require.Equal(t, palaro.MsgPassOfPass, field(err, palaro.FieldPassOf))
	})
	t.Run("ErrUnknownDayTicket", func(t *testing.T) {
		_, err := f.org.CreateTicketType(ctx, f.eventID, "test", in("league-x", palaro.PassEvery, 0, "no-such-type"))
		require.Equal(t, palaro.MsgPassOfRequired, field(err, palaro.FieldPassOf))
	})
	t.Run("ErrUnknownKind", func(t *testing.T) {
		_, err := f.org.CreateTicketType(ctx, f.eventID, "test", in("league-y", "weekly", 0, day))
		require.Equal(t, palaro.MsgPassKindUnknown, field(err, palaro.FieldPassKind))
	})
	t.Run("ErrSingleDateEvent", func(t *testing.T) {
		single := int64(f.count(t, `SELECT min(id) FROM events WHERE id NOT IN (SELECT event_id FROM event_dates)`))
		var other string
		require.NoError(t, f.db.read.QueryRow(`SELECT code FROM ticket_types WHERE event_id = ? ORDER BY id LIMIT 1`, single).Scan(&other))
		_, err := f.org.CreateTicketType(ctx, single, "test", in("single-pass", palaro.PassEvery, 0, other))
		require.Equal(t, palaro.MsgPassNeedsSeries, field(err, palaro.FieldPassKind))
	})
	t.Run("ErrDayTicketOfPasses", func(t *testing.T) {
		cur, err := f.org.FindEvent(ctx, demoLeague)
		require.NoError(t, err)
		for _, tt := range cur.TicketTypes {
			if tt.Code == box {
				edit := palaro.TicketTypeInputOf(tt)
				edit.PassKind, edit.PassOf = palaro.PassEvery, day
				_, err := f.org.UpdateTicketType(ctx, f.eventID, box, "test", edit)
				require.Equal(t, palaro.MsgPassIsPassOf, field(err, palaro.FieldPassKind))
			}
		}
	})
	t.Run("ErrChangeAfterSales", func(t *testing.T) {
		cur, err := f.org.FindEvent(ctx, demoLeague)
		require.NoError(t, err)
		for _, tt := range cur.TicketTypes {
			if tt.Code != season {
				continue
			}
			edit := palaro.TicketTypeInputOf(tt)
			edit.PassKind, edit.PassDates = palaro.PassCount, 4
			_, err := f.org.UpdateTicketType(ctx, f.eventID, season, "test", edit)
			require.Equal(t, palaro.MsgPassSold, field(err, palaro.FieldPassKind))
			edit = palaro.TicketTypeInputOf(tt)
			edit.PassOf = day
			_, err = f.org.UpdateTicketType(ctx, f.eventID, season, "test", edit)
			require.Equal(t, palaro.MsgPassSold, field(err, palaro.FieldPassOf))
			edit = palaro.TicketTypeInputOf(tt)
			edit.Name = "Season Pass (renamed)"
			_, err = f.org.UpdateTicketType(ctx, f.eventID, season, "test", edit)
			require.NoError(t, err, "the rest of a sold pass still changes")
		}
	})
}

// TestOrganizer_SeriesDayTicketEdit edits the demo league's day ticket, whose places are on its
// dates (its own counters stay 0): its capacity, which its dates follow, cannot go below the
// places taken on the busiest of them, and it cannot become seated once sold.
func TestOrganizer_SeriesDayTicketEdit(t *testing.T) {
	f := newLeagueFixture(t)
	ctx := context.Background()
	ev, err := f.org.FindEvent(ctx, demoLeague)
	require.NoError(t, err)
	i := slices.IndexFunc(ev.TicketTypes, func(tt palaro.TicketType) bool { return tt.Code == demoLeague+"-day" })
	require.GreaterOrEqual(t, i, 0)
	day := ev.TicketTypes[i]
	require.False(t, day.Seated)
	busiest := f.count(t, `SELECT max(sold + held) FROM date_stock WHERE ticket_type_id = ?`, day.ID)
	require.Positive(t, busiest)
	capacities := func() int {
		return f.count(t, `SELECT sum(capacity) FROM date_stock WHERE ticket_type_id = ?`, day.ID)
	}
	before := capacities()

	edit := palaro.TicketTypeInputOf(day)
	edit.Capacity = busiest - 1
	_, err = f.org.UpdateTicketType(ctx, f.eventID, day.Code, "test", edit)
	var e *palaro.Error
	require.ErrorAs(t, err, &e)
	require.Equal(t, palaro.EINVALID, e.Code)
	require.Contains(t, e.Fields[palaro.FieldCapacity], fmt.Sprintf("Capacity cannot be below %d", busiest))
	require.Equal(t, before, capacities(), "no date's capacity changed")

	edit = palaro.TicketTypeInputOf(day)
	edit.Seated = true
	_, err = f.org.UpdateTicketType(ctx, f.eventID, day.Code, "test", edit)
	require.ErrorAs(t, err, &e)
	require.Equal(t, "The seat map cannot change once seats are sold or held.", e.Fields[palaro.FieldCapacity])

	edit = palaro.TicketTypeInputOf(day)
	edit.Capacity = busiest
	_, err = f.org.UpdateTicketType(ctx, f.eventID, day.Code, "test", edit)
	require.NoError(t, err, "down to the busiest date's places")
	require.Equal(t, 8*busiest, capacities(), "every date follows the type's capacity")
}
