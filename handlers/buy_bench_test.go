package handlers

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"syscall"
	"testing"
	"time"

	"palaro"
	"palaro/internal/testdb"
	"palaro/static"
	"palaro/store"
)

// instantPurchases is a PurchaseService whose CreateOrder normalizes and validates the request
// as the store does and answers a free order at once, so that a benchmark measures the HTTP request path of
// a purchase without the database.
type instantPurchases struct {
	palaro.PurchaseService
	tt palaro.TicketType
	ev *palaro.Event
}

func (p *instantPurchases) CreateOrder(_ context.Context, req palaro.PurchaseRequest, _ time.Time) (*palaro.Order, error) {
	req = palaro.NormalizePurchase(req, p.tt)
	if err := palaro.ValidatePurchase(req, p.tt, p.ev); err != nil {
		return nil, err
	}
	tt := p.tt
	return &palaro.Order{PublicID: "ord-benchmark", Status: palaro.OrderPaid, Quantity: req.Quantity, TicketType: &tt}, nil
}

// BenchmarkBuyTicket_RequestPath measures POST /v1/ticket/buy through every middleware, as the
// purchase storm sends it (cmd/bench/storm.go): each request from a buyer of its own (its own
// session cookie, seen by the server for the first time, its own address and e-mail address),
// JSON, gzip accepted, logged as JSON. The order itself is answered at once (instantPurchases).
func BenchmarkBuyTicket_RequestPath(b *testing.B) {
	key := []byte("0123456789abcdef0123456789abcdef")
	ev := &palaro.Event{ID: 1, Code: "storm-event", Name: "Storm"}
	tt := palaro.TicketType{ID: 1, Code: "storm", Name: "Benchmark storm", MaxPurchasable: 1, Capacity: 1 << 30}
	db, err := store.Open(testdb.URL(b)) // the services New requires; the purchase path reads none
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { db.Close() })
	if err := db.Migrate(context.Background()); err != nil {
		b.Fatal(err)
	}
	services := Services{Purchases: &instantPurchases{tt: tt, ev: ev}}
	completeServices(b, db, &services)
	s := New(Config{BaseURL: "http://palaro.test", SessionKey: key, TrustProxy: true}, services, static.Default(),
		slog.New(slog.NewJSONHandler(io.Discard, nil)))
	clock := time.Date(2026, 3, 4, 10, 0, 0, 0, palaro.Manila)
	s.Now = func() time.Time { return clock }

	// Every buyer's cookie and token, made by another store with the same key, as the buy page
	// made them: the server decodes each for the first time.
	cookies := newSessionStore(key, false)
	type buyer struct{ cookie, token, body string }
	buyers := make([]buyer, b.N)
	for i := range buyers {
		token := randomToken()
		value, err := cookies.Codecs[0].Encode(sessionCookie, map[any]any{keySID: randomToken(), keyCSRF: token})
		if err != nil {
			b.Fatal(err)
		}
		body := fmt.Sprintf(`{"eventCode":"storm-event","ticketCode":"storm","quantity":1,"email":"buyer%d@storm.palaro.test",`+
			`"firstName":"Juan","lastName":"Dela Cruz","fullName":"Juan Dela Cruz","mobileNumber":"09171234567","gender":"Male",`+
			`"birthDate":"1998-05-17","age":"27","companyName":"Palaro","designation":"Player","economicClass":"10,000 to 30,000",`+
			`"disclaimerAccepted":true}`, i)
		buyers[i] = buyer{cookie: sessionCookie + "=" + value, token: token, body: body}
	}
	b.ReportAllocs()
	b.ResetTimer()
	cpu := processCPU()
	for i := range b.N {
		req := httptest.NewRequest(http.MethodPost, "/v1/ticket/buy", strings.NewReader(buyers[i].body))
		req.RemoteAddr = "127.0.0.1:40000" // the proxy in front, which sets X-Forwarded-For
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept-Encoding", "gzip")
		req.Header.Set("X-Forwarded-For", fmt.Sprintf("10.%d.%d.%d", i>>16&255, i>>8&255, i&255))
		req.Header.Set("X-CSRF-Token", buyers[i].token)
		req.Header.Set("Cookie", buyers[i].cookie)
		rec := httptest.NewRecorder()
		s.ServeHTTP(rec, req)
		if rec.Code != http.StatusOK {
			b.Fatalf("buyer %d: %d %s", i, rec.Code, rec.Body)
		}
	}
	// CPU time, the garbage collector's included, tells more than the wall clock on a shared machine.
	b.ReportMetric(float64(processCPU()-cpu)/float64(b.N), "cpu-ns/op")
}

// processCPU is the CPU time the process has used so far, user and system, in nanoseconds.
func processCPU() int64 {
	var ru syscall.Rusage
	_ = syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return ru.Utime.Nano() + ru.Stime.Nano()
}
