package store

import (
	"context"
	"fmt"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"palaro"
)

// storm runs buyers concurrently; buy(i) returns the quantity it got (0 when refused).
func storm(buyers int, buy func(i int) int) (granted int64) {
	var wg sync.WaitGroup
	start := make(chan struct{})
	for i := range buyers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			<-start
			atomic.AddInt64(&granted, int64(buy(i)))
		}()
	}
	close(start)
	wg.Wait()
	return granted
}

func TestPurchaseService_CapacityUnderConcurrency(t *testing.T) {
	ctx := context.Background()
	for _, tc := range []struct {
		name  string
		price palaro.Money
	}{{"OK free orders sell", 0}, {"OK paid orders hold", 15000}} {
		t.Run(tc.name, func(t *testing.T) {
			f := newPurchaseFixture(t)
			code := f.addTicketType(t, "storm", tc.price, 20, 3)
			var refused atomic.Int64
			granted := storm(50, func(i int) int {
				q := 1 + i%3
				for {
					o, err := f.purchases.CreateOrder(ctx, freeRequest(code, q, fmt.Sprintf("buyer%d@x.ph", i)), f.now)
					if err == nil {
						return o.Quantity
					}
					if palaro.ErrorCode(err) != palaro.ECONFLICT {
						t.Errorf("buyer %d: %v", i, err)
						return 0
					}
					refused.Add(1)
					if q == 1 {
						return 0
					}
					q = 1 // sold out for this quantity: settle for one
				}
			})
			sold, held, capacity := f.counts(t, code)
			require.Equal(t, int64(capacity), granted, "exactly the capacity is sold")
			require.Equal(t, capacity, sold+held)
			require.Positive(t, refused.Load(), "demand exceeded capacity, so some buyers were refused")
			var inOrders int
			require.NoError(t, f.db.read.QueryRow(`SELECT coalesce(sum(quantity), 0) FROM orders o
				JOIN ticket_types tt ON tt.id = o.ticket_type_id WHERE tt.code = ?`, code).Scan(&inOrders))
			require.Equal(t, capacity, inOrders)
			if tc.price == 0 {
				require.Equal(t, capacity, f.countRows(t, `SELECT COUNT(*) FROM tickets t JOIN ticket_types tt
					ON tt.id = t.ticket_type_id WHERE tt.code = ?`, code))
			}
		})
	}
	t.Run("OK promo usage limit holds", func(t *testing.T) {
		f := newPurchaseFixture(t)
		code := f.addTicketType(t, "promo-storm", 15000, 100, 3)
		require.NoError(t, f.purchases.CreatePromoCode(ctx, &palaro.PromoCode{Code: "RUSH7", Kind: palaro.PromoPercent, Percent: 20, UsageLimit: 7}))
		withPromo := storm(40, func(i int) int {
			req := freeRequest(code, 1, fmt.Sprintf("p%d@x.ph", i))
			req.Source = "rush7"
			if _, err := f.purchases.CreateOrder(ctx, req, f.now); err == nil {
				return 1
			}
			return 0
		})
		require.Equal(t, int64(7), withPromo)
		require.Equal(t, 7, f.countRows(t, `SELECT used FROM promo_codes WHERE code = 'RUSH7'`))
		require.Equal(t, 7, f.countRows(t, `SELECT COUNT(*) FROM orders WHERE promo_discount > 0`))
	})
}

// naiveReserve is the read-then-write path the store must NOT use: it checks availability in
// one statement and takes the tickets in another. Kept only here, as the control.
func naiveReserve(ctx context.Context, db *DB, code string, quantity int) (bool, error) {
	var sold, held, capacity int
	if err := db.read.QueryRowContext(ctx, `SELECT sold, held, capacity FROM ticket_types WHERE code = ?`, code).
		Scan(&sold, &held, &capacity); err != nil {
		return false, err
	}
	if sold+held+quantity > capacity {
		return false, nil
	}
	time.Sleep(time.Millisecond) // the work between the check and the write (pricing, promo, …)
	_, err := db.write.ExecContext(ctx, `UPDATE ticket_types SET sold = sold + ? WHERE code = ?`, quantity, code)
	return err == nil, err
}

// TestNaiveReserve_Oversells is the control: the same storm against a read-then-write path
// promises more tickets than the capacity. Only the schema's CHECK (sold <= capacity) stops
// the extra writes, as errors the buyer would see after being told yes.
func TestNaiveReserve_Oversells(t *testing.T) {
	f := newPurchaseFixture(t)
	code := f.addTicketType(t, "naive", 0, 20, 3)
	var promised, conflicts atomic.Int64
	storm(50, func(i int) int {
		q := 1 + i%3
		ok, err := naiveReserve(context.Background(), f.db, code, q)
		if err != nil {
			promised.Add(int64(q)) // the check said yes; the write failed
			conflicts.Add(1)
		}
		if ok {
			promised.Add(int64(q))
			return q
		}
		return 0
	})
	sold, _, capacity := f.counts(t, code)
	require.LessOrEqual(t, sold, capacity)
	require.Greater(t, promised.Load(), int64(capacity), "the naive path promised more than the capacity")
	require.Positive(t, conflicts.Load(), "the oversell surfaced as constraint failures")
}
