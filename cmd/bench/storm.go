package main

import (
	"bytes"
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/cookiejar"
	"path/filepath"
	"strings"
	"sync"
	"time"

	_ "github.com/mattn/go-sqlite3" // the SQLite driver, as the store uses it
	"golang.org/x/net/html"
)

// stormTicketCode is the code of the free ticket type the storm adds to an event and buys; each
// round adds its own, stormTicketCode-1, -2, and so on.
const stormTicketCode = "bench-storm"

// roundTicketCode is the storm's ticket type of round r (from 0).
func roundTicketCode(r int) string { return fmt.Sprintf("%s-%d", stormTicketCode, r+1) }

// Storm is what the purchase storm measured.
type Storm struct {
	Buyers, Capacity int           // per round
	Rounds           int           // alternating rounds: Palaro, then the bare order server, each on fresh stock
	Buy              Load          // POST /v1/ticket/buy: done = order placed, refused = sold out
	SellingTime      time.Duration // from the start of the storm to the last order placed
	Statuses         map[int]int   // HTTP status → answers
	Sold             stock         // read back from the database after each round, summed
	oversold         int           // the rounds' oversold tickets, summed
	BareWrite        Load          // BEGIN IMMEDIATE; UPDATE; COMMIT on a temp database
	Writer           writerCounts  // Palaro's batching writer during the storm: units run, commits (fsyncs)
	BareOrders       Load          // the bare order server under the same storm
	BareSellingTime  time.Duration // from its start to its last order placed
	CPU              stormCPU      // processor time of the rounds' loads, by process
}

// stormCPU is the processor time (user and system) that the storm's loads took, by process,
// summed over the rounds: it tells what one answer costs each server, beside the load generator.
type stormCPU struct {
	Palaro    time.Duration // Palaro's process during its rounds' loads (to 10 ms a round)
	Generator time.Duration // the bench's process during Palaro's loads: the load generator alone
	Bare      time.Duration // the bench's process during the bare loads: the load generator and the bare order server
	// PalaroAside is Palaro's process from the end of each of its loads to the end of the bare
	// round that follows (the bare load and the bench's reads between): its background work (the
	// confirmation e-mails of the orders just placed, its jobs), on the same two cores.
	PalaroAside time.Duration
	Known       bool // Palaro's /proc figures could be read in every round
}

// perAnswer is d divided among a load's answers (done, refused and failed alike).
func perAnswer(d time.Duration, l Load) time.Duration {
	n := l.Requests + l.Refused + l.Failures
	if n == 0 {
		return 0
	}
	return d / time.Duration(n)
}

// BareServerPerAnswer estimates the bare order server's processor time per answer: the bench's
// time per answer in the bare rounds less the load generator's per answer in Palaro's rounds (the
// same generator, bodies and concurrency). The generator does a little more in Palaro's rounds
// (its buyers send a cookie and a CSRF header) and a little more in the bare rounds (it opens its
// connections anew), so the estimate errs both ways by that much.
func (s *Storm) BareServerPerAnswer() time.Duration {
	return max(0, perAnswer(s.CPU.Bare, s.BareOrders)-perAnswer(s.CPU.Generator, s.Buy))
}

// BareOrdersPerSecond is the bare order server's rate of orders placed until the last one.
func (s *Storm) BareOrdersPerSecond() float64 {
	if s.BareSellingTime <= 0 {
		return 0
	}
	return float64(s.BareOrders.Requests) / s.BareSellingTime.Seconds()
}

// OrderRatio is Palaro's orders/s divided by the bare order server's.
func (s *Storm) OrderRatio() float64 {
	if s.BareOrdersPerSecond() == 0 {
		return 0
	}
	return s.OrdersPerSecond() / s.BareOrdersPerSecond()
}

// OrdersPerSecond is the rate of orders placed until the last one.
func (s *Storm) OrdersPerSecond() float64 {
	if s.SellingTime <= 0 {
		return 0
	}
	return float64(s.Buy.Requests) / s.SellingTime.Seconds()
}

// Oversold is how many tickets the rounds sold beyond their capacity, in all.
func (s *Storm) Oversold() int { return s.oversold }

// stock is what the database says was sold of the storm's ticket type.
type stock struct {
	Capacity     int // ticket_types.capacity
	Counter      int // ticket_types.sold + held
	OrderedQty   int // quantity of its paid and pending orders
	TicketsCount int // its issued tickets
}

// plus adds another round's counts.
func (s stock) plus(o stock) stock {
	return stock{s.Capacity + o.Capacity, s.Counter + o.Counter, s.OrderedQty + o.OrderedQty, s.TicketsCount + o.TicketsCount}
}

// Oversold is how many more tickets were sold than the capacity, by the largest of the counts.
func (s stock) Oversold() int {
	return max(0, max(s.Counter, s.OrderedQty, s.TicketsCount)-s.Capacity)
}

// buyer is one visitor of the storm: a cookie jar and the CSRF token of its buy page.
type buyer struct {
	client *http.Client
	token  string
}

// runStorm runs the purchase storm in o.StormRounds alternating rounds, so that noise from other
// work on the machine falls on both sides: in each, Palaro gets a new free ticket type of
// o.Capacity and o.Buyers buyers of their own (each with its own session) buy one ticket each,
// concurrency at a time (within a minute); then the bare order server gets the same load on a new
// database. After each Palaro round the database tells how many were sold.
func runStorm(ctx context.Context, p *palaroProcess, eventCode string, o options) (*Storm, error) {
	rounds := max(o.StormRounds, 1)
	st := &Storm{Buyers: o.Buyers, Capacity: o.Capacity, Rounds: rounds, Statuses: map[int]int{}, CPU: stormCPU{Known: true}}
	transport := &http.Transport{MaxIdleConns: 2 * o.Concurrency, MaxIdleConnsPerHost: 2 * o.Concurrency, DisableCompression: true}
	defer transport.CloseIdleConnections()
	for r := range rounds {
		if err := addStormTicketType(ctx, p.DB, eventCode, roundTicketCode(r), o.Capacity); err != nil {
			return nil, err
		}
	}

	all := rounds * o.Buyers
	progress("storm: %d buyers open the buy page", all)
	buyers := make([]buyer, all)
	prep := runLoad(ctx, o.Concurrency, 2*time.Minute, all, func(ctx context.Context, i int) result {
		jar, _ := cookiejar.New(nil)
		b := buyer{client: &http.Client{Transport: transport, Jar: jar, Timeout: 10 * time.Second}}
		page, err := fetch(ctx, b.client, p.URL+"/b/"+roundTicketCode(i/o.Buyers))
		if err != nil {
			return failed
		}
		doc, err := page.body()
		if err != nil {
			return failed
		}
		b.token = csrfToken(doc)
		buyers[i] = b
		return done
	})
	if prep.Requests != all {
		return nil, fmt.Errorf("storm: %d of %d buy pages loaded", prep.Requests, all)
	}

	for r := range rounds {
		code := roundTicketCode(r)
		progress("storm round %d/%d: %d buyers, %d at a time, for %d tickets", r+1, rounds, o.Buyers, o.Concurrency, o.Capacity)
		writerBefore, err := p.writerStats(ctx)
		if err != nil {
			return nil, err
		}
		var mu sync.Mutex
		var selling time.Duration
		palaroBefore, known := procCPU(p.cmd.Process.Pid)
		benchBefore := selfCPU()
		start := time.Now()
		l := runLoad(ctx, o.Concurrency, time.Minute, o.Buyers, func(ctx context.Context, i int) result {
			i += r * o.Buyers
			status, ok := buy(ctx, p.URL, eventCode, code, buyers[i], i)
			if ctx.Err() != nil {
				return failed // the time limit cut this one short: not counted
			}
			mu.Lock()
			st.Statuses[status]++
			if ok {
				selling = max(selling, time.Since(start))
			}
			mu.Unlock()
			switch {
			case ok:
				return done
			case status == http.StatusConflict:
				return refused
			}
			return failed
		})
		st.CPU.Generator += selfCPU() - benchBefore
		palaroAfter, ok := procCPU(p.cmd.Process.Pid)
		st.CPU.Palaro += palaroAfter - palaroBefore
		st.Buy = st.Buy.merge(l)
		st.SellingTime += selling
		writerAfter, err := p.writerStats(ctx)
		if err != nil {
			return nil, err
		}
		st.Writer.Units += writerAfter.Units - writerBefore.Units
		st.Writer.Commits += writerAfter.Commits - writerBefore.Commits
		st.Writer.Syncs += writerAfter.Syncs - writerBefore.Syncs
		sold, err := readStock(ctx, p.DB, code)
		if err != nil {
			return nil, err
		}
		st.Sold, st.oversold = st.Sold.plus(sold), st.oversold+sold.Oversold()

		progress("storm round %d/%d: the bare order server, same load", r+1, rounds)
		bare, bareSelling, bareCPU, err := runBareOrders(ctx, filepath.Dir(p.DB), eventCode, code, r, o)
		if err != nil {
			return nil, err
		}
		aside, asideOK := procCPU(p.cmd.Process.Pid)
		st.CPU.PalaroAside += aside - palaroAfter
		st.CPU.Bare += bareCPU
		st.CPU.Known = st.CPU.Known && known && ok && asideOK
		st.BareOrders = st.BareOrders.merge(bare)
		st.BareSellingTime += bareSelling
	}
	progress("storm: bare SQLite write transactions")
	var err error
	st.BareWrite, err = bareWrites(ctx, filepath.Dir(p.DB), o.Concurrency, o.Duration/time.Duration(o.Rounds), o.MaxRequests)
	return st, err
}

// addStormTicketType inserts a free ticket type of the storm, one per buyer, into the event.
func addStormTicketType(ctx context.Context, dbPath, eventCode, code string, capacity int) error {
	db, err := openBenchDB(dbPath)
	if err != nil {
		return err
	}
	defer db.Close()
	res, err := db.Writer().ExecContext(ctx, `INSERT INTO ticket_types (event_id, code, name, price, max_purchasable, capacity)
		SELECT id, ?, 'Benchmark storm', 0, 1, ? FROM events WHERE code = ?`, code, capacity, eventCode)
	if err != nil {
		return fmt.Errorf("storm ticket type: %w", err)
	}
	if n, _ := res.RowsAffected(); n != 1 {
		return fmt.Errorf("storm ticket type: no event %q", eventCode)
	}
	return nil
}

// readStock counts what was sold of a storm ticket type, three ways.
func readStock(ctx context.Context, dbPath, code string) (stock, error) {
	var s stock
	db, err := openBenchDB(dbPath)
	if err != nil {
		return s, err
	}
	defer db.Close()
	err = db.Writer().QueryRowContext(ctx, `SELECT tt.capacity, tt.sold + tt.held,
			(SELECT COALESCE(SUM(o.quantity), 0) FROM orders o WHERE o.ticket_type_id = tt.id
				AND o.kind = 'tickets' AND o.status IN ('paid', 'pending')),
			(SELECT COUNT(*) FROM tickets t WHERE t.ticket_type_id = tt.id AND t.status != 'cancelled')
		FROM ticket_types tt WHERE tt.code = ?`, code).Scan(&s.Capacity, &s.Counter, &s.OrderedQty, &s.TicketsCount)
	if err != nil {
		return s, fmt.Errorf("read back the storm's sales: %w", err)
	}
	return s, nil
}

// purchase is the buy call's payload: every personal field filled, so any event's required fields pass.
type purchase struct {
	EventCode          string `json:"eventCode"`
	TicketCode         string `json:"ticketCode"`
	Quantity           int    `json:"quantity"`
	Email              string `json:"email"`
	FirstName          string `json:"firstName"`
	LastName           string `json:"lastName"`
	FullName           string `json:"fullName"`
	MobileNumber       string `json:"mobileNumber"`
	Gender             string `json:"gender"`
	BirthDate          string `json:"birthDate"`
	Age                string `json:"age"`
	CompanyName        string `json:"companyName"`
	Designation        string `json:"designation"`
	EconomicClass      string `json:"economicClass"`
	DisclaimerAccepted bool   `json:"disclaimerAccepted"`
}

// purchaseFor is buyer i's order of one ticket of the storm's ticket type code.
func purchaseFor(eventCode, code string, i int) purchase {
	return purchase{
		EventCode: eventCode, TicketCode: code, Quantity: 1, Email: fmt.Sprintf("buyer%d@storm.palaro.test", i),
		FirstName: "Juan", LastName: "Dela Cruz", FullName: "Juan Dela Cruz", MobileNumber: "09171234567",
		Gender: "Male", BirthDate: "1998-05-17", Age: "27", CompanyName: "Palaro", Designation: "Player",
		EconomicClass: "10,000 to 30,000", DisclaimerAccepted: true,
	}
}

// buy posts buyer i's purchase of one storm ticket, from its own address as a crowd would, and
// returns the HTTP status and whether an order was placed.
func buy(ctx context.Context, base, eventCode, code string, b buyer, i int) (int, bool) {
	body, _ := json.Marshal(purchaseFor(eventCode, code, i))
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, base+"/v1/ticket/buy", bytes.NewReader(body))
	if err != nil {
		return 0, false
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept-Encoding", "gzip")
	req.Header.Set("X-Forwarded-For", visitorAddress(i))
	if b.token != "" {
		req.Header.Set("X-CSRF-Token", b.token)
	}
	resp, err := b.client.Do(req)
	if err != nil {
		return 0, false
	}
	defer resp.Body.Close()
	_, _ = io.Copy(io.Discard, resp.Body)
	return resp.StatusCode, resp.StatusCode == http.StatusOK
}

// csrfToken returns the content of <meta name="csrf-token">, or "".
func csrfToken(doc []byte) string {
	var token string
	eachTag(doc, func(t html.Token) bool {
		if t.Data == "meta" && strings.EqualFold(attr(t, "name"), "csrf-token") {
			token = attr(t, "content")
			return false
		}
		return true
	})
	return token
}

// bareWrites measures SQLite alone: write transactions (BEGIN IMMEDIATE; UPDATE one row; COMMIT)
// from concurrency goroutines on one connection, with the store's settings (WAL, synchronous
// NORMAL), on a temporary database in dir.
func bareWrites(ctx context.Context, dir string, concurrency int, duration time.Duration, maxTx int) (Load, error) {
	db, err := sql.Open("sqlite3", "file:"+filepath.Join(dir, "bare-write.db")+
		"?_journal_mode=WAL&_synchronous=NORMAL&_busy_timeout=10000&_txlock=immediate")
	if err != nil {
		return Load{}, err
	}
	defer db.Close()
	db.SetMaxOpenConns(1)
	if _, err := db.ExecContext(ctx, `CREATE TABLE stock (id INTEGER PRIMARY KEY, sold INTEGER NOT NULL);
		INSERT INTO stock (id, sold) VALUES (1, 0)`); err != nil {
		return Load{}, err
	}
	return runLoad(ctx, concurrency, duration, maxTx, func(ctx context.Context, _ int) result {
		tx, err := db.BeginTx(ctx, nil)
		if err != nil {
			return failed
		}
		defer tx.Rollback()
		if _, err := tx.ExecContext(ctx, `UPDATE stock SET sold = sold + 1 WHERE id = 1`); err != nil {
			return failed
		}
		if tx.Commit() != nil {
			return failed
		}
		return done
	}), nil
}
