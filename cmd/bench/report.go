package main

import (
	"fmt"
	"maps"
	"os"
	"runtime"
	"slices"
	"strings"
	"time"
)

// Budgets from DESIGN.md. KB is 1,024 bytes.
const (
	kb                = 1024
	budgetPageRatio   = 0.8 // a public page's requests/s ÷ the bare handler's, same run
	budgetOrderRatio  = 1.0 // the storm's orders/s ÷ the bare order server's, same run
	budgetP99Factor   = 2.0 // Palaro's p99 ≤ this × the baseline's p99 in the same run (pages and storm)
	budgetQueueP99    = 50 * time.Millisecond
	budgetPageJS      = 25 * kb
	budgetPageHTMLCSS = 40 * kb
	budgetIslandJS    = 90 * kb
)

// p99Check is the budget that Palaro's p99 stays within budgetP99Factor × the baseline's p99 of the
// same run; it fails when either side answered nothing.
func p99Check(what, baseline string, palaro, bare Load) check {
	p, b := palaro.Percentile(99), bare.Percentile(99)
	limit := time.Duration(budgetP99Factor * float64(b))
	return check{fmt.Sprintf("%s p99 ≤ %.0f × %s p99 (%s)", what, budgetP99Factor, baseline, ms(limit)), ms(p),
		p <= limit && palaro.Requests > 0 && bare.Requests > 0}
}

// serverResult compares Palaro with the bare handler on one page.
type serverResult struct {
	Path         string
	Palaro, Bare Load
}

// Ratio is Palaro's throughput divided by the bare handler's.
func (r serverResult) Ratio() float64 {
	if r.Bare.RPS() == 0 {
		return 0
	}
	return r.Palaro.RPS() / r.Bare.RPS()
}

// report is everything one run measured, and where.
type report struct {
	Options       options
	Started       time.Time
	Elapsed       time.Duration
	CPUs          int
	CPUModel      string
	GoVersion     string
	LoadBefore    string
	LoadAfter     string
	Server        []serverResult
	PagesSteady   string // how the page rounds waited for the server's start-up work (waitStartupDrained)
	Weights       []Weight
	Storm         *Storm
	CheckIn       *GateBench
	Queue         *QueueBench
	Scale         []ScaleRun  // PostgreSQL with one and three app servers
	ScaleSettings string      // the PostgreSQL cluster's version and durability settings
	Growth        []GrowthRun // the cost growth with the event's size (-scale-sizes)
}

func newReport(o options) *report {
	return &report{
		Options: o, Started: time.Now(), CPUs: runtime.NumCPU(), GoVersion: runtime.Version(),
		CPUModel: cpuModel(), LoadBefore: loadAvg(),
	}
}

// finish records the end of the run.
func (r *report) finish() {
	r.Elapsed = time.Since(r.Started)
	r.LoadAfter = loadAvg()
}

// check is one budget with its measured value.
type check struct {
	Budget, Measured string
	OK               bool
}

// Checks compares the measurements with DESIGN.md's budgets.
func (r *report) Checks() []check {
	var out []check
	for _, s := range r.Server {
		out = append(out,
			check{fmt.Sprintf("`%s` throughput ≥ %.1f × bare", s.Path, budgetPageRatio), fmt.Sprintf("%.3f", s.Ratio()), s.Ratio() >= budgetPageRatio},
			p99Check(fmt.Sprintf("`%s`", s.Path), "bare", s.Palaro, s.Bare),
		)
	}
	for _, w := range r.Weights {
		js, htmlCSS := w.Bytes("js"), w.Bytes("html", "css")
		if w.Path == "/calendar" {
			measured := kbs(js)
			if !w.HasModules() {
				measured += " (no island script on the page)"
			}
			out = append(out, check{fmt.Sprintf("`%s` (island page) JS ≤ %s gz", w.Path, kbs(budgetIslandJS)), measured, js <= budgetIslandJS})
			continue
		}
		out = append(out,
			check{fmt.Sprintf("`%s` JS ≤ %s gz", w.Path, kbs(budgetPageJS)), kbs(js), js <= budgetPageJS},
			check{fmt.Sprintf("`%s` HTML + CSS ≤ %s gz", w.Path, kbs(budgetPageHTMLCSS)), kbs(htmlCSS), htmlCSS <= budgetPageHTMLCSS},
		)
	}
	if st := r.Storm; st != nil {
		out = append(out, check{"Purchase storm: oversold = 0", fmt.Sprintf("%d", st.Oversold()), st.Oversold() <= 0})
		out = append(out,
			check{fmt.Sprintf("Purchase storm: orders/s ≥ %.1f × bare order server", budgetOrderRatio), fmt.Sprintf("%.3f", st.OrderRatio()),
				st.OrderRatio() >= budgetOrderRatio},
			p99Check("Purchase storm:", "bare order server's", st.Buy, st.BareOrders))
	}
	for _, run := range r.Scale {
		out = append(out, check{fmt.Sprintf("Purchase storm on PostgreSQL, %s: 0 oversold", appServers(run.Servers)),
			fmt.Sprintf("%d sold of %d, oversold %d", run.Sold.Counter, run.Sold.Capacity, run.Sold.Oversold()),
			run.Sold.Oversold() == 0 && run.Buy.Requests > 0})
	}
	if gb := r.CheckIn; gb != nil {
		out = append(out, gb.checks()...)
	}
	if qb := r.Queue; qb != nil {
		out = append(out, check{fmt.Sprintf("Queue page p99 ≤ %s at %.0f refreshes/s asked", budgetQueueP99, qb.Offered), ms(qb.Refresh.Percentile(99)),
			qb.Refresh.Percentile(99) <= budgetQueueP99 && qb.Refresh.Requests > 0})
		dev := qb.SeenRate()/float64(qb.Rate) - 1
		out = append(out, check{"Queue: admissions seen within ±5% of the configured rate", fmt.Sprintf("%+.1f%%", dev*100), dev >= -0.05 && dev <= 0.05})
	}
	return append(out, r.growthChecks()...)
}

// Markdown is the run's output: the measurements and the budgets as Markdown tables.
func (r *report) Markdown() string {
	var b strings.Builder
	o := r.Options
	fmt.Fprintf(&b, "Run %s on %d CPUs (%s), %s; load average %s before, %s after; took %s.\n\n",
		r.Started.Format("2006-01-02 15:04 MST"), r.CPUs, r.CPUModel, r.GoVersion, r.LoadBefore, r.LoadAfter, r.Elapsed.Round(time.Second))
	if o.Note != "" {
		fmt.Fprintf(&b, "Machine: **%s**.\n\n", o.Note)
	}

	fmt.Fprintf(&b, "#### Throughput and latency: %d concurrent clients, %s per page and server (%d alternating rounds)\n\n",
		o.Concurrency, o.Duration, o.Rounds)
	if r.PagesSteady != "" {
		b.WriteString(r.PagesSteady + "\n\n")
	}
	b.WriteString("| Page | Server | Requests/s | p50 | p99 | Requests | Failures |\n|---|---|---:|---:|---:|---:|---:|\n")
	for _, s := range r.Server {
		for _, row := range []struct {
			name string
			l    Load
		}{{"Palaro", s.Palaro}, {"bare Go handler, same bytes", s.Bare}} {
			fmt.Fprintf(&b, "| `%s` | %s | %.0f | %s | %s | %d | %d |\n",
				s.Path, row.name, row.l.RPS(), ms(row.l.Percentile(50)), ms(row.l.Percentile(99)), row.l.Requests, row.l.Failures)
		}
		fmt.Fprintf(&b, "| `%s` | **ratio Palaro / bare** | **%.3f** | | | | |\n", s.Path, s.Ratio())
	}

	b.WriteString("\n#### Page weight: bytes transferred on a first visit (gzip)\n\n")
	b.WriteString("| Page | HTML | CSS | JS | HTML + CSS | Files |\n|---|---:|---:|---:|---:|---|\n")
	for _, w := range r.Weights {
		var files []string
		for _, a := range w.Assets[1:] {
			files = append(files, fmt.Sprintf("`%s` %s", a.URL, kbs(a.Bytes)))
		}
		if u := w.Uncompressed(); len(u) > 0 {
			files = append(files, "not compressed: "+strings.Join(u, ", "))
		}
		fmt.Fprintf(&b, "| `%s` | %s | %s | %s | %s | %s |\n", w.Path, kbs(w.Bytes("html")), kbs(w.Bytes("css")),
			kbs(w.Bytes("js")), kbs(w.Bytes("html", "css")), strings.Join(files, "<br>"))
	}

	if st := r.Storm; st != nil {
		fmt.Fprintf(&b, "\n#### Purchase storm: %d alternating rounds; in each, %d buyers, %d at a time, one ticket each, of a free ticket type with capacity %d\n\n",
			st.Rounds, st.Buyers, r.Options.Concurrency, st.Capacity)
		b.WriteString("| Target | Answers/s | Orders/s | p50 | p99 | Orders | Sold out | Failures | Time |\n|---|---:|---:|---:|---:|---:|---:|---:|---:|\n")
		l := st.Buy
		fmt.Fprintf(&b, "| Palaro `POST /v1/ticket/buy` | %.0f | %.0f | %s | %s | %d | %d | %d | %s |\n",
			float64(l.Requests+l.Refused)/l.Elapsed.Seconds(), st.OrdersPerSecond(), ms(l.Percentile(50)), ms(l.Percentile(99)),
			l.Requests, l.Refused, l.Failures, l.Elapsed.Round(time.Millisecond))
		l = st.BareOrders
		fmt.Fprintf(&b, "| bare order server (net/http, same JSON, one write transaction per order, `synchronous=NORMAL`) | %.0f | %.0f | %s | %s | %d | %d | %d | %s |\n",
			float64(l.Requests+l.Refused)/l.Elapsed.Seconds(), st.BareOrdersPerSecond(), ms(l.Percentile(50)), ms(l.Percentile(99)),
			l.Requests, l.Refused, l.Failures, l.Elapsed.Round(time.Millisecond))
		l = st.BareWrite
		fmt.Fprintf(&b, "| bare SQLite write transaction (`BEGIN IMMEDIATE; UPDATE; COMMIT`) | %.0f | | %s | %s | %d | | %d | %s |\n",
			l.RPS(), ms(l.Percentile(50)), ms(l.Percentile(99)), l.Requests, l.Failures, l.Elapsed.Round(time.Millisecond))
		fmt.Fprintf(&b, "\nOrders/s ÷ the bare order server's orders/s (each placed until its last order, %s and %s): **%.3f**. ",
			st.SellingTime.Round(time.Millisecond), st.BareSellingTime.Round(time.Millisecond), st.OrderRatio())
		durable := "one fsync each (`synchronous=FULL`)"
		if st.Writer.Syncs > 0 {
			durable = fmt.Sprintf("made durable by **%d fsyncs** of the WAL, each before the answers of the batches it covers, "+
				"while the writer ran the next batch (`synchronous=NORMAL` and the writer's syncer)", st.Writer.Syncs)
		}
		fmt.Fprintf(&b, "Durable commits: during the storm Palaro's writer ran %d units of work (the orders, sold-out answers that reached it, "+
			"and the outbox worker's claims and records of the confirmation e-mails) in **%d commits**, %s, "+
			"for %d orders; the bare order server commits once per order, without fsync. ",
			st.Writer.Units, st.Writer.Commits, durable, st.Buy.Requests)
		if st.BareWrite.RPS() > 0 {
			fmt.Fprintf(&b, "Orders/s ÷ bare write transactions/s: %.3f. ", st.OrdersPerSecond()/st.BareWrite.RPS())
		}
		var statuses []string
		for _, code := range slices.Sorted(maps.Keys(st.Statuses)) {
			statuses = append(statuses, fmt.Sprintf("%d × %d", st.Statuses[code], code))
		}
		fmt.Fprintf(&b, "Answers by status: %s.\n\n", strings.Join(statuses, ", "))
		if c := st.CPU; c.Known {
			fmt.Fprintf(&b, "Processor time per answer (user and system, during the rounds' loads, all answers counted; Palaro's "+
				"read from /proc to 10 ms a round): Palaro's server **%s**; the bare order server about **%s** (the bench's "+
				"process in the bare rounds, %s, less the load generator's share, %s, measured in Palaro's rounds). "+
				"Palaro's process used %s between the end of its loads and the end of the bare rounds that followed "+
				"(its background work: the confirmation e-mails, its jobs).\n\n",
				us(perAnswer(c.Palaro, st.Buy)), us(st.BareServerPerAnswer()), us(perAnswer(c.Bare, st.BareOrders)),
				us(perAnswer(c.Generator, st.Buy)), c.PalaroAside.Round(time.Millisecond))
		}
		fmt.Fprintf(&b, "Read back from the database: capacity %d; sold + held counter %d; ordered (paid and pending) %d; "+
			"tickets issued %d; **oversold %d**.\n", st.Sold.Capacity, st.Sold.Counter, st.Sold.OrderedQty,
			st.Sold.TicketsCount, st.Oversold())
	}

	if gb := r.CheckIn; gb != nil {
		b.WriteString(gb.markdown())
	}

	if qb := r.Queue; qb != nil {
		fmt.Fprintf(&b, "\n#### Queue: %d visitors in an event's queue, each refreshing its page every %s for %s\n\n",
			qb.Visitors, qb.Every, o.QueueDuration)
		b.WriteString("| Target | Requests/s | p50 | p99 | Requests | Failures | Time |\n|---|---:|---:|---:|---:|---:|---:|\n")
		l := qb.Join
		fmt.Fprintf(&b, "| joining: first `GET /v1/queue/{code}` of each visitor (one write each), %d at a time | %.0f | %s | %s | %d | %d | %s |\n",
			o.Concurrency, l.RPS(), ms(l.Percentile(50)), ms(l.Percentile(99)), l.Requests, l.Failures, l.Elapsed.Round(time.Millisecond))
		l = qb.Refresh
		fmt.Fprintf(&b, "| refreshing: `GET /queue/{code}` as the page's htmx refresh asks it (its cookie, `HX-Request`: the place section), %.0f/s asked, latency from when each was due | %.0f | %s | %s | %d | %d | %s |\n",
			qb.Offered, l.RPS(), ms(l.Percentile(50)), ms(l.Percentile(99)), l.Requests, l.Failures, l.Elapsed.Round(time.Millisecond))
		fmt.Fprintf(&b, "\nAdmission rate over the last %s: configured **%d a minute**; seen by the visitors (first admission cookie) **%.0f a minute**; "+
			"counted by the queue (organizer API) **%.0f a minute**. Read back from the database: %d places, %d admissions recorded.\n",
			qb.Window.Round(time.Second), qb.Rate, qb.SeenRate(), qb.ServerRate(), qb.Places, qb.AdmissionRows)
	}
	b.WriteString(r.scaleMarkdown())
	b.WriteString(r.growthMarkdown())

	b.WriteString("\n#### Budgets (DESIGN.md)\n\n| Budget | Measured | Result |\n|---|---:|---|\n")
	for _, c := range r.Checks() {
		result := "PASS"
		if !c.OK {
			result = "**FAIL**"
		}
		fmt.Fprintf(&b, "| %s | %s | %s |\n", c.Budget, c.Measured, result)
	}
	return b.String()
}

// Document is docs/BENCHMARKS.md: what is measured, how, and the latest output.
func (r *report) Document() string {
	return `# Benchmarks

Produced by ` + "`go tool task bench -- -out docs/BENCHMARKS.md`" + ` (plain ` + "`go tool task bench`" + ` only prints
the tables). The command builds ` + "`bin/palaro`" + `, then ` + "`cmd/bench`" + `:

- starts ` + "`bin/palaro serve`" + ` on a free 127.0.0.1 port with a fresh temporary SQLite database and
  ` + "`PALARO_DEMO=1`" + `, and waits until it answers;
- picks the first event linked from the home page, fetches ` + "`/`" + ` and that event page once as a
  browser would (` + "`Accept-Encoding: gzip`" + `), and serves those exact responses (same status,
  headers and gzipped body) from memory with a bare Go ` + "`net/http`" + ` handler on another loopback port;
- for each page, loads Palaro and the bare handler in turn with a Go load generator: 200 concurrent
  clients on keep-alive connections asking for gzip, split into alternating rounds so that noise
  from other work on the machine falls on both sides; reports requests per second, p50 and p99
  latency (nearest rank) and the ratio Palaro / bare, which is the figure that matters: the
  absolute numbers depend on the machine, the ratio much less. The load clients are anonymous
  (no cookies), so Palaro answers them from its page cache (the doc comment of
  handlers/pagecache.go), rendering a page again when PALARO_CACHE_SECONDS (2 s) run out: the
  ratio measures Palaro's middleware and those renders against a handler that does nothing;
- weighs pages as a first visit downloads them: the HTML and every stylesheet, script and
  module preload it references on the same host (following static imports of ES modules), in
  bytes on the wire with gzip; KB = 1,024 bytes;
- runs a purchase storm in alternating rounds (3), each first against Palaro, then against the
  bare order server, so that noise from other work on the machine falls on both sides; each
  Palaro round adds a new free ticket type with a small capacity to that event and lets new
  buyers (each with its own session, the CSRF token of its buy page, and its own address in
  ` + "`X-Forwarded-For`" + `, the server trusting it, so that the per-address purchase limit does not stop
  a crowd simulated from one machine) each buy one ticket through ` + "`POST /v1/ticket/buy`" + `, 200 at a
  time; reports orders per second and latency, then reads back from the database how many
  tickets were sold (oversold must be 0), and how many units of work Palaro's batching writer ran
  in how many commits and how many fsyncs of the WAL made them durable before any answer (the writer
  commits with ` + "`synchronous=NORMAL`" + ` and its syncer fsyncs while the next batch runs; the server logs its writer's counts on
  SIGUSR1, read before and after each round); then the same buyers, bodies and load generator
  against the **bare order server** (a new database each round), the budget's baseline: Go ` + "`net/http`" + `, the same JSON body
  decoded, one SQLite write transaction per order (a conditional ` + "`UPDATE`" + ` of a stock counter and
  an ` + "`INSERT`" + ` of the order row), WAL, ` + "`synchronous=NORMAL`" + `; orders/s of each are counted until
  the last order of each round (the rounds' orders over the sum of those times), and their ratio
  is the budget's figure; p50 and p99 are over every answer of every round; beside it, the rate of bare SQLite write transactions
  (` + "`BEGIN IMMEDIATE; UPDATE …; COMMIT`" + `, one connection, WAL, ` + "`synchronous=NORMAL`" + `) on a
  temporary database in the same run: the ceiling of any design with one writer that does not fsync;
  and the processor time (user and system) each side's loads took, per answer: Palaro's process
  read from ` + "`/proc/{pid}/stat`" + `, the bench's own from ` + "`getrusage`" + `; the bare order server runs inside
  the bench, so its share is the bench's time per answer in its rounds less the load generator's
  per answer in Palaro's rounds;
- runs the gate at 1,000 and 55,000 tickets, each on a new event: a draft event of the demo event's
  organization, created through ` + "`POST /v1/organizer/events`" + ` with a manager API token, gets exactly
  that many tickets in bulk (` + "`store.IssueGateTickets`" + `), so that a row's size is its event's own
  (the demo event already holds the storm's tickets); with a gate API token the bench downloads the
  gate list whole (gzip: time, bytes, growth of the server's peak memory), lets 60 gates (` + "`-gates`" + `)
  scan at once through ` + "`POST /v1/checkin`" + `, online, ` + "`-scans`" + ` scans (1,250) of four fifths as many
  tickets spread evenly over the event's (every ticket of the 1,000-ticket event; a fifth of the
  scans are second scans, 409) while each gate also fetches the list's changes every 3 s, reports
  the tickets scanned, scans answered per second and latency, reads back that every scanned ticket
  was checked in exactly once, and downloads the delta since the whole list (` + "`MeasureGateList`" + `);
- runs the queue: puts a queue in front of that event's sale through the organizer API (opening
  in an hour), lets ` + "`-queue-visitors`" + ` visitors (20,000) join, each with its first
  ` + "`GET /v1/queue/{code}`" + ` (one write each, 200 at a time), moves the opening to a few seconds on, then
  lets every visitor refresh ` + "`/queue/{code}`" + ` as the page's htmx refresh does (its own queue
  cookie and ` + "`HX-Request`" + `, answered with the place section; a browser without scripts reloads
  the whole page instead, which is not measured here) once every
  ` + "`-queue-every`" + ` (10 s), evenly spread, for ` + "`-queue-duration`" + ` (2 min), on up to 800 client
  goroutines; latency counts from when a refresh was due, so a server that falls behind shows in
  p99; reports the refreshes per second answered and the admission rate the visitors saw (their
  first admission cookie, counted from one refresh period in) beside the configured one
  (` + "`-queue-rate`" + `, 600 a minute) and the queue's own count;
- on PostgreSQL (` + "`go tool task bench`" + ` runs the command inside ` + "`scripts/pgtest.sh --durable`" + `, a throwaway
  cluster on a Unix socket with fsync and synchronous_commit on, read back with SHOW; ` + "`-postgres URL`" + ` names another), loads the event page and runs the same storm
  again on a new database with one ` + "`bin/palaro serve`" + `, then with three on one database
  (` + "`PALARO_SERVERS=3`" + `, started one after the other), the clients split evenly among the servers and buyer i
  buying on server i mod n, and reads back the oversold count: the rows sit beside the SQLite run's;
- runs the scale section (cmd/bench/growth.go; ` + "`-scale-sizes 1000,10000,55000`" + `, arenas of that many
  places, empty skips it) on the stadium seed's arena: for each size, twice,
  ` + "`bin/palaro seed --demo --stadium --places N`" + ` on a fresh SQLite database (the event
  ` + "`arena-grand-finals`" + `: a lower box of 16 and an upper box of 24 sections, two standing areas; the
  seeding is timed) and a new
  ` + "`bin/palaro serve`" + ` on it, measuring one request after the other:
  **on sale**, ` + "`--sold 0.5`" + ` (about half of each price zone sold: about N/2 tickets), the seat page's
  first view of the upper box, the largest seated zone (` + "`/s/arena-grand-finals-upper`" + `: its overview
  of sections; and its first-visit weight, HTML + CSS + JS gzipped), best available (20 buyers one
  after the other, each with its own session and the CSRF token of the seat page it opened, not
  timed, ask ` + "`POST /v1/seats/arena-grand-finals-upper/best`" + ` for 2 adjacent seats; an answer without
  2 seats, or a seat held twice, is a failure) and a queue storm (` + "`-scale-queue-buyers`" + ` 20,000
  buyers join the event's queue, ` + "`-scale-queue-c`" + ` 2,000 at a time, then each asks for its place once);
  **sold out**, ` + "`--sold 1`" + ` (which still leaves some of the far sections' seats unsold), after which
  the bench sells every seat left, one per paid order, and checks 30% of the tickets in at 60 gates
  (the ticket's status and a check-in row), straight into SQLite, so that the event has exactly N
  tickets: the gate list through ` + "`GET /v1/organizer/events/{code}/gate-list`" + ` with a gate token and
  gzip (full, then ` + "`?since=`" + ` after 1% of the tickets were cancelled), the organizer's dashboard,
  orders search (an e-mail's), check-in counts (` + "`/check-ins/live`" + `), attendees and orders CSV
  (signed in as the demo organizer; for the exports also the time to their first bytes);
  for each: p50 and p99 of its repetitions and the
  server's **peak resident memory**: before each operation the bench writes ` + "`5`" + ` to
  ` + "`/proc/<pid>/clear_refs`" + ` of the server, which resets its VmHWM (peak resident set) to its
  current VmRSS, and reads VmHWM from ` + "`/proc/<pid>/status`" + ` after it: the peak of the whole process
  (Go heap, SQLite's page cache and sorter, buffers) during that operation, and how far it rose
  above the resident memory just before. The table's headers give each size's places and the
  tickets of both states, and each row names the state it ran on; the last column shows how each
  grows from the smallest size to the largest and flags a time or memory that grows faster than
  the tickets of that state, and a first view whose bytes (its HTML, or all it downloads) grow by
  more than 5%; the budgets hold the organizer views of the largest sold-out arena to p99 ≤ 100 ms
  (the exports: their first bytes; they stream), and the seat page's first view at the largest
  size to the island budget (JS ≤ 90 KB gzipped) and to not growing;
- compares the figures with the budgets of DESIGN.md and prints PASS or FAIL for each. This is
  a report, not an assertion: the command exits 0 unless the measurement itself failed.

Flags (after ` + "`--`" + `): ` + "`-bin bin/palaro`" + `, ` + "`-duration 10s`" + ` load time per page and server, ` + "`-rounds 2`" + `,
` + "`-warmup 1s`" + `, ` + "`-c 200`" + ` clients, ` + "`-max-requests`" + ` bound per round, ` + "`-pages=false`" + ` (no throughput
rounds), ` + "`-storm=false`" + `, ` + "`-buyers 2000`" + `, ` + "`-capacity 500`" + ` (both per round), ` + "`-storm-rounds 3`" + `,
` + "`-checkin=false`" + `, ` + "`-gates 60`" + `, ` + "`-scans 1250`" + `, ` + "`-queue=false`" + `, ` + "`-queue-visitors 20000`" + `,
` + "`-queue-every 10s`" + `, ` + "`-queue-duration 2m`" + `, ` + "`-queue-rate 600`" + `, ` + "`-postgres URL`" + ` (empty: no PostgreSQL
runs), ` + "`-scale-sizes 1000,10000,55000`" + ` (arena places; empty: no scale section),
` + "`-scale-queue-buyers 20000`" + `, ` + "`-scale-queue-c 2000`" + `, ` + "`-note TEXT`" + ` (the machine's state, printed
with the run), ` + "`-out FILE`" + `.

**Noise.** The machine that produced the figures below has 2 CPUs, shared by the load generator,
the bare handler and Palaro, and, at the time, by other engineers' builds and tests (see the load
average). Absolute requests per second are therefore low and vary from run to run; the ratio is
measured in the same run under the same conditions and is the number to compare. A p99 at 200
concurrent clients on 2 shared cores mostly measures queueing for the CPU.

## Latest output

` + r.Markdown()
}

// ms formats a latency in milliseconds.
func ms(d time.Duration) string { return fmt.Sprintf("%.1f ms", float64(d)/float64(time.Millisecond)) }

// kbs formats a byte count in KB of 1,024 bytes.
func kbs(n int) string { return fmt.Sprintf("%.1f KB", float64(n)/kb) }

// cpuModel reads the CPU model name from /proc/cpuinfo, or "unknown CPU".
func cpuModel() string {
	data, _ := os.ReadFile("/proc/cpuinfo")
	for line := range strings.SplitSeq(string(data), "\n") {
		if name, ok := strings.CutPrefix(line, "model name"); ok {
			return strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(name), ":"))
		}
	}
	return "unknown CPU"
}

// loadAvg reads the 1-minute load average, or "n/a".
func loadAvg() string {
	data, err := os.ReadFile("/proc/loadavg")
	if f := strings.Fields(string(data)); err == nil && len(f) > 0 {
		return f[0]
	}
	return "n/a"
}

// scaleMarkdown is the section of the PostgreSQL runs, beside the SQLite run's figures.
func (r *report) scaleMarkdown() string {
	if len(r.Scale) == 0 {
		return "\n#### PostgreSQL and several app servers\n\nNot run: no PostgreSQL cluster (`-postgres`, or run through `scripts/pgtest.sh`, as `go tool task bench` does).\n"
	}
	var b strings.Builder
	o := r.Options
	fmt.Fprintf(&b, "\n#### PostgreSQL and several app servers: the event page (%d clients split among the servers, %s) and the purchase storm (%d buyers, %d at a time, capacity %d, buyer i on server i mod n)\n\n",
		o.Concurrency, o.Duration, o.Buyers, o.Concurrency, o.Capacity)
	b.WriteString("| Database, app servers | Event page requests/s | p50 | p99 | Failures | Storm orders/s | p50 | p99 | Orders | Sold out | Failures | Oversold |\n|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n")
	if len(r.Server) > 1 && r.Storm != nil {
		page, st := r.Server[1].Palaro, r.Storm
		fmt.Fprintf(&b, "| SQLite, 1 (the runs above; the storm's rounds together) | %.0f | %s | %s | %d | %.0f | %s | %s | %d | %d | %d | %d |\n",
			page.RPS(), ms(page.Percentile(50)), ms(page.Percentile(99)), page.Failures, st.OrdersPerSecond(),
			ms(st.Buy.Percentile(50)), ms(st.Buy.Percentile(99)), st.Buy.Requests, st.Buy.Refused, st.Buy.Failures, st.Sold.Oversold())
	}
	for _, run := range r.Scale {
		fmt.Fprintf(&b, "| PostgreSQL, %d | %.0f | %s | %s | %d | %.0f | %s | %s | %d | %d | %d | %d |\n",
			run.Servers, run.Page.RPS(), ms(run.Page.Percentile(50)), ms(run.Page.Percentile(99)), run.Page.Failures,
			run.OrdersPerSecond(), ms(run.Buy.Percentile(50)), ms(run.Buy.Percentile(99)), run.Buy.Requests, run.Buy.Refused,
			run.Buy.Failures, run.Sold.Oversold())
	}
	fmt.Fprintf(&b, "\nCluster: %s. ", r.ScaleSettings)
	if strings.Contains(r.ScaleSettings, "fsync off") || strings.Contains(r.ScaleSettings, "synchronous_commit off") {
		b.WriteString("Without fsync or with synchronous_commit off a PostgreSQL commit is not durable, unlike the SQLite run's (fsynced before any answer): the storm rows are not " +
			"comparable on that point. ")
	} else {
		b.WriteString("Every PostgreSQL commit is flushed to disk before it returns, as the SQLite run's are (fsynced before any answer): an acknowledged order survives a power cut on both. ")
	}
	b.WriteString("All servers, the database and the load generator share the same CPUs: with three servers on 2 cores the " +
		"servers compete for them, so these rows show what the design costs and that it stays correct, not how a cluster of machines scales.\n")
	return b.String()
}

// appServers says "1 app server" or "N app servers".
func appServers(n int) string {
	if n == 1 {
		return "1 app server"
	}
	return fmt.Sprintf("%d app servers", n)
}

// us formats a duration in microseconds, e.g. "212 µs".
func us(d time.Duration) string { return fmt.Sprintf("%.0f µs", float64(d)/float64(time.Microsecond)) }
