package palaro

import "time"

// DateWindow returns the [from, to) time range a date filter covers at time now, in Manila time.
// Weeks start on Sunday. WhenAll and WhenAroundMe cover everything from now on (to is zero).
func DateWindow(when string, now time.Time) (from, to time.Time) {
	local := now.In(Manila)
	day := time.Date(local.Year(), local.Month(), local.Day(), 0, 0, 0, 0, Manila)
	switch when {
	case WhenToday:
		return now, day.AddDate(0, 0, 1)
	case WhenWeek:
		return now, day.AddDate(0, 0, 7-int(day.Weekday()))
	case WhenMonth:
		return now, time.Date(local.Year(), local.Month()+1, 1, 0, 0, 0, 0, Manila)
	}
	return now, time.Time{}
}
