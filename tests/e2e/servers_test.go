package e2e

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/cookiejar"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"palaro/store"
)

// serveProcess is one `bin/palaro serve` of a multi-server test.
type serveProcess struct {
	url  string
	log  string
	cmd  *exec.Cmd
	done chan struct{}
	dead atomic.Bool
}

// startServe starts bin serve on a free loopback port with env and waits until it answers /.
func startServe(t *testing.T, bin string, env ...string) *serveProcess {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	addr := ln.Addr().String()
	ln.Close()
	p := &serveProcess{url: "http://" + addr, log: filepath.Join(t.TempDir(), "serve.log"), done: make(chan struct{})}
	logf, err := os.Create(p.log)
	require.NoError(t, err)
	defer logf.Close()
	p.cmd = exec.Command(bin, "serve")
	p.cmd.Env = append(os.Environ(), append([]string{"PALARO_ADDR=" + addr, "PALARO_BASE_URL=" + p.url, "PALARO_LOG=text"}, env...)...)
	p.cmd.Stdout, p.cmd.Stderr = logf, logf
	require.NoError(t, p.cmd.Start())
	go func() { _ = p.cmd.Wait(); close(p.done) }()
	t.Cleanup(func() {
		_ = p.cmd.Process.Signal(syscall.SIGTERM)
		select {
		case <-p.done:
		case <-time.After(20 * time.Second):
			_ = p.cmd.Process.Kill()
			<-p.done
		}
		if t.Failed() {
			b, _ := os.ReadFile(p.log)
			t.Logf("log of %s:\n%s", p.url, tail(string(b), 4000))
		}
	})
	client := &http.Client{Timeout: 5 * time.Second}
	deadline := time.Now().Add(2 * time.Minute)
	for time.Now().Before(deadline) {
		select {
		case <-p.done:
			b, _ := os.ReadFile(p.log)
			t.Fatalf("palaro serve exited:\n%s", tail(string(b), 4000))
		case <-time.After(100 * time.Millisecond):
		}
		if resp, err := client.Get(p.url + "/"); err == nil {
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				return p
			}
		}
	}
	t.Fatalf("palaro serve at %s did not answer / within two minutes", p.url)
	return nil
}

func tail(s string, n int) string {
	if len(s) > n {
		return "…" + s[len(s)-n:]
	}
	return s
}

// killTicket is the ticket type of the kill test, added to a demo event.
const (
	killEvent  = "tekken-tuesdays-cubao"
	killTicket = "three-servers"
	feedTicket = "last-seat" // one ticket, sold after the storm on one server while another's page is cached
)

// buyOutcome is what a buyer got.
type buyOutcome int

const (
	boughtTicket buyOutcome = iota // 200 with an order id: acknowledged
	soldOut                        // 409
	noAnswer                       // the server died with the request in flight, or never answered
	otherAnswer
)

// buyOnce opens a session (GET /v1/csrf) on server from and buys one ticket on server on, from
// the buyer's own address; it returns the outcome and the acknowledged order id.
func buyOnce(ctx context.Context, client *http.Client, from, on, ticket string, i int) (buyOutcome, string, int) {
	req, _ := http.NewRequestWithContext(ctx, http.MethodGet, from+"/v1/csrf", nil)
	resp, err := client.Do(req)
	if err != nil {
		return noAnswer, "", 0
	}
	var csrf struct{ Token string }
	err = json.NewDecoder(resp.Body).Decode(&csrf)
	resp.Body.Close()
	if err != nil || resp.StatusCode != http.StatusOK {
		return otherAnswer, "", resp.StatusCode
	}
	body, _ := json.Marshal(map[string]any{"ticketCode": ticket, "quantity": 1, "email": fmt.Sprintf("buyer%d@servers.palaro.test", i),
		"fullName": "Juan Dela Cruz", "mobileNumber": "09171234567"})
	req, _ = http.NewRequestWithContext(ctx, http.MethodPost, on+"/v1/ticket/buy", bytes.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("X-CSRF-Token", csrf.Token)
	req.Header.Set("X-Forwarded-For", fmt.Sprintf("10.%d.%d.%d", i>>16&255, i>>8&255, i&255))
	resp, err = client.Do(req)
	if err != nil {
		return noAnswer, "", 0
	}
	defer resp.Body.Close()
	var answer struct {
		OrderID string `json:"orderId"`
	}
	b, _ := io.ReadAll(resp.Body)
	switch {
	case resp.StatusCode == http.StatusOK && json.Unmarshal(b, &answer) == nil && answer.OrderID != "":
		return boughtTicket, answer.OrderID, resp.StatusCode
	case resp.StatusCode == http.StatusConflict:
		return soldOut, "", resp.StatusCode
	}
	return otherAnswer, "", resp.StatusCode
}

// TestServers_KillOneOfThree: three `bin/palaro serve` share one PostgreSQL database; 2,000 buyers,
// 100 at a time, each open a session on one server and buy on the next (the session key is the
// one kept in the database, shared by all), for a ticket type of capacity 500. When 150 orders
// are acknowledged, one server is killed with SIGKILL; buyers whose server died (or who had a
// request in flight on it) try the next one, as a proxy would. Afterwards: exactly 500 tickets
// sold, none oversold, every acknowledged order is in the database with its ticket, and the
// event page of a server, cached for an hour, shows a seat sold on another server as sold out (the
// change feed dropped its caches).
func TestServers_KillOneOfThree(t *testing.T) {
	url := testDatabase(t)
	if !store.IsPostgresURL(url) {
		t.Skip("PostgreSQL only (several servers on one database): runs in the PostgreSQL pass of go tool task test")
	}
	if testing.Short() {
		t.Skip("builds and starts three servers")
	}
	ctx := context.Background()
	db, err := store.Open(url)
	require.NoError(t, err)
	defer db.Close()
	require.NoError(t, db.Migrate(ctx))
	require.NoError(t, db.SeedDemo(ctx, time.Now()))
	for _, tt := range []struct {
		code, name string
		capacity   int
	}{{killTicket, "Three servers", 500}, {feedTicket, "Last seat", 1}} {
		_, err = db.Writer().ExecContext(ctx, `INSERT INTO ticket_types (event_id, code, name, price, max_purchasable, capacity)
			SELECT id, ?, ?, 0, 1, ? FROM events WHERE code = ?`, tt.code, tt.name, tt.capacity, killEvent)
		require.NoError(t, err)
	}

	bin := buildPalaro(t)
	env := []string{"PALARO_DB=" + url, "PALARO_TRUST_PROXY=1", "PALARO_SERVERS=3", "PALARO_CACHE_SECONDS=3600"}
	servers := make([]*serveProcess, 3)
	var wg sync.WaitGroup
	for i := range servers {
		wg.Go(func() { servers[i] = startServe(t, bin, env...) }) // together: they race for the secrets and the migrations
	}
	wg.Wait()
	for _, s := range servers {
		if s == nil {
			t.FailNow()
		}
	}
	client := &http.Client{Timeout: 30 * time.Second}
	eventPage := func(s *serveProcess) string {
		resp, err := client.Get(s.url + "/e/" + killEvent)
		require.NoError(t, err)
		defer resp.Body.Close()
		b, err := io.ReadAll(resp.Body)
		require.NoError(t, err)
		require.Equal(t, http.StatusOK, resp.StatusCode)
		return string(b)
	}
	for _, s := range servers {
		require.Contains(t, eventPage(s), "Three servers")
	}

	const buyers, capacity = 2000, 500
	var (
		mu       sync.Mutex
		acked    []string
		outcomes = map[buyOutcome]int{}
		statuses = map[int]int{}
		killed   = make(chan struct{})
		killOnce sync.Once
	)
	victim := servers[1]
	next := make(chan int)
	go func() {
		for i := range buyers {
			next <- i
		}
		close(next)
	}()
	var workers sync.WaitGroup
	for range 100 {
		workers.Go(func() {
			jarClient := func() *http.Client {
				jar, _ := cookiejar.New(nil)
				return &http.Client{Jar: jar, Timeout: 30 * time.Second}
			}
			for i := range next {
				var out buyOutcome
				var id string
				for attempt := 0; attempt < 6; attempt++ {
					var live []*serveProcess // the proxy's view: the servers that still answer
					for _, s := range servers {
						if !s.dead.Load() {
							live = append(live, s)
						}
					}
					from, on := live[(i+attempt)%len(live)], live[(i+attempt+1)%len(live)]
					var status int
					out, id, status = buyOnce(ctx, jarClient(), from.url, on.url, killTicket, i)
					mu.Lock()
					outcomes[out]++
					statuses[status]++
					if out == boughtTicket {
						acked = append(acked, id)
						if len(acked) == 150 {
							killOnce.Do(func() {
								victim.dead.Store(true)
								_ = victim.cmd.Process.Kill() // SIGKILL: no drain, no goodbye
								close(killed)
							})
						}
					}
					mu.Unlock()
					if out == boughtTicket || out == soldOut {
						break
					}
				}
			}
		})
	}
	workers.Wait()
	select {
	case <-killed:
	default:
		t.Fatal("the sale ended before a server was killed")
	}
	<-victim.done
	t.Logf("outcomes: %d acknowledged, %d sold out, %d without answer, %d other; statuses %v",
		outcomes[boughtTicket], outcomes[soldOut], outcomes[noAnswer], outcomes[otherAnswer], statuses)

	var sold, held, capacityRead, paidQty, tickets int
	require.NoError(t, db.Writer().QueryRowContext(ctx, `SELECT sold, held, capacity FROM ticket_types WHERE code = ?`, killTicket).
		Scan(&sold, &held, &capacityRead))
	require.NoError(t, db.Writer().QueryRowContext(ctx, `SELECT COALESCE(sum(o.quantity), 0) FROM orders o
		JOIN ticket_types tt ON tt.id = o.ticket_type_id WHERE tt.code = ? AND o.status IN ('paid', 'pending')`, killTicket).Scan(&paidQty))
	require.NoError(t, db.Writer().QueryRowContext(ctx, `SELECT count(*) FROM tickets t
		JOIN ticket_types tt ON tt.id = t.ticket_type_id WHERE tt.code = ?`, killTicket).Scan(&tickets))
	require.Equal(t, capacity, capacityRead)
	require.Equal(t, capacity, sold+held, "exactly the capacity sold: buyers kept coming after the kill")
	require.Equal(t, capacity, paidQty, "orders for exactly the capacity (0 oversold)")
	require.Equal(t, capacity, tickets, "tickets for exactly the capacity (0 oversold)")
	require.LessOrEqual(t, len(acked), capacity)
	require.GreaterOrEqual(t, len(acked)+outcomes[noAnswer], capacity, "every sold ticket was acknowledged, or its answer died with the server")

	// Every acknowledged order is there, paid, with its ticket.
	missing := 0
	for _, id := range acked {
		var status string
		var n int
		err := db.Writer().QueryRowContext(ctx, `SELECT o.status, (SELECT count(*) FROM tickets t WHERE t.order_id = o.id)
			FROM orders o WHERE o.public_id = ?`, id).Scan(&status, &n)
		if err != nil || status != "paid" || n != 1 {
			missing++
			t.Errorf("acknowledged order %s: status %q, %d tickets, %v", id, status, n, err)
		}
	}
	require.Zero(t, missing)

	// The change feed: server 2's event page, cached for an hour, shows the last seat on sale; the
	// seat is sold on server 0, and server 2's page shows it sold out without any request of its own
	// about it (on SQLite, with no feed, it would serve the cached page for an hour).
	watcher := servers[2]
	before := eventPage(watcher)
	require.Contains(t, before, "Last seat")
	jar, _ := cookiejar.New(nil)
	out, _, status := buyOnce(ctx, &http.Client{Jar: jar, Timeout: 30 * time.Second}, servers[0].url, servers[0].url, feedTicket, buyers+1)
	require.Equal(t, boughtTicket, out, "status %d", status)
	deadline := time.Now().Add(30 * time.Second) // the notification is asynchronous; generous on a busy machine
	for strings.Count(eventPage(watcher), "Sold out") == strings.Count(before, "Sold out") {
		if time.Now().After(deadline) {
			t.Fatal("server 2 still serves its cached page with the last seat on sale")
		}
		time.Sleep(50 * time.Millisecond)
	}
}
