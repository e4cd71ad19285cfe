package palaro

import (
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

func TestSelfCancelPolicy_FeeOn(t *testing.T) {
	for _, c := range []struct {
		name string
		p    SelfCancelPolicy
		paid Money
		want Money
	}{
		{"nothing kept", SelfCancelPolicy{Enabled: true}, 45000, 0},
		{"fixed fee", SelfCancelPolicy{Fee: 5000}, 45000, 5000},
		{"10%", SelfCancelPolicy{PercentBP: 1000}, 45000, 4500},
		{"half a centavo rounds up", SelfCancelPolicy{PercentBP: 5000}, 1, 1},
		{"less than half rounds down", SelfCancelPolicy{PercentBP: 4999}, 1, 0},
		{"7.5% of 999.99 is 74.99925", SelfCancelPolicy{PercentBP: 750}, 99999, 7500},
		{"fee plus percent", SelfCancelPolicy{Fee: 5000, PercentBP: 750}, 99999, 12500},
		{"never more than paid", SelfCancelPolicy{Fee: 50000, PercentBP: 1000}, 45000, 45000},
		{"100%", SelfCancelPolicy{PercentBP: 10000}, 45000, 45000},
		{"nothing paid", SelfCancelPolicy{Fee: 5000}, 0, 0},
	} {
		require.Equal(t, c.want, c.p.FeeOn(c.paid), c.name)
	}
}

func TestSelfCancelPolicy_Deadline(t *testing.T) {
	start := time.Date(2026, 12, 2, 0, 0, 0, 0, Manila)
	p := SelfCancelPolicy{Enabled: true, HoursBefore: 24}
	deadline := time.Date(2026, 12, 1, 0, 0, 0, 0, Manila)
	require.Equal(t, deadline, p.Deadline(start))
	require.True(t, p.Open(start, deadline.Add(-time.Second)))
	require.False(t, p.Open(start, deadline), "the deadline itself is closed")
	require.False(t, SelfCancelPolicy{HoursBefore: 24}.Open(start, deadline.Add(-48*time.Hour)), "off")
}

func TestParseSelfCancelPolicy(t *testing.T) {
	p, err := ParseSelfCancelPolicy(true, " 48 ", "1,000.50", "12.25")
	require.NoError(t, err)
	require.Equal(t, SelfCancelPolicy{Enabled: true, HoursBefore: 48, Fee: 100050, PercentBP: 1225}, p)
	require.Equal(t, "₱1,000.50 + 12.25% of the price paid", p.FeeText())
	p, err = ParseSelfCancelPolicy(true, "0", "", "")
	require.NoError(t, err)
	require.Equal(t, "nothing", p.FeeText())
	_, err = ParseSelfCancelPolicy(true, "-1", "-5", "100.5")
	require.Equal(t, EINVALID, ErrorCode(err))
	fields := err.(*Error).Fields
	require.Len(t, fields, 3)
	for _, bad := range []string{"101", "-0.5", "7.555", "abc", "NaN"} {
		_, err = ParseSelfCancelPolicy(true, "24", "0", bad)
		require.Contains(t, err.(*Error).Fields, FieldSelfCancelPercent, bad)
	}
	_, err = ParseSelfCancelPolicy(true, "24", "0.001", "0")
	require.Contains(t, err.(*Error).Fields, FieldSelfCancelFee)
}
