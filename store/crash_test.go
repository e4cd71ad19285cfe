package store

import (
	"bufio"
	"context"
	"fmt"
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

const crashTicketCode = "crash-storm"

// TestWriter_KillLosesNoAcknowledgedOrder proves no acknowledged order is lost when the process
// dies: a helper process places orders from 50 goroutines and reports each one answered; the
// test kills it with SIGKILL in the middle of the storm, reopens the database and finds every
// reported order, with its ticket, and nothing oversold. Control: the same check reports an
// order id that was never placed as missing.
func TestWriter_KillLosesNoAcknowledgedOrder(t *testing.T) {
	if path := os.Getenv(crashHelperEnv); path != "" {
		crashHelper(path)
		return
	}
	if testing.Short() {
		t.Skip("starts a helper process")
	}
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "palaro.db")
	db, err := Open(path)
	require.NoError(t, err)
	require.NoError(t, db.Migrate(ctx))
	require.NoError(t, db.SeedDemo(ctx, fixtureNow.UTC()))
	_, err = db.write.Exec(`INSERT INTO ticket_types (event_id, code, name, price, max_purchasable, capacity)
		SELECT id, ?, 'Crash storm', 0, 1, 1000000 FROM events WHERE code = 'tekken-tuesdays-cubao'`, crashTicketCode)
	require.NoError(t, err)
	require.NoError(t, db.Close())

	cmd := exec.Command(os.Args[0], "-test.run=^TestWriter_KillLosesNoAcknowledgedOrder$", "-test.count=1")
	cmd.Env = append(os.Environ(), crashHelperEnv+"="+path)
	cmd.Stderr = os.Stderr
	out, err := cmd.StdoutPipe()
	require.NoError(t, err)
	require.NoError(t, cmd.Start())
	var acked []string
	sc := bufio.NewScanner(out)
	killed := false
	for sc.Scan() {
		id, ok := strings.CutPrefix(sc.Text(), "ack ")
		if !ok {
			continue
		}
		acked = append(acked, id)
		if len(acked) == 300 && !killed {
			require.NoError(t, cmd.Process.Signal(syscall.SIGKILL)) // mid-storm: 50 orders are in flight
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
	missing := func(ids []string) []string {
		var lost []string
		for _, id := range ids {
			var tickets int
			err := db.read.QueryRow(`SELECT count(*) FROM orders o JOIN tickets t ON t.order_id = o.id
				WHERE o.public_id = ? AND o.status = 'paid'`, id).Scan(&tickets)
			require.NoError(t, err)
			if tickets != 1 {
				lost = append(lost, id)
			}
		}
		return lost
	}
	require.GreaterOrEqual(t, len(acked), 300)
	require.Empty(t, missing(acked), "acknowledged orders lost by the kill")
	require.Equal(t, []string{"never-placed"}, missing([]string{acked[0], "never-placed"}), "control")
	var sold, orders, tickets int
	require.NoError(t, db.read.QueryRow(`SELECT tt.sold + tt.held,
		(SELECT count(*) FROM orders o WHERE o.ticket_type_id = tt.id), (SELECT count(*) FROM tickets t WHERE t.ticket_type_id = tt.id)
		FROM ticket_types tt WHERE tt.code = ?`, crashTicketCode).Scan(&sold, &orders, &tickets))
	require.Equal(t, sold, orders, "counter and orders agree after the crash")
	require.Equal(t, sold, tickets)
	t.Logf("acknowledged %d orders before the kill; %d on disk after it", len(acked), orders)
}

// crashHelper is the helper process: it places free orders from 50 goroutines until killed.
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
	for g := range 50 {
		wg.Go(func() {
			for i := 0; ; i++ {
				o, err := purchases.CreateOrder(context.Background(), palaro.PurchaseRequest{TicketCode: crashTicketCode,
					Quantity: 1, Email: fmt.Sprintf("buyer-%d-%d@crash.test", g, i)}, now)
				if err != nil {
					fmt.Fprintln(os.Stderr, "order:", err)
					os.Exit(2)
				}
				mu.Lock()
				fmt.Fprintln(os.Stdout, "ack "+o.PublicID) // one write(2) each: what the parent reads is acknowledged
				mu.Unlock()
			}
		})
	}
	wg.Wait()
}
