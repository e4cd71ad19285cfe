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
