package store

import (
	"context"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"palaro"
)

// cancelDate cancels date d of the fixture's series at the given time.
func (f *seriesFixture) cancelDate(t *testing.T, d palaro.EventDate, at time.Time) {
	t.Helper()
	in := d.InputOf()
	in.Status = palaro.DateCancelled
	_, err := f.series.UpdateDate(context.Background(), f.eventID, d.Slug, in, "owner@x.ph", at)
	require.NoError(t, err)
}

// buyWith buys and pays an order of the request (its checkout "cs_" + its public id).
func (f *seriesFixture) buyWith(t *testing.T, req palaro.PurchaseRequest) *palaro.Order {
	t.Helper()
	ctx := context.Background()
	o, err := f.purchases.CreateOrder(ctx, req, f.now)
	require.NoError(t, err)
	require.NoError(t, f.purchases.AttachCheckout(ctx, o.ID, "sandbox", palaro.CheckoutSession{ID: "cs_" + o.PublicID, URL: "https://pay.test"}))
	return f.pay(t, o)
}

// dateRefunds returns, for the date, the refunds written for it: by order id, the amounts.
func (f *seriesFixture) dateRefunds(t *testing.T, dateID int64) map[int64][]palaro.Money {
	t.Helper()
	rows, err := f.db.read.Query(`SELECT order_id, amount, reason FROM refunds WHERE date_id = ? ORDER BY id`, dateID)
	require.NoError(t, err)
	defer rows.Close()
	out := map[int64][]palaro.Money{}
	for rows.Next() {
		var id, amount int64
		var reason string
		require.NoError(t, rows.Scan(&id, &amount, &reason))
		require.Equal(t, palaro.RefundDateCancelled, reason)
		out[id] = append(out[id], palaro.Money(amount))
	}
	require.NoError(t, rows.Err())
	return out
}

// runRefundJob runs the refund job's writing step until it writes nothing more.
func runRefundJob(t *testing.T, refunds *RefundService) {
	t.Helper()
	for range 50 {
		n, err := refunds.RefundEventOrders(context.Background(), 3)
		require.NoError(t, err)
		if n == 0 {
			return
		}
	}
	t.Fatal("the refund job never ran out of work")
}

// TestDateRefunds_PassSharesAndDayOrders: cancelling a date of a seven-date series refunds, with
// reason date_cancelled and the date on the row, its day-ticket order whole with its add-ons and
// the add-on order bought later for its ticket; each pass valid on every date gets its share for
// the date (what was paid for it, after the promo code, divided by the seven dates it covered,
// rounded up to the centavo), never more in all than was paid for it, and stays valid; a 5-date
// pass gets a fifth only once fewer dates are left than its uses. Each (pass, date) is decided
// once however often the job runs. The buyer's e-mail and the console's words name the date,
// and the credit note has a line for the pass. On either engine.
func TestDateRefunds_PassSharesAndDayOrders(t *testing.T) {
	ctx := context.Background()
	f := newSeriesFixture(t)
	day := f.addTicketType(t, "day", 50000, 10, 4)
	dates := f.weekly(t, 7, nil)
	every := f.addPass(t, "every", palaro.PassEvery, day, 100001, 10, false)
	count := f.addPass(t, "five", palaro.PassCount, day, 50000, 10, false)
	_, err := f.db.write.Exec(`INSERT INTO promo_codes (code, event_id, kind, percent) VALUES ('SEASON10', ?, 'percent', 10)`, f.eventID)
	require.NoError(t, err)
	var addOnID int64
	require.NoError(t, f.db.write.QueryRow(`INSERT INTO add_ons (event_id, name, price) VALUES (?, 'Cap', 15000) RETURNING id`,
		f.eventID).Scan(&addOnID))
	var eventName string
	require.NoError(t, f.db.read.QueryRow(`SELECT name FROM events WHERE id = ?`, f.eventID).Scan(&eventName))

	full := f.buyPaid(t, every, "", "full@x.ph")
	require.Equal(t, palaro.Money(100001), full.Total)
	promo := dated(every, "", 2, "promo@x.ph")
	promo.Source = "season10"
	discounted := f.buyWith(t, promo)
	require.Equal(t, palaro.Money(180002), discounted.Total, "two passes, 10% off")
	five := f.buyPaid(t, count, "", "five@x.ph")
	withAddOn := dated(day, dates[1].Slug, 1, "day@x.ph")
	withAddOn.AddOns = []int64{addOnID}
	dayOrder := f.buyWith(t, withAddOn)
	require.Equal(t, palaro.Money(65000), dayOrder.Total)
	var secondAddOn int64
	require.NoError(t, f.db.write.QueryRow(`INSERT INTO add_ons (event_id, name, price) VALUES (?, 'Towel', 8000) RETURNING id`,
		f.eventID).Scan(&secondAddOn))
	later, err := f.purchases.CreateAddOnOrder(ctx, dayOrder.Tickets[0].PublicID, []int64{secondAddOn}, palaro.PaymentQR, f.now)
	require.NoError(t, err)
	require.NoError(t, f.purchases.AttachCheckout(ctx, later.ID, "sandbox", palaro.CheckoutSession{ID: "cs_" + later.PublicID}))
	later = f.pay(t, later)
	otherDay := f.buyPaid(t, day, dates[2].Slug, "other@x.ph")

	refunds := NewRefundService(f.db, mailComposer())
	series := NewSeriesService(f.db)
	preview, err := series.PreviewDateCancel(ctx, f.eventID, dates[1].Slug, f.now)
	require.NoError(t, err)
	require.Equal(t, palaro.DateCancelPreview{Holders: 4, DayOrders: 2, DayAmount: 65000 + 8000, Passes: 3,
		PassAmount: 14286 + 2*12858}, preview, "day@, full@, promo@, five@ e-mailed; the 5-date pass keeps its uses")

	// date 2 of 7 cancelled
	f.cancelDate(t, dates[1], f.now.Add(time.Minute))
	runRefundJob(t, refunds)
	got := f.dateRefunds(t, dates[1].ID)
	require.Equal(t, []palaro.Money{65000}, got[dayOrder.ID], "the day order whole, its add-on with it")
	require.Equal(t, []palaro.Money{8000}, got[later.ID], "the add-on order of its ticket")
	require.Equal(t, []palaro.Money{14286}, got[full.ID], "100001 / 7 = 14285.86, up to 14286")
	require.Equal(t, []palaro.Money{2 * 12858}, got[discounted.ID], "each pass paid 90001: / 7 = 12857.29, up to 12858")
	require.NotContains(t, got, five.ID, "six dates left for five uses: nothing owed")
	require.NotContains(t, got, otherDay.ID)
	require.Equal(t, 1, f.countRows(t, `SELECT count(*) FROM pass_date_refunds WHERE date_id = ? AND refund_id IS NULL`, dates[1].ID),
		"the 5-date pass is decided too, owed nothing")
	require.Equal(t, 3, f.countRows(t, `SELECT count(*) FROM tickets WHERE order_id IN (?, ?) AND status = 'valid'`, full.ID, discounted.ID),
		"a part refund leaves the passes valid")
	runRefundJob(t, refunds)
	require.Equal(t, got, f.dateRefunds(t, dates[1].ID), "the job again writes nothing more")

	// what the buyers are told, and the console
	mail := func(to string) string {
		var text string
		require.NoError(t, f.db.read.QueryRow(`SELECT body_text FROM outbox WHERE recipient = ? AND kind = ? ORDER BY id DESC LIMIT 1`,
			to, palaro.MessageRefundStarted).Scan(&text))
		return text
	}
	cancelled := eventName + ", Sat 16 Jan 2027, 7:00 PM was cancelled"
	require.Contains(t, mail("full@x.ph"), cancelled+", so the organizer is refunding your pass's share for that date.")
	require.Contains(t, mail("full@x.ph"), "it stays valid on the series' other dates")
	require.Contains(t, mail("day@x.ph"), cancelled+", so the organizer is refunding your order.")
	byOrder, err := refunds.OrderRefunds(ctx, full.ID)
	require.NoError(t, err)
	r := byOrder[full.ID][0]
	require.Equal(t, palaro.RefundDateCancelled, r.Reason)
	require.Equal(t, cancelled, palaro.RefundWhy(eventName, r))
	require.Equal(t, []string{full.Tickets[0].Code}, r.PassCodes)
	require.Empty(t, r.TicketCodes)

	// the gateway confirms: a credit note line for the pass, the order stays paid, the pass valid
	require.NoError(t, refunds.FinishRefund(ctx, r.ID, "sandbox", palaro.RefundResult{ID: "ref_1", Status: palaro.RefundRefunded}, f.now))
	var lines string
	require.NoError(t, f.db.read.QueryRow(`SELECT lines FROM invoices WHERE refund_id = ?`, r.ID).Scan(&lines))
	require.Contains(t, lines, "Part refund of pass "+full.Tickets[0].Code+" for "+dates[1].Slug)
	require.Contains(t, lines, `14286`)
	var status string
	require.NoError(t, f.db.read.QueryRow(`SELECT status FROM orders WHERE id = ?`, full.ID).Scan(&status))
	require.Equal(t, palaro.OrderPaid, status)

	// the other dates cancelled one by one: the 5-date pass is owed a fifth from the third on (4 dates left, 5 uses);
	// the passes never get more than was paid for them
	for i, d := range []palaro.EventDate{dates[0], dates[2], dates[3], dates[4], dates[5], dates[6]} {
		f.cancelDate(t, d, f.now.Add(time.Duration(i+2)*time.Minute))
		runRefundJob(t, refunds)
	}
	total := func(orderID int64) (sum palaro.Money) {
		require.NoError(t, f.db.read.QueryRow(`SELECT coalesce(sum(amount), 0) FROM refunds WHERE order_id = ?`, orderID).Scan(&sum))
		return sum
	}
	require.Equal(t, palaro.Money(100001), total(full.ID), "6 × 14286, then the 14285 left")
	require.Equal(t, palaro.Money(180002), total(discounted.ID))
	require.Equal(t, palaro.Money(5*10000), total(five.ID), "dates 3 to 7 each cost the 5-date pass a use")
	require.Equal(t, 0, f.countRows(t, `SELECT count(*) FROM pass_date_refunds WHERE ticket_id = ? AND refund_id IS NOT NULL
		AND date_id IN (?, ?)`, five.Tickets[0].ID, dates[1].ID, dates[0].ID))
}

// TestDateRefunds_WholeRefundAfterPart: a pass refunded in part for a cancelled date, then
// refunded by the organizer (whole order or the ticket alone), gives back only what is left of
// it; the refund queue's progress of the date counts its refunds. On either engine.
func TestDateRefunds_WholeRefundAfterPart(t *testing.T) {
	ctx := context.Background()
	f := newSeriesFixture(t)
	day := f.addTicketType(t, "day", 50000, 10, 4)
	dates := f.weekly(t, 3, nil)
	every := f.addPass(t, "every", palaro.PassEvery, day, 90000, 10, false)
	one := f.buyPaid(t, every, "", "one@x.ph")
	two := f.buyWith(t, dated(every, "", 2, "two@x.ph"))
	refunds := NewRefundService(f.db, nil)
	f.cancelDate(t, dates[0], f.now.Add(time.Minute))
	runRefundJob(t, refunds)
	require.Equal(t, []palaro.Money{30000}, f.dateRefunds(t, dates[0].ID)[one.ID])
	progress, err := refunds.DateRefunds(ctx, f.eventID)
	require.NoError(t, err)
	require.Len(t, progress, 1)
	require.Equal(t, dates[0].Slug, progress[0].Date.Slug)
	require.True(t, dates[0].StartsAt.Equal(progress[0].Date.StartsAt))
	require.Equal(t, palaro.DateRefunds{Date: progress[0].Date, Refunds: 2, Pending: 2, Amount: 90000}, progress[0],
		"two pass orders: 30000 and 2 × 30000")

	_, err = refunds.RequestRefund(ctx, f.eventID, one.PublicID, nil, palaro.RefundByOrganizer, "owner@x.ph")
	require.NoError(t, err)
	var sum int64
	require.NoError(t, f.db.read.QueryRow(`SELECT sum(amount) FROM refunds WHERE order_id = ?`, one.ID).Scan(&sum))
	require.EqualValues(t, 90000, sum, "30000 for the date, then the 60000 left")

	got, err := refunds.RequestRefund(ctx, f.eventID, two.PublicID, []string{two.Tickets[1].Code}, palaro.RefundByOrganizer, "owner@x.ph")
	require.NoError(t, err)
	require.Equal(t, palaro.Money(60000), got[0].Amount, "the ticket alone: its 90000 less its 30000 for the date")
}

// TestDateRefunds_TwoJobsAtOnce: the refund jobs of two servers on one database, run together
// over a cancelled date with many passes and day orders, write each part refund once, with
// one row per (pass, date), and never more than the passes' shares. On either engine.
func TestDateRefunds_TwoJobsAtOnce(t *testing.T) {
	ctx := context.Background()
	f := newSeriesFixture(t)
	day := f.addTicketType(t, "day", 50000, 40, 4)
	dates := f.weekly(t, 4, nil)
	every := f.addPass(t, "every", palaro.PassEvery, day, 100000, 40, false)
	const passes, days = 24, 6
	for i := range passes {
		f.buyPaid(t, every, "", fmt.Sprintf("pass%d@x.ph", i))
	}
	for i := range days {
		f.buyPaid(t, day, dates[2].Slug, fmt.Sprintf("day%d@x.ph", i))
	}
	f.cancelDate(t, dates[2], f.now.Add(time.Minute))

	other, err := Open(f.db.path)
	require.NoError(t, err)
	t.Cleanup(func() { other.Close() })
	other.Now = f.db.Now
	servers := []*RefundService{NewRefundService(f.db, mailComposer()), NewRefundService(other, mailComposer())}
	var wg sync.WaitGroup
	for _, s := range servers {
		wg.Go(func() {
			for range 200 {
				n, err := s.RefundEventOrders(ctx, 4)
				if err != nil && palaro.ErrorCode(err) != palaro.ECONFLICT { // a ticket the other server refunded first
					t.Errorf("refund job: %v", err)
					return
				}
				if n == 0 && err == nil {
					return
				}
			}
		})
	}
	wg.Wait()
	require.Equal(t, passes, f.countRows(t, `SELECT count(*) FROM pass_date_refunds WHERE date_id = ?`, dates[2].ID))
	require.Equal(t, passes, f.countRows(t, `SELECT count(*) FROM refunds r WHERE r.date_id = ? AND EXISTS
		(SELECT 1 FROM pass_date_refunds p WHERE p.refund_id = r.id)`, dates[2].ID), "one refund per pass order")
	require.Equal(t, days, f.countRows(t, `SELECT count(*) FROM refunds r WHERE r.date_id = ? AND EXISTS
		(SELECT 1 FROM refund_tickets rt WHERE rt.refund_id = r.id)`, dates[2].ID), "one refund per day order")
	var sum int64
	require.NoError(t, f.db.read.QueryRow(`SELECT sum(amount) FROM refunds WHERE date_id = ?`, dates[2].ID).Scan(&sum))
	require.EqualValues(t, passes*25000+days*50000, sum)
	require.Equal(t, passes+days, f.countRows(t, `SELECT count(*) FROM outbox WHERE kind = ?`, palaro.MessageRefundStarted),
		"one e-mail per refund")
}

// TestRefund_ChosenTicketsNeverMoreThanPaid: the organizer's refund of some tickets of an order
// whose discounts leave a ticket's share below nothing (a senior ticket of an order nearly free
// after its promo code: the shares are clamped at 0, so they add up to more than the order cost)
// gives back at most what is left of the order. On either engine.
func TestRefund_ChosenTicketsNeverMoreThanPaid(t *testing.T) {
	ctx := context.Background()
	f := newSeriesFixture(t)
	day := f.addTicketType(t, "day", 50000, 10, 4)
	dates := f.weekly(t, 2, nil)
	o := f.buyWith(t, dated(day, dates[0].Slug, 2, "two@x.ph"))
	// as a senior discount on the first ticket and a 98% promo code would leave it: 40000 and
	// 50000 of tickets, 2000 paid, so the shares are -4000 (0) and 6000
	_, err := f.db.write.Exec(`UPDATE tickets SET discount_type = 'senior', discount_amount = 10000 WHERE id = ?`, o.Tickets[0].ID)
	require.NoError(t, err)
	_, err = f.db.write.Exec(`UPDATE orders SET total = 2000 WHERE id = ?`, o.ID)
	require.NoError(t, err)
	refunds := NewRefundService(f.db, nil)
	got, err := refunds.RequestRefund(ctx, f.eventID, o.PublicID, []string{o.Tickets[1].Code}, palaro.RefundByOrganizer, "owner@x.ph")
	require.NoError(t, err)
	require.Equal(t, palaro.Money(2000), got[0].Amount, "what the order cost, not the ticket's 6000 share")
	got, err = refunds.RequestRefund(ctx, f.eventID, o.PublicID, nil, palaro.RefundByOrganizer, "owner@x.ph")
	require.NoError(t, err)
	require.Equal(t, palaro.Money(0), got[0].Amount, "nothing is left for the other ticket")
}
