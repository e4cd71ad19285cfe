package metrics

import (
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
