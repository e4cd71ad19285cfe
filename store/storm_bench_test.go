package store

import (
	"context"
	"fmt"
	"sync/atomic"
	"testing"

	"palaro"
)

// BenchmarkCreateOrder_FreeStorm measures the purchase storm's write path without HTTP: free
// orders of one ticket each from 200 buyers at once (each with its own e-mail address and
// session), through the batching writer, on a database with the demo data (a SQLite file unless
// PALARO_TEST_POSTGRES is set). ns/op is the crowd's time per order; the writer is its bottleneck.
// `go test ./store -run '^$' -bench FreeStorm -benchtime 20000x` (docs/BENCHMARKS.md).
func BenchmarkCreateOrder_FreeStorm(b *testing.B) {
	ctx := context.Background()
	f := newPurchaseFixture(b)
	code := f.addTicketType(b, "bench-storm", 0, 100_000_000, 1)
	var next atomic.Int64
	b.SetParallelism(100) // 200 buyers at once on 2 CPUs, as the bench's storm
	b.ReportAllocs()
	b.ResetTimer()
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			i := next.Add(1)
			req := palaro.PurchaseRequest{EventCode: "tekken-tuesdays-cubao", TicketCode: code, Quantity: 1,
				Email: fmt.Sprintf("buyer%d@storm.palaro.test", i), FirstName: "Juan", LastName: "Dela Cruz",
				FullName: "Juan Dela Cruz", MobileNumber: "09171234567", Gender: "Male", BirthDate: "1998-05-17", Age: "27",
				CompanyName: "Palaro", Designation: "Player", EconomicClass: "10,000 to 30,000", DisclaimerAccepted: true,
				SessionKey: fmt.Sprintf("session-%d", i)}
			if _, err := f.purchases.CreateOrder(ctx, req, f.now); err != nil {
				b.Error(err)
				return
			}
		}
	})
}
