package main

import (
	"context"
	"crypto/rand"
	"database/sql"
	"encoding/hex"
	"fmt"
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"slices"
	"strconv"
	"sync"
	"time"

	_ "github.com/jackc/pgx/v5/stdlib" // the "pgx" driver, for creating the runs' databases

	"palaro/store"
)

// scaleServers are the numbers of app servers measured on PostgreSQL.
var scaleServers = []int{1, 3}

// ScaleRun is one PostgreSQL setup: n app servers on one database, the event page and the
// purchase storm spread over them.
type ScaleRun struct {
	Servers     int
	Page        Load          // GET of the event page, anonymous, the clients split among the servers
	Buy         Load          // the storm's POST /v1/ticket/buy, buyer i on server i mod n
	SellingTime time.Duration // from the start of the storm to the last order placed
	Statuses    map[int]int
	Sold        stock
}

// OrdersPerSecond is the storm's orders per second until its last order.
func (r ScaleRun) OrdersPerSecond() float64 {
	if r.SellingTime <= 0 {
		return 0
	}
	return float64(r.Buy.Requests) / r.SellingTime.Seconds()
}

// runScale measures, for each of scaleServers, that many `bin/palaro serve` on a new database of
// the PostgreSQL cluster at cluster: the event page and the purchase storm, as the SQLite run does.
func runScale(ctx context.Context, o options, cluster, eventPath string) ([]ScaleRun, string, error) {
	settings, err := clusterSettings(ctx, cluster)
	if err != nil {
		return nil, "", err
	}
	var runs []ScaleRun
	for _, n := range scaleServers {
		run, err := runScaleSetup(ctx, o, cluster, eventPath, n)
		if err != nil {
			return nil, "", fmt.Errorf("PostgreSQL, %d servers: %w", n, err)
		}
		runs = append(runs, run)
	}
	return runs, settings, nil
}

// clusterSettings describes the cluster's version and durability settings as the server reports
// them (SHOW), since the figures depend on them: a test cluster runs without fsync, the bench's
// (`scripts/pgtest.sh --durable`) with it.
func clusterSettings(ctx context.Context, cluster string) (string, error) {
	admin, err := sql.Open("pgx", cluster)
	if err != nil {
		return "", err
	}
	defer admin.Close()
	names := []string{"server_version", "fsync", "synchronous_commit", "full_page_writes"}
	values := make([]string, len(names))
	for i, name := range names {
		if err := admin.QueryRowContext(ctx, "SHOW "+name).Scan(&values[i]); err != nil {
			return "", fmt.Errorf("PostgreSQL settings: SHOW %s: %w", name, err)
		}
	}
	return fmt.Sprintf("PostgreSQL %s, fsync %s, synchronous_commit %s, full_page_writes %s (read back with SHOW)",
		values[0], values[1], values[2], values[3]), nil
}

func runScaleSetup(ctx context.Context, o options, cluster, eventPath string, n int) (ScaleRun, error) {
	run := ScaleRun{Servers: n, Statuses: map[int]int{}}
	dbURL, drop, err := createDatabase(ctx, cluster)
	if err != nil {
		return run, err
	}
	defer drop()
	progress("PostgreSQL: starting %d servers", n)
	env := []string{"PALARO_SERVERS=" + strconv.Itoa(n)}
	var procs []*palaroProcess
	defer func() {
		for _, p := range procs {
			p.Stop()
		}
	}()
	for range n { // one after the other: the first loads the demo data
		p, err := startPalaroOn(ctx, o.Bin, dbURL, env...)
		if err != nil {
			return run, err
		}
		procs = append(procs, p)
	}
	var urls []string
	for _, p := range procs {
		urls = append(urls, p.URL+eventPath)
	}
	progress("PostgreSQL, %d servers: warming up %s", n, eventPath)
	spreadGetLoad(ctx, urls, o.Concurrency, o.Warmup, o.MaxRequests)
	progress("PostgreSQL, %d servers: loading %s", n, eventPath)
	run.Page = spreadGetLoad(ctx, urls, o.Concurrency, o.Duration, o.MaxRequests)

	eventCode := eventPath[len("/e/"):]
	if err := addStormTicketType(ctx, dbURL, eventCode, stormTicketCode, o.Capacity); err != nil {
		return run, err
	}
	transport := &http.Transport{MaxIdleConns: 2 * o.Concurrency, MaxIdleConnsPerHost: 2 * o.Concurrency, DisableCompression: true}
	defer transport.CloseIdleConnections()
	progress("PostgreSQL, %d servers: %d buyers open the buy page", n, o.Buyers)
	buyers := make([]buyer, o.Buyers)
	prep := runLoad(ctx, o.Concurrency, time.Minute, o.Buyers, func(ctx context.Context, i int) result {
		jar, _ := cookiejar.New(nil)
		b := buyer{client: &http.Client{Transport: transport, Jar: jar, Timeout: 10 * time.Second}}
		page, err := fetch(ctx, b.client, procs[i%n].URL+"/b/"+stormTicketCode)
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
	if prep.Requests != o.Buyers {
		return run, fmt.Errorf("storm: %d of %d buy pages loaded", prep.Requests, o.Buyers)
	}
	progress("PostgreSQL, %d servers: storm of %d buyers, %d at a time, for %d tickets", n, o.Buyers, o.Concurrency, o.Capacity)
	var mu sync.Mutex
	start := time.Now()
	run.Buy = runLoad(ctx, o.Concurrency, time.Minute, o.Buyers, func(ctx context.Context, i int) result {
		status, ok := buy(ctx, procs[i%n].URL, eventCode, stormTicketCode, buyers[i], i)
		if ctx.Err() != nil {
			return failed
		}
		mu.Lock()
		run.Statuses[status]++
		if ok {
			run.SellingTime = max(run.SellingTime, time.Since(start))
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
	run.Sold, err = readStock(ctx, dbURL, stormTicketCode)
	return run, err
}

// spreadGetLoad loads every url at the same time, concurrency clients split evenly among them,
// and returns the sum: requests of all, the latencies of all, the wall time of the longest.
func spreadGetLoad(ctx context.Context, urls []string, concurrency int, duration time.Duration, maxRequests int) Load {
	loads := make([]Load, len(urls))
	var wg sync.WaitGroup
	for i, u := range urls {
		c := concurrency / len(urls)
		if i < concurrency%len(urls) {
			c++
		}
		wg.Go(func() {
			client := newLoadClient(c)
			defer client.CloseIdleConnections()
			loads[i] = getLoad(ctx, client, u, c, duration, maxRequests/len(urls))
		})
	}
	wg.Wait()
	var total Load
	for _, l := range loads {
		total.Requests += l.Requests
		total.Refused += l.Refused
		total.Failures += l.Failures
		total.Elapsed = max(total.Elapsed, l.Elapsed)
		total.Latencies = append(total.Latencies, l.Latencies...)
	}
	slices.Sort(total.Latencies)
	return total
}

// createDatabase creates a new database in the PostgreSQL cluster at cluster (a postgres:// URL
// of any of its databases) and returns its URL and a function that drops it.
func createDatabase(ctx context.Context, cluster string) (string, func(), error) {
	admin, err := sql.Open("pgx", cluster)
	if err != nil {
		return "", nil, err
	}
	b := make([]byte, 6)
	_, _ = rand.Read(b)
	name := "palaro_bench_" + hex.EncodeToString(b)
	if _, err := admin.ExecContext(ctx, `CREATE DATABASE `+name); err != nil {
		admin.Close()
		return "", nil, fmt.Errorf("create database: %w", err)
	}
	u, err := url.Parse(cluster)
	if err != nil {
		admin.Close()
		return "", nil, err
	}
	u.Path = "/" + name
	return u.String(), func() {
		_, _ = admin.ExecContext(context.Background(), `DROP DATABASE `+name+` WITH (FORCE)`)
		admin.Close()
	}, nil
}

// openBenchDB opens the database of a server under test, a SQLite file or a postgres:// URL,
// through the store, which reads the same SQL on both.
func openBenchDB(path string) (*store.DB, error) {
	return store.Open(path)
}
