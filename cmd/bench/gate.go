package main

import (
	"bytes"
	"compress/gzip"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"
)

// gateSizes are the events the gate is measured at: the 1,000 tickets of the earlier budget and a
// stadium's 55,000, each a new event of exactly that many tickets.
var gateSizes = []int{1000, 55000}

// budgetGateP99 is the gate's budget: a scan's answer at 60 gates, at any event size.
const budgetGateP99 = 100 * time.Millisecond

// GateBench is the gate section: for each of gateSizes, gates scanning at once and the gate list
// a phone downloads.
type GateBench struct {
	Gates int
	Runs  []*CheckInBench
}

// GateListFetch is one download of a gate list, as a phone makes it (gzip).
type GateListFetch struct {
	Time    time.Duration
	Version int64 // the list's version
	Gzipped int   // bytes on the wire
	Raw     int   // bytes of JSON
	Tickets int   // tickets in it
	PeakRSS int64 // growth of the server's peak resident memory during the download, bytes (-1: unknown)
}

// GateListFigures are an event's gate list, whole and as the delta after some changes.
type GateListFigures struct {
	Full, Delta GateListFetch
}

// MeasureGateList measures the gate list of an event on a running server with a gate API token:
// the whole list, then, after change has run (nil: nothing changes; it is given the whole list's
// version), the delta since that version; each with its time, its gzipped and raw size, its
// tickets and how much the server's peak resident memory grew while it was made (resetPeakRSS).
func MeasureGateList(ctx context.Context, p *palaroProcess, token, eventCode string, change func(ctx context.Context, version int64) error) (GateListFigures, error) {
	var out GateListFigures
	base := p.URL + "/v1/organizer/events/" + eventCode + "/gate-list"
	var err error
	if out.Full, err = fetchGateList(ctx, p, token, base); err != nil {
		return out, err
	}
	if change != nil {
		if err := change(ctx, out.Full.Version); err != nil {
			return out, err
		}
	}
	out.Delta, err = fetchGateList(ctx, p, token, base+"?since="+strconv.FormatInt(out.Full.Version, 10))
	return out, err
}

// fetchGateList downloads one gate list (getGateList) and measures how much the server's peak
// resident memory grew meanwhile.
func fetchGateList(ctx context.Context, p *palaroProcess, token, u string) (GateListFetch, error) {
	pid := p.cmd.Process.Pid
	before, resetOK := resetPeakRSS(pid)
	client := &http.Client{Timeout: time.Minute, Transport: &http.Transport{DisableCompression: true}}
	f, err := getGateList(ctx, client, token, u)
	f.PeakRSS = -1
	if peak, ok := procMemory(pid, "VmHWM"); ok && resetOK {
		f.PeakRSS = max(peak-before, 0)
	}
	return f, err
}

// getGateList downloads a gate list (or its changes since a version) as a phone does, with a gate
// API token and gzip asked, and returns its time (until the last byte arrived), version, sizes and
// tickets; PeakRSS is left 0. Every reader of the gate list in the bench goes through it.
func getGateList(ctx context.Context, client *http.Client, token, u string) (GateListFetch, error) {
	var f GateListFetch
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u, nil)
	if err != nil {
		return f, err
	}
	req.Header.Set("Authorization", "Bearer "+token)
	req.Header.Set("Accept-Encoding", "gzip") // set here, the client leaves the body gzipped
	start := time.Now()
	resp, err := client.Do(req)
	if err != nil {
		return f, err
	}
	wire, err := io.ReadAll(resp.Body)
	resp.Body.Close()
	f.Time = time.Since(start)
	if err != nil {
		return f, err
	}
	if resp.StatusCode != http.StatusOK {
		return f, fmt.Errorf("gate list %s: %s: %.200s", u, resp.Status, wire)
	}
	f.Gzipped, f.Raw = len(wire), len(wire)
	raw := wire
	if resp.Header.Get("Content-Encoding") == "gzip" {
		zr, err := gzip.NewReader(bytes.NewReader(wire))
		if err != nil {
			return f, err
		}
		if raw, err = io.ReadAll(zr); err != nil {
			return f, err
		}
		f.Raw = len(raw)
	}
	var list struct {
		Version int64             `json:"version"`
		Tickets []json.RawMessage `json:"tickets"`
	}
	if err := json.Unmarshal(raw, &list); err != nil {
		return f, fmt.Errorf("gate list %s: %w", u, err)
	}
	f.Tickets, f.Version = len(list.Tickets), list.Version
	return f, nil
}

// runGate measures the gate at each of gateSizes: a new event of the demo event's organization
// (gateEvent) gets exactly that many tickets, issued in bulk, the gate list is downloaded whole,
// -gates gates scan at once (runCheckIns) while each also fetches the list's changes every 3 s as
// the phones do, and the delta after those scans is downloaded. A new event, not the demo event the
// storm sold into, so that the row's size is the event's own.
func runGate(ctx context.Context, p *palaroProcess, eventCode string, o options) (*GateBench, error) {
	db, err := openBenchDB(p.DB)
	if err != nil {
		return nil, err
	}
	defer db.Close()
	token, err := seedToken(ctx, p.DB, eventCode, "gate")
	if err != nil {
		return nil, err
	}
	manager, err := seedToken(ctx, p.DB, eventCode, "manager")
	if err != nil {
		return nil, err
	}
	gb := &GateBench{Gates: o.Gates}
	for _, size := range gateSizes {
		code := fmt.Sprintf("bench-gate-%d", size)
		progress("gate: a new event %s with %d tickets", code, size)
		if err := gateEvent(ctx, p.URL, manager, code, size); err != nil {
			return nil, err
		}
		typeCode := code + "-entry"
		codes, err := db.IssueGateTickets(ctx, code, typeCode, size, time.Now())
		if err != nil {
			return nil, err
		}
		var cb *CheckInBench
		list, err := MeasureGateList(ctx, p, token, code, func(ctx context.Context, version int64) error {
			cb, err = runCheckIns(ctx, p, token, code, typeCode, codes, version, o)
			return err
		})
		if err != nil {
			return nil, err
		}
		if err := db.Reader().QueryRowContext(ctx, `SELECT COUNT(*) FROM tickets t JOIN events e ON e.id = t.event_id WHERE e.code = ?`,
			code).Scan(&cb.EventTickets); err != nil {
			return nil, err
		}
		cb.List = list
		gb.Runs = append(gb.Runs, cb)
	}
	return gb, nil
}

// gateEvent creates the draft event code, a day on, through the organizer API with a manager
// token (the gate scans a draft event's tickets as any other's).
func gateEvent(ctx context.Context, base, token, code string, tickets int) error {
	starts := time.Now().Add(24 * time.Hour).Truncate(time.Hour)
	body, _ := json.Marshal(map[string]any{"code": code, "name": fmt.Sprintf("Gate bench, %s tickets", thousands(tickets)),
		"startsAt": starts.Format(time.RFC3339), "endsAt": starts.Add(5 * time.Hour).Format(time.RFC3339),
		"venue":  map[string]any{"name": "Bench Arena", "address": "1 Bench Road", "city": "Bocaue", "latitude": 14.79, "longitude": 120.95},
		"status": "draft"})
	_, err := organizerCall(ctx, newLoadClient(1), http.MethodPost, base+"/v1/organizer/events", token, string(body))
	return err
}

// pollChanges fetches the event's gate list changes every 3 s from each of gates phones, as the
// gate island does, starting from version (the phones downloaded the whole list before the doors
// opened); the function it returns stops them and says how many answers failed.
func pollChanges(ctx context.Context, p *palaroProcess, token, eventCode string, gates int, version int64) func() int {
	ctx, cancel := context.WithCancel(ctx)
	var wg sync.WaitGroup
	var mu sync.Mutex
	failed := 0
	client := newLoadClient(gates)
	base := p.URL + "/v1/organizer/events/" + eventCode + "/gate-list"
	for g := range gates {
		wg.Go(func() {
			version := version
			// the phones' 3 s ticks are spread over the 3 s
			t := time.NewTimer(time.Duration(g) * 3 * time.Second / time.Duration(gates))
			defer t.Stop()
			for {
				select {
				case <-ctx.Done():
					return
				case <-t.C:
				}
				t.Reset(3 * time.Second)
				changes, err := getGateList(ctx, client, token, base+"?since="+strconv.FormatInt(version, 10))
				if ctx.Err() != nil {
					return
				}
				if err != nil {
					mu.Lock()
					failed++
					mu.Unlock()
					continue
				}
				version = changes.Version
			}
		})
	}
	return func() int {
		cancel()
		wg.Wait()
		client.CloseIdleConnections()
		return failed
	}
}

// checks are the gate's budget lines: each ticket in once, and a scan's p99 within budgetGateP99.
func (g *GateBench) checks() []check {
	var out []check
	for _, cb := range g.Runs {
		// each ticket in once: one check-in recorded per ticket checked in, and every 200 is one of
		// them (a scan whose answer timed out may still have checked its ticket in)
		out = append(out, check{fmt.Sprintf("Gate, %s tickets: one check-in per ticket at %d gates", thousands(cb.EventTickets), g.Gates),
			fmt.Sprintf("%d tickets scanned, %d answered 200, %d checked in, %d check-ins recorded", cb.Tickets, cb.Scan.Requests, cb.CheckedIn, cb.CheckInRows),
			cb.CheckedIn == cb.CheckInRows && cb.Scan.Requests <= cb.CheckedIn && cb.CheckedIn <= cb.Tickets},
			check{fmt.Sprintf("Gate, %s tickets: answer p99 ≤ %s at %d gates", thousands(cb.EventTickets), budgetGateP99, g.Gates),
				ms(cb.Scan.Percentile(99)), cb.Scan.Percentile(99) <= budgetGateP99 && cb.Scan.Requests > 0})
	}
	return out
}

// markdown is the gate section of the report.
func (g *GateBench) markdown() string {
	var b strings.Builder
	fmt.Fprintf(&b, "\n#### Gate: %d gates scanning at once, online, each also fetching the list's changes every 3 s\n\n", g.Gates)
	b.WriteString("Each event is a new one with exactly its tickets; the gates scan four fifths of `-scans` tickets, " +
		"spread over the event's, the rest are second scans of some of them.\n\n")
	b.WriteString("| Event | Tickets scanned | Scans | Scans answered/s | p50 | p99 | Checked in (200) | Already (409) | Failures | Change fetches failed | Time |\n" +
		"|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n")
	for _, cb := range g.Runs {
		l := cb.Scan
		fmt.Fprintf(&b, "| %s tickets | %d | %d | %.0f | %s | %s | %d | %d | %d | %d | %s |\n", thousands(cb.EventTickets), cb.Tickets, cb.Scans,
			cb.AnsweredPerSecond(), ms(l.Percentile(50)), ms(l.Percentile(99)), l.Requests, l.Refused, l.Failures, cb.PollFailures,
			l.Elapsed.Round(time.Millisecond))
	}
	b.WriteString("\nThe gate list a phone downloads (gzip; the delta is after that run's scans):\n\n" +
		"| Event | Whole list: tickets | gzipped | JSON | time | server memory peak + | Delta: tickets | gzipped | time | server memory peak + |\n" +
		"|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n")
	for _, cb := range g.Runs {
		f, d := cb.List.Full, cb.List.Delta
		fmt.Fprintf(&b, "| %s tickets | %d | %s | %s | %s | %s | %d | %s | %s | %s |\n", thousands(cb.EventTickets), f.Tickets, kbs(f.Gzipped), kbs(f.Raw),
			ms(f.Time), mb(f.PeakRSS), d.Tickets, kbs(d.Gzipped), ms(d.Time), mb(d.PeakRSS))
	}
	return b.String()
}

// thousands writes n with thousands separators: 55,000.
func thousands(n int) string {
	s := strconv.Itoa(n)
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}

// mb writes a memory size in bytes as MB with one decimal, "n/a" when unknown.
func mb(n int64) string {
	if n < 0 {
		return "n/a"
	}
	return fmt.Sprintf("%.1f MB", float64(n)/1e6)
}
