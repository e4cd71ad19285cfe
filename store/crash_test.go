package store

import (
	"bufio"
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"palaro"
	"palaro/notify"
)

// crashHelperEnv, when set to a database path, makes TestWriter_KillLosesNoAcknowledgedOrder the
// helper process: it storms the database with orders and prints "ack PUBLIC_ID" for each order
// as soon as CreateOrder has answered it, until it is killed.
const crashHelperEnv = "PALARO_CRASH_HELPER_DB"

// The crash storm's ticket types: a large free one, a free seated one (buyers pick random seats,
// so taken seats are refused) and a paid one whose buyers all use a promo code with a usage limit.
const (
	crashTicketCode = "crash-storm"
	crashSeatsCode  = "crash-seats"
	crashPromoCode  = "crash-promo"
	crashPromo      = "CRASH50"
	crashSeats      = 800 // 8 rows of 100
	crashPromoLimit = 120
)

// TestWriter_KillLosesNoAcknowledgedOrder proves no acknowledged order is lost when the process
// dies, with and without seats and promo limits: a helper process places orders from 90
// goroutines (plain free orders, seat orders, promo orders) and reports each one answered; the
// test kills it with SIGKILL in the middle of the storm, reopens the database and finds every
// reported order (with its ticket when it is free), nothing oversold, no seat sold twice and the
// promo code used exactly by its orders, within its limit. Control: the same check reports an
// order id that was never placed as missing.
func TestWriter_KillLosesNoAcknowledgedOrder(t *testing.T) {
	if path := os.Getenv(crashHelperEnv); path != "" {
		crashHelper(path)
		return
	}
	if testing.Short() {
		t.Skip("starts a helper process")
	}
	sqliteOnly(t, "SQLite's durability on a killed process; on PostgreSQL the server keeps the data")
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "palaro.db")
	db, err := Open(path)
	require.NoError(t, err)
	require.NoError(t, db.Migrate(ctx))
	require.NoError(t, db.SeedDemo(ctx, fixtureNow.UTC()))
	for _, tt := range []struct {
		code            string
		price, capacity int
		seated          int
	}{{crashTicketCode, 0, 1000000, 0}, {crashSeatsCode, 0, crashSeats, 1}, {crashPromoCode, 15000, 1000000, 0}} {
		_, err = db.write.Exec(`INSERT INTO ticket_types (event_id, code, name, price, max_purchasable, capacity, seated)
			SELECT id, ?, ?, ?, 1, ?, ? FROM events WHERE code = 'tekken-tuesdays-cubao'`, tt.code, tt.code, tt.price, tt.capacity, tt.seated)
		require.NoError(t, err)
	}
	tx, err := db.beginWrite(ctx)
	require.NoError(t, err)
	require.NoError(t, ensureSeatLayouts(ctx, tx))
	require.NoError(t, tx.Commit())
	require.NoError(t, NewPurchaseService(db, nil, 0).CreatePromoCode(ctx, &palaro.PromoCode{Code: crashPromo,
		Kind: palaro.PromoPercent, Percent: 50, UsageLimit: crashPromoLimit}))
	require.NoError(t, db.Close())

	cmd := exec.Command(os.Args[0], "-test.run=^TestWriter_KillLosesNoAcknowledgedOrder$", "-test.count=1")
	cmd.Env = append(os.Environ(), crashHelperEnv+"="+path)
	cmd.Stderr = os.Stderr
	out, err := cmd.StdoutPipe()
	require.NoError(t, err)
	require.NoError(t, cmd.Start())
	acked := map[string][]string{}
	sc := bufio.NewScanner(out)
	killed := false
	for sc.Scan() {
		kind, id, ok := strings.Cut(strings.TrimPrefix(sc.Text(), "ack "), " ")
		if !ok || !strings.HasPrefix(sc.Text(), "ack ") {
			continue
		}
		acked[kind] = append(acked[kind], id)
		if len(acked[crashSeatsCode]) == 150 && !killed {
			require.NoError(t, cmd.Process.Signal(syscall.SIGKILL)) // mid-storm: 90 orders are in flight
			killed = true
		}
	}
	err = cmd.Wait()
	require.True(t, killed, "the helper stopped before the kill: %v", err)
	var exit *exec.ExitError
	require.ErrorAs(t, err, &exit)
	require.Equal(t, syscall.SIGKILL, exit.Sys().(syscall.WaitStatus).Signal(), "killed, not finished")

	db, err = Open(path)
	require.NoError(t, err)
	t.Cleanup(func() { db.Close() })
	missing := func(ids []string, free bool) []string {
		var lost []string
		for _, id := range ids {
			var orders, tickets int
			err := db.read.QueryRow(`SELECT count(*), (SELECT count(*) FROM tickets t WHERE t.order_id = max(o.id))
				FROM orders o WHERE o.public_id = ? AND o.status IN ('paid', 'pending')`, id).Scan(&orders, &tickets)
			require.NoError(t, err)
			if orders != 1 || (free && tickets != 1) {
				lost = append(lost, id)
			}
		}
		return lost
	}
	for _, code := range []string{crashTicketCode, crashSeatsCode, crashPromoCode} {
		require.NotEmpty(t, acked[code], code)
		require.Empty(t, missing(acked[code], code != crashPromoCode), "acknowledged %s orders lost by the kill", code)
		var counter, capacity, ordered, tickets, seats int
		require.NoError(t, db.read.QueryRow(`SELECT tt.sold + tt.held, tt.capacity,
			(SELECT coalesce(sum(o.quantity), 0) FROM orders o WHERE o.ticket_type_id = tt.id AND o.status IN ('paid', 'pending')),
			(SELECT count(*) FROM tickets t WHERE t.ticket_type_id = tt.id),
			(SELECT count(*) FROM seat_assignments s WHERE s.ticket_type_id = tt.id)
			FROM ticket_types tt WHERE tt.code = ?`, code).Scan(&counter, &capacity, &ordered, &tickets, &seats))
		require.Equal(t, counter, ordered, "%s: counter and orders agree after the crash", code)
		require.LessOrEqual(t, counter, capacity, "%s: not oversold", code)
		if code != crashPromoCode {
			require.Equal(t, counter, tickets, code)
		}
		if code == crashSeatsCode {
			require.Equal(t, counter, seats, "one seat per ticket, none twice (the seat is the key)")
		}
		t.Logf("%s: acknowledged %d orders before the kill; %d on disk after it", code, len(acked[code]), ordered)
	}
	require.Equal(t, []string{"never-placed"}, missing([]string{acked[crashTicketCode][0], "never-placed"}, true), "control")
	var used, withPromo int
	require.NoError(t, db.read.QueryRow(`SELECT used, (SELECT count(*) FROM orders o WHERE o.promo_code_id = p.id
		AND o.status IN ('paid', 'pending')) FROM promo_codes p WHERE code = ?`, crashPromo).Scan(&used, &withPromo))
	require.Equal(t, withPromo, used, "the promo code is used exactly by its orders")
	require.LessOrEqual(t, used, crashPromoLimit)
}

// crashHelper is the helper process: it places orders from 90 goroutines until killed (50 plain
// free orders, 20 seat orders of random seats, 20 paid orders with the limited promo code) and
// prints "ack KIND PUBLIC_ID" for each order as soon as CreateOrder has answered it. A refusal
// (seat taken, sold out, promo used up) is expected; any other error ends the helper.
func crashHelper(path string) {
	db, err := Open(path)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	purchases := NewPurchaseService(db, notify.NewComposer("https://palaro.test", "help@palaro.test"), 15*time.Minute)
	now := fixtureNow.UTC()
	var mu sync.Mutex
	var wg sync.WaitGroup
	run := func(goroutines int, kind string, request func(g, i int) palaro.PurchaseRequest) {
		for g := range goroutines {
			wg.Go(func() {
				for i := 0; ; i++ {
					o, err := purchases.CreateOrder(context.Background(), request(g, i), now)
					switch code := palaro.ErrorCode(err); {
					case err == nil:
						mu.Lock()
						fmt.Fprintln(os.Stdout, "ack "+kind+" "+o.PublicID) // one write(2) each: what the parent reads is acknowledged
						mu.Unlock()
					case code == palaro.ECONFLICT || code == palaro.EINVALID:
						time.Sleep(time.Millisecond) // refused: try again
					default:
						fmt.Fprintln(os.Stderr, "order:", err)
						os.Exit(2)
					}
				}
			})
		}
	}
	email := func(kind string, g, i int) string { return fmt.Sprintf("%s-%d-%d@crash.test", kind, g, i) }
	run(50, crashTicketCode, func(g, i int) palaro.PurchaseRequest {
		return palaro.PurchaseRequest{TicketCode: crashTicketCode, Quantity: 1, Email: email("plain", g, i)}
	})
	run(20, crashSeatsCode, func(g, i int) palaro.PurchaseRequest {
		seat := fmt.Sprintf("%c%d", 'A'+rand.IntN(palaro.SeatRows), 1+rand.IntN(crashSeats/palaro.SeatRows))
		return palaro.PurchaseRequest{TicketCode: crashSeatsCode, Quantity: 1, Email: email("seat", g, i), Seats: []string{seat}}
	})
	run(20, crashPromoCode, func(g, i int) palaro.PurchaseRequest {
		return palaro.PurchaseRequest{TicketCode: crashPromoCode, Quantity: 1, Email: email("promo", g, i), Source: crashPromo}
	})
	wg.Wait()
}
