package store

import (
	"context"
	"regexp"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"palaro"
	"palaro/notify"
)

// waitlistFixture is the purchase fixture with the waiting lists registered and a clock the test moves.
type waitlistFixture struct {
	*purchaseFixture
	lists *WaitlistService
	clock time.Time
}

func newWaitlistFixture(t *testing.T) *waitlistFixture {
	f := &waitlistFixture{purchaseFixture: newPurchaseFixture(t)}
	f.clock = f.now
	f.db.Now = func() time.Time { return f.clock }
	f.lists = NewWaitlistService(f.db, notify.NewComposer("https://palaro.test", "help@palaro.test"))
	// the test types' event runs a week from now, so offers of a day end before it
	_, err := f.db.write.Exec(`UPDATE events SET starts_at = ?, ends_at = ? WHERE code = 'tekken-tuesdays-cubao'`,
		formatTime(f.now.Add(7*24*time.Hour)), formatTime(f.now.Add(7*24*time.Hour+4*time.Hour)))
	require.NoError(t, err)
	return f
}

func (f *waitlistFixture) join(t *testing.T, code, email string, quantity int) *palaro.WaitlistJoined {
	t.Helper()
	j, err := f.lists.Join(context.Background(), palaro.WaitlistJoin{TicketCode: code, Email: email, Quantity: quantity}, f.clock)
	require.NoError(t, err)
	return j
}

var offerLink = regexp.MustCompile(`/waitlist/offer/([A-Za-z0-9_-]+)`)

// offerToken is the token of the last offer e-mailed to an address (from the outbox), "" if none.
func (f *waitlistFixture) offerToken(t *testing.T, email string) string {
	t.Helper()
	var body string
	err := f.db.read.QueryRow(`SELECT body_text FROM outbox WHERE recipient = ? AND kind = ? ORDER BY id DESC LIMIT 1`,
		email, palaro.MessageWaitlistOffer).Scan(&body)
	if err != nil {
		return ""
	}
	m := offerLink.FindStringSubmatch(body)
	require.NotNil(t, m, "the offer e-mail links the offer")
	return m[1]
}

func (f *waitlistFixture) entryStatus(t *testing.T, code, email string) string {
	t.Helper()
	var s string
	require.NoError(t, f.db.read.QueryRow(`SELECT w.status FROM waitlist_entries w JOIN ticket_types tt ON tt.id = w.ticket_type_id
		WHERE tt.code = ? AND w.email = ?`, code, email).Scan(&s))
	return s
}

// passOn runs the job's Advance a minute before an offer's end (nothing happens) and at its end
// (it expires and passes to the next entry), moving the clock.
func (f *waitlistFixture) passOn(t *testing.T, end time.Time) {
	t.Helper()
	f.clock = end.Add(-time.Minute)
	expired, offered, err := f.lists.Advance(context.Background(), f.clock)
	require.NoError(t, err)
	require.Equal(t, [2]int{0, 0}, [2]int{expired, offered}, "the offer holds until its end")
	f.clock = end
	expired, offered, err = f.lists.Advance(context.Background(), f.clock)
	require.NoError(t, err)
	require.Equal(t, [2]int{1, 1}, [2]int{expired, offered}, "at its end it passes on")
}

func paidRequest(code string, quantity int, email string) palaro.PurchaseRequest {
	return palaro.PurchaseRequest{TicketCode: code, Quantity: quantity, Email: email, PaymentType: palaro.PaymentQR}
}

func TestWaitlist_OfferChain(t *testing.T) {
	ctx := context.Background()
	f := newWaitlistFixture(t)
	code := f.addTicketType(t, "wl-chain", 50000, 1, 2)

	_, err := f.lists.Join(ctx, palaro.WaitlistJoin{TicketCode: code, Email: "one@x.ph", Quantity: 1}, f.clock)
	require.Equal(t, palaro.ECONFLICT, palaro.ErrorCode(err), "a type on sale has no waiting list")
	require.Contains(t, err.Error(), "can be bought now")

	first, err := f.purchases.CreateOrder(ctx, paidRequest(code, 1, "first@x.ph"), f.clock)
	require.NoError(t, err)
	require.Equal(t, palaro.OrderPending, first.Status)

	one := f.join(t, code, "one@x.ph", 1)
	require.Equal(t, 1, one.Entry.Position)
	require.Equal(t, 2, f.join(t, code, "two@x.ph", 1).Entry.Position)
	require.Equal(t, 2, f.countRows(t, `SELECT count(*) FROM outbox WHERE kind = ?`, palaro.MessageWaitlistJoined), "each join is confirmed by e-mail")

	// the hold expires: the ticket goes to #1 in the same transaction, nobody else can buy it
	f.clock = f.clock.Add(16 * time.Minute)
	n, err := f.purchases.ExpireHolds(ctx, f.clock)
	require.NoError(t, err)
	require.Equal(t, 1, n)
	sold, held, _ := f.counts(t, code)
	require.Equal(t, [2]int{0, 1}, [2]int{sold, held}, "the offer holds the returned ticket")
	require.Equal(t, palaro.WaitlistOffered, f.entryStatus(t, code, "one@x.ph"))
	require.Equal(t, palaro.WaitlistWaiting, f.entryStatus(t, code, "two@x.ph"))
	tokenOne := f.offerToken(t, "one@x.ph")
	require.NotEmpty(t, tokenOne, "the offer is e-mailed to #1")
	require.Empty(t, f.offerToken(t, "two@x.ph"))

	_, err = f.purchases.CreateOrder(ctx, paidRequest(code, 1, "someone@x.ph"), f.clock)
	require.Equal(t, palaro.ECONFLICT, palaro.ErrorCode(err), "an ordinary buyer cannot take an offered ticket")
	req := paidRequest(code, 1, "two@x.ph")
	req.Offer = tokenOne
	_, err = f.purchases.CreateOrder(ctx, req, f.clock)
	require.Equal(t, palaro.EINVALID, palaro.ErrorCode(err), "the offer is for its own address")
	require.Contains(t, err.Error(), "one@x.ph")

	offer, err := f.lists.FindOffer(ctx, tokenOne)
	require.NoError(t, err)
	require.Equal(t, f.clock.Add(palaro.DefaultOfferTime).UTC(), offer.ExpiresAt, "24 hours by default")
	require.True(t, offer.Claimable(f.clock))
	require.Equal(t, code, offer.TicketType.Code)

	// a minute before its end the offer still holds; at its end it passes to #2
	f.passOn(t, offer.ExpiresAt)
	require.Equal(t, palaro.WaitlistPassed, f.entryStatus(t, code, "one@x.ph"))
	require.Equal(t, 1, f.countRows(t, `SELECT count(*) FROM outbox WHERE recipient = 'one@x.ph' AND kind = ?`,
		palaro.MessageWaitlistOfferExpired), "#1 hears that the offer passed on")
	require.Equal(t, palaro.WaitlistOffered, f.entryStatus(t, code, "two@x.ph"))
	sold, held, _ = f.counts(t, code)
	require.Equal(t, [2]int{0, 1}, [2]int{sold, held}, "one hold passed on, not two")

	req = paidRequest(code, 1, "one@x.ph")
	req.Offer = tokenOne
	_, err = f.purchases.CreateOrder(ctx, req, f.clock)
	require.Equal(t, palaro.ECONFLICT, palaro.ErrorCode(err))
	require.Contains(t, err.Error(), "expired")

	tokenTwo := f.offerToken(t, "two@x.ph")
	require.NotEmpty(t, tokenTwo)
	req = paidRequest(code, 2, "two@x.ph")
	req.Offer = tokenTwo
	_, err = f.purchases.CreateOrder(ctx, req, f.clock)
	require.Equal(t, palaro.EINVALID, palaro.ErrorCode(err), "exactly the offered quantity")
	req.Quantity = 1
	o, err := f.purchases.CreateOrder(ctx, req, f.clock)
	require.NoError(t, err, "#2 claims the offer through the normal purchase")
	require.Equal(t, palaro.OrderPending, o.Status)
	sold, held, _ = f.counts(t, code)
	require.Equal(t, [2]int{0, 1}, [2]int{sold, held}, "the offer's hold became the order's")
	require.Equal(t, palaro.WaitlistClaimed, f.entryStatus(t, code, "two@x.ph"))
	_, err = f.purchases.CreateOrder(ctx, req, f.clock)
	require.Equal(t, palaro.ECONFLICT, palaro.ErrorCode(err), "an offer works once")

	board, err := f.lists.Board(ctx, o.EventID)
	require.NoError(t, err)
	require.Len(t, board.Entries, 2)
	for _, e := range board.Entries {
		require.Len(t, e.Offers, 1)
		want := map[string]string{"one@x.ph": palaro.OfferExpired, "two@x.ph": palaro.OfferClaimed}[e.Email]
		require.Equal(t, want, e.Offers[0].Status, e.Email)
	}
	require.Equal(t, o.PublicID, board.Entries[1].Offers[0].OrderPublicID)
}

func TestWaitlist_PartialReturnGoesToWhoeverFits(t *testing.T) {
	ctx := context.Background()
	f := newWaitlistFixture(t)
	code := f.addTicketType(t, "wl-partial", 50000, 3, 2)
	_, err := f.purchases.CreateOrder(ctx, paidRequest(code, 1, "a@x.ph"), f.clock)
	require.NoError(t, err)
	f.clock = f.clock.Add(5 * time.Minute)
	b, err := f.purchases.CreateOrder(ctx, paidRequest(code, 2, "b@x.ph"), f.clock)
	require.NoError(t, err)
	f.join(t, code, "pair@x.ph", 2)
	f.join(t, code, "solo@x.ph", 1)

	f.clock = f.clock.Add(11 * time.Minute) // a's hold ended, b's has 4 minutes left
	n, err := f.purchases.ExpireHolds(ctx, f.clock)
	require.NoError(t, err)
	require.Equal(t, 1, n)
	require.Equal(t, palaro.WaitlistWaiting, f.entryStatus(t, code, "pair@x.ph"), "2 wanted, 1 back: keeps its place")
	require.Equal(t, palaro.WaitlistOffered, f.entryStatus(t, code, "solo@x.ph"), "the next that fits gets it")
	sold, held, _ := f.counts(t, code)
	require.Equal(t, [2]int{0, 3}, [2]int{sold, held})

	board, err := f.lists.Board(ctx, b.EventID)
	require.NoError(t, err)
	require.Equal(t, "pair@x.ph", board.Entries[0].Email)
	require.Equal(t, 1, board.Entries[0].Position, "still first in line")
}

func TestWaitlist_RefundAndCancelOfferAtOnce(t *testing.T) {
	ctx := context.Background()
	f := newWaitlistFixture(t)
	code := f.addTicketType(t, "wl-refund", 0, 2, 1)
	a, err := f.purchases.CreateOrder(ctx, freeRequest(code, 1, "a@x.ph"), f.clock)
	require.NoError(t, err)
	b, err := f.purchases.CreateOrder(ctx, freeRequest(code, 1, "b@x.ph"), f.clock)
	require.NoError(t, err)
	f.join(t, code, "w1@x.ph", 1)
	f.join(t, code, "w2@x.ph", 1)
	org := NewOrganizerService(f.db, nil)
	require.NoError(t, org.MarkRefunded(ctx, a.EventID, a.PublicID, "owner@x.ph"))
	require.Equal(t, palaro.WaitlistOffered, f.entryStatus(t, code, "w1@x.ph"), "a refund offers at once")
	require.NotEmpty(t, f.offerToken(t, "w1@x.ph"))
	require.NoError(t, org.CancelTicket(ctx, b.EventID, b.Tickets[0].Code, "owner@x.ph"))
	require.Equal(t, palaro.WaitlistOffered, f.entryStatus(t, code, "w2@x.ph"), "a cancelled ticket too")
	sold, held, _ := f.counts(t, code)
	require.Equal(t, [2]int{0, 2}, [2]int{sold, held})
}

func TestWaitlist_Join(t *testing.T) {
	ctx := context.Background()
	f := newWaitlistFixture(t)
	code := f.addTicketType(t, "wl-join", 50000, 1, 3)
	_, err := f.purchases.CreateOrder(ctx, paidRequest(code, 1, "a@x.ph"), f.clock)
	require.NoError(t, err)
	for _, tc := range []struct {
		name  string
		req   palaro.WaitlistJoin
		code  string
		error string
	}{
		{"no e-mail", palaro.WaitlistJoin{TicketCode: code, Quantity: 1}, palaro.EINVALID, "E-mail is required"},
		{"bad e-mail", palaro.WaitlistJoin{TicketCode: code, Email: "nope", Quantity: 1}, palaro.EINVALID, "Invalid E-mail address"},
		{"zero", palaro.WaitlistJoin{TicketCode: code, Email: "w@x.ph", Quantity: 0}, palaro.EINVALID, "Choose between 1 and 3 tickets."},
		{"over the maximum", palaro.WaitlistJoin{TicketCode: code, Email: "w@x.ph", Quantity: 4}, palaro.EINVALID, "Choose between 1 and 3 tickets."},
		{"unknown type", palaro.WaitlistJoin{TicketCode: "nope", Email: "w@x.ph", Quantity: 1}, palaro.ENOTFOUND, ""},
	} {
		_, err := f.lists.Join(ctx, tc.req, f.clock)
		require.Equal(t, tc.code, palaro.ErrorCode(err), tc.name)
		require.Contains(t, palaro.ErrorMessage(err), tc.error, tc.name)
	}
	j := f.join(t, code, " W@X.ph ", 1)
	require.False(t, j.Updated)
	require.Equal(t, "w@x.ph", j.Entry.Email)
	f.join(t, code, "v@x.ph", 1)
	f.clock = f.clock.Add(time.Hour)
	j = f.join(t, code, "w@x.ph", 3)
	require.True(t, j.Updated, "a second join updates the entry")
	require.Equal(t, 3, j.Entry.Quantity)
	require.Equal(t, 1, j.Entry.Position, "and keeps its place")
	require.Equal(t, 2, f.countRows(t, `SELECT count(*) FROM waitlist_entries`))
	require.Equal(t, 3, f.countRows(t, `SELECT count(*) FROM outbox WHERE kind = ? AND recipient IN ('w@x.ph', 'v@x.ph')`, palaro.MessageWaitlistJoined))
}

func TestWaitlist_OfferByHandAndOfferTime(t *testing.T) {
	ctx := context.Background()
	f := newWaitlistFixture(t)
	code := f.addTicketType(t, "wl-hand", 50000, 2, 2)
	o, err := f.purchases.CreateOrder(ctx, paidRequest(code, 2, "a@x.ph"), f.clock)
	require.NoError(t, err)
	pair := f.join(t, code, "pair@x.ph", 2)
	require.NoError(t, f.lists.SetOfferTime(ctx, o.EventID, 2, "owner@x.ph"))
	require.Equal(t, palaro.EINVALID, palaro.ErrorCode(f.lists.SetOfferTime(ctx, o.EventID, 0, "owner@x.ph")))

	_, err = f.lists.OfferByHand(ctx, o.EventID, pair.Entry.ID, 1, nil, "owner@x.ph", f.clock)
	require.Equal(t, palaro.ECONFLICT, palaro.ErrorCode(err), "nothing is free")
	require.Contains(t, err.Error(), "Only 0 tickets")
	_, err = f.lists.OfferByHand(ctx, o.EventID+1, pair.Entry.ID, 1, nil, "owner@x.ph", f.clock)
	require.Equal(t, palaro.ENOTFOUND, palaro.ErrorCode(err), "another event's entry")

	_, err = f.db.write.Exec(`UPDATE ticket_types SET capacity = 3 WHERE code = ?`, code) // one more ticket
	require.NoError(t, err)
	_, err = f.lists.OfferByHand(ctx, o.EventID, pair.Entry.ID, 3, nil, "owner@x.ph", f.clock)
	require.Equal(t, palaro.EINVALID, palaro.ErrorCode(err), "not more than asked for")
	offer, err := f.lists.OfferByHand(ctx, o.EventID, pair.Entry.ID, 1, nil, "owner@x.ph", f.clock)
	require.NoError(t, err, "the organizer offers the one ticket by hand")
	require.True(t, offer.ByHand)
	require.Equal(t, f.clock.Add(2*time.Hour).UTC(), offer.ExpiresAt, "the event's offer time")
	require.NotEmpty(t, f.offerToken(t, "pair@x.ph"))
	_, err = f.lists.OfferByHand(ctx, o.EventID, pair.Entry.ID, 1, nil, "owner@x.ph", f.clock)
	require.Equal(t, palaro.ECONFLICT, palaro.ErrorCode(err), "one open offer at a time")
	require.Equal(t, 1, f.countRows(t, `SELECT count(*) FROM audit_log WHERE action LIKE 'waiting list: 1 ticket offered by hand%'`))
	sold, held, capacity := f.counts(t, code)
	require.Equal(t, [3]int{0, 3, 3}, [3]int{sold, held, capacity})
}

// TestWaitlist_CapacityGuardWhileOffersAreOut races buyers against an offer's claim and another
// return: the shared guarded hold never lets sold + held exceed capacity.
func TestWaitlist_CapacityGuardWhileOffersAreOut(t *testing.T) {
	ctx := context.Background()
	f := newWaitlistFixture(t)
	code := f.addTicketType(t, "wl-race", 0, 3, 1)
	var orders []*palaro.Order
	for _, e := range []string{"a@x.ph", "b@x.ph", "c@x.ph"} {
		o, err := f.purchases.CreateOrder(ctx, freeRequest(code, 1, e), f.clock)
		require.NoError(t, err)
		orders = append(orders, o)
	}
	f.join(t, code, "w1@x.ph", 1)
	f.join(t, code, "w2@x.ph", 1)
	org := NewOrganizerService(f.db, nil)
	require.NoError(t, org.CancelTicket(ctx, orders[0].EventID, orders[0].Tickets[0].Code, "owner@x.ph"))
	token := f.offerToken(t, "w1@x.ph")
	require.NotEmpty(t, token)

	var wg sync.WaitGroup
	results := make(chan error, 42)
	for i := range 40 {
		wg.Go(func() {
			_, err := f.purchases.CreateOrder(ctx, freeRequest(code, 1, "rush"+string(rune('a'+i%26))+string(rune('a'+i/26))+"@x.ph"), f.clock)
			results <- err
		})
	}
	wg.Go(func() {
		req := freeRequest(code, 1, "w1@x.ph")
		req.Offer = token
		_, err := f.purchases.CreateOrder(ctx, req, f.clock)
		results <- err
	})
	wg.Go(func() {
		results <- org.CancelTicket(ctx, orders[1].EventID, orders[1].Tickets[0].Code, "owner@x.ph")
	})
	wg.Wait()
	close(results)
	ok := 0
	for err := range results {
		if err == nil {
			ok++
		} else {
			require.Equal(t, palaro.ECONFLICT, palaro.ErrorCode(err), err.Error())
		}
	}
	sold, held, capacity := f.counts(t, code)
	require.LessOrEqual(t, sold+held, capacity, "never oversold")
	require.Equal(t, palaro.WaitlistClaimed, f.entryStatus(t, code, "w1@x.ph"), "the offer's ticket was kept for its holder")
	var tickets int
	require.NoError(t, f.db.read.QueryRow(`SELECT count(*) FROM tickets t JOIN ticket_types tt ON tt.id = t.ticket_type_id
		WHERE tt.code = ? AND t.status = 'valid'`, code).Scan(&tickets))
	require.Equal(t, sold, tickets)
	require.Equal(t, palaro.WaitlistOffered, f.entryStatus(t, code, "w2@x.ph"), "the second return went to #2, not to the rush")
	require.Equal(t, [2]int{2, 1}, [2]int{sold, held})
	require.Equal(t, 2, ok, "the claim and the cancellation succeeded, no rush buyer did")
}

// TestWaitlist_ConcurrentJoinsOneEntry sends one address's joins at once: one entry, each join
// answered (the insert gives way to the unique key, the others update it).
func TestWaitlist_ConcurrentJoinsOneEntry(t *testing.T) {
	ctx := context.Background()
	f := newWaitlistFixture(t)
	code := f.addTicketType(t, "wl-same", 50000, 1, 4)
	_, err := f.purchases.CreateOrder(ctx, paidRequest(code, 1, "a@x.ph"), f.clock)
	require.NoError(t, err)
	var wg sync.WaitGroup
	errs := make(chan error, 12)
	for i := range 12 {
		wg.Go(func() {
			_, err := f.lists.Join(ctx, palaro.WaitlistJoin{TicketCode: code, Email: "same@x.ph", Quantity: 1 + i%4}, f.clock)
			errs <- err
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		require.NoError(t, err)
	}
	require.Equal(t, 1, f.countRows(t, `SELECT count(*) FROM waitlist_entries WHERE email = 'same@x.ph'`))
}
