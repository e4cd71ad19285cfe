package main

import (
	"os"
	"runtime/debug"
	"strings"
	"testing"
	"time"
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
}
