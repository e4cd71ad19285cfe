package main

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"time"
)

// The cost-growth section ("scale section" of docs/BENCHMARKS.md): for events of -scale-sizes
// tickets, each on its own `bin/palaro serve` with a fresh database, the time and the server's
// peak memory of the pages and calls whose cost could grow with the event's size.

// GrowthOp is one operation measured at one event size.
type GrowthOp struct {
	Name      string
	Reps      int           // times it ran, one after the other
	P50, P99  time.Duration // of the reps (nearest rank: with few reps, p99 is the slowest)
	FirstP99  time.Duration // time to the answer's headers (sent with its first bytes), p99 of the reps
	Total     time.Duration // wall time of every rep (a storm: the whole storm)
	Bytes     int           // bytes on the wire of one answer (gzip where the client asked for it)
	RSSBefore int64         // the server's resident memory just before (VmRSS), bytes
	Peak      int64         // the server's peak resident memory while it ran (VmHWM after a reset), bytes
	Failures  int
	Note      string
	Skipped   string // why it was not measured
}

// GrowthRun is every operation at one event size.
type GrowthRun struct {
	Tickets, Orders, CheckedIn int
	Fixture                    time.Duration // building the event's tickets
	Ops                        []GrowthOp
}

// growthOpNames are the operations in the order of the table.
var growthOpNames = []string{"seat page, first view", "best available", "gate list, full", "gate list, delta",
	"dashboard", "orders search", "check-in counts", "attendees CSV", "orders CSV", "queue storm"}

// growthSeatCap is the largest seated ticket type Palaro allows (palaro.MaxSeatedCapacity) until
// the stadium's seat map lands: the seat page is measured with min(size, this) seats.
const growthSeatCap = 5000

// runGrowth measures each size on a new server.
func runGrowth(ctx context.Context, o options, eventPath string) ([]GrowthRun, error) {
	var runs []GrowthRun
	for _, n := range o.ScaleSizes {
		run, err := runGrowthSize(ctx, o, strings.TrimPrefix(eventPath, "/e/"), n)
		if err != nil {
			return nil, fmt.Errorf("scale %d tickets: %w", n, err)
		}
		runs = append(runs, run)
	}
	return runs, nil
}

func runGrowthSize(ctx context.Context, o options, eventCode string, n int) (GrowthRun, error) {
	run := GrowthRun{Tickets: n}
	progress("scale %d: starting a server", n)
	p, err := startPalaro(ctx, o.Bin)
	if err != nil {
		return run, err
	}
	defer p.Stop()
	pid := p.cmd.Process.Pid
	t0 := time.Now()
	fx, err := seedScaleEvent(ctx, p.DB, eventCode, n)
	if err != nil {
		return run, fmt.Errorf("fixture: %w", err)
	}
	run.Fixture, run.Orders, run.CheckedIn = time.Since(t0), fx.orders, fx.checkedIn
	progress("scale %d: %d tickets in %d orders issued in %s", n, n, fx.orders, run.Fixture.Round(time.Millisecond))

	org, err := signIn(ctx, p.URL)
	if err != nil {
		return run, err
	}
	manager, err := seedToken(ctx, p.DB, eventCode, "manager")
	if err != nil {
		return run, err
	}
	gate, err := seedToken(ctx, p.DB, eventCode, "gate")
	if err != nil {
		return run, err
	}
	base := p.URL + "/organizer/events/" + eventCode

	// The seat page: a seated ticket type of min(n, growthSeatCap) seats, created through the API.
	seatCode := fmt.Sprintf("%s-scale-seats", eventCode)
	seats := min(n, growthSeatCap)
	body := fmt.Sprintf(`{"code":%q,"name":"Scale seats","price":0,"capacity":%d,"maxPurchasable":4,"seated":true}`, seatCode, seats)
	if _, err := organizerCall(ctx, newLoadClient(1), http.MethodPost, p.URL+"/v1/organizer/events/"+eventCode+"/ticket-types", manager, body); err != nil {
		return run, fmt.Errorf("seated ticket type: %w", err)
	}
	anon := newLoadClient(1)
	gz := http.Header{"Accept-Encoding": {"gzip"}}
	seatOp := measureOp(pid, "seat page, first view", 20, func() (int, time.Duration, error) {
		return getBytes(ctx, anon, p.URL+"/s/"+seatCode, gz)
	})
	if w, err := measureWeight(ctx, anon, p.URL, "/s/"+seatCode); err == nil {
		seatOp.Note = fmt.Sprintf("%d seats; first view HTML + CSS + JS %.1f KB gz", seats, float64(w.Bytes("html", "css", "js"))/kb)
	} else {
		seatOp.Note = "weight: " + err.Error()
	}
	if n > growthSeatCap {
		seatOp.Note += fmt.Sprintf(" (capped at %d: a seated type holds at most that many seats until the stadium's seat map lands)", growthSeatCap)
	}
	run.Ops = append(run.Ops, seatOp, GrowthOp{Name: "best available", Skipped: "not in this branch (the stadium's best-available call, branch i24-stadium)"})

	full, delta := measureGateList(ctx, pid, p, eventCode, gate)
	run.Ops = append(run.Ops, full, delta)

	authed := func(name, path string, reps int, header http.Header) GrowthOp {
		return measureOp(pid, name, reps, func() (int, time.Duration, error) { return getBytes(ctx, org, base+path, header) })
	}
	run.Ops = append(run.Ops,
		authed("dashboard", "/dashboard", 50, gz),
		authed("orders search", "/orders?q="+url.QueryEscape(fx.someEmail), 50, gz),
		authed("check-in counts", "/check-ins/live", 50, gz),
		authed("attendees CSV", "/attendees.csv", 3, nil),
		authed("orders CSV", "/orders.csv", 3, nil))
	run.Ops[len(run.Ops)-4].Note = "an e-mail's search: every order of the event is matched"
	run.Ops = append(run.Ops, queueStorm(ctx, pid, p, eventCode, manager, o.ScaleQueueBuyers, o.ScaleQueueConcurrency))
	return run, nil
}

// measureOp runs op reps times, one after the other, with the server's peak memory reset before
// (writing 5 to /proc/<pid>/clear_refs resets VmHWM to the current VmRSS) and read after.
func measureOp(pid int, name string, reps int, op func() (int, time.Duration, error)) GrowthOp {
	g := GrowthOp{Name: name, Reps: reps}
	g.RSSBefore, _ = resetPeakRSS(pid)
	var lat, first []time.Duration
	start := time.Now()
	for range reps {
		t := time.Now()
		b, ttfb, err := op()
		if err != nil {
			g.Failures++
			g.Note = err.Error()
			continue
		}
		lat, first = append(lat, time.Since(t)), append(first, ttfb)
		g.Bytes = b
	}
	g.Total = time.Since(start)
	g.Peak, _ = procMemory(pid, "VmHWM")
	slices.Sort(lat)
	slices.Sort(first)
	g.P50, g.P99, g.FirstP99 = percentile(lat, 50), percentile(lat, 99), percentile(first, 99)
	return g
}

// getBytes GETs url with the headers and returns the bytes received (as sent: gzip stays gzip)
// and the time until the answer's headers arrived, failing on any answer but 200.
func getBytes(ctx context.Context, client *http.Client, url string, header http.Header) (int, time.Duration, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return 0, 0, err
	}
	for k, v := range header {
		req.Header[k] = v
	}
	start := time.Now()
	resp, err := client.Do(req)
	if err != nil {
		return 0, 0, err
	}
	first := time.Since(start)
	defer resp.Body.Close()
	n, err := io.Copy(io.Discard, resp.Body)
	if err == nil && resp.StatusCode != http.StatusOK {
		err = fmt.Errorf("GET %s: %d", url, resp.StatusCode)
	}
	return int(n), first, err
}

// signIn signs the demo organizer in and returns a client with its session.
func signIn(ctx context.Context, base string) (*http.Client, error) {
	jar, _ := cookiejar.New(nil)
	client := &http.Client{Jar: jar, Timeout: 5 * time.Minute, Transport: &http.Transport{DisableCompression: true}}
	page, err := fetch(ctx, client, base+"/sign-in")
	if err != nil {
		return nil, err
	}
	doc, err := page.body()
	if err != nil {
		return nil, err
	}
	form := url.Values{"_csrf": {csrfToken(doc)}, "email": {"organizer@palaro.ph"}, "password": {"Organizer2026"}}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, base+"/sign-in", strings.NewReader(form.Encode()))
	if err != nil {
		return nil, err
	}
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	client.CheckRedirect = func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }
	resp, err := client.Do(req)
	if err != nil {
		return nil, err
	}
	resp.Body.Close()
	client.CheckRedirect = nil
	if resp.StatusCode != http.StatusSeeOther && resp.StatusCode != http.StatusFound {
		return nil, fmt.Errorf("sign in as the demo organizer: %d", resp.StatusCode)
	}
	return client, nil
}

// measureGateList measures the gate list through HTTP as a gate phone downloads it (gate token,
// gzip): the full list, then, after 1% of the tickets were cancelled (the gate_changes trigger
// records them), the changes since the full list's version, each several times for its p50 and
// p99 (the gate section's MeasureGateList fetches each once, around the scans).
func measureGateList(ctx context.Context, pid int, p *palaroProcess, eventCode, token string) (full, delta GrowthOp) {
	client := &http.Client{Timeout: 5 * time.Minute, Transport: &http.Transport{DisableCompression: true}}
	listURL := p.URL + "/v1/organizer/events/" + eventCode + "/gate-list"
	hdr := http.Header{"Authorization": {"Bearer " + token}, "Accept-Encoding": {"gzip"}}
	full = measureOp(pid, "gate list, full", 5, func() (int, time.Duration, error) { return getBytes(ctx, client, listURL, hdr) })
	list, err := getGateList(ctx, client, token, listURL)
	if err != nil {
		delta = GrowthOp{Name: "gate list, delta", Skipped: err.Error()}
		return
	}
	full.Note = fmt.Sprintf("%d tickets listed", list.Tickets)
	changed, err := cancelScaleTickets(ctx, p.DB)
	if err != nil {
		delta = GrowthOp{Name: "gate list, delta", Skipped: err.Error()}
		return
	}
	delta = measureOp(pid, "gate list, delta", 20, func() (int, time.Duration, error) {
		return getBytes(ctx, client, listURL+"?since="+strconv.FormatInt(list.Version, 10), hdr)
	})
	delta.Note = fmt.Sprintf("%d tickets cancelled since the full list", changed)
	return
}

// queueStorm: buyers join the event's queue (first GET /v1/queue/{code}, one write each), then,
// once it opens, each asks for its place once (GET /queue/{code} with its cookie, as htmx does),
// concurrency at a time.
func queueStorm(ctx context.Context, pid int, p *palaroProcess, eventCode, token string, buyers, concurrency int) GrowthOp {
	g := GrowthOp{Name: "queue storm", Reps: buyers}
	api := newLoadClient(2)
	setQueue := func(opens time.Time) error {
		body := fmt.Sprintf(`{"queue":{"opensAt":%q,"admitPerMinute":600}}`, opens.UTC().Format(time.RFC3339))
		_, err := organizerCall(ctx, api, http.MethodPatch, p.URL+"/v1/organizer/events/"+eventCode, token, body)
		return err
	}
	if err := setQueue(time.Now().Add(time.Hour).Truncate(time.Second)); err != nil {
		g.Skipped = err.Error()
		return g
	}
	client := newLoadClient(concurrency)
	client.Timeout = time.Minute // a buyer waits longer than a page's load client: count slow answers, not failures
	defer client.CloseIdleConnections()
	cookies := make([]string, buyers)
	g.RSSBefore, _ = resetPeakRSS(pid)
	start := time.Now()
	join := runLoad(ctx, concurrency, 10*time.Minute, buyers, func(ctx context.Context, i int) result {
		return joinQueue(ctx, client, p.URL, eventCode, cookies, i)
	})
	if err := setQueue(time.Now().Add(-time.Second).Truncate(time.Second)); err != nil {
		g.Skipped = err.Error()
		return g
	}
	refresh := runLoad(ctx, concurrency, 10*time.Minute, buyers, func(ctx context.Context, i int) result {
		resp, err := request(ctx, client, p.URL+"/queue/"+eventCode, "Cookie", cookies[i], "HX-Request", "true",
			"X-Forwarded-For", visitorAddress(i))
		if err != nil || resp.StatusCode != http.StatusOK {
			return failed
		}
		return done
	})
	g.Total = time.Since(start)
	g.Peak, _ = procMemory(pid, "VmHWM")
	all := join.merge(refresh)
	g.P50, g.P99, g.Failures = all.Percentile(50), all.Percentile(99), all.Failures
	g.Note = fmt.Sprintf("%d buyers join (%d at a time), then each asks for its place once; %d answers", buyers, concurrency, all.Requests)
	return g
}

// scaleFixture is what seedScaleEvent made.
type scaleFixture struct {
	orders, checkedIn int
	someEmail         string // a buyer's e-mail, for the orders search
}

// scaleTypes are the ticket types of the scale event's tickets and their shares of them.
var scaleTypes = []struct {
	code, name string
	price      int64
	share      int // percent
}{{"scale-lower", "Scale lower box", 350000, 20}, {"scale-upper", "Scale upper box", 180000, 50}, {"scale-ga", "Scale general admission", 80000, 30}}

// seedScaleEvent issues n paid tickets of the event straight into its database, in one
// transaction: three ticket types, orders of 1 to 4 tickets bought over 60 days from a few
// sources, 1% senior citizen discounts, and 30% of the tickets checked in at 60 gates. It is the
// fixture until the stadium seed (branch i24-stadium) lands.
func seedScaleEvent(ctx context.Context, dbPath, eventCode string, n int) (scaleFixture, error) {
	var fx scaleFixture
	db, err := sql.Open("sqlite3", "file:"+dbPath+"?_busy_timeout=10000&_txlock=immediate")
	if err != nil {
		return fx, err
	}
	defer db.Close()
	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		return fx, err
	}
	defer tx.Rollback()
	var eventID int64
	if err := tx.QueryRowContext(ctx, `SELECT id FROM events WHERE code = ?`, eventCode).Scan(&eventID); err != nil {
		return fx, fmt.Errorf("event %q: %w", eventCode, err)
	}
	insOrder, err := tx.PrepareContext(ctx, `INSERT INTO orders (public_id, event_id, ticket_type_id, quantity, email, buyer,
		source, unit_price, total, status, paid_at, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, 'paid', ?, ?)`)
	if err != nil {
		return fx, err
	}
	insTicket, err := tx.PrepareContext(ctx, `INSERT INTO tickets (public_id, code, order_id, event_id, ticket_type_id, holder_name,
		email, status, checked_in_at, checked_in_gate, created_at, discount_type, discount_holder, discount_id_number, discount_amount)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`)
	if err != nil {
		return fx, err
	}
	insCheckIn, err := tx.PrepareContext(ctx, `INSERT INTO check_ins (ticket_id, event_id, gate, actor, scanned_at, recorded_at, outcome)
		VALUES (?, ?, ?, 'gate@palaro.ph', ?, ?, 'checked_in')`)
	if err != nil {
		return fx, err
	}
	now := time.Now().UTC()
	sources := []string{"", "", "facebook", "box_office", "tiktok"}
	issued := 0
	for k, st := range scaleTypes {
		count := n * st.share / 100
		if k == len(scaleTypes)-1 {
			count = n - issued
		}
		var typeID int64
		if err := tx.QueryRowContext(ctx, `INSERT INTO ticket_types (event_id, code, name, price, max_purchasable, capacity, sold)
			VALUES (?, ?, ?, ?, 4, ?, ?) RETURNING id`, eventID, st.code, st.name, st.price, count, count).Scan(&typeID); err != nil {
			return fx, err
		}
		for left := count; left > 0; {
			q := min(left, fx.orders%4+1)
			left -= q
			fx.orders++
			email := fmt.Sprintf("fan%d@scale.palaro.test", fx.orders)
			if fx.orders == n/5 {
				fx.someEmail = email
			}
			paid := now.Add(-time.Duration(fx.orders%(60*24)) * time.Hour).Format("2006-01-02T15:04:05Z")
			buyer := fmt.Sprintf(`{"FirstName":"Fan","LastName":"Number %d","FullName":"Fan Number %d","MobileNumber":"+63917%07d"}`,
				fx.orders, fx.orders, fx.orders)
			res, err := insOrder.ExecContext(ctx, fmt.Sprintf("scale-o-%d", fx.orders), eventID, typeID, q, email, buyer,
				sources[fx.orders%len(sources)], st.price, st.price*int64(q), paid, paid)
			if err != nil {
				return fx, err
			}
			orderID, _ := res.LastInsertId()
			for range q {
				issued++
				status, checked, gate := "valid", any(nil), ""
				if issued%10 < 3 {
					status, checked, gate = "checked_in", paid, fmt.Sprintf("Gate %d", issued%60+1)
					fx.checkedIn++
				}
				dType, dHolder, dID, dAmount := "", "", "", int64(0)
				if issued%100 == 7 {
					dType, dHolder, dID, dAmount = "senior", "Lola Number "+strconv.Itoa(issued), "OSCA-"+strconv.Itoa(issued), st.price/5
				}
				res, err := insTicket.ExecContext(ctx, fmt.Sprintf("scale-t-%d", issued), fmt.Sprintf("SC%08d", issued), orderID, eventID, typeID,
					"Fan Number "+strconv.Itoa(fx.orders), email, status, checked, gate, paid, dType, dHolder, dID, dAmount)
				if err != nil {
					return fx, err
				}
				if checked != nil {
					ticketID, _ := res.LastInsertId()
					if _, err := insCheckIn.ExecContext(ctx, ticketID, eventID, gate, paid, paid); err != nil {
						return fx, err
					}
				}
			}
		}
	}
	if fx.someEmail == "" {
		return fx, errors.New("no buyer to search for")
	}
	return fx, tx.Commit()
}

// cancelScaleTickets cancels the scale event's tickets whose id is a multiple of 100 (1%
// of its tickets), as refunds would, and returns how many.
func cancelScaleTickets(ctx context.Context, dbPath string) (int, error) {
	db, err := sql.Open("sqlite3", "file:"+dbPath+"?_busy_timeout=10000&_txlock=immediate")
	if err != nil {
		return 0, err
	}
	defer db.Close()
	res, err := db.ExecContext(ctx, `UPDATE tickets SET status = 'cancelled' WHERE id IN (SELECT id FROM tickets
		WHERE public_id LIKE 'scale-t-%' AND status IN ('valid', 'checked_in') AND id % 100 = 0)`)
	if err != nil {
		return 0, err
	}
	n, err := res.RowsAffected()
	return int(n), err
}
