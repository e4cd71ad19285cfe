package palaro

import (
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

func TestDateSlug_ManilaDay(t *testing.T) {
	// 23:30 on 31 December in Manila is 15:30 UTC: the slug is Manila's day, not UTC's
	newYearsEve := time.Date(2026, 12, 31, 15, 30, 0, 0, time.UTC)
	require.Equal(t, "2026-12-31", ManilaDay(newYearsEve))
	// 00:00 on 1 January in Manila is 16:00 UTC on 31 December
	midnight := time.Date(2026, 12, 31, 16, 0, 0, 0, time.UTC)
	require.Equal(t, "2027-01-01", ManilaDay(midnight))
	require.Equal(t, "2027-01-01", DateSlug("2027-01-01", 1))
	require.Equal(t, "2027-01-01-2", DateSlug("2027-01-01", 2))

	for slug, want := range map[string]struct {
		day string
		n   int
		ok  bool
	}{
		"2027-01-09":   {"2027-01-09", 1, true},
		"2027-01-09-2": {"2027-01-09", 2, true},
		"2027-01-09-1": {"", 0, false}, // the first session has no suffix
		"2027-02-30":   {"", 0, false},
		"2027-1-09":    {"", 0, false},
		"teams":        {"", 0, false},
		"2028-02-29":   {"2028-02-29", 1, true},
	} {
		day, n, ok := ParseDateSlug(slug)
		require.Equal(t, want.ok, ok, slug)
		require.Equal(t, want.day, day, slug)
		require.Equal(t, want.n, n, slug)
	}
}

func TestSlugDates_SecondSessionAndExisting(t *testing.T) {
	at := func(day, hour int) time.Time { return time.Date(2027, 1, day, hour, 0, 0, 0, Manila) }
	existing := []EventDate{{Slug: "2027-01-09", StartsAt: at(9, 19)}}
	got := SlugDates(existing, []EventDate{
		{StartsAt: at(10, 19)}, {StartsAt: at(9, 14)}, {StartsAt: at(10, 13)},
	})
	require.Equal(t, "2027-01-10-2", got[0].Slug, "the later session of the 10th is the second")
	require.Equal(t, "2027-01-09-2", got[1].Slug, "the 9th has a date already")
	require.Equal(t, "2027-01-10", got[2].Slug)
}

func TestDateRule_Dates(t *testing.T) {
	t.Run("OK every Friday and Saturday, 7 PM to 11 PM, from 9 January for 8 weeks", func(t *testing.T) {
		dates, err := DateRule{Weekdays: []time.Weekday{time.Friday, time.Saturday}, StartTime: "19:00", EndTime: "23:00",
			From: "2027-01-09", Weeks: 8}.Dates()
		require.NoError(t, err)
		require.Len(t, dates, 16)
		// 9 January 2027 is a Saturday: it is the first date; the last is Friday 5 March
		require.Equal(t, time.Date(2027, 1, 9, 19, 0, 0, 0, Manila), dates[0].StartsAt.In(Manila))
		require.Equal(t, time.Date(2027, 1, 9, 23, 0, 0, 0, Manila), dates[0].EndsAt.In(Manila))
		require.Equal(t, time.Date(2027, 1, 15, 19, 0, 0, 0, Manila), dates[1].StartsAt.In(Manila))
		require.Equal(t, time.Date(2027, 3, 5, 19, 0, 0, 0, Manila), dates[15].StartsAt.In(Manila))
		require.Equal(t, "2027-03-05", ManilaDay(dates[15].StartsAt))
	})
	t.Run("OK a late session ends the next day, across the year's end", func(t *testing.T) {
		dates, err := DateRule{Weekdays: []time.Weekday{time.Thursday}, StartTime: "22:00", EndTime: "01:00",
			From: "2026-12-31", Weeks: 1}.Dates()
		require.NoError(t, err)
		require.Len(t, dates, 1)
		require.Equal(t, "2026-12-31", ManilaDay(dates[0].StartsAt))
		require.Equal(t, time.Date(2027, 1, 1, 1, 0, 0, 0, Manila), dates[0].EndsAt.In(Manila))
	})
	t.Run("OK midnight sessions fall on their Manila day across a month's end", func(t *testing.T) {
		dates, err := DateRule{Weekdays: []time.Weekday{time.Sunday, time.Monday}, StartTime: "00:00", EndTime: "02:00",
			From: "2027-01-31", Weeks: 1}.Dates()
		require.NoError(t, err)
		require.Len(t, dates, 2)
		require.Equal(t, "2027-01-31", ManilaDay(dates[0].StartsAt)) // a Sunday
		require.Equal(t, "2027-02-01", ManilaDay(dates[1].StartsAt))
		require.Equal(t, time.Date(2027, 1, 30, 16, 0, 0, 0, time.UTC), dates[0].StartsAt.UTC())
	})
	t.Run("ERR each failing field is named", func(t *testing.T) {
		_, err := DateRule{StartTime: "7 PM", EndTime: "25:00", From: "9 January", Weeks: 0}.Dates()
		var e *Error
		require.ErrorAs(t, err, &e)
		require.Equal(t, map[string]string{
			FieldRuleWeekdays:  "Pick at least one day of the week.",
			FieldRuleStartTime: "Enter the start time as HH:MM, such as 19:00.",
			FieldRuleEndTime:   "Enter the end time as HH:MM, such as 23:00.",
			FieldRuleFrom:      "Enter the first day as YYYY-MM-DD, such as 2027-01-09.",
			FieldRuleWeeks:     "Enter between 1 and 104 weeks.",
		}, e.Fields)
	})
	t.Run("ERR too many dates", func(t *testing.T) {
		all := []time.Weekday{0, 1, 2, 3, 4, 5, 6}
		_, err := DateRule{Weekdays: all, StartTime: "19:00", EndTime: "23:00", From: "2027-01-01", Weeks: 60}.Dates()
		require.Equal(t, EINVALID, ErrorCode(err))
	})
}

func TestEventDate_SaleState(t *testing.T) {
	start := time.Date(2027, 1, 9, 19, 0, 0, 0, Manila)
	d := EventDate{StartsAt: start, EndsAt: start.Add(4 * time.Hour), Status: DateScheduled}
	tt := TicketType{SalesEnd: start.Add(-24 * time.Hour)}
	before := start.Add(-48 * time.Hour)
	require.Equal(t, SaleOpen, d.SaleState(tt, nil, 5, before))
	require.Equal(t, SaleEnded, d.SaleState(tt, nil, 5, start.Add(-time.Hour)), "the type's window ends sales")
	own := d
	own.SalesEnd = start
	require.Equal(t, SaleOpen, own.SaleState(tt, nil, 5, start.Add(-time.Hour)), "the date's own window replaces the type's")
	require.Equal(t, SaleSoldOut, own.SaleState(tt, nil, 0, start.Add(-time.Hour)))
	own.Status = DatePostponed
	require.Equal(t, SaleEnded, own.SaleState(tt, nil, 5, before))
}

func TestPassDates_ComingNotCancelled(t *testing.T) {
	// dates ending at midnight in Manila across the year's end: 31 December's ends at 00:00 on 1 January
	day := func(id int64, y int, m time.Month, d int, status string) EventDate {
		start := time.Date(y, m, d, 20, 0, 0, 0, Manila)
		return EventDate{ID: id, StartsAt: start, EndsAt: time.Date(y, m, d+1, 0, 0, 0, 0, Manila), Status: status}
	}
	dates := []EventDate{
		day(1, 2026, time.December, 30, DateScheduled),
		day(2, 2026, time.December, 31, DateScheduled),
		day(3, 2027, time.January, 1, DateCancelled),
		day(4, 2027, time.January, 2, DatePostponed),
		day(5, 2027, time.January, 31, DateScheduled),
	}
	newYear := time.Date(2027, 1, 1, 0, 0, 0, 0, Manila)
	require.Equal(t, []int64{1, 2, 4, 5}, PassDates(dates, newYear.Add(-24*time.Hour-time.Nanosecond)),
		"a nanosecond before 30 December's end: every date not cancelled")
	require.Equal(t, []int64{2, 4, 5}, PassDates(dates, newYear.Add(-24*time.Hour)), "30 December's date has ended at its midnight")
	require.Equal(t, []int64{4, 5}, PassDates(dates, newYear), "New Year's Eve's date ends at midnight in Manila (16:00 UTC)")
	require.Empty(t, PassDates(dates, time.Date(2027, 2, 1, 0, 0, 0, 0, Manila)), "after the month's last date, none")
}

func TestValidatePass(t *testing.T) {
	day := TicketType{ID: 1, Code: "day"}
	pass := TicketType{ID: 2, PassKind: PassCount, PassDates: 1, PassOf: 0}
	require.Equal(t, map[string]string{
		FieldPassKind:  MsgPassNeedsSeries,
		FieldPassDates: "Enter between 2 and 366 dates.",
		FieldPassOf:    MsgPassOfRequired,
	}, ValidatePass(pass, []TicketType{day, pass}, 0))
	pass.PassDates, pass.PassOf = 5, 1
	require.Empty(t, ValidatePass(pass, []TicketType{day, pass}, 8))
	require.Equal(t, "5 dates of your choice", pass.PassLabel())
	require.Equal(t, map[string]string{FieldPassDates: "A pass for 5 dates needs as many dates: this event has 4."},
		ValidatePass(pass, []TicketType{day, pass}, 4), "a count larger than the dates")
	require.Equal(t, map[string]string{FieldPassKind: MsgPassNeedsSeries}, ValidatePass(pass, []TicketType{day, pass}, 1),
		"a single date is no series")
	other := TicketType{ID: 3, PassKind: PassEvery, PassOf: 2}
	require.Equal(t, map[string]string{FieldPassOf: MsgPassOfPass}, ValidatePass(other, []TicketType{day, pass, other}, 8))
	dayToPass := TicketType{ID: 1, PassKind: PassEvery, PassOf: 3}
	require.Equal(t, map[string]string{FieldPassKind: MsgPassIsPassOf}, ValidatePass(dayToPass, []TicketType{dayToPass, pass, {ID: 3}}, 8),
		"a day ticket that passes take the places of cannot become a pass")
	require.Equal(t, map[string]string{FieldPassOf: MsgPassOfDayOnly}, ValidatePass(TicketType{ID: 4, PassOf: 1}, []TicketType{day}, 8))
}

func TestUsedDatesLine(t *testing.T) {
	jan := func(d int) time.Time { return time.Date(2027, 1, d, 19, 0, 0, 0, Manila) }
	require.Equal(t, "Not used yet", UsedDatesLine([]PassUse{{StartsAt: jan(9)}}, 0))
	require.Equal(t, "Used on 9 Jan, 16 Jan (2 of 5)", UsedDatesLine([]PassUse{
		{StartsAt: jan(9), CheckedInAt: jan(9)}, {StartsAt: jan(10)}, {StartsAt: jan(16), CheckedInAt: jan(16)},
	}, 5))
}

// TestDateOn_ManilaMidnight: a scan without a date admits to the session going on, even after
// midnight in Manila (a 10 PM to 1 AM session), else to the first date starting that Manila day.
func TestDateOn_ManilaMidnight(t *testing.T) {
	at := func(day, hour, min int) time.Time { return time.Date(2027, 1, day, hour, min, 0, 0, Manila) }
	dates := []EventDate{
		{Slug: "2027-01-09", StartsAt: at(9, 22, 0), EndsAt: at(10, 1, 0)},   // Saturday night into Sunday
		{Slug: "2027-01-10", StartsAt: at(10, 19, 0), EndsAt: at(10, 23, 0)}, // Sunday evening
	}
	slug := func(at time.Time) string { return slugOf(DateOn(dates, at)) }
	require.Equal(t, "2027-01-09", slug(at(9, 21, 0)), "before doors on the day it starts")
	require.Equal(t, "2027-01-09", slug(at(9, 23, 59)))
	// 00:30 on Sunday in Manila is 16:30 UTC on Saturday: the Saturday session is still on
	require.Equal(t, "2027-01-09", slug(time.Date(2027, 1, 9, 16, 30, 0, 0, time.UTC)))
	require.Equal(t, "2027-01-10", slug(at(10, 1, 0)), "once the night session ended, Sunday's date")
	require.Equal(t, "2027-01-10", slug(at(10, 23, 30)), "after Sunday's session, still Sunday's")
	require.Equal(t, "", slug(at(11, 0, 0)), "midnight into Monday: no date")
	require.Equal(t, "", slug(at(8, 23, 59)))
}

// TestGateDate_ManilaMidnight: the gate opens on the session going on (past midnight in Manila
// too), else today's next, else today's last, else the next to come; never a cancelled date.
func TestGateDate_ManilaMidnight(t *testing.T) {
	at := func(day, hour, min int) time.Time { return time.Date(2027, 1, day, hour, min, 0, 0, Manila) }
	dates := []EventDate{
		{Slug: "2027-01-09", StartsAt: at(9, 22, 0), EndsAt: at(10, 1, 0), Status: DateScheduled},     // Saturday night into Sunday
		{Slug: "2027-01-10", StartsAt: at(10, 13, 0), EndsAt: at(10, 15, 0), Status: DateScheduled},   // Sunday afternoon
		{Slug: "2027-01-10-2", StartsAt: at(10, 19, 0), EndsAt: at(10, 23, 0), Status: DateScheduled}, // Sunday evening
		{Slug: "2027-01-16", StartsAt: at(16, 19, 0), EndsAt: at(16, 23, 0), Status: DateCancelled},
		{Slug: "2027-01-23", StartsAt: at(23, 19, 0), EndsAt: at(23, 23, 0), Status: DateScheduled},
	}
	slug := func(at time.Time) string { return slugOf(GateDate(dates, at)) }
	require.Equal(t, "2027-01-09", slug(at(8, 12, 0)), "before the first date: the next to come")
	require.Equal(t, "2027-01-09", slug(at(9, 23, 59)))
	require.Equal(t, "2027-01-09", slug(at(10, 0, 0)), "midnight in Manila: the Saturday session is still on")
	require.Equal(t, "2027-01-09", slug(time.Date(2027, 1, 9, 16, 59, 59, 0, time.UTC)), "00:59:59 Sunday in Manila")
	require.Equal(t, "2027-01-10", slug(at(10, 1, 0)), "once the night session ended, Sunday's next")
	require.Equal(t, "2027-01-10-2", slug(at(10, 16, 0)), "between Sunday's sessions, the next of the day")
	require.Equal(t, "2027-01-10-2", slug(at(10, 23, 30)), "after Sunday's last session, still Sunday's")
	require.Equal(t, "2027-01-23", slug(at(11, 0, 0)), "midnight into Monday: the next to come, not the cancelled one")
	require.Equal(t, "2027-01-23", slug(at(16, 20, 0)), "a cancelled date going on is not chosen")
	require.Equal(t, "2027-01-23", slug(at(30, 12, 0)), "after the last date: the last")
	require.Nil(t, GateDate([]EventDate{{Status: DateCancelled, StartsAt: at(9, 1, 0)}}, at(9, 0, 0)))
	require.Equal(t, "Sat 9 Jan", GateDateLabel(dates[0]))
	require.Equal(t, "Match Day 3 · Sat 23 Jan", GateDateLabel(EventDate{Name: "Match Day 3", StartsAt: at(23, 19, 0)}))
}

// TestGateDate_YearAndMonthEnd: a New Year's Eve session going past midnight in Manila is still
// the gate's date on 1 January (still 31 December in UTC until 8 AM), and once it ended the gate
// moves to New Year's Day's own session; at a month's end the next month's first date comes next.
// Labels are Manila's day, not UTC's.
func TestGateDate_YearAndMonthEnd(t *testing.T) {
	at := func(y int, m time.Month, day, hour, min int) time.Time {
		return time.Date(y, m, day, hour, min, 0, 0, Manila)
	}
	dates := []EventDate{
		{Slug: "2026-12-31", StartsAt: at(2026, 12, 31, 22, 0), EndsAt: at(2027, 1, 1, 2, 0)}, // New Year's Eve into 2027
		{Slug: "2027-01-01", StartsAt: at(2027, 1, 1, 18, 0), EndsAt: at(2027, 1, 1, 22, 0)},
		{Slug: "2027-02-01", StartsAt: at(2027, 2, 1, 7, 30), EndsAt: at(2027, 2, 1, 10, 0)}, // 23:30 UTC on 31 January
	}
	slug := func(at time.Time) string { return slugOf(GateDate(dates, at)) }
	require.Equal(t, "2026-12-31", slug(at(2027, 1, 1, 0, 30)), "past midnight, the Eve's session is on")
	require.Equal(t, "2026-12-31", slug(time.Date(2026, 12, 31, 17, 59, 0, 0, time.UTC)), "01:59 on 1 January in Manila")
	require.Equal(t, "2027-01-01", slug(at(2027, 1, 1, 2, 0)), "the Eve's session ended: New Year's Day's")
	require.Equal(t, "2027-01-01", slug(at(2027, 1, 1, 23, 0)), "after it, still that day's")
	require.Equal(t, "2027-02-01", slug(at(2027, 1, 31, 23, 0)), "at January's end, February's first")
	require.Equal(t, "2027-02-01", slug(time.Date(2027, 1, 31, 22, 0, 0, 0, time.UTC)), "6 AM on 1 February in Manila: today's, not begun")
	require.Equal(t, "Thu 31 Dec", GateDateLabel(dates[0]))
	require.Equal(t, "Mon 1 Feb", GateDateLabel(dates[2]), "Manila's day, though UTC's is 31 January")
}

// slugOf is a date's slug, "" for none.
func slugOf(d *EventDate) string {
	if d == nil {
		return ""
	}
	return d.Slug
}
