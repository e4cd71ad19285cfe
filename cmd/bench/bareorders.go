package main

import (
	"bufio"
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"time"
)

// startBareOrders starts the purchase budget's baseline on a loopback port: a bare Go net/http
// server that decodes the storm's JSON body and places each order with one SQLite write
// transaction (a conditional UPDATE of a stock counter and an INSERT of the order row; 409 when
// nothing is left), on one connection in WAL mode with synchronous=NORMAL, on a new database file
// name in dir.
func startBareOrders(dir, name string, capacity int) (url string, stop func(), err error) {
	db, err := sql.Open("sqlite3", "file:"+filepath.Join(dir, name)+
		"?_journal_mode=WAL&_synchronous=NORMAL&_busy_timeout=10000&_txlock=immediate")
	if err != nil {
		return "", nil, err
	}
	db.SetMaxOpenConns(1)
	if _, err := db.Exec(`CREATE TABLE stock (id INTEGER PRIMARY KEY, sold INTEGER NOT NULL, capacity INTEGER NOT NULL);
		CREATE TABLE orders (id INTEGER PRIMARY KEY, email TEXT NOT NULL, quantity INTEGER NOT NULL,
			buyer TEXT NOT NULL, created_at TEXT NOT NULL);
		INSERT INTO stock (id, sold, capacity) VALUES (1, 0, ?)`, capacity); err != nil {
		db.Close()
		return "", nil, err
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		db.Close()
		return "", nil, err
	}
	mux := http.NewServeMux()
	mux.HandleFunc("POST /v1/ticket/buy", func(w http.ResponseWriter, r *http.Request) {
		var p purchase
		if err := json.NewDecoder(r.Body).Decode(&p); err != nil || p.Quantity < 1 {
			http.Error(w, `{"message":"bad request"}`, http.StatusBadRequest)
			return
		}
		id, err := bareOrder(r.Context(), db, p)
		switch {
		case errors.Is(err, errBareSoldOut):
			http.Error(w, `{"message":"sold out"}`, http.StatusConflict)
		case err != nil:
			http.Error(w, `{"message":"internal"}`, http.StatusInternalServerError)
		default:
			w.Header().Set("Content-Type", "application/json")
			fmt.Fprintf(w, `{"orderId":%d}`, id)
		}
	})
	srv := &http.Server{Handler: mux, ReadHeaderTimeout: 5 * time.Second}
	go func() { _ = srv.Serve(ln) }()
	return "http://" + ln.Addr().String(), func() {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		_ = srv.Shutdown(ctx)
		db.Close()
	}, nil
}

var errBareSoldOut = errors.New("sold out")

// bareOrder is the baseline's one write transaction per order.
func bareOrder(ctx context.Context, db *sql.DB, p purchase) (int64, error) {
	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		return 0, err
	}
	defer tx.Rollback()
	res, err := tx.ExecContext(ctx, `UPDATE stock SET sold = sold + ? WHERE id = 1 AND sold + ? <= capacity`, p.Quantity, p.Quantity)
	if err != nil {
		return 0, err
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return 0, errBareSoldOut
	}
	buyer, _ := json.Marshal(p)
	res, err = tx.ExecContext(ctx, `INSERT INTO orders (email, quantity, buyer, created_at) VALUES (?, ?, ?, ?)`,
		p.Email, p.Quantity, string(buyer), time.Now().UTC().Format(time.RFC3339))
	if err != nil {
		return 0, err
	}
	id, err := res.LastInsertId()
	if err != nil {
		return 0, err
	}
	return id, tx.Commit()
}

// runBareOrders loads the bare order server exactly as round r of the storm loads Palaro (same
// buyers, concurrency, bodies and load generator), on a new database, and returns the load, the
// time to its last order and the bench's processor time during the load (the load generator's and
// the bare order server's).
func runBareOrders(ctx context.Context, dir, eventCode, code string, r int, o options) (Load, time.Duration, time.Duration, error) {
	url, stop, err := startBareOrders(dir, fmt.Sprintf("bare-orders-%d.db", r+1), o.Capacity)
	if err != nil {
		return Load{}, 0, 0, err
	}
	defer stop()
	transport := &http.Transport{MaxIdleConns: 2 * o.Concurrency, MaxIdleConnsPerHost: 2 * o.Concurrency, DisableCompression: true}
	defer transport.CloseIdleConnections()
	b := buyer{client: &http.Client{Transport: transport, Timeout: 10 * time.Second}}
	var mu sync.Mutex
	var selling time.Duration
	cpuBefore := selfCPU()
	start := time.Now()
	l := runLoad(ctx, o.Concurrency, time.Minute, o.Buyers, func(ctx context.Context, i int) result {
		i += r * o.Buyers
		status, ok := buy(ctx, url, eventCode, code, b, i)
		switch {
		case ctx.Err() != nil:
			return failed
		case ok:
			mu.Lock()
			selling = max(selling, time.Since(start))
			mu.Unlock()
			return done
		case status == http.StatusConflict:
			return refused
		}
		return failed
	})
	return l, selling, selfCPU() - cpuBefore, nil
}

// writerCounts is what Palaro's batching writer reports on SIGUSR1.
type writerCounts struct {
	Units   int64 `json:"units"`
	Commits int64 `json:"commits"`
	Syncs   int64 `json:"syncs"` // fsyncs of the WAL by the writer's syncer; 0 from a server that fsyncs in COMMIT
}

// writerStats asks the server for its writer's counts (SIGUSR1) and reads them from its log.
func (p *palaroProcess) writerStats(ctx context.Context) (writerCounts, error) {
	lines := func() []writerCounts {
		f, err := os.Open(filepath.Join(p.dir, "server.log"))
		if err != nil {
			return nil
		}
		defer f.Close()
		var out []writerCounts
		sc := bufio.NewScanner(f)
		sc.Buffer(make([]byte, 1<<20), 1<<20)
		for sc.Scan() {
			if strings.Contains(sc.Text(), `"msg":"writer stats"`) {
				var c writerCounts
				if json.Unmarshal(sc.Bytes(), &c) == nil {
					out = append(out, c)
				}
			}
		}
		return out
	}
	before := len(lines())
	if err := p.cmd.Process.Signal(syscall.SIGUSR1); err != nil {
		return writerCounts{}, err
	}
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); {
		if all := lines(); len(all) > before {
			return all[len(all)-1], nil
		}
		select {
		case <-ctx.Done():
			return writerCounts{}, ctx.Err()
		case <-time.After(20 * time.Millisecond):
		}
	}
	return writerCounts{}, errors.New("palaro serve did not log its writer stats (SIGUSR1)")
}
