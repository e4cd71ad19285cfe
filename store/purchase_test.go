package store

import (
	"context"
	"fmt"
	"regexp"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"palaro"
	"palaro/internal/testdb"
	"palaro/notify"
)

// purchaseFixture is a migrated database with the demo data and a purchase service.
type purchaseFixture struct {
	db        *DB
	purchases *PurchaseService
	outbox    *OutboxService
	now       time.Time
}

func newPurchaseFixture(t testing.TB) *purchaseFixture {
	t.Helper()
	return newPurchaseFixtureAt(t, testdb.URL(t))
}

// newPurchaseFixtureAt is newPurchaseFixture on the database at url (a file or a postgres:// URL).
func newPurchaseFixtureAt(t testing.TB, url string) *purchaseFixture {
	t.Helper()
	db, err := Open(url)
	require.NoError(t, err)
	t.Cleanup(func() { db.Close() })
	ctx := context.Background()
	require.NoError(t, db.Migrate(ctx))
	now := fixtureNow.UTC()
	db.Now = func() time.Time { return now }
	require.NoError(t, db.SeedDemo(ctx, now))
	return &purchaseFixture{
		db:        db,
		purchases: NewPurchaseService(db, notify.NewComposer("https://palaro.test", "help@palaro.test"), 15*time.Minute),
		outbox:    NewOutboxService(db),
		now:       now,
	}
}

// addTicketType adds a ticket type to a demo event and returns its code.
func (f *purchaseFixture) addTicketType(t testing.TB, code string, price palaro.Money, capacity, max int) string {
	t.Helper()
	_, err := f.db.write.Exec(`INSERT INTO ticket_types (event_id, code, name, price, max_purchasable, capacity,
		payment_types) SELECT id, ?, 'Test ' || ?, ?, ?, ?, '["QR","CARD"]' FROM events WHERE code = 'tekken-tuesdays-cubao'`,
		code, code, price, max, capacity)
	require.NoError(t, err)
	return code
}

func (f *purchaseFixture) counts(t *testing.T, code string) (sold, held, capacity int) {
	t.Helper()
	require.NoError(t, f.db.read.QueryRow(`SELECT sold, held, capacity FROM ticket_types WHERE code = ?`, code).
		Scan(&sold, &held, &capacity))
	return
}

func (f *purchaseFixture) countRows(t *testing.T, query string, args ...any) int {
	t.Helper()
	var n int
	require.NoError(t, f.db.read.QueryRow(query, args...).Scan(&n))
	return n
}

func freeRequest(code string, quantity int, email string) palaro.PurchaseRequest {
	return palaro.PurchaseRequest{TicketCode: code, Quantity: quantity, Email: email}
}

func TestPurchaseService_CreateOrder(t *testing.T) {
	ctx := context.Background()
	t.Run("OK free order is paid with tickets and one e-mail", func(t *testing.T) {
		f := newPurchaseFixture(t)
		code := f.addTicketType(t, "free-test", 0, 10, 4)
		o, err := f.purchases.CreateOrder(ctx, freeRequest(code, 3, " Buyer@Example.com "), f.now)
		require.NoError(t, err)
		require.Equal(t, palaro.OrderPaid, o.Status)
		require.Equal(t, 1, o.Quantity, "a free ticket forces quantity 1")
		require.Len(t, o.Tickets, 1)
		require.Equal(t, "buyer@example.com", o.Email)
		sold, held, _ := f.counts(t, code)
		require.Equal(t, 1, sold)
		require.Zero(t, held)
		msgs, err := f.outbox.ListOutbox(ctx, palaro.OutboxFilter{To: "buyer@example.com"})
		require.NoError(t, err)
		require.Len(t, msgs, 1)
		require.Equal(t, palaro.MessageOrderConfirmation, msgs[0].Kind)
		require.Contains(t, msgs[0].Text, "https://palaro.test/t/"+o.Tickets[0].PublicID)
		require.Contains(t, msgs[0].HTML, "https://palaro.test/t/"+o.Tickets[0].PublicID)

		found, err := f.purchases.FindOrderByPublicID(ctx, o.PublicID)
		require.NoError(t, err)
		require.Equal(t, o.Tickets[0].Code, found.Tickets[0].Code)
		require.Equal(t, "tekken-tuesdays-cubao", found.Event.Code)
	})
	t.Run("OK paid order is pending and holds its tickets", func(t *testing.T) {
		f := newPurchaseFixture(t)
		code := f.addTicketType(t, "paid-test", 10000, 10, 5)
		o, err := f.purchases.CreateOrder(ctx, freeRequest(code, 3, "a@b.ph"), f.now)
		require.NoError(t, err)
		require.Equal(t, palaro.OrderPending, o.Status)
		require.Equal(t, palaro.Money(30000), o.Total)
		require.Equal(t, f.now.Add(15*time.Minute), o.HoldExpiresAt)
		require.Empty(t, o.Tickets)
		sold, held, _ := f.counts(t, code)
		require.Equal(t, 0, sold)
		require.Equal(t, 3, held)
		require.Zero(t, f.countRows(t, `SELECT COUNT(*) FROM outbox`))

		n, err := f.purchases.ExpireHolds(ctx, f.now.Add(14*time.Minute))
		require.NoError(t, err)
		require.Zero(t, n)
		n, err = f.purchases.ExpireHolds(ctx, f.now.Add(15*time.Minute))
		require.NoError(t, err)
		require.Equal(t, 1, n)
		_, held, _ = f.counts(t, code)
		require.Zero(t, held)
		found, err := f.purchases.FindOrderByPublicID(ctx, o.PublicID)
		require.NoError(t, err)
		require.Equal(t, palaro.OrderExpired, found.Status)
	})
	t.Run("OK promo code and add-ons", func(t *testing.T) {
		f := newPurchaseFixture(t)
		ev, err := NewEventService(f.db).FindEventByCode(ctx, "dota-2-visayas-major")
		require.NoError(t, err)
		require.NotEmpty(t, ev.AddOns)
		req := palaro.PurchaseRequest{TicketCode: "dota-2-visayas-major-gen", Quantity: 2, Email: "fan@x.ph",
			FirstName: "Juan", LastName: "Cruz", MobileNumber: "+63-917-123-4567", Source: "palaro10",
			AddOns: []int64{ev.AddOns[0].ID, ev.AddOns[0].ID}, PaymentType: palaro.PaymentCard}
		o, err := f.purchases.CreateOrder(ctx, req, f.now)
		require.NoError(t, err)
		sub := 2*palaro.Money(35000) + ev.AddOns[0].Price
		require.Equal(t, ev.AddOns[0].Price, o.AddOnsTotal, "an add-on counts once")
		require.Equal(t, sub/10, o.PromoDiscount)
		require.Equal(t, sub-sub/10, o.Total)
		require.Equal(t, "PALARO10", o.PromoCode)
		require.Equal(t, 1, f.countRows(t, `SELECT used FROM promo_codes WHERE code = 'PALARO10'`))
	})
	t.Run("OK unknown source is recorded as a referral", func(t *testing.T) {
		f := newPurchaseFixture(t)
		code := f.addTicketType(t, "ref-test", 0, 10, 4)
		req := freeRequest(code, 1, "r@x.ph")
		req.Source = "streamer-abc"
		o, err := f.purchases.CreateOrder(ctx, req, f.now)
		require.NoError(t, err)
		require.Equal(t, "streamer-abc", o.Source)
		require.Empty(t, o.PromoCode)
	})
	t.Run("ErrInvalid first message in form order", func(t *testing.T) {
		f := newPurchaseFixture(t)
		_, err := f.purchases.CreateOrder(ctx, palaro.PurchaseRequest{TicketCode: "mlbb-manila-showdown-gen", Quantity: 11}, f.now)
		require.Equal(t, palaro.EINVALID, palaro.ErrorCode(err))
		require.Equal(t, "E-mail is required", palaro.ErrorMessage(err))
		var e *palaro.Error
		require.ErrorAs(t, err, &e)
		require.Equal(t, "Maximum ticket limit per user is 10.", e.Fields["quantity"])
		require.Equal(t, "First Name is required", e.Fields["firstName"])
	})
	t.Run("ErrNotFound unknown ticket type", func(t *testing.T) {
		f := newPurchaseFixture(t)
		_, err := f.purchases.CreateOrder(ctx, freeRequest("nope", 1, "a@b.ph"), f.now)
		require.Equal(t, palaro.ENOTFOUND, palaro.ErrorCode(err))
	})
	t.Run("ErrConflict sold out", func(t *testing.T) {
		f := newPurchaseFixture(t)
		code := f.addTicketType(t, "small", 100, 2, 5)
		_, err := f.purchases.CreateOrder(ctx, freeRequest(code, 3, "a@b.ph"), f.now)
		require.Equal(t, palaro.ECONFLICT, palaro.ErrorCode(err))
		require.Equal(t, "Only 2 tickets left for Test small.", palaro.ErrorMessage(err))
	})
	t.Run("ErrInvalid promo used up", func(t *testing.T) {
		f := newPurchaseFixture(t)
		code := f.addTicketType(t, "promo-limit", 10000, 10, 5)
		require.NoError(t, f.purchases.CreatePromoCode(ctx, &palaro.PromoCode{Code: "ONCE", Kind: palaro.PromoFixed, Amount: 100, UsageLimit: 1}))
		req := freeRequest(code, 1, "a@b.ph")
		req.Source = "ONCE"
		_, err := f.purchases.CreateOrder(ctx, req, f.now)
		require.NoError(t, err)
		_, err = f.purchases.CreateOrder(ctx, req, f.now)
		require.Equal(t, "Promo code ONCE has reached its usage limit.", palaro.ErrorMessage(err))
	})
}

func TestPurchaseService_PromoUses(t *testing.T) {
	ctx := context.Background()
	f := newPurchaseFixture(t)
	free := f.addTicketType(t, "promo-free", 0, 50, 1)
	paid := f.addTicketType(t, "promo-paid", 10000, 50, 5)
	require.NoError(t, f.purchases.CreatePromoCode(ctx, &palaro.PromoCode{Code: "FEW2", Kind: palaro.PromoPercent, Percent: 50, UsageLimit: 2}))
	used := func() int { return f.countRows(t, `SELECT used FROM promo_codes WHERE code = 'FEW2'`) }
	t.Run("OK a free order does not use the code", func(t *testing.T) {
		for i := range 5 {
			req := freeRequest(free, 1, fmt.Sprintf("free%d@b.ph", i))
			req.Source = "FEW2"
			o, err := f.purchases.CreateOrder(ctx, req, f.now)
			require.NoError(t, err)
			require.Equal(t, palaro.OrderPaid, o.Status)
			require.Empty(t, o.PromoCode, "the code discounted nothing")
			require.Equal(t, "FEW2", o.Source, "the source is still recorded")
		}
		require.Equal(t, 0, used())
	})
	t.Run("OK a discounted order uses it, and an expired hold gives it back", func(t *testing.T) {
		req := freeRequest(paid, 1, "buyer@b.ph")
		req.Source = "FEW2"
		o, err := f.purchases.CreateOrder(ctx, req, f.now)
		require.NoError(t, err)
		require.Equal(t, "FEW2", o.PromoCode)
		require.Equal(t, 1, used())
		_, err = f.purchases.ExpireHolds(ctx, f.now.Add(time.Hour))
		require.NoError(t, err)
		require.Equal(t, 0, used())
		for range 2 {
			_, err = f.purchases.CreateOrder(ctx, req, f.now.Add(time.Hour))
			require.NoError(t, err)
		}
		_, err = f.purchases.CreateOrder(ctx, req, f.now.Add(time.Hour))
		require.Equal(t, "Promo code FEW2 has reached its usage limit.", palaro.ErrorMessage(err), "control: the limit holds")
	})
}

func TestPurchaseService_TicketTransferLinks(t *testing.T) {
	ctx := context.Background()
	f := newPurchaseFixture(t)
	code := f.addTicketType(t, "transfer", 0, 10, 1)
	o, err := f.purchases.CreateOrder(ctx, freeRequest(code, 1, "holder@x.ph"), f.now)
	require.NoError(t, err)
	tk := o.Tickets[0]
	consentLink := func(to string) string {
		t.Helper()
		tr, err := f.purchases.RequestEmailChange(ctx, tk.PublicID, to, false, f.now)
		require.NoError(t, err)
		require.Equal(t, palaro.TransferAwaitingHolder, tr.Status)
		msgs, err := f.outbox.ListOutbox(ctx, palaro.OutboxFilter{To: "holder@x.ph"})
		require.NoError(t, err)
		require.Equal(t, palaro.MessageEmailChange, msgs[0].Kind)
		token := regexp.MustCompile(`/change-email/confirm/([a-z0-9]+)`).FindStringSubmatch(msgs[0].Text)
		require.NotNil(t, token, msgs[0].Text)
		return token[1]
	}
	t.Run("ErrNotFound the link expires", func(t *testing.T) {
		token := consentLink("late@x.ph")
		_, err := f.purchases.FindEmailChange(ctx, token, f.now.Add(LinkLifetime-time.Second))
		require.NoError(t, err, "control: it works until then")
		_, err = f.purchases.ConfirmEmailChange(ctx, token, f.now.Add(LinkLifetime))
		require.Equal(t, palaro.ENOTFOUND, palaro.ErrorCode(err))
	})
	t.Run("ErrNotFound opening a link changes nothing, and a consent link does not accept", func(t *testing.T) {
		token := consentLink("friend@x.ph")
		for range 2 {
			tr, err := f.purchases.FindEmailChange(ctx, token, f.now)
			require.NoError(t, err)
			require.Equal(t, palaro.TransferAwaitingHolder, tr.Status)
		}
		tr, err := f.purchases.ConfirmEmailChange(ctx, token, f.now)
		require.NoError(t, err)
		require.Equal(t, palaro.TransferAwaitingReceipt, tr.Status)
		got, err := f.purchases.FindTicketByPublicID(ctx, tk.PublicID)
		require.NoError(t, err)
		require.Equal(t, "holder@x.ph", got.Email, "consent alone moves nothing")
		_, err = f.purchases.ConfirmEmailChange(ctx, token, f.now)
		require.Equal(t, palaro.ENOTFOUND, palaro.ErrorCode(err), "the consent link cannot be used again to accept")
	})
}

// TestPurchaseService_TransferReissues: after a completed transfer the gate refuses the old code
// (online and in the offline gate list) and admits the new one.
func TestPurchaseService_TransferReissues(t *testing.T) {
	ctx := context.Background()
	f := newGateFixture(t, 1)
	old := f.codes[0]
	tickets, err := f.purchases.ListTicketsByEmail(ctx, "fan0@x.ph")
	require.NoError(t, err)
	_, err = f.purchases.RequestEmailChange(ctx, tickets[0].PublicID, "friend@x.ph", true, f.now)
	require.NoError(t, err)
	msgs, err := f.outbox.ListOutbox(ctx, palaro.OutboxFilter{To: "friend@x.ph"})
	require.NoError(t, err)
	token := regexp.MustCompile(`/change-email/confirm/([a-z0-9]+)`).FindStringSubmatch(msgs[0].Text)[1]
	tr, err := f.purchases.ConfirmEmailChange(ctx, token, f.now)
	require.NoError(t, err)
	require.Equal(t, palaro.TransferDone, tr.Status)
	require.NotEqual(t, old, tr.Ticket.Code)

	require.Equal(t, palaro.CheckInUnknown, f.scan(t, old, "North").Outcome, "the old code is refused at the gate")
	list, err := f.gate.GateTickets(ctx, f.eventID)
	require.NoError(t, err)
	for _, g := range list {
		require.NotEqual(t, old, g.Code, "offline gates do not know the old code")
	}
	require.Equal(t, palaro.CheckInOK, f.scan(t, tr.Ticket.Code, "North").Outcome, "control: the new code gets in")
}
