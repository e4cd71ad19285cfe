// Command bench measures Palaro: requests per second and latency of its pages at 200 concurrent
// clients next to a bare Go handler serving the same bytes in the same run, the gzipped weight of
// HTML, CSS and JS each page transfers, a purchase storm with its oversold count next to bare
// SQLite write transactions, the gate, and visitors waiting in a sale's queue. Run it with `go tool task bench`; see docs/BENCHMARKS.md.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/signal"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// options are the command-line flags.
type options struct {
	Bin           string
	Duration      time.Duration
	Warmup        time.Duration
	Rounds        int
	Concurrency   int
	MaxRequests   int
	Out           string
	Note          string
	Pages         bool
	Storm         bool
	StormRounds   int
	Buyers        int
	Capacity      int
	CheckIn       bool
	Gates         int
	Scans         int
	Queue         bool
	QueueVisitors int
	QueueEvery    time.Duration
	QueueDuration time.Duration
	QueueRate     int
	Postgres      string
	ScaleSizes    []int
	// ScaleQueueBuyers and ScaleQueueConcurrency size the scale section's queue storm.
	ScaleQueueBuyers, ScaleQueueConcurrency int
}

func main() {
	var o options
	flag.StringVar(&o.Bin, "bin", "bin/palaro", "Palaro binary to start (built by `go tool task build`)")
	flag.DurationVar(&o.Duration, "duration", 10*time.Second, "load time per page and server")
	flag.DurationVar(&o.Warmup, "warmup", time.Second, "unrecorded load before each page and server")
	flag.IntVar(&o.Rounds, "rounds", 2, "split the load time into this many alternating Palaro/bare rounds")
	flag.IntVar(&o.Concurrency, "c", 200, "concurrent clients")
	flag.IntVar(&o.MaxRequests, "max-requests", 5_000_000, "upper bound of requests per round")
	flag.BoolVar(&o.Pages, "pages", true, "measure the pages' throughput next to the bare handler (false: only the other benchmarks, e.g. to profile the storm)")
	flag.BoolVar(&o.Storm, "storm", true, "also run the purchase storm")
	flag.IntVar(&o.Buyers, "buyers", 2000, "purchase storm: buyers, each buying one ticket, -c at a time")
	flag.IntVar(&o.Capacity, "capacity", 500, "purchase storm: capacity of the ticket type they buy")
	flag.IntVar(&o.StormRounds, "storm-rounds", 3, "purchase storm: alternating Palaro/bare rounds, each with -buyers new buyers and new stock")
	flag.BoolVar(&o.CheckIn, "checkin", true, "also run the gate benchmark: gates scanning tickets at once, online, and the gate list, at 1,000 and 55,000 tickets")
	flag.IntVar(&o.Gates, "gates", 60, "gate benchmark: gates scanning at once (a stadium's)")
	flag.IntVar(&o.Scans, "scans", 1250, "gate benchmark: scans in all at each event size (1,000 and 55,000 tickets), a fifth of them second scans of a ticket")
	flag.BoolVar(&o.Queue, "queue", true, "also run the queue benchmark: visitors waiting in an event's queue, refreshing its page")
	flag.IntVar(&o.QueueVisitors, "queue-visitors", 20000, "queue benchmark: visitors in the queue")
	flag.DurationVar(&o.QueueEvery, "queue-every", 10*time.Second, "queue benchmark: each visitor refreshes this often")
	flag.DurationVar(&o.QueueDuration, "queue-duration", 2*time.Minute, "queue benchmark: how long they refresh")
	flag.IntVar(&o.QueueRate, "queue-rate", 600, "queue benchmark: admissions a minute")
	flag.StringVar(&o.Postgres, "postgres", os.Getenv("PALARO_TEST_POSTGRES"),
		"PostgreSQL cluster (postgres:// URL) for the runs with one and three app servers; default $PALARO_TEST_POSTGRES, set by scripts/pgtest.sh (--durable for the bench); empty skips them")
	scaleSizes := flag.String("scale-sizes", "1000,10000,55000", "scale section: arena sizes in places (the stadium seed's --places), each measured on sale and sold out on servers of their own (empty: skip it)")
	flag.IntVar(&o.ScaleQueueBuyers, "scale-queue-buyers", 20000, "scale section: buyers in the queue storm")
	flag.IntVar(&o.ScaleQueueConcurrency, "scale-queue-c", 2000, "scale section: the queue storm's concurrent buyers")
	flag.StringVar(&o.Note, "note", "", "the machine's state, printed with the run (e.g. \"busy machine, 7 other engineers compiling\")")
	flag.StringVar(&o.Out, "out", "", "also write the report into this Markdown file, e.g. docs/BENCHMARKS.md")
	flag.Parse()
	for f := range strings.SplitSeq(*scaleSizes, ",") {
		if f = strings.TrimSpace(f); f == "" {
			continue
		}
		n, err := strconv.Atoi(f)
		if err != nil || n < 200 {
			fmt.Fprintln(os.Stderr, "bench: -scale-sizes is a list of arena sizes of at least 200 places (the stadium seed's smallest), such as 1000,10000,55000")
			os.Exit(2)
		}
		o.ScaleSizes = append(o.ScaleSizes, n)
	}
	if o.Rounds < 1 || o.Concurrency < 1 || o.Duration <= 0 || o.MaxRequests < 1 || o.Buyers < 1 || o.Capacity < 1 || o.Gates < 1 || o.Scans < 5 ||
		o.QueueVisitors < 1 || o.QueueEvery <= 0 || o.QueueDuration <= o.QueueEvery || o.QueueRate < 1 {
		fmt.Fprintln(os.Stderr, "bench: -rounds, -c, -duration, -max-requests, -buyers, -capacity and the -queue-… values must be positive (-queue-duration longer than -queue-every)")
		os.Exit(2)
	}

	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	rep, err := run(ctx, o)
	if err != nil {
		fmt.Fprintln(os.Stderr, "bench:", err)
		os.Exit(1)
	}
	fmt.Print(rep.Markdown())
	if o.Out != "" {
		if err := os.WriteFile(o.Out, []byte(rep.Document()+keptSection(o.Out, "Recorded runs")+keptSection(o.Out, "Lighthouse")+keptSection(o.Out, "Quick-buy sheet on slow 3G")), 0o644); err != nil {
			fmt.Fprintln(os.Stderr, "bench:", err)
			os.Exit(1)
		}
		fmt.Fprintln(os.Stderr, "bench: wrote", o.Out)
	}
}

// keptSection returns the "## heading" section of the Markdown file at path (up to the next "## "
// heading) preceded by a blank line, or "" when there is none, so that rewriting the benchmark
// document keeps it: "Lighthouse" (written by `go tool task lighthouse`), "Recorded runs"
// (earlier runs kept by hand, each with its command and the machine's state) and "Quick-buy sheet
// on slow 3G" (the figures of the browser test TestQuickBuyOnSlow3G_Browser).
func keptSection(path, heading string) string {
	data, _ := os.ReadFile(path)
	doc := "\n" + string(data)
	start := strings.Index(doc, "\n## "+heading+"\n")
	if start < 0 {
		return ""
	}
	section := doc[start+1:]
	if end := strings.Index(section[1:], "\n## "); end >= 0 {
		section = section[:end+2]
	}
	return "\n" + strings.TrimRight(section, "\n") + "\n"
}

// run starts Palaro and the bare server, measures them and returns the report.
func run(ctx context.Context, o options) (*report, error) {
	rep := newReport(o)
	progress("starting %s serve with the demo data", o.Bin)
	metricsAddr, err := freeAddr()
	if err != nil {
		return nil, err
	}
	p, err := startPalaroOn(ctx, o.Bin, "", "PALARO_METRICS="+metricsAddr)
	if err != nil {
		return nil, err
	}
	defer p.Stop()

	client := &http.Client{Timeout: 10 * time.Second, Transport: &http.Transport{DisableCompression: true}}
	home, err := fetch(ctx, client, p.URL+"/")
	if err != nil {
		return nil, err
	}
	homeHTML, err := home.body()
	if err != nil {
		return nil, err
	}
	eventPath := firstLink(homeHTML, "/e/")
	if eventPath == "" {
		return nil, errors.New("no event link (/e/…) on the home page")
	}
	targets := []string{"/", eventPath}

	captured := map[string]response{}
	for _, path := range targets {
		if captured[path], err = fetch(ctx, client, p.URL+path); err != nil {
			return nil, err
		}
	}
	bareURL, stopBare, err := startBare(captured)
	if err != nil {
		return nil, err
	}
	defer stopBare()

	if o.Pages {
		if rep.PagesSteady, err = waitStartupDrained(ctx, "http://"+metricsAddr+"/metrics", startupDrainLimit); err != nil {
			return nil, err
		}
	}
	for _, path := range targets {
		if !o.Pages {
			break
		}
		res := serverResult{Path: path}
		servers := []struct {
			name string
			url  string
			into *Load
		}{{"palaro", p.URL, &res.Palaro}, {"bare", bareURL, &res.Bare}}
		lc := newLoadClient(o.Concurrency)
		for _, s := range servers {
			progress("warming up %s %s", s.name, path)
			getLoad(ctx, lc, s.url+path, o.Concurrency, o.Warmup, o.MaxRequests)
		}
		for round := range o.Rounds {
			for _, s := range servers {
				progress("round %d/%d: %s %s", round+1, o.Rounds, s.name, path)
				*s.into = s.into.merge(getLoad(ctx, lc, s.url+path, o.Concurrency, o.Duration/time.Duration(o.Rounds), o.MaxRequests))
			}
		}
		lc.CloseIdleConnections()
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		rep.Server = append(rep.Server, res)
	}

	weighed := []string{"/", eventPath}
	eventHTML, err := captured[eventPath].body()
	if err != nil {
		return nil, err
	}
	if find := firstLink(eventHTML, "/f/"); find != "" {
		weighed = append(weighed, find)
	}
	weighed = append(weighed, "/calendar")
	for _, path := range weighed {
		progress("weighing %s", path)
		w, err := measureWeight(ctx, client, p.URL, path)
		if err != nil {
			return nil, err
		}
		rep.Weights = append(rep.Weights, w)
	}
	if o.Storm {
		if rep.Storm, err = runStorm(ctx, p, strings.TrimPrefix(eventPath, "/e/"), o); err != nil {
			return nil, err
		}
	}
	if o.CheckIn {
		if rep.CheckIn, err = runGate(ctx, p, strings.TrimPrefix(eventPath, "/e/"), o); err != nil {
			return nil, err
		}
	}
	if o.Queue {
		if rep.Queue, err = runQueue(ctx, p, strings.TrimPrefix(eventPath, "/e/"), o); err != nil {
			return nil, err
		}
	}
	if len(o.ScaleSizes) > 0 {
		if rep.Growth, err = runGrowth(ctx, o); err != nil {
			return nil, err
		}
	}
	if o.Postgres != "" {
		if rep.Scale, rep.ScaleSettings, err = runScale(ctx, o, o.Postgres, eventPath); err != nil {
			return nil, err
		}
	}
	rep.finish()
	return rep, nil
}

// startupDrainLimit is how long the page rounds wait at most for the server's start-up work.
const startupDrainLimit = 3 * time.Minute

// Series of the server's metrics that waitStartupDrained reads.
const (
	seriesSettleRounds = `palaro_job_rounds_total{job="settle"}`
	seriesPending      = `palaro_outbox_messages{status="pending"}`
	seriesSent         = "palaro_outbox_sent_total"
)

// waitStartupDrained waits, at most limit, until the server's start-up work is done, reading its
// metrics at url every 200 ms: a new server with the demo data queues the demo's reminder e-mails
// in its settle job's first round (palaro_job_rounds_total{job="settle"} ≥ 1), then its outbox
// composes and sends them (hundreds, each with its tickets' QR images) until
// palaro_outbox_messages{status="pending"} is 0. The page rounds should measure the page path in
// steady state, not that one-off work on the same cores (the bare handler's rounds have none
// either). It returns the sentence the report prints about it; a server still busy after limit
// is measured anyway, and the sentence says so.
func waitStartupDrained(ctx context.Context, url string, limit time.Duration) (string, error) {
	client := &http.Client{Timeout: 5 * time.Second}
	start := time.Now()
	progress("waiting for the server's start-up work: its settle job's first round, then its outbox sending what it queued (%s)", url)
	for {
		fig, err := metricFigures(ctx, client, url, seriesSettleRounds, seriesPending, seriesSent)
		if err != nil {
			return "", err
		}
		waited := time.Since(start).Round(100 * time.Millisecond)
		if fig[seriesSettleRounds] >= 1 && fig[seriesPending] == 0 {
			progress("start-up work done: %.0f messages sent, waited %s", fig[seriesSent], waited)
			return fmt.Sprintf("The rounds began once the server's start-up work was done (its settle job's first round, which queues the demo's reminders, "+
				"and its outbox sending them: %.0f messages sent; waited %s).", fig[seriesSent], waited), nil
		}
		if waited >= limit {
			progress("start-up work not done after %s (settle rounds %.0f, %.0f messages pending): measuring anyway", limit, fig[seriesSettleRounds], fig[seriesPending])
			return fmt.Sprintf("**The server's start-up work was not done after %s (settle job rounds %.0f, %.0f outbox messages pending): "+
				"the rounds ran while it went on.**", limit, fig[seriesSettleRounds], fig[seriesPending]), nil
		}
		select {
		case <-ctx.Done():
			return "", ctx.Err()
		case <-time.After(200 * time.Millisecond):
		}
	}
}

// metricFigures reads the values of series (each a metric's name with its labels, as the text
// format writes them) from the metrics at url; a series not there yet reads 0.
func metricFigures(ctx context.Context, client *http.Client, url string, series ...string) (map[string]float64, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return nil, err
	}
	resp, err := client.Do(req)
	if err != nil {
		return nil, fmt.Errorf("reading the server's metrics: %w", err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		return nil, fmt.Errorf("reading the server's metrics: %w", err)
	}
	if resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("reading the server's metrics: %s", resp.Status)
	}
	out := make(map[string]float64, len(series))
	for line := range strings.SplitSeq(string(body), "\n") {
		for _, name := range series {
			value, ok := strings.CutPrefix(line, name+" ")
			if !ok {
				continue
			}
			if out[name], err = strconv.ParseFloat(strings.Fields(value)[0], 64); err != nil {
				return nil, fmt.Errorf("the server's metrics: %q: %w", line, err)
			}
		}
	}
	return out, nil
}

// progress tells the person waiting what is being measured.
func progress(format string, args ...any) {
	fmt.Fprintf(os.Stderr, "bench: "+format+"\n", args...)
}
