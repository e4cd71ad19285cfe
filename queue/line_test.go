package queue

import (
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"palaro"
)

var opens = time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC) // 8 PM in Manila

// testLine is an opened line of n places that all arrived before the opening, at perMinute.
func testLine(n, perMinute int) *line {
	q := palaro.Queue{EventID: 1, EventCode: "final", QueueSettings: palaro.QueueSettings{OpensAt: opens, AdmitPerMinute: perMinute},
		Opened: true, Rates: []palaro.QueueRate{{From: opens, AdmitPerMinute: perMinute}}, Version: 1}
	places := make([]palaro.QueuePlace, n)
	for i := range places {
		places[i] = palaro.QueuePlace{ID: int64(i + 1), Place: i + 1, JoinedAt: opens.Add(-time.Hour)}
	}
	return newLine(q, places)
}

func TestLine_AdmissionRateOverTenMinutes(t *testing.T) {
	for _, rate := range []int{1, 7, 60, 500, 3000} {
		l := testLine(rate*12, rate) // more than ten minutes' worth waiting
		// The clock is simulated: a check every second for ten minutes.
		last := 0
		for s := 0; s <= 600; s++ {
			now := opens.Add(time.Duration(s) * time.Second)
			got := l.admitted(now)
			require.GreaterOrEqual(t, got, last, "admissions never go back")
			last = got
		}
		want := float64(rate * 10)
		got := float64(last - l.admitted(opens)) // admitted after the opening's first
		require.InDelta(t, want, got, want*0.05, "admitted in 10 minutes at %d a minute", rate)
		// each minute on its own keeps the rate too (within one admission)
		for m := 1; m <= 10; m++ {
			inMinute := l.admitted(opens.Add(time.Duration(m)*time.Minute)) - l.admitted(opens.Add(time.Duration(m-1)*time.Minute))
			require.InDelta(t, rate, inMinute, 1, "minute %d at %d a minute", m, rate)
		}
	}
}

func TestLine_OrderAndStatus(t *testing.T) {
	l := testLine(10, 60) // one a second
	st := l.status(0, 0, opens)
	require.True(t, st.Admitted, "the first place goes in at the opening")
	st = l.status(0, 4, opens.Add(2*time.Second)) // place 5; places 1-3 are in
	require.False(t, st.Admitted)
	require.Equal(t, 5, *st.Position)
	require.Equal(t, 1, *st.Ahead, "place 4 still waits before it")
	require.Equal(t, 2, st.EstimatedWaitSeconds)
	st = l.status(0, 4, opens.Add(4*time.Second))
	require.True(t, st.Admitted)
	require.Equal(t, 0, *st.Ahead)
}

func TestLine_BurstAfterQuietSpellKeepsTheRate(t *testing.T) {
	l := testLine(2, 60)
	// Everyone was admitted; 120 arrive an hour later, in order.
	later := opens.Add(time.Hour)
	for i := range 120 {
		require.True(t, l.apply(palaro.QueuePlace{ID: int64(100 + i), Place: 3 + i, JoinedAt: later}, int64(2+i)))
	}
	require.Equal(t, 2+1, l.admitted(later), "the time nobody waited is not saved up for the burst")
	require.Equal(t, 2+61, l.admitted(later.Add(time.Minute)))
	// later arrivals are in order of arrival
	for i := 1; i < 120; i++ {
		require.True(t, l.turns[2+i].After(l.turns[1+i]))
	}
}

func TestLine_RateChangeLeavesPastTurns(t *testing.T) {
	l := testLine(1000, 60)
	change := opens.Add(5 * time.Minute)
	before := l.admitted(change)
	past := append([]time.Time(nil), l.turns[:before]...)
	l.q.Rates = append(l.q.Rates, palaro.QueueRate{From: change, AdmitPerMinute: 600})
	l.q.AdmitPerMinute = 600
	l.recompute()
	require.Equal(t, past, l.turns[:before], "turns already passed stay")
	require.Equal(t, before, l.admitted(change))
	require.InDelta(t, before+600, l.admitted(change.Add(time.Minute)), 1, "the faster rate from the change on")
	// a slower rate later
	slow := change.Add(time.Minute)
	l.q.Rates = append(l.q.Rates, palaro.QueueRate{From: slow, AdmitPerMinute: 6})
	l.recompute()
	n := l.admitted(slow)
	require.InDelta(t, n+6, l.admitted(slow.Add(time.Minute)), 1)
}

func TestLine_GapFromAnotherServer(t *testing.T) {
	l := testLine(3, 60)
	require.False(t, l.apply(palaro.QueuePlace{ID: 10, Place: 5, JoinedAt: opens}, 3), "place 4 is missing")
	require.Len(t, l.turns, 3, "no turn is guessed past the gap")
	st := l.status(0, 4, opens)
	require.Equal(t, 5, *st.Position)
	require.Positive(t, st.EstimatedWaitSeconds)
	require.True(t, l.apply(palaro.QueuePlace{ID: 9, Place: 4, JoinedAt: opens}, 2))
	require.Len(t, l.turns, 5)
	require.Equal(t, int64(3), l.q.Version, "versions applied out of order are all counted")
}

func TestLine_BeforeTheDraw(t *testing.T) {
	q := palaro.Queue{QueueSettings: palaro.QueueSettings{OpensAt: opens, AdmitPerMinute: 10}, Rates: []palaro.QueueRate{{From: opens, AdmitPerMinute: 10}}}
	l := newLine(q, []palaro.QueuePlace{{ID: 1, JoinedAt: opens.Add(-time.Hour)}, {ID: 2, JoinedAt: opens.Add(-time.Minute)}})
	require.Equal(t, 2, l.early)
	st := l.status(1, l.index[1], opens.Add(-90*time.Second))
	require.Nil(t, st.Position)
	require.Nil(t, st.Ahead)
	require.False(t, st.Admitted)
	require.Equal(t, 90, st.EstimatedWaitSeconds, "the wait is until the opening")
}
