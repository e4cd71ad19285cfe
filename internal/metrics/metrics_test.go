package metrics

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus/testutil"
)

// TestRequest_NoAllocationPerRequest: once a series exists, counting a request into it allocates
// nothing (the hot path of every request).
func TestRequest_NoAllocationPerRequest(t *testing.T) {
	Request("/e/:code", "GET", 200, time.Millisecond)
	if n := testing.AllocsPerRun(1000, func() { Request("/e/:code", "GET", 200, time.Millisecond) }); n != 0 {
		t.Fatalf("Request allocates %v times per call", n)
	}
}

// TestRequest_UnknownMethodsShareOneSeries: a client's made-up methods cannot add series.
func TestRequest_UnknownMethodsShareOneSeries(t *testing.T) {
	before := testutil.CollectAndCount(requestDuration)
	Request("/*", "BREW", 404, time.Millisecond)
	Request("/*", "WHEN", 404, time.Millisecond)
	if got := testutil.CollectAndCount(requestDuration); got != before+1 {
		t.Fatalf("series: %d, want %d", got, before+1)
	}
}

// TestNewRegistry_CountsReadAtScrape: the outbox's, the webhooks' and the refunds' collectors
// register together, report their pending and failed counts as read at each scrape, and a count
// that cannot be read shows as palaro_metrics_read_errors{figure} instead, the others unharmed.
func TestNewRegistry_CountsReadAtScrape(t *testing.T) {
	hooks := [3]int{4, 1, 0}
	reg, err := NewRegistry(
		Outbox(func() (int, int, error) { return 2, 0, nil }),
		Webhooks(func() (int, int, error) {
			if hooks[2] != 0 {
				return 0, 0, errors.New("database closed")
			}
			return hooks[0], hooks[1], nil
		}),
		Refunds(func() (int, int, error) { return 7, 3, nil }))
	if err != nil {
		t.Fatal(err)
	}
	want := `
# HELP palaro_refunds Refunds waiting for the gateway (pending) and refused by it (failed, until retried).
# TYPE palaro_refunds gauge
palaro_refunds{status="failed"} 3
palaro_refunds{status="pending"} 7
# HELP palaro_webhook_deliveries Webhook deliveries waiting to be sent (pending: the queue's depth) and given up on (failed).
# TYPE palaro_webhook_deliveries gauge
palaro_webhook_deliveries{status="failed"} 1
palaro_webhook_deliveries{status="pending"} 4
`
	if err := testutil.GatherAndCompare(reg, strings.NewReader(want), "palaro_refunds", "palaro_webhook_deliveries"); err != nil {
		t.Fatal(err)
	}
	hooks = [3]int{0, 0, 1}
	want = `
# HELP palaro_metrics_read_errors 1 when a figure read at scrape time (such as the outbox's) could not be read.
# TYPE palaro_metrics_read_errors gauge
palaro_metrics_read_errors{figure="webhooks"} 1
# HELP palaro_outbox_messages Outbox messages waiting to be sent (pending) and given up on (failed).
# TYPE palaro_outbox_messages gauge
palaro_outbox_messages{status="failed"} 0
palaro_outbox_messages{status="pending"} 2
`
	if err := testutil.GatherAndCompare(reg, strings.NewReader(want), "palaro_metrics_read_errors", "palaro_outbox_messages",
		"palaro_webhook_deliveries"); err != nil {
		t.Fatal(err)
	}
}
