package main

import (
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// TestChecks_BudgetsOfDesign holds the budget checks to DESIGN.md: a public page at 0.8 × the bare
// handler's requests/s and its p99 within 2 × the bare handler's; the storm at 1.0 × the bare order
// server's orders/s and its p99 within 2 × that server's. Controls: just below each line fails.
func TestChecks_BudgetsOfDesign(t *testing.T) {
	ms := func(n float64) time.Duration { return time.Duration(n * float64(time.Millisecond)) }
	load := func(requests int, p99 time.Duration) Load {
		return Load{Requests: requests, Elapsed: time.Second, Latencies: []time.Duration{ms(1), p99}}
	}
	results := func(r *report) map[string]bool {
		out := map[string]bool{}
		for _, c := range r.Checks() {
			out[c.Budget] = c.OK
		}
		return out
	}
	page := func(rps int, p99 time.Duration) *report {
		return &report{Server: []serverResult{{Path: "/", Palaro: load(rps, p99), Bare: load(1000, ms(30))}}}
	}
	const ratio, p99 = "`/` throughput ≥ 0.8 × bare", "`/` p99 ≤ 2 × bare p99 (60.0 ms)"
	require.Equal(t, map[string]bool{ratio: true, p99: true}, results(page(800, ms(60))))
	require.Equal(t, map[string]bool{ratio: false, p99: false}, results(page(799, ms(60.1))))
	empty := &report{Server: []serverResult{{Path: "/", Palaro: load(800, ms(1)), Bare: Load{Elapsed: time.Second}}}}
	require.False(t, results(empty)["`/` p99 ≤ 2 × bare p99 (0.0 ms)"], "no baseline answers: no pass")

	storm := func(orders int, p99 time.Duration) *report {
		return &report{Storm: &Storm{Buy: load(orders, p99), SellingTime: time.Second,
			BareOrders: load(500, ms(40)), BareSellingTime: time.Second}}
	}
	const oratio, op99 = "Purchase storm: orders/s ≥ 1.0 × bare order server", "Purchase storm: p99 ≤ 2 × bare order server's p99 (80.0 ms)"
	got := results(storm(500, ms(80)))
	require.True(t, got[oratio])
	require.True(t, got[op99])
	got = results(storm(499, ms(80.1)))
	require.False(t, got[oratio])
	require.False(t, got[op99])
}
