package handlers

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// TestValidDateSlug: a date's address is a real day, with -N from 2 for another session that day.
func TestValidDateSlug(t *testing.T) {
	t.Run("OK", func(t *testing.T) {
		for _, s := range []string{"2027-01-09", "2027-01-09-2", "2027-01-09-12", "2028-02-29", "2026-12-31", "2027-01-01-99"} {
			require.True(t, validDateSlug(s), s)
		}
	})
	t.Run("ErrNotADate", func(t *testing.T) {
		for _, s := range []string{"", "calendar.ics", "teams", "2027-1-9", "2027-01-9", "2027-02-30", "2027-02-29", "2027-13-01",
			"2027-01-09-1", "2027-01-09-0", "2027-01-09-02", "2027-01-09-", "2027-01-09-+2", "2027-01-09-100", "2027-01-09x2", "20270109", "2027-01-09-2-2"} {
			require.False(t, validDateSlug(s), s)
		}
	})
}
