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

// Load is the outcome of one load run against one target.
type Load struct {
	Requests  int             // operations that got the expected answer
	Refused   int             // operations refused as expected (a sold-out answer): timed, not counted as done
	Failures  int             // transport errors and unexpected answers
	Elapsed   time.Duration   // wall time of the run
	Latencies []time.Duration // one per answered operation (done or refused), sorted ascending
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
	l.Refused += o.Refused
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

// result is how one operation of a load run ended.
type result uint8

const (
	failed  result = iota // transport error or unexpected answer
	done                  // the expected answer
	refused               // an expected refusal, such as sold out
)

// runLoad runs op from concurrency workers until duration has passed or maxOps operations have
// started, whichever comes first. op gets the operation's number, from 0.
func runLoad(ctx context.Context, concurrency int, duration time.Duration, maxOps int, op func(ctx context.Context, i int) result) Load {
	ctx, cancel := context.WithTimeout(ctx, duration)
	defer cancel()
	var started atomic.Int64
	perWorker := make([]Load, concurrency)
	var wg sync.WaitGroup
	start := time.Now()
	for w := range perWorker {
		wg.Go(func() {
			res := &perWorker[w]
			for ctx.Err() == nil {
				i := started.Add(1) - 1
				if i >= int64(maxOps) {
					return
				}
				t0 := time.Now()
				switch op(ctx, int(i)) {
				case done:
					res.Requests++
					res.Latencies = append(res.Latencies, time.Since(t0))
				case refused:
					res.Refused++
					res.Latencies = append(res.Latencies, time.Since(t0))
				default:
					if ctx.Err() == nil {
						res.Failures++
					}
				}
			}
		})
	}
	wg.Wait()
	total := Load{Elapsed: time.Since(start)}
	for _, r := range perWorker {
		total.Requests += r.Requests
		total.Refused += r.Refused
		total.Failures += r.Failures
		total.Latencies = append(total.Latencies, r.Latencies...)
	}
	slices.Sort(total.Latencies)
	return total
}

// getLoad loads url with GET requests as browsers send them: see runLoad.
func getLoad(ctx context.Context, client *http.Client, url string, concurrency int, duration time.Duration, maxRequests int) Load {
	return runLoad(ctx, concurrency, duration, maxRequests, func(ctx context.Context, _ int) result {
		if get(ctx, client, url) {
			return done
		}
		return failed
	})
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
