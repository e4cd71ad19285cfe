package handlers

import (
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
