package handlers

import (
	"strconv"
	"testing"
	"time"
)

// TestLimiter_ServersShareTheBudget: with three app servers each enforces a third of a rule, so a
// client spread over all three gets the one-server budget in total, at once and per refill; with
// one server (the control) the rule is whole.
func TestLimiter_ServersShareTheBudget(t *testing.T) {
	rule := limitRule{Burst: 30, Every: 20 * time.Second}
	now := time.Date(2026, 12, 31, 15, 59, 0, 0, time.UTC) // midnight in Manila is no edge for a limiter
	clock := func() time.Time { return now }
	takeAll := func(ls ...*limiter) int {
		n := 0
		for _, l := range ls {
			for {
				if ok, _ := l.allow(rule, "ip|203.0.113.7"); !ok {
					break
				}
				n++
			}
		}
		return n
	}
	one := newLimiter(clock, 1)
	three := []*limiter{newLimiter(clock, 3), newLimiter(clock, 3), newLimiter(clock, 3)}
	if got := takeAll(one); got != 30 {
		t.Fatalf("one server allowed %d at once, want 30", got)
	}
	if got := takeAll(three...); got != 30 {
		t.Fatalf("three servers allowed %d at once in total, want 30", got)
	}
	if got := takeAll(three[0]); got != 0 {
		t.Fatalf("an emptied server allowed %d more", got)
	}
	// One refill period of the single server: it gives one back; each of three gives a third of
	// one, so none yet, and after three periods each gives one: three in all, as one server would.
	now = now.Add(20 * time.Second)
	if got := takeAll(one); got != 1 {
		t.Fatalf("one server refilled %d after 20 s, want 1", got)
	}
	if got := takeAll(three...); got != 0 {
		t.Fatalf("three servers refilled %d after 20 s, want 0", got)
	}
	now = now.Add(40 * time.Second)
	if got := takeAll(three...); got != 3 {
		t.Fatalf("three servers refilled %d after 60 s, want 3", got)
	}
}

// TestLimitRule_PerServer: the burst is divided rounding up and never below one.
func TestLimitRule_PerServer(t *testing.T) {
	for _, c := range []struct {
		burst, servers, want int
		every                time.Duration
	}{
		{5, 1, 5, time.Minute}, {5, 0, 5, time.Minute}, {5, 3, 2, 3 * time.Minute}, {3, 3, 1, 3 * time.Minute},
		{1, 4, 1, 4 * time.Minute}, {300, 3, 100, 3 * time.Minute},
	} {
		got := limitRule{Burst: c.burst, Every: time.Minute}.perServer(c.servers)
		if got.Burst != c.want || got.Every != c.every {
			t.Errorf("burst %d over %d servers: got %d per %s, want %d per %s", c.burst, c.servers, got.Burst, got.Every, c.want, c.every)
		}
	}
}

// TestLimiter_SweepsNowAndThen: at sweepAt buckets the full ones are forgotten (a limit goes on
// as before: an emptied bucket stays empty, a forgotten one would have been full) and the next
// sweep waits until the map has doubled, so buckets all in use are not swept on every request.
func TestLimiter_SweepsNowAndThen(t *testing.T) {
	rule := limitRule{Burst: 2, Every: time.Minute}
	now := time.Date(2026, 3, 4, 2, 0, 0, 0, time.UTC)
	l := newLimiter(func() time.Time { return now }, 1)
	l.sweepAt = 3
	l.allow(rule, "a")
	l.allow(rule, "a") // a: empty
	l.allow(rule, "b")
	now = now.Add(time.Minute) // b: full again, a has one token
	l.allow(rule, "c")
	if len(l.buckets) != 3 {
		t.Fatalf("%d buckets before the sweep, want 3", len(l.buckets))
	}
	l.allow(rule, "d") // the map has reached sweepAt: a sweep before d is added
	if len(l.buckets) != 3 {
		t.Fatalf("%d buckets after the sweep, want 3 (a, c, d; b was full)", len(l.buckets))
	}
	if l.sweepAt != minLimiterSweep {
		t.Fatalf("next sweep at %d, want the minimum %d", l.sweepAt, minLimiterSweep)
	}
	if ok, _ := l.allow(rule, "a"); !ok {
		t.Fatal("a's last token is gone")
	}
	if ok, _ := l.allow(rule, "a"); ok {
		t.Fatal("a's emptied bucket was forgotten by the sweep")
	}

	// minLimiterSweep buckets in use: one sweep keeps them all, the next waits for twice as many.
	l = newLimiter(func() time.Time { return now }, 1)
	for i := range minLimiterSweep {
		l.allow(rule, strconv.Itoa(i))
	}
	l.allow(rule, "one more")
	if len(l.buckets) != minLimiterSweep+1 || l.sweepAt != 2*minLimiterSweep {
		t.Fatalf("%d buckets, next sweep at %d; want %d and %d", len(l.buckets), l.sweepAt, minLimiterSweep+1, 2*minLimiterSweep)
	}
}
