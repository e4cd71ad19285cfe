package palaro_test

import (
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"palaro"
)

func TestDateWindow(t *testing.T) {
	// Wednesday 4 March 2026, 10:00 in Manila (02:00 UTC).
	now := time.Date(2026, 3, 4, 10, 0, 0, 0, palaro.Manila)
	manila := func(y int, m time.Month, d int) time.Time { return time.Date(y, m, d, 0, 0, 0, 0, palaro.Manila) }

	t.Run("Today", func(t *testing.T) {
		from, to := palaro.DateWindow(palaro.WhenToday, now)
		require.True(t, from.Equal(now))
		require.True(t, to.Equal(manila(2026, 3, 5)), "got %s", to)
	})
	t.Run("WeekEndsBeforeSunday", func(t *testing.T) {
		_, to := palaro.DateWindow(palaro.WhenWeek, now)
		require.True(t, to.Equal(manila(2026, 3, 8)), "got %s", to)
		require.Equal(t, time.Sunday, to.In(palaro.Manila).Weekday())
	})
	t.Run("WeekOnSunday", func(t *testing.T) {
		// A Sunday starts a new week, which runs to the next Sunday.
		sunday := time.Date(2026, 3, 8, 9, 0, 0, 0, palaro.Manila)
		_, to := palaro.DateWindow(palaro.WhenWeek, sunday)
		require.True(t, to.Equal(manila(2026, 3, 15)), "got %s", to)
	})
	t.Run("Month", func(t *testing.T) {
		_, to := palaro.DateWindow(palaro.WhenMonth, now)
		require.True(t, to.Equal(manila(2026, 4, 1)), "got %s", to)
		_, to = palaro.DateWindow(palaro.WhenMonth, time.Date(2026, 12, 31, 23, 0, 0, 0, palaro.Manila))
		require.True(t, to.Equal(manila(2027, 1, 1)), "December rolls into the next year, got %s", to)
	})
	t.Run("ManilaTime", func(t *testing.T) {
		// 17:30 UTC on 4 March is already 5 March (01:30) in Manila.
		utc := time.Date(2026, 3, 4, 17, 30, 0, 0, time.UTC)
		_, to := palaro.DateWindow(palaro.WhenToday, utc)
		require.True(t, to.Equal(manila(2026, 3, 6)), "got %s", to)
	})
	t.Run("OpenEnded", func(t *testing.T) {
		for _, when := range []string{palaro.WhenAll, palaro.WhenAroundMe} {
			from, to := palaro.DateWindow(when, now)
			require.True(t, from.Equal(now))
			require.True(t, to.IsZero(), when)
		}
	})
}

func TestValidCode(t *testing.T) {
	t.Run("OK", func(t *testing.T) {
		for _, c := range []string{"mlbb-manila-showdown", "a", "dota-2"} {
			require.True(t, palaro.ValidCode(c), c)
		}
	})
	t.Run("ErrMalformed", func(t *testing.T) {
		for _, c := range []string{"", "Upper", "a--b", "-a", "a-", "a_b", "../etc", "a b", string(make([]byte, 81))} {
			require.False(t, palaro.ValidCode(c), c)
		}
	})
}

// TestDateWindow_Instants runs the date filters at the instants where a day, a week, a month or a
// year turns over, and where the UTC date is not the Manila date: each window ends at the next
// midnight, Sunday, first of the month in Manila, whatever zone now is given in.
func TestDateWindow_Instants(t *testing.T) {
	manila := func(y int, m time.Month, d, h, min int) time.Time {
		return time.Date(y, m, d, h, min, 0, 0, palaro.Manila)
	}
	midnight := func(y int, m time.Month, d int) time.Time { return manila(y, m, d, 0, 0) }
	for name, tc := range map[string]struct {
		now                time.Time
		today, week, month time.Time
	}{
		"23:59 on a Wednesday": {manila(2026, 3, 4, 23, 59), midnight(2026, 3, 5), midnight(2026, 3, 8), midnight(2026, 4, 1)},
		"00:01 on a Thursday":  {manila(2026, 3, 5, 0, 1), midnight(2026, 3, 6), midnight(2026, 3, 8), midnight(2026, 4, 1)},
		"23:59 on a Saturday":  {manila(2026, 3, 7, 23, 59), midnight(2026, 3, 8), midnight(2026, 3, 8), midnight(2026, 4, 1)},
		"00:01 on a Sunday":    {manila(2026, 3, 8, 0, 1), midnight(2026, 3, 9), midnight(2026, 3, 15), midnight(2026, 4, 1)},
		"last day of February": {manila(2026, 2, 28, 23, 59), midnight(2026, 3, 1), midnight(2026, 3, 1), midnight(2026, 3, 1)},
		"last day of March":    {manila(2026, 3, 31, 12, 0), midnight(2026, 4, 1), midnight(2026, 4, 5), midnight(2026, 4, 1)},
		"first of April 00:01": {manila(2026, 4, 1, 0, 1), midnight(2026, 4, 2), midnight(2026, 4, 5), midnight(2026, 5, 1)},
		"31 December 23:59":    {manila(2026, 12, 31, 23, 59), midnight(2027, 1, 1), midnight(2027, 1, 3), midnight(2027, 1, 1)},
		// 16:01 UTC on 31 December is 00:01 on 1 January 2027 in Manila.
		"UTC still in the old year": {time.Date(2026, 12, 31, 16, 1, 0, 0, time.UTC), midnight(2027, 1, 2), midnight(2027, 1, 3), midnight(2027, 2, 1)},
		// 20:00 UTC on Tuesday 3 March is 04:00 on Wednesday 4 March in Manila.
		"UTC a day behind": {time.Date(2026, 3, 3, 20, 0, 0, 0, time.UTC), midnight(2026, 3, 5), midnight(2026, 3, 8), midnight(2026, 4, 1)},
		// A clock in another zone (Los Angeles, 15:59 on 31 March) is 06:59 on 1 April in Manila.
		"another zone": {time.Date(2026, 3, 31, 15, 59, 0, 0, time.FixedZone("PDT", -7*3600)), midnight(2026, 4, 2), midnight(2026, 4, 5), midnight(2026, 5, 1)},
	} {
		t.Run(name, func(t *testing.T) {
			for when, want := range map[string]time.Time{palaro.WhenToday: tc.today, palaro.WhenWeek: tc.week, palaro.WhenMonth: tc.month} {
				from, to := palaro.DateWindow(when, tc.now)
				require.True(t, from.Equal(tc.now), "%s starts now", when)
				require.True(t, to.Equal(want), "%s: want %s, got %s", when, want, to.In(palaro.Manila))
				require.True(t, to.After(tc.now), "%s is never empty", when)
			}
		})
	}
}
