package handlers_test

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"palaro"
	"palaro/handlers"
	"palaro/payment"
	"palaro/payment/sandbox"
)

var webhookSecret = []byte("test-webhook-secret")

// withSandbox wires the sandbox provider, delivering its webhooks to webhookPath of the test
// server ("" for the real webhook route; anything else simulates a lost webhook).
func withSandbox(t *testing.T, webhookPath string) (*apiFixture, *sandbox.Provider) {
	t.Helper()
	var provider *sandbox.Provider
	f := newAPIFixture(t, func(s *handlers.Services) {
		s.Payments = &lateProvider{get: func() palaro.PaymentProvider { return provider }}
		s.PaymentPages = http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { provider.Handler().ServeHTTP(w, r) })
	})
	if webhookPath == "" {
		webhookPath = "/v1/payment/webhook/sandbox"
	}
	sessions := sandbox.NewSQLStoreIn(f.db.Reader(), f.db.Write)
	var err error
	provider, err = sandbox.New(sandbox.Config{BaseURL: f.http.URL, WebhookURL: f.http.URL + webhookPath, Secret: webhookSecret,
		Store: sessions, RetryDelays: []time.Duration{}, Now: func() time.Time { return f.now }})
	require.NoError(t, err)
	t.Cleanup(provider.Wait)
	return f, provider
}

// lateProvider forwards to a provider built after the server (it needs the server's URL).
type lateProvider struct{ get func() palaro.PaymentProvider }

func (p *lateProvider) Name() string { return p.get().Name() }
func (p *lateProvider) CreateCheckout(ctx context.Context, c palaro.Checkout) (palaro.CheckoutSession, error) {
	return p.get().CreateCheckout(ctx, c)
}
func (p *lateProvider) ParseWebhook(h string, body []byte, now time.Time) (palaro.PaymentEvent, error) {
	return p.get().ParseWebhook(h, body, now)
}
func (p *lateProvider) SessionStatus(ctx context.Context, id string) (palaro.PaymentEvent, error) {
	return p.get().SessionStatus(ctx, id)
}
func (p *lateProvider) Live() bool { return p.get().Live() }
func (p *lateProvider) Refund(ctx context.Context, r palaro.RefundRequest) (palaro.RefundResult, error) {
	return p.get().Refund(ctx, r)
}

// buyPaid buys 2 Dota 2 general admission tickets by QR and returns the order and its checkout URL.
func buyPaid(t *testing.T, f *apiFixture, source string) (*palaro.Order, string) {
	t.Helper()
	status, body := f.call(t, "POST", "/v1/ticket/buy", map[string]any{"ticketCode": "dota-2-visayas-major-gen",
		"quantity": 2, "email": "payer@x.ph", "paymentType": "QR", "source": source})
	require.Equal(t, 200, status, body)
	o, err := f.purchases.FindOrderByPublicID(context.Background(), body["orderId"].(string))
	require.NoError(t, err)
	require.Equal(t, palaro.OrderPending, o.Status)
	return o, body["redirectUrl"].(string)
}

// payByWallet simulates the wallet paying a QR Ph checkout page.
func payByWallet(t *testing.T, checkoutURL string) {
	t.Helper()
	client := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	resp, err := client.Post(checkoutURL+"/wallet", "application/x-www-form-urlencoded", strings.NewReader(""))
	require.NoError(t, err)
	resp.Body.Close()
	require.Equal(t, http.StatusSeeOther, resp.StatusCode)
}

func TestAPI_PaidOrderAndWebhook(t *testing.T) {
	ctx := context.Background()
	t.Run("OK checkout, webhook issues tickets and one e-mail", func(t *testing.T) {
		f, provider := withSandbox(t, "")
		o, checkout := buyPaid(t, f, "ESPORTS50")
		require.True(t, strings.HasPrefix(checkout, f.http.URL+"/sandbox/checkout/"), checkout)
		require.Equal(t, palaro.Money(2*35000-5000), o.Total)
		require.Equal(t, "sandbox", o.Provider)
		payByWallet(t, checkout)
		provider.Wait()
		got, err := f.purchases.FindOrderByPublicID(ctx, o.PublicID)
		require.NoError(t, err)
		require.Equal(t, palaro.OrderPaid, got.Status)
		require.Len(t, got.Tickets, 2)
		msgs, err := f.outbox.ListOutbox(ctx, palaro.OutboxFilter{To: "payer@x.ph"})
		require.NoError(t, err)
		require.Len(t, msgs, 1, "exactly one confirmation e-mail")
		require.Equal(t, "Your tickets for Dota 2 Visayas Major", msgs[0].Subject)
		for _, tk := range got.Tickets {
			require.Contains(t, msgs[0].Text, f.http.URL+"/t/"+tk.PublicID)
		}
		require.Contains(t, msgs[0].Text, "Promo ESPORTS50: -₱50.00")
	})
	t.Run("OK redelivered webhook changes nothing", func(t *testing.T) {
		f, provider := withSandbox(t, "")
		o, checkout := buyPaid(t, f, "")
		payByWallet(t, checkout)
		provider.Wait()
		// replay the provider's event as a redelivery would
		ev, err := provider.SessionStatus(ctx, o.ProviderRef)
		require.NoError(t, err)
		for range 2 {
			_, err = f.purchases.ConfirmPayment(ctx, "sandbox", false, ev)
			require.NoError(t, err)
		}
		got, err := f.purchases.FindOrderByPublicID(ctx, o.PublicID)
		require.NoError(t, err)
		require.Len(t, got.Tickets, 2)
		msgs, err := f.outbox.ListOutbox(ctx, palaro.OutboxFilter{To: "payer@x.ph"})
		require.NoError(t, err)
		require.Len(t, msgs, 1)
	})
	t.Run("OK lost webhook: reconciliation finds the payment", func(t *testing.T) {
		f, provider := withSandbox(t, "/lost")
		o, checkout := buyPaid(t, f, "")
		payByWallet(t, checkout)
		provider.Wait()
		got, err := f.purchases.FindOrderByPublicID(ctx, o.PublicID)
		require.NoError(t, err)
		require.Equal(t, palaro.OrderPending, got.Status, "the webhook never arrived")
		n, err := palaro.ReconcilePayments(ctx, f.purchases, provider, f.now.Add(3*time.Minute))
		require.NoError(t, err)
		require.Equal(t, 1, n)
		got, err = f.purchases.FindOrderByPublicID(ctx, o.PublicID)
		require.NoError(t, err)
		require.Equal(t, palaro.OrderPaid, got.Status)
		require.Len(t, got.Tickets, 2)
	})
	t.Run("ErrUnauthorized bad signature", func(t *testing.T) {
		f, _ := withSandbox(t, "")
		body := `{"data":{"id":"evt_x","type":"event","attributes":{"type":"checkout_session.payment.paid"}}}`
		for _, header := range []string{"", "t=1,te=00", payment.Sign([]byte("wrong"), f.now, []byte(body), false),
			payment.Sign(webhookSecret, f.now.Add(-time.Hour), []byte(body), false)} {
			req, _ := http.NewRequest("POST", f.http.URL+"/v1/payment/webhook/sandbox", strings.NewReader(body))
			req.Header.Set(payment.SignatureHeader, header)
			resp, err := http.DefaultClient.Do(req)
			require.NoError(t, err)
			resp.Body.Close()
			require.Equal(t, 401, resp.StatusCode, header)
		}
	})
	t.Run("ErrNotFound unknown provider", func(t *testing.T) {
		f, _ := withSandbox(t, "")
		status, body := f.call(t, "POST", "/v1/payment/webhook/stripe", "{}")
		require.Equal(t, 404, status)
		require.Equal(t, "Unknown payment provider.", body["message"])
	})
}

// signedPaidEvent is a checkout_session.payment.paid webhook for session, referencing order,
// paid amount in currency, in live or test mode, signed with the sandbox's secret at now.
func signedPaidEvent(t *testing.T, id, session, order string, amount palaro.Money, currency string, live bool, now time.Time) (string, []byte) {
	t.Helper()
	body, err := json.Marshal(payment.Event{Data: payment.EventData{ID: id, Type: "event", Attributes: payment.EventAttributes{
		Type: payment.EventCheckoutPaid, Livemode: live, CreatedAt: now.Unix(),
		Data: payment.CheckoutSession{ID: session, Type: "checkout_session", Attributes: payment.CheckoutSessionAttributes{
			ReferenceNumber: order, Livemode: live, Status: payment.SessionActive,
			Payments: []payment.Payment{{ID: "pay_" + id, Attributes: payment.PaymentAttributes{
				Amount: amount, Currency: currency, Status: payment.PaymentStatusPaid, PaidAt: now.Unix()}}},
		}},
	}}})
	require.NoError(t, err)
	return payment.Sign(webhookSecret, now, body, false), body // the slot of the secret the provider holds
}

func TestAPI_WebhookMatchesStrictly(t *testing.T) {
	ctx := context.Background()
	f, _ := withSandbox(t, "/lost")
	o, _ := buyPaid(t, f, "")
	post := func(header string, body []byte) (int, string) {
		req, _ := http.NewRequest("POST", f.http.URL+"/v1/payment/webhook/sandbox", bytes.NewReader(body))
		req.Header.Set(payment.SignatureHeader, header)
		resp, err := http.DefaultClient.Do(req)
		require.NoError(t, err)
		defer resp.Body.Close()
		raw, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, string(raw)
	}
	refusal := func(id string) string {
		var reason string
		require.NoError(t, f.db.Writer().QueryRow(`SELECT refused FROM payment_events WHERE event_id = ?`, id).Scan(&reason))
		return reason
	}
	for name, c := range map[string]struct {
		id, session, currency string
		amount                palaro.Money
		live                  bool
		status                int
		reason                string
	}{
		"another session, our reference number": {"evt_ref", "cs_other", "PHP", o.Total, false, 200, "no order has checkout session"},
		"another currency":                      {"evt_usd", o.ProviderRef, "USD", o.Total, false, 400, `currency "USD" is not PHP`},
		"live mode for a test-mode provider":    {"evt_live", o.ProviderRef, "PHP", o.Total, true, 400, "a live-mode event"},
		"another amount":                        {"evt_amt", o.ProviderRef, "PHP", o.Total - 100, false, 400, "amount"},
	} {
		t.Run("ErrRefused "+name, func(t *testing.T) {
			header, body := signedPaidEvent(t, c.id, c.session, o.PublicID, c.amount, c.currency, c.live, f.now)
			for range 2 { // a redelivery is refused again
				status, raw := post(header, body)
				require.Equal(t, c.status, status, raw)
			}
			got, err := f.purchases.FindOrderByPublicID(ctx, o.PublicID)
			require.NoError(t, err)
			require.Equal(t, palaro.OrderPending, got.Status, "the order is untouched")
			require.Empty(t, got.Tickets)
			require.Contains(t, refusal(c.id), c.reason, "stored as refused for the operator")
		})
	}
	t.Run("OK the provider's session, amount, PHP and test mode", func(t *testing.T) {
		header, body := signedPaidEvent(t, "evt_ok", o.ProviderRef, o.PublicID, o.Total, "PHP", false, f.now)
		status, raw := post(header, body)
		require.Equal(t, 200, status, raw)
		got, err := f.purchases.FindOrderByPublicID(ctx, o.PublicID)
		require.NoError(t, err)
		require.Equal(t, palaro.OrderPaid, got.Status)
		require.Len(t, got.Tickets, 2)
		require.Empty(t, refusal("evt_ok"))
		refused, err := f.purchases.ListPaymentEvents(ctx, palaro.PaymentEventFilter{Refused: true})
		require.NoError(t, err)
		require.Len(t, refused, 4, "the operator lists the refused events")
	})
}

// TestAPI_WebhookTwentyAtOnce proves a gateway delivering one paid event twenty times at once
// (retries in parallel) over HTTP fulfils the order once: every delivery is answered 200, and the
// order has its two tickets, one confirmation e-mail and one recorded event.
func TestAPI_WebhookTwentyAtOnce(t *testing.T) {
	ctx := context.Background()
	f, _ := withSandbox(t, "/lost") // the sandbox's own delivery is lost: only ours arrive
	o, _ := buyPaid(t, f, "")
	header, body := signedPaidEvent(t, "evt_twenty", o.ProviderRef, o.PublicID, o.Total, "PHP", false, f.now)
	start := make(chan struct{})
	statuses := make(chan int, 20)
	var wg sync.WaitGroup
	for range 20 {
		wg.Go(func() {
			<-start
			req, _ := http.NewRequest("POST", f.http.URL+"/v1/payment/webhook/sandbox", bytes.NewReader(body))
			req.Header.Set(payment.SignatureHeader, header)
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				statuses <- 0
				return
			}
			resp.Body.Close()
			statuses <- resp.StatusCode
		})
	}
	close(start)
	wg.Wait()
	close(statuses)
	for status := range statuses {
		require.Equal(t, 200, status)
	}
	got, err := f.purchases.FindOrderByPublicID(ctx, o.PublicID)
	require.NoError(t, err)
	require.Equal(t, palaro.OrderPaid, got.Status)
	require.Len(t, got.Tickets, 2)
	var tickets, events int
	require.NoError(t, f.db.Writer().QueryRow(`SELECT (SELECT count(*) FROM tickets WHERE order_id = ?),
		(SELECT count(*) FROM payment_events WHERE event_id = 'evt_twenty')`, got.ID).Scan(&tickets, &events))
	require.Equal(t, 2, tickets, "tickets issued once")
	require.Equal(t, 1, events)
	msgs, err := f.outbox.ListOutbox(ctx, palaro.OutboxFilter{To: "payer@x.ph"})
	require.NoError(t, err)
	require.Len(t, msgs, 1, "one confirmation e-mail")
}
