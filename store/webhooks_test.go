package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"palaro"
	"palaro/notify"
)

// webhookFixture is a purchase fixture with the webhooks of the demo event's organization.
func webhookFixture(t *testing.T) (*purchaseFixture, *WebhookService, int64) {
	t.Helper()
	f := newPurchaseFixture(t)
	var orgID int64
	require.NoError(t, f.db.read.QueryRow(`SELECT organizer_id FROM events WHERE code = 'tekken-tuesdays-cubao'`).Scan(&orgID))
	return f, NewWebhookService(f.db, notify.NewComposer("https://palaro.test", "help@palaro.test")), orgID
}

func (f *purchaseFixture) deliveries(t *testing.T, endpointID int64) []string {
	t.Helper()
	types, err := queryStrings(context.Background(), f.db.read, `SELECT type FROM webhook_deliveries WHERE endpoint_id = ? ORDER BY id`, endpointID)
	require.NoError(t, err)
	return types
}

// TestWebhooks_QueuedWithTheChange: a paid (free) order queues order.paid for each active endpoint
// of its organization that chose the type, in the order's own write; an endpoint that did not
// choose it, a paused one and another organization's get nothing; a write that rolls back leaves
// no delivery.
func TestWebhooks_QueuedWithTheChange(t *testing.T) {
	f, wh, orgID := webhookFixture(t)
	ctx := context.Background()
	paid, err := wh.CreateEndpoint(ctx, orgID, "https://hooks.example.com/a", []string{"ticket.checked_in", "order.paid"}, "owner@x.ph", f.now)
	require.NoError(t, err)
	require.Equal(t, []string{"order.paid", "ticket.checked_in"}, paid.Events, "in the types' order")
	require.Regexp(t, `^whsec_[0-9a-f]{48}$`, paid.Secret)
	other, err := wh.CreateEndpoint(ctx, orgID, "https://hooks.example.com/b", []string{"order.refunded"}, "owner@x.ph", f.now)
	require.NoError(t, err)
	paused, err := wh.CreateEndpoint(ctx, orgID, "https://hooks.example.com/c", []string{"order.paid"}, "owner@x.ph", f.now)
	require.NoError(t, err)
	require.NoError(t, wh.SetEndpointActive(ctx, []int64{orgID}, paused.PublicID, false))
	_, err = wh.CreateEndpoint(ctx, orgID, "https://hooks.example.com/d", []string{"order.shipped"}, "owner@x.ph", f.now)
	require.Equal(t, palaro.EINVALID, palaro.ErrorCode(err))

	code := f.addTicketType(t, "wh-free", 0, 10, 4)
	o, err := f.purchases.CreateOrder(ctx, freeRequest(code, 1, "buyer@x.ph"), f.now)
	require.NoError(t, err)
	require.Equal(t, palaro.OrderPaid, o.Status)
	require.Equal(t, []string{"order.paid"}, f.deliveries(t, paid.ID))
	require.Empty(t, f.deliveries(t, other.ID))
	require.Empty(t, f.deliveries(t, paused.ID))

	rollback := errors.New("roll back")
	err = f.db.inWrite(ctx, func(ctx context.Context, tx *sql.Tx) error {
		require.NoError(t, enqueueWebhook(ctx, tx, palaro.WebhookOrderPaid, o.ID, f.now))
		return rollback
	})
	require.ErrorIs(t, err, rollback)
	require.Equal(t, []string{"order.paid"}, f.deliveries(t, paid.ID), "no delivery for a change that rolled back")

	// the body: id, type, time and the order as the organizer API shows it
	got, err := wh.ClaimDeliveries(ctx, f.now, 10, time.Minute)
	require.NoError(t, err)
	require.Len(t, got, 1)
	require.Equal(t, "https://hooks.example.com/a", got[0].URL)
	require.Equal(t, paid.Secret, got[0].Secret)
	var body struct {
		ID, Type  string
		CreatedAt time.Time
		Data      palaro.OrderView
	}
	require.NoError(t, json.Unmarshal(got[0].Body, &body))
	require.Equal(t, got[0].EventID, body.ID)
	require.Equal(t, "order.paid", body.Type)
	require.True(t, body.CreatedAt.Equal(f.now))
	require.Equal(t, o.PublicID, body.Data.ID)
	require.Equal(t, "tekken-tuesdays-cubao", body.Data.Event)
	require.Len(t, body.Data.Tickets, 1)

	require.NoError(t, wh.DeleteEndpoint(ctx, []int64{orgID}, paid.PublicID))
	require.Empty(t, f.deliveries(t, paid.ID))
	require.Equal(t, palaro.ENOTFOUND, palaro.ErrorCode(wh.DeleteEndpoint(ctx, []int64{orgID + 1000}, other.PublicID)),
		"another organization's endpoint is not found")
}

// TestWebhooks_ClaimDeliveries_SeveralServers: with two servers and four workers each claiming at
// once, every delivery is claimed by exactly one of them (the outbox's claim, shared).
func TestWebhooks_ClaimDeliveries_SeveralServers(t *testing.T) {
	f, wh, orgID := webhookFixture(t)
	ctx := context.Background()
	ep, err := wh.CreateEndpoint(ctx, orgID, "https://hooks.example.com/a", []string{"order.paid"}, "o@x.ph", f.now)
	require.NoError(t, err)
	const n = 90
	for range n {
		require.NoError(t, wh.SendTest(ctx, ep.ID, f.now))
	}
	servers := []*WebhookService{wh, NewWebhookService(anotherServer(t, f.db), nil)}
	var mu sync.Mutex
	claims := map[string]int{}
	var wg sync.WaitGroup
	for _, s := range servers {
		for range 4 {
			wg.Go(func() {
				for {
					got, err := s.ClaimDeliveries(ctx, f.now, 7, time.Minute)
					if err != nil {
						t.Error(err)
						return
					}
					if len(got) == 0 {
						return
					}
					mu.Lock()
					for _, d := range got {
						claims[d.EventID]++
					}
					mu.Unlock()
				}
			})
		}
	}
	wg.Wait()
	require.Len(t, claims, n, "every delivery claimed")
	for id, c := range claims {
		require.Equal(t, 1, c, "delivery %s claimed once", id)
	}
	again, err := wh.ClaimDeliveries(ctx, f.now.Add(30*time.Second), 100, time.Minute)
	require.NoError(t, err)
	require.Empty(t, again, "claimed for a minute")
	again, err = wh.ClaimDeliveries(ctx, f.now.Add(2*time.Minute), 100, time.Minute)
	require.NoError(t, err)
	require.Len(t, again, n, "a lease that ran out (a server died mid-send) is claimed again")
	require.Equal(t, 2, again[0].Attempts)
}

// TestWebhooks_RetryFailAndPause: a failed attempt is retried at its time with the same event id;
// a retry past the three days fails the delivery; an endpoint failing for three days is paused
// (no more claims) and its organization's owners are e-mailed once; resuming it clears that.
func TestWebhooks_RetryFailAndPause(t *testing.T) {
	f, wh, orgID := webhookFixture(t)
	ctx := context.Background()
	ep, err := wh.CreateEndpoint(ctx, orgID, "https://hooks.example.com/a", []string{"order.paid"}, "o@x.ph", f.now)
	require.NoError(t, err)
	code := f.addTicketType(t, "wh-free", 0, 10, 4)
	_, err = f.purchases.CreateOrder(ctx, freeRequest(code, 1, "buyer@x.ph"), f.now)
	require.NoError(t, err)

	counts := func() [2]int {
		t.Helper()
		pending, failed, err := wh.DeliveryCounts(ctx)
		require.NoError(t, err)
		return [2]int{pending, failed}
	}
	require.Equal(t, [2]int{1, 0}, counts(), "the queue's depth for the metrics")
	now := f.now
	first, err := wh.ClaimDeliveries(ctx, now, 10, time.Minute)
	require.NoError(t, err)
	require.Len(t, first, 1)
	retry := now.Add(palaro.WebhookBackoff(1))
	require.NoError(t, wh.RecordDeliveries(ctx, []palaro.WebhookOutcome{{ID: first[0].ID, AnswerCode: 500, Error: "answered 500", At: now, RetryAt: retry}}))
	got, err := wh.ClaimDeliveries(ctx, retry.Add(-time.Second), 10, time.Minute)
	require.NoError(t, err)
	require.Empty(t, got, "not due before its retry")
	got, err = wh.ClaimDeliveries(ctx, retry, 10, time.Minute)
	require.NoError(t, err)
	require.Len(t, got, 1)
	require.Equal(t, first[0].EventID, got[0].EventID, "the same event id on every attempt")
	require.Equal(t, first[0].Body, got[0].Body)

	owners := func() int {
		return f.countRows(t, `SELECT count(*) FROM outbox WHERE kind = ?`, palaro.MessageWebhookPaused)
	}
	// still failing three days after the first failure: the delivery fails for good, the endpoint pauses
	late := now.Add(palaro.WebhookRetryFor + time.Minute)
	require.NoError(t, wh.RecordDeliveries(ctx, []palaro.WebhookOutcome{{ID: got[0].ID, AnswerCode: 0, Error: "timeout", At: late,
		RetryAt: late.Add(palaro.WebhookBackoff(20))}}))
	ds, err := wh.Deliveries(ctx, ep.ID, 10)
	require.NoError(t, err)
	require.Equal(t, palaro.DeliveryFailed, ds[0].Status)
	require.Equal(t, "timeout", ds[0].LastError)
	require.Equal(t, [2]int{0, 1}, counts(), "failed for good")
	e, err := wh.Endpoint(ctx, []int64{orgID}, ep.PublicID)
	require.NoError(t, err)
	require.False(t, e.Active, "paused after three days of failures")
	require.Equal(t, 1, owners(), "the owner is e-mailed")

	// a paused endpoint's deliveries wait; sent again from the console they go once it is resumed
	require.NoError(t, wh.Redeliver(ctx, ep.ID, ds[0].ID, late))
	got, err = wh.ClaimDeliveries(ctx, late, 10, time.Minute)
	require.NoError(t, err)
	require.Empty(t, got, "paused")
	require.NoError(t, wh.SetEndpointActive(ctx, []int64{orgID}, ep.PublicID, true))
	got, err = wh.ClaimDeliveries(ctx, late, 10, time.Minute)
	require.NoError(t, err)
	require.Len(t, got, 1)
	require.Equal(t, first[0].EventID, got[0].EventID)
	require.NoError(t, wh.RecordDeliveries(ctx, []palaro.WebhookOutcome{{ID: got[0].ID, AnswerCode: 204, At: late}}))
	ds, err = wh.Deliveries(ctx, ep.ID, 10)
	require.NoError(t, err)
	require.Equal(t, palaro.DeliverySent, ds[0].Status)
	require.Equal(t, 204, ds[0].AnswerCode)
	require.Equal(t, [2]int{0, 0}, counts())
	require.Equal(t, 1, owners(), "e-mailed once")
}

// TestWebhooks_EveryChangeQueuesItsType: each change an organizer's tools hear of queues its event
// type, about its order, ticket or offer: a paid order, a check-in, a ticket moved to another
// address, an order refunded, an order whose last ticket that admitted anyone was cancelled, and a
// waiting list's offer of the place that cancelling gave back.
func TestWebhooks_EveryChangeQueuesItsType(t *testing.T) {
	f, wh, orgID := webhookFixture(t)
	ctx := context.Background()
	ep, err := wh.CreateEndpoint(ctx, orgID, "https://hooks.example.com/all", palaro.WebhookEventTypes, "o@x.ph", f.now)
	require.NoError(t, err)
	org := NewOrganizerService(f.db, notify.NewComposer("https://palaro.test", "help@palaro.test"))
	code, typeID := f.addSeatedTicketType(t, "hooks-seated", 0, 16, 4)
	eventID := f.eventIDOf(t, typeID)

	kept, err := f.purchases.CreateOrder(ctx, seatRequest(code, "kept@x.ph", "A1", "A2"), f.now)
	require.NoError(t, err)
	res, err := NewCheckInService(f.db).CheckIn(ctx, palaro.CheckInRequest{EventID: eventID, Code: kept.Tickets[0].Code})
	require.NoError(t, err)
	require.Equal(t, palaro.CheckInOK, res.Outcome)
	require.NoError(t, org.ChangeTicketEmail(ctx, eventID, kept.Tickets[1].Code, "friend@x.ph", "o@x.ph"))
	require.NoError(t, org.MarkRefunded(ctx, eventID, kept.PublicID, "o@x.ph"))
	gone, err := f.purchases.CreateOrder(ctx, seatRequest(code, "gone@x.ph", "B1", "B2"), f.now)
	require.NoError(t, err)
	require.NoError(t, org.CancelTicket(ctx, eventID, gone.Tickets[0].Code, "o@x.ph"))
	require.NoError(t, org.CancelTicket(ctx, eventID, gone.Tickets[1].Code, "o@x.ph"))

	require.Equal(t, []string{"order.paid", "ticket.checked_in", "ticket.transferred", "order.refunded", "order.paid", "order.cancelled"},
		f.deliveries(t, ep.ID))
	got, err := wh.ClaimDeliveries(ctx, f.now, 10, time.Minute)
	require.NoError(t, err)
	require.Len(t, got, 6)
	var ticket struct{ Data palaro.TicketView }
	require.NoError(t, json.Unmarshal(got[2].Body, &ticket))
	require.Equal(t, "friend@x.ph", ticket.Data.Email)
	require.Equal(t, kept.PublicID, ticket.Data.Order)
	var order struct{ Data palaro.OrderView }
	require.NoError(t, json.Unmarshal(got[3].Body, &order))
	require.Equal(t, palaro.OrderRefunded, order.Data.Status)

	// a place given back goes to the waiting list: its offer is waitlist.offered
	single := f.addTicketType(t, "hooks-single", 0, 1, 1)
	last, err := f.purchases.CreateOrder(ctx, freeRequest(single, 1, "last@x.ph"), f.now)
	require.NoError(t, err)
	_, err = NewWaitlistService(f.db, notify.NewComposer("https://palaro.test", "help@palaro.test")).
		Join(ctx, palaro.WaitlistJoin{TicketCode: single, Email: "waiting@x.ph", Quantity: 1}, f.now)
	require.NoError(t, err)
	require.NoError(t, org.CancelTicket(ctx, eventID, last.Tickets[0].Code, "o@x.ph"))
	got, err = wh.ClaimDeliveries(ctx, f.now, 10, time.Minute)
	require.NoError(t, err)
	var types []string
	var offer struct{ Data palaro.WaitlistOfferView }
	for _, d := range got {
		types = append(types, d.Type)
		if d.Type == palaro.WebhookWaitlistOffered {
			require.NoError(t, json.Unmarshal(d.Body, &offer))
		}
	}
	require.ElementsMatch(t, []string{"order.paid", "waitlist.offered", "order.cancelled"}, types)
	require.Equal(t, "waiting@x.ph", offer.Data.Email)
	require.Equal(t, single, offer.Data.TicketType)
	require.Equal(t, "tekken-tuesdays-cubao", offer.Data.Event)
}
