package store

import (
	"context"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"palaro"
	"palaro/notify"
)

// TestSeveralServers_GuaranteesComeFromTheSQL runs two stores on one database, as two app servers
// do on PostgreSQL, each with its own batching writer, so their transactions overlap (on SQLite
// the file's write lock still takes them one at a time). 90 buyers, 30 e-mails of three tries
// each, spread over both, order a paid ticket type of capacity 40 with at most 2 per buyer, a
// third of them with a promo code limited to 5 uses. Then both servers release the expired holds
// at once. Nothing is oversold, no e-mail holds more than 2, the code is used at most 5 times and
// exactly by its orders, and every hold is given back exactly once.
func TestSeveralServers_GuaranteesComeFromTheSQL(t *testing.T) {
	ctx := context.Background()
	f := newPurchaseFixture(t)
	code := f.addTicketType(t, "two-servers", 10000, 40, 2)
	require.NoError(t, f.purchases.CreatePromoCode(ctx, &palaro.PromoCode{Code: "TWO50", Kind: palaro.PromoPercent,
		Percent: 50, UsageLimit: 5}))
	other, err := Open(f.db.path)
	require.NoError(t, err)
	t.Cleanup(func() { other.Close() })
	other.Now = f.db.Now
	servers := []*PurchaseService{f.purchases,
		NewPurchaseService(other, notify.NewComposer("https://palaro.test", "help@palaro.test"), 15*time.Minute)}

	var wg sync.WaitGroup
	for i := range 90 {
		wg.Go(func() {
			req := palaro.PurchaseRequest{TicketCode: code, Quantity: 1, Email: fmt.Sprintf("buyer%d@x.ph", i%30),
				PaymentType: palaro.PaymentQR}
			if i%3 == 0 {
				req.Source = "TWO50"
			}
			_, err := servers[i%2].CreateOrder(ctx, req, f.now)
			if err != nil && palaro.ErrorCode(err) != palaro.EINVALID && palaro.ErrorCode(err) != palaro.ECONFLICT {
				t.Errorf("buyer %d: %v", i, err)
			}
		})
	}
	wg.Wait()

	sold, held, capacity := f.counts(t, code)
	ordered := f.countRows(t, `SELECT coalesce(sum(o.quantity), 0) FROM orders o JOIN ticket_types tt ON tt.id = o.ticket_type_id
		WHERE tt.code = ? AND o.status IN ('pending', 'paid')`, code)
	require.LessOrEqual(t, sold+held, capacity, "not oversold")
	require.Equal(t, ordered, sold+held, "the counters match the orders")
	require.Equal(t, 40, ordered, "90 tries by 30 buyers of 2 each fill the 40 seats")
	most := f.countRows(t, `SELECT coalesce(max(n), 0) FROM (SELECT sum(o.quantity) AS n FROM orders o
		JOIN ticket_types tt ON tt.id = o.ticket_type_id WHERE tt.code = ? AND o.status IN ('pending', 'paid') GROUP BY o.email) per`, code)
	require.LessOrEqual(t, most, 2, "no buyer holds more than the maximum")
	used := f.countRows(t, `SELECT used FROM promo_codes WHERE code = 'TWO50'`)
	require.LessOrEqual(t, used, 5)
	require.Equal(t, used, f.countRows(t, `SELECT count(*) FROM orders o JOIN promo_codes p ON p.id = o.promo_code_id
		WHERE p.code = 'TWO50' AND o.status IN ('pending', 'paid')`), "the code is used exactly by its orders")

	later := f.now.Add(time.Hour)
	var released [2]int
	for i, s := range servers {
		wg.Go(func() {
			n, err := s.ExpireHolds(ctx, later)
			if err != nil {
				t.Errorf("server %d: %v", i, err)
			}
			released[i] = n
		})
	}
	wg.Wait()
	require.Equal(t, ordered, released[0]+released[1], "every hold released once, by one server or the other")
	sold, held, _ = f.counts(t, code)
	require.Zero(t, sold+held)
	require.Zero(t, f.countRows(t, `SELECT used FROM promo_codes WHERE code = 'TWO50'`))
}
