package main

import (
	"bytes"
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// QueueBench is what the queue benchmark measured: visitors joining an event's queue, then all of
// them refreshing the queue page at a steady pace while the queue admits them at its rate.
type QueueBench struct {
	Visitors int
	Every    time.Duration
	// Rate is the configured admissions a minute.
	Rate int
	// Join is each visitor's first GET /v1/queue/{code}, which gives it a place (one write).
	Join Load
	// Refresh is GET /queue/{code} with the visitor's cookie, paced: latency from the moment the
	// request was due, so a server that falls behind shows in p99 (no coordinated omission).
	Refresh Load
	// Offered is the refresh rate asked for (visitors ÷ every).
	Offered float64
	// Window is the time over which admissions were counted (the refresh time less one period,
	// so a visitor admitted at its start has been seen).
	Window time.Duration
	// SeenAdmitted counts visitors whose first admission the load clients saw within the window.
	SeenAdmitted int
	// ServerAdmitted is the growth of the queue's admitted count (organizer API) over the window.
	ServerAdmitted int
	// Places and AdmissionRows are read back from the database.
	Places, AdmissionRows int
}

// SeenRate is the admissions a minute the visitors saw.
func (q *QueueBench) SeenRate() float64 { return perMinute(q.SeenAdmitted, q.Window) }

// ServerRate is the admissions a minute the queue counted.
func (q *QueueBench) ServerRate() float64 { return perMinute(q.ServerAdmitted, q.Window) }

func perMinute(n int, d time.Duration) float64 {
	if d <= 0 {
		return 0
	}
	return float64(n) / d.Minutes()
}

// runQueue puts a queue in front of the event's sale through the organizer API, lets the visitors
// join before the opening, opens it and lets every visitor refresh the queue page every o.QueueEvery
// for o.QueueDuration.
func runQueue(ctx context.Context, p *palaroProcess, eventCode string, o options) (*QueueBench, error) {
	qb := &QueueBench{Visitors: o.QueueVisitors, Every: o.QueueEvery, Rate: o.QueueRate}
	token, err := seedToken(ctx, p.DB, eventCode, "manager")
	if err != nil {
		return nil, err
	}
	api := newLoadClient(4)
	setQueue := func(opens time.Time) error {
		body := fmt.Sprintf(`{"queue":{"opensAt":%q,"admitPerMinute":%d}}`, opens.UTC().Format(time.RFC3339), o.QueueRate)
		_, err := organizerCall(ctx, api, http.MethodPatch, p.URL+"/v1/organizer/events/"+eventCode, token, body)
		return err
	}
	if err := setQueue(time.Now().Add(time.Hour).Truncate(time.Second)); err != nil {
		return nil, err
	}

	progress("queue: %d visitors join before the opening", qb.Visitors)
	cookies := make([]string, qb.Visitors)
	client := newLoadClient(o.Concurrency)
	defer client.CloseIdleConnections()
	qb.Join = runLoad(ctx, o.Concurrency, 10*time.Minute, qb.Visitors, func(ctx context.Context, i int) result {
		r, _ := joinQueue(ctx, client, p.URL, eventCode, cookies, i)
		return r
	})

	// The opening, two seconds on: the first refresh after it draws the places.
	opens := time.Now().Add(3 * time.Second).Truncate(time.Second)
	if err := setQueue(opens); err != nil {
		return nil, err
	}
	time.Sleep(time.Until(opens))
	progress("queue: %d visitors refresh %s every %s for %s (%d admitted a minute)", qb.Visitors, "/queue/"+eventCode, qb.Every, o.QueueDuration, qb.Rate)
	qb.Offered = float64(qb.Visitors) / qb.Every.Seconds()
	var first sync.Map // visitor → when it was first seen admitted
	windowStart := time.Now().Add(qb.Every)
	before := make(chan error, 1)
	go func() { // the admitted count one period in, when the window starts
		time.Sleep(time.Until(windowStart))
		var err error
		qb.ServerAdmitted, err = queueAdmitted(ctx, api, p.URL, eventCode, token)
		before <- err
	}()
	qb.Refresh = pacedLoad(ctx, qb.Visitors, qb.Every, o.QueueDuration, o.Concurrency*4, func(ctx context.Context, i int) result {
		resp, err := request(ctx, client, p.URL+"/queue/"+eventCode, "Cookie", cookies[i], "HX-Request", "true",
			"X-Forwarded-For", visitorAddress(i))
		if err != nil || resp.StatusCode != http.StatusOK {
			return failed
		}
		for _, c := range resp.Cookies() {
			if strings.HasPrefix(c.Name, "palaro_admit_") {
				first.LoadOrStore(i, time.Now())
			}
		}
		return done
	})
	end := time.Now()
	if err := <-before; err != nil {
		return nil, fmt.Errorf("queue: admitted count: %w", err)
	}
	after, err := queueAdmitted(ctx, api, p.URL, eventCode, token)
	if err != nil {
		return nil, fmt.Errorf("queue: admitted count: %w", err)
	}
	qb.Window = end.Sub(windowStart)
	qb.ServerAdmitted = after - qb.ServerAdmitted
	first.Range(func(_, v any) bool {
		if t := v.(time.Time); !t.Before(windowStart) {
			qb.SeenAdmitted++
		}
		return true
	})
	db, err := sql.Open("sqlite3", "file:"+p.DB+"?mode=ro&_busy_timeout=10000")
	if err != nil {
		return nil, err
	}
	defer db.Close()
	err = db.QueryRowContext(ctx, `SELECT COUNT(*), COUNT(admitted_at) FROM queue_places`).Scan(&qb.Places, &qb.AdmissionRows)
	return qb, err
}

// joinQueue is visitor i's first GET /v1/queue/{code}, which gives it a place: its queue cookie
// goes into cookies[i].
func joinQueue(ctx context.Context, client *http.Client, base, eventCode string, cookies []string, i int) (result, string) {
	resp, err := request(ctx, client, base+"/v1/queue/"+eventCode, "X-Forwarded-For", visitorAddress(i))
	if err != nil {
		return failed, failureReason(nil, err)
	}
	for _, c := range resp.Cookies() {
		if c.Name == "palaro_queue_"+eventCode {
			cookies[i] = c.Name + "=" + c.Value
		}
	}
	if resp.StatusCode != http.StatusOK {
		return failed, failureReason(resp, nil)
	}
	if cookies[i] == "" {
		return failed, "no queue cookie"
	}
	return done, ""
}

// failureReason names why a request failed: its error, or its answer's status.
func failureReason(resp *http.Response, err error) string {
	if err != nil {
		return err.Error()
	}
	return "status " + strconv.Itoa(resp.StatusCode)
}

// failureCounts counts failed requests by reason, for the report's note; safe for concurrent use.
type failureCounts struct {
	mu sync.Mutex
	n  map[string]int
}

// add counts a failed result under reason (a result that did not fail is not counted).
func (f *failureCounts) add(r result, reason string) {
	if r != failed {
		return
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.n == nil {
		f.n = map[string]int{}
	}
	f.n[reason]++
}

// String lists the reasons, most frequent first ("" when nothing failed).
func (f *failureCounts) String() string {
	f.mu.Lock()
	defer f.mu.Unlock()
	reasons := make([]string, 0, len(f.n))
	for r := range f.n {
		reasons = append(reasons, r)
	}
	sort.Slice(reasons, func(i, j int) bool {
		return f.n[reasons[i]] > f.n[reasons[j]] || f.n[reasons[i]] == f.n[reasons[j]] && reasons[i] < reasons[j]
	})
	parts := make([]string, len(reasons))
	for i, r := range reasons {
		parts[i] = fmt.Sprintf("%d × %s", f.n[r], r)
	}
	return strings.Join(parts, ", ")
}

// request sends a GET as a browser would (gzip asked) with the given headers (the cookie; htmx's
// header, as the queue page's own refresh sends it; the visitor's address) and reads the body.
func request(ctx context.Context, client *http.Client, url string, header ...string) (*http.Response, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return nil, err
	}
	req.Header.Set("Accept-Encoding", "gzip")
	for i := 0; i+1 < len(header); i += 2 {
		req.Header.Set(header[i], header[i+1])
	}
	resp, err := client.Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	_, err = io.Copy(io.Discard, resp.Body)
	return resp, err
}

// visitorAddress is visitor i's own address (the server trusts X-Forwarded-For in the benchmark), so
// that the per-address limit on joining does not stop a crowd simulated from one machine.
func visitorAddress(i int) string { return fmt.Sprintf("10.%d.%d.%d", i>>16&255, i>>8&255, i&255) }

// organizerCall sends an organizer API request with the token and returns the JSON answer.
func organizerCall(ctx context.Context, client *http.Client, method, url, token, body string) (map[string]any, error) {
	req, err := http.NewRequestWithContext(ctx, method, url, bytes.NewReader([]byte(body)))
	if err != nil {
		return nil, err
	}
	req.Header.Set("Authorization", "Bearer "+token)
	req.Header.Set("Content-Type", "application/json")
	resp, err := client.Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	var out map[string]any
	if err := json.NewDecoder(resp.Body).Decode(&out); err != nil {
		return nil, err
	}
	if resp.StatusCode != http.StatusOK && resp.StatusCode != http.StatusCreated {
		return nil, fmt.Errorf("%s %s: %d %v", method, url, resp.StatusCode, out["message"])
	}
	return out, nil
}

// queueAdmitted reads the queue's admitted count from the organizer API.
func queueAdmitted(ctx context.Context, client *http.Client, base, eventCode, token string) (int, error) {
	ev, err := organizerCall(ctx, client, http.MethodGet, base+"/v1/organizer/events/"+eventCode, token, "")
	if err != nil {
		return 0, err
	}
	q, ok := ev["queue"].(map[string]any)
	if !ok {
		return 0, fmt.Errorf("the event has no queue")
	}
	n, _ := q["admitted"].(float64)
	return int(n), nil
}

// pacedLoad runs op for each of n visitors once every period, evenly spread, for duration, on up to
// workers goroutines. Each latency counts from the moment the operation was due, so time spent
// waiting for a worker or the server counts.
func pacedLoad(ctx context.Context, n int, every, duration time.Duration, workers int, op func(ctx context.Context, i int) result) Load {
	ctx, cancel := context.WithTimeout(ctx, duration)
	defer cancel()
	type job struct {
		i   int
		due time.Time
	}
	jobs := make(chan job, n)
	var requests, failures atomic.Int64
	lat := make([][]time.Duration, workers)
	var wg sync.WaitGroup
	start := time.Now()
	for w := range workers {
		wg.Go(func() {
			for j := range jobs {
				if ctx.Err() != nil {
					continue
				}
				if op(ctx, j.i) == done {
					requests.Add(1)
					lat[w] = append(lat[w], time.Since(j.due))
				} else if ctx.Err() == nil {
					failures.Add(1)
				}
			}
		})
	}
	step := every / time.Duration(n)
dispatch:
	for k := 0; ; k++ {
		for i := range n {
			due := start.Add(time.Duration(k)*every + time.Duration(i)*step)
			if d := time.Until(due); d > time.Millisecond {
				select {
				case <-ctx.Done():
					break dispatch
				case <-time.After(d):
				}
			}
			if ctx.Err() != nil {
				break dispatch
			}
			jobs <- job{i, due}
		}
	}
	close(jobs)
	wg.Wait()
	total := Load{Requests: int(requests.Load()), Failures: int(failures.Load()), Elapsed: time.Since(start)}
	for _, l := range lat {
		total.Latencies = append(total.Latencies, l...)
	}
	slices.Sort(total.Latencies)
	return total
}
