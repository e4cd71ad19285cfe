package main

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

// TestWaitStartupDrained: the page rounds wait until the server's metrics say its settle job ran
// once (it queues the demo's reminders) and its outbox has nothing pending, and the report says
// how many were sent; an outbox with nothing pending before the settle job's first round is not
// taken for done; a server still busy after the limit is measured anyway and the report says so.
func TestWaitStartupDrained(t *testing.T) {
	var scrapes atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		n := scrapes.Add(1)
		// scrape 1: the settle job has not run (nothing pending yet); 2: it has, 2 pending; 3: 1; 4: none
		rounds, pending := min(1, n-1), max(0, 4-n)
		if n == 1 {
			pending = 0
		}
		fmt.Fprintf(w, "# HELP palaro_outbox_messages ...\npalaro_outbox_messages{status=\"failed\"} 0\n"+
			"palaro_outbox_messages{status=\"pending\"} %d\npalaro_outbox_sent_total %d\n", pending, 566+n)
		if n > 1 {
			fmt.Fprintf(w, "palaro_job_rounds_total{job=\"refunds\"} 9\npalaro_job_rounds_total{job=\"settle\"} %d\n", rounds)
		}
	}))
	defer srv.Close()
	got, err := waitStartupDrained(context.Background(), srv.URL, time.Minute)
	if err != nil {
		t.Fatal(err)
	}
	if scrapes.Load() != 4 {
		t.Fatalf("scraped %d times, want 4 (until the settle job ran and nothing was pending)", scrapes.Load())
	}
	if want := "its outbox sending them: 570 messages sent; waited "; !strings.Contains(got, want) {
		t.Fatalf("got %q, want it to contain %q", got, want)
	}

	busy := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprint(w, "palaro_outbox_messages{status=\"pending\"} 12\npalaro_outbox_sent_total 3\npalaro_job_rounds_total{job=\"settle\"} 1\n")
	}))
	defer busy.Close()
	got, err = waitStartupDrained(context.Background(), busy.URL, 300*time.Millisecond)
	if err != nil {
		t.Fatal(err)
	}
	if want := "**The server's start-up work was not done after 300ms (settle job rounds 1, 12 outbox messages pending): the rounds ran while it went on.**"; got != want {
		t.Fatalf("got %q, want %q", got, want)
	}

	broken := httptest.NewServer(http.NotFoundHandler())
	defer broken.Close()
	if _, err := waitStartupDrained(context.Background(), broken.URL, time.Minute); err == nil {
		t.Fatal("no metrics: want an error")
	}
}
