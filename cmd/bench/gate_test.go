package main

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// TestScanCodes: the gate's scans cover four fifths as many tickets as scans, each once and a
// fifth of them twice, spread over the event's tickets; an event with fewer tickets has each scanned.
func TestScanCodes(t *testing.T) {
	codes := func(n int) []string {
		out := make([]string, n)
		for i := range out {
			out[i] = fmt.Sprintf("T%d", i)
		}
		return out
	}
	times := func(scanned []string) map[string]int {
		out := map[string]int{}
		for _, c := range scanned {
			out[c]++
		}
		return out
	}
	seen := times(scanCodes(codes(1000), 1250))
	require.Len(t, seen, 1000, "every ticket of a 1,000-ticket event")
	twice := 0
	for _, n := range seen {
		require.LessOrEqual(t, n, 2)
		if n == 2 {
			twice++
		}
	}
	require.Equal(t, 250, twice)

	stadium := scanCodes(codes(55000), 1250)
	require.Len(t, times(stadium), 1000)
	require.Equal(t, "T0", stadium[0])
	require.Equal(t, "T54945", stadium[999], "spread to the end of the list")
	require.Len(t, times(scanCodes(codes(10), 1250)), 10)
}

// TestGateChecks: the gate's rows and budget lines name the event by its own tickets and show the
// tickets scanned; the exactness line fails when a check-in is recorded twice or a ticket scanned
// was not checked in.
func TestGateChecks(t *testing.T) {
	run := func(checkedIn, rows int) *CheckInBench {
		return &CheckInBench{Gates: 60, Tickets: 1000, Scans: 1250, EventTickets: 1000, CheckedIn: checkedIn, CheckInRows: rows,
			Scan: Load{Requests: 1000, Refused: 250, Elapsed: time.Second, Latencies: []time.Duration{time.Millisecond, 90 * time.Millisecond}}}
	}
	results := func(g *GateBench) map[string]bool {
		out := map[string]bool{}
		for _, c := range g.checks() {
			out[c.Budget] = c.OK
		}
		return out
	}
	const exact, p99 = "Gate, 1,000 tickets: one check-in per ticket at 60 gates", "Gate, 1,000 tickets: answer p99 ≤ 100ms at 60 gates"
	ok := &GateBench{Gates: 60, Runs: []*CheckInBench{run(1000, 1000)}}
	require.Equal(t, map[string]bool{exact: true, p99: true}, results(ok))
	require.False(t, results(&GateBench{Gates: 60, Runs: []*CheckInBench{run(1000, 1001)}})[exact], "a check-in recorded twice")
	require.False(t, results(&GateBench{Gates: 60, Runs: []*CheckInBench{run(999, 999)}})[exact], "200 answered for a ticket not checked in")
	require.True(t, strings.Contains(ok.markdown(), "| 1,000 tickets | 1000 | 1250 | 1250 |"), ok.markdown())
}
