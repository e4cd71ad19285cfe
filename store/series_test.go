package store

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"palaro"
)

// seriesFixture is a purchase fixture whose event (tekken-tuesdays-cubao) gets dates.
type seriesFixture struct {
	*purchaseFixture
	series  *SeriesService
	eventID int64
}

func newSeriesFixture(t *testing.T) *seriesFixture {
	t.Helper()
	f := newPurchaseFixture(t)
	s := &seriesFixture{purchaseFixture: f, series: NewSeriesService(f.db)}
	require.NoError(t, f.db.read.QueryRow(`SELECT id FROM events WHERE code = 'tekken-tuesdays-cubao'`).Scan(&s.eventID))
	return s
}

// weekly adds n weekly dates to the event, 7 PM to 11 PM Manila, from the 9th of January 2027.
func (f *seriesFixture) weekly(t *testing.T, n int, capacities map[string]int) []palaro.EventDate {
	t.Helper()
	dates, err := palaro.DateRule{Weekdays: []time.Weekday{time.Saturday}, StartTime: "19:00", EndTime: "23:00",
		From: "2027-01-09", Weeks: n}.Dates()
	require.NoError(t, err)
	inputs := make([]palaro.DateInput, len(dates))
	for i, d := range dates {
		inputs[i] = palaro.DateInput{StartsAt: d.StartsAt, EndsAt: d.EndsAt, Capacities: capacities}
	}
	created, err := f.series.CreateDates(context.Background(), f.eventID, inputs, f.now)
	require.NoError(t, err)
	return created
}

func TestSeries_CreateListFindDates(t *testing.T) {
	ctx := context.Background()
	f := newSeriesFixture(t)
	code := f.addTicketType(t, "day", 50000, 30, 4)
	got, err := f.series.ListEventDates(ctx, f.eventID)
	require.NoError(t, err)
	require.Empty(t, got, "an event without dates is a single-date event")

	created := f.weekly(t, 3, map[string]int{code: 10})
	require.Len(t, created, 3)
	require.Equal(t, []string{"2027-01-09", "2027-01-16", "2027-01-23"},
		[]string{created[0].Slug, created[1].Slug, created[2].Slug})

	// a second session on the 16th, in the afternoon, and one at midnight in Manila on the 17th
	afternoon := time.Date(2027, 1, 16, 14, 0, 0, 0, palaro.Manila)
	midnight := time.Date(2027, 1, 17, 0, 0, 0, 0, palaro.Manila)
	more, err := f.series.CreateDates(ctx, f.eventID, []palaro.DateInput{
		{StartsAt: afternoon, EndsAt: afternoon.Add(2 * time.Hour), Name: "Qualifiers"},
		{StartsAt: midnight, EndsAt: midnight.Add(time.Hour)},
	}, f.now)
	require.NoError(t, err)
	require.Equal(t, "2027-01-16-2", more[0].Slug)
	require.Equal(t, "2027-01-17", more[1].Slug)

	all, err := f.series.ListEventDates(ctx, f.eventID)
	require.NoError(t, err)
	require.Len(t, all, 5)
	require.Equal(t, "2027-01-16-2", all[1].Slug, "dates list by start")

	d, err := f.series.FindEventDate(ctx, f.eventID, "2027-01-16-2")
	require.NoError(t, err)
	require.Equal(t, "Qualifiers", d.Name)
	require.True(t, afternoon.Equal(d.StartsAt))
	require.Nil(t, d.Venue, "the date takes the event's venue")
	require.Equal(t, palaro.DateScheduled, d.Status)
	_, err = f.series.FindEventDate(ctx, f.eventID, "2027-01-10")
	require.Equal(t, palaro.ENOTFOUND, palaro.ErrorCode(err))

	avail, err := f.series.ListDateAvailability(ctx, f.eventID)
	require.NoError(t, err)
	require.Len(t, avail, 5)
	var dayID int64
	require.NoError(t, f.db.read.QueryRow(`SELECT id FROM ticket_types WHERE code = ?`, code).Scan(&dayID))
	st, ok := avail[0].Of(dayID)
	require.True(t, ok)
	require.Equal(t, 10, st.Capacity, "the date's own capacity")
	require.True(t, st.OwnCapacity)
	st, ok = avail[1].Of(dayID)
	require.True(t, ok)
	require.Equal(t, 30, st.Capacity, "a date without its own capacity has the type's")
	require.False(t, st.OwnCapacity)
	require.Equal(t, 30, st.Available())

	_, err = f.series.CreateDates(ctx, f.eventID, []palaro.DateInput{{StartsAt: midnight, EndsAt: midnight}}, f.now)
	var e *palaro.Error
	require.ErrorAs(t, err, &e)
	require.Equal(t, "The date must end after it starts.", e.Fields[palaro.FieldDateEndsAt])
}
