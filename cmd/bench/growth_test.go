package main

import (
	"context"
	"fmt"
	"os"
	"runtime/debug"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"palaro"
	"palaro/store"
)

// TestProcMemory_PeakResets: the bench reads a process's resident and peak memory from /proc, and
// resetting the peak after a large allocation was given back brings the peak down with it.
func TestProcMemory_PeakResets(t *testing.T) {
	pid := os.Getpid()
	big := make([]byte, 64<<20)
	for i := range big {
		big[i] = 1
	}
	peak, ok := procMemory(pid, "VmHWM")
	if !ok || peak < 64<<20 {
		t.Fatalf("VmHWM %d after touching 64 MB", peak)
	}
	big = nil
	debug.FreeOSMemory() // the 64 MB go back to the system
	rss, ok := resetPeakRSS(pid)
	if !ok {
		t.Skip("clear_refs is not available here")
	}
	if after, _ := procMemory(pid, "VmHWM"); rss <= 0 || after > peak-32<<20 {
		t.Fatalf("after a reset: VmRSS %d, VmHWM %d, peak before %d", rss, after, peak)
	}
}

// TestGrowthVerdict_Flags: an operation whose time grows more than the tickets is flagged, one that
// grows less is not, and a first view whose bytes grow is flagged.
func TestGrowthVerdict_Flags(t *testing.T) {
	op := func(d time.Duration, bytes int) GrowthOp {
		return GrowthOp{P50: d, Bytes: bytes, RSSBefore: 100 << 20, Peak: 101 << 20}
	}
	if v := growthVerdict("dashboard", op(time.Millisecond, 1000), op(30*time.Millisecond, 1000), 55); strings.Contains(v, "faster") {
		t.Errorf("×30 time for ×55 tickets flagged: %s", v)
	}
	if v := growthVerdict("dashboard", op(time.Millisecond, 1000), op(80*time.Millisecond, 1000), 55); !strings.Contains(v, "time grows faster") {
		t.Errorf("×80 time for ×55 tickets not flagged: %s", v)
	}
	if v := growthVerdict("seat page, first view", op(time.Millisecond, 1000), op(time.Millisecond, 2000), 55); !strings.Contains(v, "first view that grows") {
		t.Errorf("a first view twice as heavy not flagged: %s", v)
	}
	// the HTML stays, what the first visit downloads in all grows (or not)
	view := func(html, js int) GrowthOp {
		g := op(time.Millisecond, html)
		g.Weight = &Weight{Assets: []Asset{{Kind: "html", Bytes: html}, {Kind: "js", Bytes: js}}}
		return g
	}
	if v := growthVerdict(growthSeatPage, view(1000, 80000), view(1000, 90000), 55); !strings.Contains(v, "first view that grows") {
		t.Errorf("a first view whose scripts grow 12%% not flagged: %s", v)
	}
	if v := growthVerdict(growthSeatPage, view(1000, 80000), view(1040, 80000), 55); strings.Contains(v, "grows") {
		t.Errorf("a first view 4%% heavier in its HTML flagged: %s", v)
	}
}

// TestTicketRatio: each row is held to the growth of the tickets of the event it ran on (the arena
// on sale or sold out), not to the places'.
func TestTicketRatio(t *testing.T) {
	require.InDelta(t, 56.25, ticketRatio(GrowthOp{Tickets: 488}, GrowthOp{Tickets: 27450}), 0.01)
	require.InDelta(t, 55.0, ticketRatio(GrowthOp{Tickets: 1000}, GrowthOp{Tickets: 55000}), 0.01)
	require.Equal(t, 1.0, ticketRatio(GrowthOp{}, GrowthOp{Tickets: 55000}), "unknown: no growth to allow")
}

// TestGrowthChecks: the organizer views are named by the tickets of the event they ran on; the
// seat page's first view is held to the island budget and to not growing, with controls just past
// each line.
func TestGrowthChecks(t *testing.T) {
	seat := func(html, js int) GrowthOp {
		return GrowthOp{Name: growthSeatPage, P50: time.Millisecond, Bytes: html, Tickets: 500,
			Weight: &Weight{Assets: []Asset{{Kind: "html", Bytes: html}, {Kind: "css", Bytes: 10 * kb}, {Kind: "js", Bytes: js}}}}
	}
	rep := func(largest GrowthOp) *report {
		dash := GrowthOp{Name: "dashboard", P50: time.Millisecond, P99: 100 * time.Millisecond, Tickets: 55000}
		return &report{Growth: []GrowthRun{
			{Places: 1000, Ops: []GrowthOp{seat(6*kb, 80*kb)}},
			{Places: 55000, Ops: []GrowthOp{largest, dash}},
		}}
	}
	results := func(r *report) map[string]string {
		out := map[string]string{}
		for _, c := range r.growthChecks() {
			out[c.Budget] = fmt.Sprintf("%s %v", c.Measured, c.OK)
		}
		return out
	}
	const dash = "dashboard of a 55,000-ticket event (the sold-out arena): p99 ≤ 100.0 ms"
	const js = "Seat page's first view, arena of 55,000 places: JS ≤ 90.0 KB gz (an island page)"
	const grow = "Seat page's first view does not grow: HTML + CSS + JS gz at 55,000 places ≤ 5% above 1,000 places'"
	require.Equal(t, map[string]string{dash: "100.0 ms true", js: "80.0 KB true", grow: "96.0 KB → 96.0 KB true"},
		results(rep(seat(6*kb, 80*kb))))
	// 96 KB in all at 1,000 places: 5% more is 4,915.2 bytes more
	require.Contains(t, results(rep(seat(6*kb, 80*kb+4915)))[grow], "true", "just within 5%")
	require.Contains(t, results(rep(seat(6*kb, 80*kb+4916)))[grow], "false", "just over 5%")
	require.Contains(t, results(rep(seat(6*kb, 90*kb)))[js], "true", "at the island budget")
	require.Contains(t, results(rep(seat(6*kb, 90*kb+1)))[js], "false", "a byte over the island budget")
	got := results(rep(seat(6*kb*106/100, 80*kb)))
	require.Contains(t, got[grow], "false", "HTML 6% heavier")
	require.Contains(t, got[js], "true")
}

// TestArenaSoldOut: the sold-out arena of the scale section, on real SQLite: the stadium seed with
// --sold 1, then sellRest sells every place it left (one ticket per place, each seat taken once,
// the sold counters at capacity), checkInShare checks 30% in with a check-in row each, and
// cancelScaleTickets cancels 1%.
func TestArenaSoldOut(t *testing.T) {
	ctx := context.Background()
	db, path := migratedDB(t)
	seed, err := db.SeedStadium(ctx, time.Date(2026, 11, 28, 19, 0, 0, 0, palaro.Manila), store.StadiumOptions{Places: 1000, SoldShare: 1})
	require.NoError(t, err)
	require.Less(t, seed.Sold, 1000, "the seed alone leaves far seats unsold")

	require.NoError(t, sellRest(ctx, path))
	var tickets, places, seats, assigned, seatedTickets, counters int
	require.NoError(t, queryRow(ctx, path, `SELECT (SELECT COUNT(*) FROM tickets), (SELECT SUM(capacity) FROM ticket_types),
		(SELECT COUNT(*) FROM seats), (SELECT COUNT(DISTINCT ticket_type_id || ' ' || seat) FROM seat_assignments WHERE order_id IS NOT NULL),
		(SELECT COUNT(DISTINCT seat) FROM tickets WHERE seat <> ''), (SELECT SUM(sold) FROM ticket_types)`, nil,
		&tickets, &places, &seats, &assigned, &seatedTickets, &counters))
	require.Equal(t, 1000, places)
	require.Equal(t, places, tickets, "a ticket for each place")
	require.Equal(t, seats, assigned, "every seat sold")
	require.Equal(t, seats, seatedTickets, "one ticket per seat")
	require.Equal(t, places, counters, "sold counters at capacity")

	require.NoError(t, checkInShare(ctx, path))
	var checkedIn, rows int
	require.NoError(t, queryRow(ctx, path, `SELECT (SELECT COUNT(*) FROM tickets WHERE status = 'checked_in' AND checked_in_at IS NOT NULL),
		(SELECT COUNT(DISTINCT ticket_id) FROM check_ins WHERE outcome = 'checked_in')`, nil, &checkedIn, &rows))
	require.Equal(t, 300, checkedIn, "30% of 1,000 tickets numbered 1 to 1,000")
	require.Equal(t, checkedIn, rows, "a check-in row each")

	cancelled, err := cancelScaleTickets(ctx, path)
	require.NoError(t, err)
	require.Equal(t, 10, cancelled)
}
