package palaro

import (
	"slices"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

func TestDrawPlaces_SeededPermutation(t *testing.T) {
	places := DrawPlaces(42, 500)
	require.Equal(t, places, DrawPlaces(42, 500), "the same seed draws the same places")
	require.NotEqual(t, places, DrawPlaces(43, 500), "another seed, another draw")
	sorted := slices.Clone(places)
	slices.Sort(sorted)
	for i, p := range sorted {
		require.Equal(t, i+1, p, "every place 1..n exactly once")
	}
	inOrder := 0
	for i, p := range places {
		if p == i+1 {
			inOrder++
		}
	}
	require.Less(t, inOrder, 10, "arrival order is not kept")
}

func TestDrawPlaces_ArrivingEarlyGivesNoAdvantage(t *testing.T) {
	// Over many draws the first and the last to arrive get the same place on average: (n+1)/2.
	const n, draws = 100, 4000
	var first, last float64
	for seed := range uint64(draws) {
		p := DrawPlaces(seed, n)
		first += float64(p[0])
		last += float64(p[n-1])
	}
	require.InDelta(t, 50.5, first/draws, 2.5)
	require.InDelta(t, 50.5, last/draws, 2.5)
}

func TestQueueSettings_Validate(t *testing.T) {
	now := time.Date(2026, 3, 4, 2, 0, 0, 0, time.UTC)
	ev := &Event{EndsAt: now.Add(48 * time.Hour)}
	fields := func(err error) map[string]string {
		if err == nil {
			return nil
		}
		return err.(*Error).Fields
	}
	require.NoError(t, QueueSettings{OpensAt: now.Add(time.Hour), AdmitPerMinute: 100}.Validate(ev, nil, now))
	require.Equal(t, map[string]string{
		FieldQueueOpensAt:        "Enter when the sale opens, such as 2026-12-01T20:00:00+08:00.",
		FieldQueueAdmitPerMinute: "Admit between 1 and 10000 visitors a minute.",
	}, fields(QueueSettings{}.Validate(ev, nil, now)))
	require.Equal(t, "The sale must open before the event ends.",
		fields(QueueSettings{OpensAt: ev.EndsAt, AdmitPerMinute: 5}.Validate(ev, nil, now))[FieldQueueOpensAt])
	require.Contains(t, fields(QueueSettings{OpensAt: now, AdmitPerMinute: 10001}.Validate(ev, nil, now)), FieldQueueAdmitPerMinute)
	opened := &Queue{QueueSettings: QueueSettings{OpensAt: now.Add(-time.Minute), AdmitPerMinute: 5}, Opened: true}
	require.Equal(t, "The queue opened at 2026-03-04 09:59 Manila time; its opening can no longer change (turn the queue off to start again).",
		fields(QueueSettings{OpensAt: now.Add(time.Hour), AdmitPerMinute: 5}.Validate(ev, opened, now))[FieldQueueOpensAt])
	require.NoError(t, QueueSettings{OpensAt: opened.OpensAt, AdmitPerMinute: 50}.Validate(ev, opened, now), "the rate may change")
}
