package store

import (
	"context"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"palaro"
)

// buyPaid buys and pays an order (a day ticket of date, or a pass with date "").
func (f *seriesFixture) buyPaid(t *testing.T, code, date, email string) *palaro.Order {
	t.Helper()
	ctx := context.Background()
	o, err := f.purchases.CreateOrder(ctx, dated(code, date, 1, email), f.now)
	require.NoError(t, err)
	require.NoError(t, f.purchases.AttachCheckout(ctx, o.ID, "sandbox", palaro.CheckoutSession{ID: "cs_" + o.PublicID, URL: "https://pay.test"}))
	return f.pay(t, o)
}

// changeMail returns the recipients of the event-changed e-mails queued for the date's changes,
// in order, and how many changes the date has recorded.
func (f *seriesFixture) changeMail(t *testing.T, dateID int64) (to []string, changes int) {
	t.Helper()
	rows, err := f.db.read.Query(`SELECT o.recipient FROM outbox o JOIN event_changes c ON c.id = o.event_change_id
		WHERE c.date_id = ? AND o.kind = ? ORDER BY o.id`, dateID, palaro.MessageEventChanged)
	require.NoError(t, err)
	defer rows.Close()
	for rows.Next() {
		var r string
		require.NoError(t, rows.Scan(&r))
		to = append(to, r)
	}
	require.NoError(t, rows.Err())
	require.NoError(t, f.db.read.QueryRow(`SELECT count(*) FROM event_changes WHERE date_id = ?`, dateID).Scan(&changes))
	return to, changes
}

// TestSeries_ChangeDateTellsHolders: a change of a date's time, its postponement and its
// cancellation each e-mail, in the write of the change, every holder of a paid day ticket of
// that date and of a pass covering it, once per change; not the holder of another date's ticket
// nor a buyer whose order is unpaid. A change that fails is undone with its e-mails. A postponed
// or cancelled date stops selling, a cancelled one changes no more and its day-ticket orders and
// passes are refunded by the event refund job. On either engine.
func TestSeries_ChangeDateTellsHolders(t *testing.T) {
	ctx := context.Background()
	f := newSeriesFixture(t)
	day := f.addTicketType(t, "day", 50000, 10, 4)
	dates := f.weekly(t, 3, nil)
	pass := f.addPass(t, "pass", palaro.PassEvery, day, 120000, 5, false)
	target := dates[1]
	dayOrder := f.buyPaid(t, day, target.Slug, "day@x.ph")
	f.buyPaid(t, day, dates[0].Slug, "other-date@x.ph")
	f.buyPaid(t, pass, "", "pass@x.ph")
	_, err := f.purchases.CreateOrder(ctx, dated(day, target.Slug, 1, "unpaid@x.ph"), f.now)
	require.NoError(t, err)

	// a change refused part-way (a capacity below what is sold) queues nothing and changes nothing
	in := target.InputOf()
	in.StartsAt, in.EndsAt = in.StartsAt.Add(2*time.Hour), in.EndsAt.Add(2*time.Hour)
	in.Capacities = map[string]int{day: 1}
	_, err = f.series.UpdateDate(ctx, f.eventID, target.Slug, in, "owner@x.ph", f.now)
	var e *palaro.Error
	require.ErrorAs(t, err, &e)
	require.Equal(t, palaro.ECONFLICT, e.Code)
	require.Contains(t, e.Fields, palaro.FieldDateCapacity+"."+day)
	to, changes := f.changeMail(t, target.ID)
	require.Empty(t, to, "no e-mail for a change that was rolled back")
	require.Zero(t, changes)
	got, err := f.series.FindEventDate(ctx, f.eventID, target.Slug)
	require.NoError(t, err)
	require.True(t, target.StartsAt.Equal(got.StartsAt))
	require.Zero(t, got.Sequence)

	// the new time, with a capacity that fits: the day ticket's and the pass's holders are told once
	in.Capacities = map[string]int{day: 3}
	got, err = f.series.UpdateDate(ctx, f.eventID, target.Slug, in, "owner@x.ph", f.now)
	require.NoError(t, err)
	require.True(t, in.StartsAt.Equal(got.StartsAt))
	require.Equal(t, 1, got.Sequence)
	require.Equal(t, target.Slug, got.Slug, "a date keeps its address when it moves")
	_, _, capacity := f.stock(t, target.ID, day)
	require.Equal(t, 3, capacity)
	to, changes = f.changeMail(t, target.ID)
	require.Equal(t, 1, changes)
	slices.Sort(to)
	require.Equal(t, []string{"day@x.ph", "pass@x.ph"}, to)

	// the same values again tell nobody
	_, err = f.series.UpdateDate(ctx, f.eventID, target.Slug, in, "owner@x.ph", f.now)
	require.NoError(t, err)
	to, _ = f.changeMail(t, target.ID)
	require.Len(t, to, 2)

	// postponed: told, and the date stops selling
	in.Status = palaro.DatePostponed
	got, err = f.series.UpdateDate(ctx, f.eventID, target.Slug, in, "owner@x.ph", f.now)
	require.NoError(t, err)
	require.Equal(t, 2, got.Sequence)
	_, err = f.purchases.CreateOrder(ctx, dated(day, target.Slug, 1, "late@x.ph"), f.now)
	require.Equal(t, palaro.MsgDatePostponed, palaro.ErrorMessage(err))

	// cancelled: told, stops selling, changes no more
	in.Status = palaro.DateCancelled
	_, err = f.series.UpdateDate(ctx, f.eventID, target.Slug, in, "owner@x.ph", f.now)
	require.NoError(t, err)
	to, changes = f.changeMail(t, target.ID)
	require.Equal(t, 3, changes)
	require.Len(t, to, 6, "two holders, three changes")
	_, err = f.purchases.CreateOrder(ctx, dated(day, target.Slug, 1, "late@x.ph"), f.now)
	require.Equal(t, palaro.MsgDateCancelled, palaro.ErrorMessage(err))
	in.Status = palaro.DateScheduled
	_, err = f.series.UpdateDate(ctx, f.eventID, target.Slug, in, "owner@x.ph", f.now)
	require.Equal(t, palaro.MsgDateCancelledFinal, palaro.ErrorMessage(err))

	// the e-mails, composed when sent, name the date and say what happens to the money
	outbox := NewComposingOutboxService(f.db, mailComposer())
	claimed, err := outbox.ClaimDue(ctx, f.now.Add(time.Minute), 1000, time.Minute)
	require.NoError(t, err)
	bodies := map[string][]string{}
	for _, m := range claimed {
		if m.Kind == palaro.MessageEventChanged {
			bodies[m.To] = append(bodies[m.To], m.Subject+"\n"+m.Text)
		}
	}
	require.Len(t, bodies["day@x.ph"], 3)
	require.Len(t, bodies["pass@x.ph"], 3)
	for _, b := range append(bodies["day@x.ph"], bodies["pass@x.ph"]...) {
		require.Contains(t, b, "(Sat 16 Jan 2027)")
		require.Contains(t, b, "https://palaro.test/e/tekken-tuesdays-cubao/2027-01-16")
	}
	cancelledMail := func(to string) string {
		i := slices.IndexFunc(bodies[to], func(b string) bool { return strings.Contains(strings.SplitN(b, "\n", 2)[0], "is cancelled") })
		require.GreaterOrEqual(t, i, 0, "the cancellation e-mail to %s", to)
		return bodies[to][i]
	}
	require.Contains(t, cancelledMail("day@x.ph"), "you are refunded in full, add-ons included")
	require.NotContains(t, cancelledMail("day@x.ph"), "season pass")
	require.Contains(t, cancelledMail("pass@x.ph"), "you get back its share for this date")
	require.NotContains(t, cancelledMail("pass@x.ph"), "refunded in full")

	// the refund job refunds the date's day-ticket order whole and the pass its share (store/date_refunds_test.go),
	// not the other date's order
	refunds := NewRefundService(f.db, nil)
	n, err := refunds.RefundEventOrders(ctx, 10)
	require.NoError(t, err)
	require.Equal(t, 2, n)
	var refunded int64
	var reason string
	require.NoError(t, f.db.read.QueryRow(`SELECT order_id, reason FROM refunds ORDER BY id LIMIT 1`).Scan(&refunded, &reason))
	require.Equal(t, dayOrder.ID, refunded)
	require.Equal(t, palaro.RefundDateCancelled, reason)
	require.Equal(t, 2, f.countRows(t, `SELECT count(*) FROM refunds WHERE date_id = ?`, target.ID))
	n, err = refunds.RefundEventOrders(ctx, 10)
	require.NoError(t, err)
	require.Zero(t, n, "never twice")
}

// TestSeries_DeleteDate: a date nothing was sold on is deleted; one with a ticket sold, or a place
// a pass holds, is refused with the advice to cancel it. On either engine.
func TestSeries_DeleteDate(t *testing.T) {
	ctx := context.Background()
	f := newSeriesFixture(t)
	day := f.addTicketType(t, "day", 50000, 10, 4)
	dates := f.weekly(t, 3, nil)
	require.NoError(t, f.series.DeleteDate(ctx, f.eventID, dates[2].Slug, "owner@x.ph", f.now))
	_, err := f.series.FindEventDate(ctx, f.eventID, dates[2].Slug)
	require.Equal(t, palaro.ENOTFOUND, palaro.ErrorCode(err))
	require.Equal(t, palaro.ENOTFOUND, palaro.ErrorCode(f.series.DeleteDate(ctx, f.eventID, dates[2].Slug, "owner@x.ph", f.now)))

	f.buyPaid(t, day, dates[0].Slug, "day@x.ph")
	err = f.series.DeleteDate(ctx, f.eventID, dates[0].Slug, "owner@x.ph", f.now)
	require.Equal(t, palaro.ECONFLICT, palaro.ErrorCode(err))
	require.Equal(t, palaro.MsgDateHasSales, palaro.ErrorMessage(err))

	pass := f.addPass(t, "pass", palaro.PassEvery, day, 120000, 5, false)
	f.buyPaid(t, pass, "", "pass@x.ph")
	err = f.series.DeleteDate(ctx, f.eventID, dates[1].Slug, "owner@x.ph", f.now)
	require.Equal(t, palaro.MsgDateHasSales, palaro.ErrorMessage(err), "a pass holds a place on the date")
	all, err := f.series.ListEventDates(ctx, f.eventID)
	require.NoError(t, err)
	require.Len(t, all, 2)
}
