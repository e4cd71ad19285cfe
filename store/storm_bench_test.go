package store

import (
	"context"
	"fmt"
	"sync/atomic"
	"testing"
	"time"

	"palaro"
	"palaro/internal/testdb"
	"palaro/notify"
)

// BenchmarkCreateOrder_FreeStorm measures the purchase storm's write path without HTTP: free
// orders of one ticket each from 200 buyers at once (each with its own e-mail address and
// session), through the batching writer, on a database with the demo data (a SQLite file unless
// PALARO_TEST_POSTGRES is set). ns/op is the crowd's time per order; the writer is its bottleneck.
// `go test ./store -run '^$' -bench FreeStorm -benchtime 20000x` (docs/BENCHMARKS.md).
func BenchmarkCreateOrder_FreeStorm(b *testing.B) {
	ctx := context.Background()
	db, err := Open(testdb.URL(b))
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { db.Close() })
	if err := db.Migrate(ctx); err != nil {
		b.Fatal(err)
	}
	now := fixtureNow.UTC()
	db.Now = func() time.Time { return now }
	if err := db.SeedDemo(ctx, now); err != nil {
		b.Fatal(err)
	}
	if _, err := db.write.Exec(`INSERT INTO ticket_types (event_id, code, name, price, max_purchasable, capacity)
		SELECT id, 'bench-storm', 'Benchmark storm', 0, 1, 100000000 FROM events WHERE code = 'tekken-tuesdays-cubao'`); err != nil {
		b.Fatal(err)
	}
	purchases := NewPurchaseService(db, notify.NewComposer("https://palaro.test", "help@palaro.test"), 15*time.Minute)
	var next atomic.Int64
	b.SetParallelism(100) // 200 buyers at once on 2 CPUs, as the bench's storm
	b.ReportAllocs()
	b.ResetTimer()
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			i := next.Add(1)
			req := palaro.PurchaseRequest{EventCode: "tekken-tuesdays-cubao", TicketCode: "bench-storm", Quantity: 1,
				Email: fmt.Sprintf("buyer%d@storm.palaro.test", i), FirstName: "Juan", LastName: "Dela Cruz",
				FullName: "Juan Dela Cruz", MobileNumber: "09171234567", Gender: "Male", BirthDate: "1998-05-17", Age: "27",
				CompanyName: "Palaro", Designation: "Player", EconomicClass: "10,000 to 30,000", DisclaimerAccepted: true,
				SessionKey: fmt.Sprintf("session-%d", i)}
			if _, err := purchases.CreateOrder(ctx, req, now); err != nil {
				b.Error(err)
				return
			}
		}
	})
}
