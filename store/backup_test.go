package store

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"testing"

	"github.com/stretchr/testify/require"

	"palaro"
)

func TestDB_Backup(t *testing.T) {
	sqliteOnly(t, "VACUUM INTO copies a SQLite file; PostgreSQL is backed up with its own tools")
	ctx := context.Background()

	t.Run("OK consistent during a purchase storm", func(t *testing.T) {
		f := newPurchaseFixture(t)
		free := f.addTicketType(t, "backup-free", 0, 1_000_000, 4)
		paid := f.addTicketType(t, "backup-paid", 15000, 1_000_000, 4)

		// Buyers place orders until stop is closed; every committed order's id is recorded.
		var (
			mu        sync.Mutex
			committed []int64
			wg        sync.WaitGroup
		)
		stop := make(chan struct{})
		warm, after := make(chan struct{}), make(chan struct{})
		var warmOnce, afterOnce sync.Once
		backupDone := make(chan struct{})
		for i := range 8 {
			wg.Go(func() {
				for n := 0; ; n++ {
					select {
					case <-stop:
						return
					default:
					}
					code := free
					if (i+n)%2 == 1 {
						code = paid
					}
					startedAfterBackup := isClosed(backupDone)
					o, err := f.purchases.CreateOrder(ctx, freeRequest(code, 1+n%4, fmt.Sprintf("storm%d-%d@x.ph", i, n)), f.now)
					if err != nil {
						t.Errorf("buyer %d: %v", i, err)
						return
					}
					mu.Lock()
					committed = append(committed, o.ID)
					total := len(committed)
					mu.Unlock()
					if total >= 40 {
						warmOnce.Do(func() { close(warm) })
					}
					if startedAfterBackup {
						afterOnce.Do(func() { close(after) }) // an order certainly not in the copy
					}
				}
			})
		}
		buyersGone := make(chan struct{})
		go func() { wg.Wait(); close(buyersGone) }()
		select {
		case <-warm:
		case <-buyersGone:
			t.Fatal("the buyers stopped before the backup")
		}
		mu.Lock()
		before := append([]int64(nil), committed...)
		mu.Unlock()
		path := filepath.Join(t.TempDir(), "copy.db")
		info, err := f.db.Backup(ctx, path)
		close(backupDone)
		select {
		case <-after:
		case <-buyersGone:
		}
		close(stop)
		<-buyersGone
		require.NoError(t, err)
		require.Equal(t, path, info.Path)
		require.Positive(t, info.Bytes)

		copyDB, err := Open(path)
		require.NoError(t, err)
		defer copyDB.Close()
		var inCopy int
		for _, id := range before {
			var n int
			require.NoError(t, copyDB.read.QueryRow(`SELECT COUNT(*) FROM orders WHERE id = ?`, id).Scan(&n))
			inCopy += n
		}
		require.Equal(t, len(before), inCopy, "every order committed before the backup started is in the copy")

		var copyOrders, liveOrders int64
		require.NoError(t, copyDB.read.QueryRow(`SELECT COUNT(*) FROM orders`).Scan(&copyOrders))
		require.NoError(t, f.db.read.QueryRow(`SELECT COUNT(*) FROM orders`).Scan(&liveOrders))
		require.Less(t, copyOrders, liveOrders, "orders placed after the backup are not in it")
		for _, tc := range info.Tables {
			if tc.Table == "orders" {
				require.Equal(t, copyOrders, tc.Rows, "the reported count is the copy's")
			}
		}

		// No torn state: the copy's sold and held counts are exactly its orders, and its tickets.
		for _, code := range []string{free, paid} {
			var sold, held, paidQty, pendingQty, tickets int
			require.NoError(t, copyDB.read.QueryRow(`SELECT sold, held FROM ticket_types WHERE code = ?`, code).Scan(&sold, &held))
			require.NoError(t, copyDB.read.QueryRow(`SELECT COALESCE(SUM(CASE WHEN o.status = 'paid' THEN o.quantity END), 0),
				COALESCE(SUM(CASE WHEN o.status = 'pending' THEN o.quantity END), 0)
				FROM orders o JOIN ticket_types tt ON tt.id = o.ticket_type_id WHERE tt.code = ?`, code).Scan(&paidQty, &pendingQty))
			require.NoError(t, copyDB.read.QueryRow(`SELECT COUNT(*) FROM tickets t JOIN ticket_types tt ON tt.id = t.ticket_type_id
				WHERE tt.code = ?`, code).Scan(&tickets))
			require.Positive(t, sold+held, code)
			require.Equal(t, paidQty, sold, "%s: sold equals the paid orders in the copy", code)
			require.Equal(t, pendingQty, held, "%s: held equals the pending orders in the copy", code)
			require.Equal(t, sold, tickets, "%s: one ticket per sold seat in the copy", code)
		}

		// The copy serves as a database: the store opens it, migrates nothing new and reads orders.
		require.NoError(t, copyDB.Migrate(ctx))
		o, err := NewPurchaseService(copyDB, nil, 0).ListOrders(ctx, palaro.OrderFilter{Limit: 5})
		require.NoError(t, err)
		require.Len(t, o, 5)
	})

	t.Run("ErrExists", func(t *testing.T) {
		db := openTestDB(t)
		path := filepath.Join(t.TempDir(), "taken.db")
		require.NoError(t, os.WriteFile(path, []byte("keep me"), 0o600))
		_, err := db.Backup(ctx, path)
		require.ErrorIs(t, err, ErrBackupExists)
		data, err := os.ReadFile(path)
		require.NoError(t, err)
		require.Equal(t, "keep me", string(data), "the existing file is untouched")
	})

	t.Run("ErrNotADatabase", func(t *testing.T) {
		path := filepath.Join(t.TempDir(), "garbage.db")
		require.NoError(t, os.WriteFile(path, []byte("SQLite format 3\x00 but not really a database, just text"), 0o600))
		_, err := CheckBackup(ctx, path)
		require.Error(t, err)
	})
}

// isClosed reports whether ch is closed.
func isClosed(ch <-chan struct{}) bool {
	select {
	case <-ch:
		return true
	default:
		return false
	}
}
