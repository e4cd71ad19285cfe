package main

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"palaro/store"
)

// The cost-growth section ("scale section" of docs/BENCHMARKS.md): for arenas of -scale-sizes
// places, made by the stadium seed (`bin/palaro seed --demo --stadium --places N`, the event
// arena-grand-finals), the time and the server's peak memory of the pages and calls whose cost
// could grow with the event's size. Each size is measured in two states, each on its own
// `bin/palaro serve` with a fresh database: on sale, about half sold (the seat page, best
// available, the queue storm), and sold out, every place sold and a share checked in (the gate
// list and the organizer's views: an event of exactly N tickets).

// GrowthOp is one operation measured at one event size.
type GrowthOp struct {
	Name      string
	Tickets   int           // the tickets of the event it ran on
	Reps      int           // times it ran, one after the other
	P50, P99  time.Duration // of the reps (nearest rank: with few reps, p99 is the slowest)
	FirstP99  time.Duration // time to the answer's headers (sent with its first bytes), p99 of the reps
	Total     time.Duration // wall time of every rep (a storm: the whole storm)
	Bytes     int           // bytes on the wire of one answer (gzip where the client asked for it)
	Weight    *Weight       // a first view: everything its first visit downloads (nil for the others)
	RSSBefore int64         // the server's resident memory just before (VmRSS), bytes
	Peak      int64         // the server's peak resident memory while it ran (VmHWM after a reset), bytes
	Failures  int
	Note      string
	Skipped   string // why it was not measured
}

// GrowthEvent is the arena event in one state, as the bench made it.
type GrowthEvent struct {
	Tickets, Orders int
	Rest            int           // tickets the bench sold itself after the seed, one seat per order (sold out only)
	CheckedIn       int           // tickets checked in (sold out only)
	Seed            time.Duration // `bin/palaro seed` and, sold out, the bench's rows after it
}

// GrowthRun is every operation at one arena size.
type GrowthRun struct {
	Places          int
	OnSale, SoldOut GrowthEvent
	Ops             []GrowthOp
}

// growthOpNames are the operations in the order of the table.
var growthOpNames = []string{growthSeatPage, "best available", "gate list, full", "gate list, delta",
	"dashboard", "orders search", "check-in counts", "attendees CSV", "orders CSV", "queue storm"}

// growthOnSale are the operations measured on the arena on sale; the others run on the sold-out one.
var growthOnSale = map[string]bool{growthSeatPage: true, "best available": true, "queue storm": true}

// The arena's states and what is measured on them.
const (
	growthSoldShare     = 0.5     // on sale: `--sold`, the share of each price zone the seed sells
	growthCheckedIn     = 30      // sold out: percent of the tickets checked in
	growthZone          = "upper" // the price zone of the seat page and best available: the upper box, the largest seated one
	growthBestQuantity  = 2       // seats each best-available buyer asks for
	growthBestReps      = 20      // best-available buyers, one after the other
	growthSeatPageReps  = 20
	growthOrganizerReps = 50
)

// runGrowth measures each size on new servers.
func runGrowth(ctx context.Context, o options) ([]GrowthRun, error) {
	var runs []GrowthRun
	for _, n := range o.ScaleSizes {
		run, err := runGrowthSize(ctx, o, n)
		if err != nil {
			return nil, fmt.Errorf("scale %d places: %w", n, err)
		}
		runs = append(runs, run)
	}
	return runs, nil
}

func runGrowthSize(ctx context.Context, o options, places int) (GrowthRun, error) {
	run := GrowthRun{Places: places}
	if err := measureOnSale(ctx, o, places, &run); err != nil {
		return run, fmt.Errorf("on sale: %w", err)
	}
	if err := measureSoldOut(ctx, o, places, &run); err != nil {
		return run, fmt.Errorf("sold out: %w", err)
	}
	for i := range run.Ops {
		run.Ops[i].Tickets = run.SoldOut.Tickets
		if growthOnSale[run.Ops[i].Name] {
			run.Ops[i].Tickets = run.OnSale.Tickets
		}
	}
	return run, nil
}

// measureOnSale measures the seat page's first view, best available and the queue storm on the
// arena of places on sale.
func measureOnSale(ctx context.Context, o options, places int, run *GrowthRun) error {
	p, err := startArena(ctx, o.Bin, places, false, &run.OnSale)
	if err != nil {
		return err
	}
	defer p.Stop()
	pid := p.cmd.Process.Pid
	zone := store.StadiumEventCode + "-" + growthZone
	var seats, sold int
	if err := queryRow(ctx, p.DB, `SELECT capacity, sold FROM ticket_types WHERE code = ?`, []any{zone}, &seats, &sold); err != nil {
		return err
	}
	anon := newLoadClient(1)
	gz := http.Header{"Accept-Encoding": {"gzip"}}
	seatOp := measureOp(pid, growthSeatPage, growthSeatPageReps, func() (int, time.Duration, error) {
		return getBytes(ctx, anon, p.URL+"/s/"+zone, gz)
	})
	if w, err := measureWeight(ctx, anon, p.URL, "/s/"+zone); err == nil {
		seatOp.Weight = &w
		seatOp.Note = fmt.Sprintf("`/s/%s`, the %s seats of the upper box (%s sold): its overview of sections; first view HTML + CSS + JS %.1f KB gz",
			zone, thousands(seats), thousands(sold), float64(w.Bytes("html", "css", "js"))/kb)
	} else {
		seatOp.Failures++
		seatOp.Note = "weight: " + err.Error()
	}
	best := measureBest(ctx, pid, p.URL, zone)
	manager, err := seedToken(ctx, p.DB, store.StadiumEventCode, "manager")
	if err != nil {
		return err
	}
	run.Ops = append(run.Ops, seatOp, best,
		queueStorm(ctx, pid, p.palaroProcess, store.StadiumEventCode, manager, o.ScaleQueueBuyers, o.ScaleQueueConcurrency))
	return nil
}

// measureSoldOut measures the gate list and the organizer's views on the sold-out arena of places,
// an event of exactly places tickets.
func measureSoldOut(ctx context.Context, o options, places int, run *GrowthRun) error {
	p, err := startArena(ctx, o.Bin, places, true, &run.SoldOut)
	if err != nil {
		return err
	}
	defer p.Stop()
	pid := p.cmd.Process.Pid
	eventCode := store.StadiumEventCode
	var email string
	if err := queryRow(ctx, p.DB, `SELECT o.email FROM orders o JOIN events e ON e.id = o.event_id WHERE e.code = ?
		ORDER BY o.id LIMIT 1 OFFSET ?`, []any{eventCode, run.SoldOut.Orders / 5}, &email); err != nil {
		return fmt.Errorf("a buyer to search for: %w", err)
	}
	org, err := signIn(ctx, p.URL)
	if err != nil {
		return err
	}
	gate, err := seedToken(ctx, p.DB, eventCode, "gate")
	if err != nil {
		return err
	}
	full, delta := measureGateList(ctx, pid, p.palaroProcess, eventCode, gate)
	run.Ops = append(run.Ops, full, delta)

	base := p.URL + "/organizer/events/" + eventCode
	gz := http.Header{"Accept-Encoding": {"gzip"}}
	authed := func(name, path string, reps int, header http.Header) GrowthOp {
		return measureOp(pid, name, reps, func() (int, time.Duration, error) { return getBytes(ctx, org, base+path, header) })
	}
	run.Ops = append(run.Ops, authed("dashboard", "/dashboard", growthOrganizerReps, gz))
	search := authed("orders search", "/orders?q="+url.QueryEscape(email), growthOrganizerReps, gz)
	search.Note = "an e-mail's search: every order of the event is matched"
	run.Ops = append(run.Ops, search,
		authed("check-in counts", "/check-ins/live", growthOrganizerReps, gz),
		authed("attendees CSV", "/attendees.csv", 3, nil),
		authed("orders CSV", "/orders.csv", 3, nil))
	return nil
}

// measureBest measures best available as buyers use it: growthBestReps buyers, one after the other,
// each with its own session and the CSRF token of the seat page it opened (not timed), ask
// POST /v1/seats/{code}/best for growthBestQuantity adjacent seats; an answer without that many
// seats, or a seat held twice, counts as a failure.
func measureBest(ctx context.Context, pid int, base, zone string) GrowthOp {
	buyers := make([]buyer, growthBestReps)
	for i := range buyers {
		jar, _ := cookiejar.New(nil)
		buyers[i].client = &http.Client{Jar: jar, Timeout: 10 * time.Second, Transport: &http.Transport{DisableCompression: true}}
		page, err := fetch(ctx, buyers[i].client, base+"/s/"+zone)
		if err != nil {
			return GrowthOp{Name: "best available", Skipped: err.Error()}
		}
		doc, err := page.body()
		if err != nil {
			return GrowthOp{Name: "best available", Skipped: err.Error()}
		}
		if buyers[i].token = csrfToken(doc); buyers[i].token == "" {
			return GrowthOp{Name: "best available", Skipped: "no CSRF token on the seat page"}
		}
	}
	held := map[string]bool{}
	next := 0
	body := fmt.Sprintf(`{"quantity":%d,"acrossAisle":false,"section":"","replace":""}`, growthBestQuantity)
	g := measureOp(pid, "best available", len(buyers), func() (int, time.Duration, error) {
		b := buyers[next]
		next++
		n, first, seats, err := postBest(ctx, b, base+"/v1/seats/"+zone+"/best", body)
		if err == nil && len(seats) != growthBestQuantity {
			err = fmt.Errorf("best available held %d seats, not %d", len(seats), growthBestQuantity)
		}
		for _, s := range seats {
			if held[s] && err == nil {
				err = fmt.Errorf("seat %s held twice", s)
			}
			held[s] = true
		}
		return n, first, err
	})
	if g.Failures == 0 {
		g.Note = fmt.Sprintf("%d buyers, one after the other, each with its session and CSRF token, ask `POST /v1/seats/%s/best` for %d adjacent seats: %d seats held, none twice",
			len(buyers), zone, growthBestQuantity, len(held))
	}
	return g
}

// postBest asks best available with a buyer's session and CSRF token, as the arena island does,
// and returns the answer's bytes, the time to its headers and the seats held.
func postBest(ctx context.Context, b buyer, u, body string) (int, time.Duration, []string, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, u, strings.NewReader(body))
	if err != nil {
		return 0, 0, nil, err
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept-Encoding", "gzip")
	req.Header.Set("X-CSRF-Token", b.token)
	start := time.Now()
	resp, err := b.client.Do(req)
	if err != nil {
		return 0, 0, nil, err
	}
	first := time.Since(start)
	defer resp.Body.Close()
	wire, err := io.ReadAll(resp.Body)
	if err != nil {
		return 0, first, nil, err
	}
	if resp.StatusCode != http.StatusOK {
		return len(wire), first, nil, fmt.Errorf("POST %s: %d %.200s", u, resp.StatusCode, wire)
	}
	raw, err := (response{Status: resp.StatusCode, Header: resp.Header, Wire: wire}).body()
	if err != nil {
		return len(wire), first, nil, err
	}
	var hold struct {
		Seats []string `json:"seats"`
	}
	err = json.Unmarshal(raw, &hold)
	return len(wire), first, hold.Seats, err
}

// arenaServer is a `bin/palaro serve` on a database of its own that the stadium seed filled.
type arenaServer struct {
	*palaroProcess
	dir string // the database's folder
}

// Stop ends the server and removes its database.
func (a *arenaServer) Stop() {
	a.palaroProcess.Stop()
	_ = os.RemoveAll(a.dir)
}

// startArena fills a new SQLite database with `bin/palaro seed --demo --stadium --places N` (the
// demo data and the arena), on sale with --sold growthSoldShare; sold out with --sold 1, after
// which the bench sells the places the seed leaves (sellRest) and checks growthCheckedIn percent
// of the tickets in (checkInShare). Then it starts a server on it and fills ev.
func startArena(ctx context.Context, bin string, places int, soldOut bool, ev *GrowthEvent) (*arenaServer, error) {
	state, share := "on sale", strconv.FormatFloat(growthSoldShare, 'f', -1, 64)
	if soldOut {
		state, share = "sold out", "1"
	}
	dir, err := os.MkdirTemp("", "palaro-bench-arena-")
	if err != nil {
		return nil, err
	}
	dbPath := filepath.Join(dir, "palaro.db")
	progress("scale %d places, %s: seeding the arena", places, state)
	start := time.Now()
	cmd := exec.CommandContext(ctx, bin, "seed", "--demo", "--stadium", "--places", strconv.Itoa(places), "--sold", share)
	cmd.Env = append(os.Environ(), "PALARO_DB="+dbPath)
	if out, err := cmd.CombinedOutput(); err != nil {
		_ = os.RemoveAll(dir)
		return nil, fmt.Errorf("%s: %w\n%s", strings.Join(cmd.Args, " "), err, out)
	}
	if soldOut {
		if err = sellRest(ctx, dbPath); err == nil {
			err = checkInShare(ctx, dbPath)
		}
	}
	if err == nil {
		ev.Seed = time.Since(start)
		err = queryRow(ctx, dbPath, `SELECT (SELECT COUNT(*) FROM tickets WHERE event_id = e.id), (SELECT COUNT(*) FROM orders WHERE event_id = e.id),
			(SELECT COUNT(*) FROM tickets WHERE event_id = e.id AND public_id LIKE 'bench-rest-%'),
			(SELECT COUNT(*) FROM tickets WHERE event_id = e.id AND status = 'checked_in') FROM events e WHERE e.code = ?`,
			[]any{store.StadiumEventCode}, &ev.Tickets, &ev.Orders, &ev.Rest, &ev.CheckedIn)
	}
	if err != nil {
		_ = os.RemoveAll(dir)
		return nil, err
	}
	progress("scale %d places, %s: %d tickets in %d orders in %s; starting a server", places, state, ev.Tickets, ev.Orders, ev.Seed.Round(time.Millisecond))
	p, err := startPalaroOn(ctx, bin, dbPath)
	if err != nil {
		_ = os.RemoveAll(dir)
		return nil, err
	}
	return &arenaServer{palaroProcess: p, dir: dir}, nil
}

// openFixtureDB opens a server's SQLite database for the bench's own rows (outside the server's writer).
func openFixtureDB(dbPath string) (*sql.DB, error) {
	return sql.Open("sqlite3", "file:"+dbPath+"?_busy_timeout=10000&_txlock=immediate")
}

// queryRow scans one row of a query on the SQLite database at dbPath into dest.
func queryRow(ctx context.Context, dbPath, query string, args []any, dest ...any) error {
	db, err := openFixtureDB(dbPath)
	if err != nil {
		return err
	}
	defer db.Close()
	return db.QueryRowContext(ctx, query, args...).Scan(dest...)
}

// sellRest sells every seat of the arena that the seed left (`--sold 1` sells the far sections'
// groups with a chance of 0.6 to 1 and every standing place), one seat per paid order, straight
// into the database in one transaction, with the rows a sale leaves (order, ticket, seat
// assignment, sold counter), so that the event has a ticket for each of its places.
func sellRest(ctx context.Context, dbPath string) error {
	return inFixtureTx(ctx, dbPath, func(tx *sql.Tx) error { return sellRestTx(ctx, tx) })
}

func sellRestTx(ctx context.Context, tx *sql.Tx) error {
	paid := time.Now().UTC().Add(-time.Hour).Format("2006-01-02T15:04:05Z")
	for _, q := range []struct {
		query string
		args  []any
	}{
		{`INSERT INTO orders (public_id, event_id, ticket_type_id, quantity, email, buyer, seats, payment_type, unit_price, total,
			status, provider, paid_at, created_at)
			SELECT 'bench-rest-' || tt.id || '-' || s.label, tt.event_id, tt.id, 1, 'rest.' || lower(s.label) || '@bench.palaro.test',
				json_object('FullName', 'Rest ' || s.label), json_array(s.label), 'QR', tt.price, tt.price, 'paid', 'sandbox', ?, ?
			FROM seats s JOIN ticket_types tt ON tt.id = s.ticket_type_id JOIN events e ON e.id = tt.event_id
			WHERE e.code = ? AND NOT EXISTS (SELECT 1 FROM seat_assignments a WHERE a.ticket_type_id = s.ticket_type_id AND a.date_id = 0 AND a.seat = s.label)
			ORDER BY tt.id, s.section, s.row_index, s.number`, []any{paid, paid, store.StadiumEventCode}},
		{`INSERT INTO tickets (public_id, code, order_id, event_id, ticket_type_id, holder_name, email, seat, status, created_at)
			SELECT public_id, 'RS' || printf('%08d', id), id, event_id, ticket_type_id, json_extract(buyer, '$.FullName'), email,
				json_extract(seats, '$[0]'), 'valid', created_at
			FROM orders WHERE public_id LIKE 'bench-rest-%'`, nil},
		{`INSERT INTO seat_assignments (ticket_type_id, seat, order_id)
			SELECT ticket_type_id, seat, order_id FROM tickets WHERE public_id LIKE 'bench-rest-%'`, nil},
		{`UPDATE ticket_types SET sold = (SELECT COUNT(*) FROM tickets t WHERE t.ticket_type_id = ticket_types.id)
			WHERE event_id = (SELECT id FROM events WHERE code = ?)`, []any{store.StadiumEventCode}},
	} {
		if _, err := tx.ExecContext(ctx, q.query, q.args...); err != nil {
			return fmt.Errorf("selling the rest: %w", err)
		}
	}
	var places, tickets int
	if err := tx.QueryRowContext(ctx, `SELECT (SELECT SUM(capacity) FROM ticket_types WHERE event_id = e.id),
		(SELECT COUNT(*) FROM tickets WHERE event_id = e.id) FROM events e WHERE e.code = ?`, store.StadiumEventCode).Scan(&places, &tickets); err != nil {
		return err
	}
	if places != tickets {
		return fmt.Errorf("selling the rest: %d tickets for %d places", tickets, places)
	}
	return nil
}

// checkInShare checks growthCheckedIn percent of the arena's tickets in (those whose id modulo 100
// is below it), at 60 gates over the last three hours, straight into the database: the ticket's status,
// time and gate, and its check-in row.
func checkInShare(ctx context.Context, dbPath string) error {
	now := time.Now().UTC().Format("2006-01-02T15:04:05Z")
	return inFixtureTx(ctx, dbPath, func(tx *sql.Tx) error {
		if _, err := tx.ExecContext(ctx, `UPDATE tickets SET status = 'checked_in', checked_in_gate = 'Gate ' || (id % 60 + 1),
			checked_in_at = strftime('%Y-%m-%dT%H:%M:%SZ', ?, '-' || (id % 180) || ' minutes')
			WHERE event_id = (SELECT id FROM events WHERE code = ?) AND id % 100 < ?`, now, store.StadiumEventCode, growthCheckedIn); err != nil {
			return fmt.Errorf("check-ins: %w", err)
		}
		if _, err := tx.ExecContext(ctx, `INSERT INTO check_ins (ticket_id, event_id, gate, actor, scanned_at, recorded_at, outcome)
			SELECT id, event_id, checked_in_gate, 'gate@palaro.ph', checked_in_at, checked_in_at, 'checked_in' FROM tickets
			WHERE event_id = (SELECT id FROM events WHERE code = ?) AND status = 'checked_in'`, store.StadiumEventCode); err != nil {
			return fmt.Errorf("check-ins: %w", err)
		}
		return nil
	})
}

// inFixtureTx runs fn in one write transaction on the SQLite database at dbPath and commits it
// when fn succeeds.
func inFixtureTx(ctx context.Context, dbPath string, fn func(tx *sql.Tx) error) error {
	db, err := openFixtureDB(dbPath)
	if err != nil {
		return err
	}
	defer db.Close()
	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	if err := fn(tx); err != nil {
		return err
	}
	return tx.Commit()
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
	why := &failureCounts{}
	g.RSSBefore, _ = resetPeakRSS(pid)
	start := time.Now()
	join := runLoad(ctx, concurrency, 10*time.Minute, buyers, func(ctx context.Context, i int) result {
		r, reason := joinQueue(ctx, client, p.URL, eventCode, cookies, i)
		why.add(r, "joining: "+reason)
		return r
	})
	if err := setQueue(time.Now().Add(-time.Second).Truncate(time.Second)); err != nil {
		g.Skipped = err.Error()
		return g
	}
	refresh := runLoad(ctx, concurrency, 10*time.Minute, buyers, func(ctx context.Context, i int) result {
		resp, err := request(ctx, client, p.URL+"/queue/"+eventCode, "Cookie", cookies[i], "HX-Request", "true",
			"X-Forwarded-For", visitorAddress(i))
		if err != nil || resp.StatusCode != http.StatusOK {
			why.add(failed, "asking: "+failureReason(resp, err))
			return failed
		}
		return done
	})
	g.Total = time.Since(start)
	g.Peak, _ = procMemory(pid, "VmHWM")
	all := join.merge(refresh)
	g.P50, g.P99, g.Failures = all.Percentile(50), all.Percentile(99), all.Failures
	g.Note = fmt.Sprintf("%d buyers join (%d at a time), then each asks for its place once; %d answers", buyers, concurrency, all.Requests)
	if failures := why.String(); failures != "" {
		g.Note += "; failures: " + failures
	}
	return g
}

// cancelScaleTickets cancels the arena's tickets whose id is a multiple of 100 (1% of its
// tickets), as refunds would, and returns how many.
func cancelScaleTickets(ctx context.Context, dbPath string) (int, error) {
	db, err := openFixtureDB(dbPath)
	if err != nil {
		return 0, err
	}
	defer db.Close()
	res, err := db.ExecContext(ctx, `UPDATE tickets SET status = 'cancelled' WHERE event_id = (SELECT id FROM events WHERE code = ?)
		AND status IN ('valid', 'checked_in') AND id % 100 = 0`, store.StadiumEventCode)
	if err != nil {
		return 0, err
	}
	n, err := res.RowsAffected()
	return int(n), err
}
