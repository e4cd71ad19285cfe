package main

import (
	"context"
	"io"
	"math"
	"net/http"
	"slices"
	"sync"
	"sync/atomic"
	"time"
)

// Load is the outcome of one load run against one URL.
type Load struct {
	Requests  int             // completed requests with status 200
	Failures  int             // transport errors and non-200 answers
	Elapsed   time.Duration   // wall time of the run
	Latencies []time.Duration // one per successful request, sorted ascending
}

// RPS is the successful requests per second.
func (l Load) RPS() float64 {
	if l.Elapsed <= 0 {
		return 0
	}
	return float64(l.Requests) / l.Elapsed.Seconds()
}

// Percentile returns the p-th percentile latency (0 < p ≤ 100) by the nearest-rank method.
func (l Load) Percentile(p float64) time.Duration { return percentile(l.Latencies, p) }

// merge adds another run of the same target, as if both had run back to back.
func (l Load) merge(o Load) Load {
	l.Requests += o.Requests
	l.Failures += o.Failures
	l.Elapsed += o.Elapsed
	l.Latencies = append(l.Latencies, o.Latencies...)
	slices.Sort(l.Latencies)
	return l
}

// percentile returns the nearest-rank p-th percentile of sorted values: the smallest value with at
// least p% of the values at or below it. It returns 0 for no values.
func percentile(sorted []time.Duration, p float64) time.Duration {
	if len(sorted) == 0 {
		return 0
	}
	rank := int(math.Ceil(p / 100 * float64(len(sorted))))
	rank = max(1, min(rank, len(sorted)))
	return sorted[rank-1]
}

// newLoadClient returns an HTTP client for concurrency keep-alive connections to one host that,
// like a browser, asks for gzip and does not spend time decompressing what it receives.
func newLoadClient(concurrency int) *http.Client {
	return &http.Client{
		Timeout: 10 * time.Second,
		Transport: &http.Transport{
			MaxIdleConns:        2 * concurrency,
			MaxIdleConnsPerHost: 2 * concurrency,
			IdleConnTimeout:     90 * time.Second,
			DisableCompression:  true,
		},
	}
}

// runLoad sends GET requests to url from concurrency clients until duration has passed or
// maxRequests have been sent, whichever comes first.
func runLoad(ctx context.Context, client *http.Client, url string, concurrency int, duration time.Duration, maxRequests int) Load {
	ctx, cancel := context.WithTimeout(ctx, duration)
	defer cancel()
	var sent atomic.Int64
	perWorker := make([]Load, concurrency)
	var wg sync.WaitGroup
	start := time.Now()
	for w := range perWorker {
		wg.Go(func() {
			res := &perWorker[w]
			for ctx.Err() == nil && sent.Add(1) <= int64(maxRequests) {
				t0 := time.Now()
				if get(ctx, client, url) {
					res.Requests++
					res.Latencies = append(res.Latencies, time.Since(t0))
				} else if ctx.Err() == nil {
					res.Failures++
				}
			}
		})
	}
	wg.Wait()
	total := Load{Elapsed: time.Since(start)}
	for _, r := range perWorker {
		total.Requests += r.Requests
		total.Failures += r.Failures
		total.Latencies = append(total.Latencies, r.Latencies...)
	}
	slices.Sort(total.Latencies)
	return total
}

// get performs one request as a browser would and reports whether it answered 200 in full.
func get(ctx context.Context, client *http.Client, url string) bool {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return false
	}
	req.Header.Set("Accept-Encoding", "gzip")
	resp, err := client.Do(req)
	if err != nil {
		return false
	}
	defer resp.Body.Close()
	_, err = io.Copy(io.Discard, resp.Body)
	return err == nil && resp.StatusCode == http.StatusOK
}
