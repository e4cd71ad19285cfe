package paymongo_test

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"palaro"
	"palaro/payment"
	"palaro/payment/paymenttest"
	"palaro/payment/paymongo"
)

const (
	secretKey     = "sk_test_PalaroFakeKey"
	webhookSecret = "whsk_PalaroFakeSecret"
)

// fakePayMongo answers the Checkout Sessions API as PayMongo documents it and records the
// requests it gets.
type fakePayMongo struct {
	t        *testing.T
	server   *httptest.Server
	mu       sync.Mutex
	requests []recorded
	// sessions are the checkout sessions GET returns, as raw JSON resources by id.
	sessions map[string]string
}

type recorded struct {
	Method, Path, Auth, ContentType string
	Body                            map[string]any
}

func newFake(t *testing.T) *fakePayMongo {
	f := &fakePayMongo{t: t, sessions: map[string]string{}}
	mux := http.NewServeMux()
	mux.HandleFunc("POST /v2/checkout_sessions", f.create)
	mux.HandleFunc("GET /v2/checkout_sessions/{id}", f.retrieve)
	f.server = httptest.NewServer(f.record(mux))
	t.Cleanup(f.server.Close)
	return f
}

func (f *fakePayMongo) record(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		raw, _ := io.ReadAll(r.Body)
		r.Body = io.NopCloser(bytes.NewReader(raw))
		rec := recorded{Method: r.Method, Path: r.URL.Path, Auth: r.Header.Get("Authorization"), ContentType: r.Header.Get("Content-Type")}
		if len(raw) > 0 {
			require.NoError(f.t, json.Unmarshal(raw, &rec.Body))
		}
		f.mu.Lock()
		f.requests = append(f.requests, rec)
		f.mu.Unlock()
		if rec.Auth != "Basic "+base64.StdEncoding.EncodeToString([]byte(secretKey+":")) {
			w.WriteHeader(http.StatusUnauthorized)
			io.WriteString(w, `{"errors":[{"code":"api_key_invalid","detail":"API key sk_test_… is invalid."}]}`)
			return
		}
		next.ServeHTTP(w, r)
	})
}

func (f *fakePayMongo) create(w http.ResponseWriter, r *http.Request) {
	var in struct {
		Data struct {
			Attributes map[string]any `json:"attributes"`
		} `json:"data"`
	}
	require.NoError(f.t, json.NewDecoder(r.Body).Decode(&in))
	attrs := in.Data.Attributes
	for _, m := range attrs["payment_method_types"].([]any) {
		if !strings.Contains(" card gcash paymaya qrph grab_pay shopee_pay billease dob ", " "+m.(string)+" ") {
			w.WriteHeader(http.StatusBadRequest)
			io.WriteString(w, `{"errors":[{"code":"parameter_invalid","detail":"payment_method_types contains an invalid value.","source":{"pointer":"payment_method_types","attribute":"payment_method_types"}}]}`)
			return
		}
	}
	attrs["checkout_url"] = "https://checkout.paymongo.com/cs_5f3a9b0c1d2e3f4a5b6c7d8e#fake"
	attrs["status"] = "active"
	attrs["livemode"] = false
	attrs["payments"] = []any{}
	attrs["payment_intent"] = map[string]any{"id": "pi_fake", "type": "payment_intent", "attributes": map[string]any{"amount": 325000, "currency": "PHP", "status": "awaiting_payment_method"}}
	out, _ := json.Marshal(map[string]any{"data": map[string]any{"id": "cs_5f3a9b0c1d2e3f4a5b6c7d8e", "type": "checkout_session", "attributes": attrs}})
	w.Header().Set("Content-Type", "application/json")
	w.Write(out)
}

func (f *fakePayMongo) retrieve(w http.ResponseWriter, r *http.Request) {
	resource, ok := f.sessions[r.PathValue("id")]
	if !ok {
		w.WriteHeader(http.StatusNotFound)
		io.WriteString(w, `{"errors":[{"code":"resource_not_found","detail":"No such checkout_session with id "}]}`)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	io.WriteString(w, `{"data":`+resource+`}`)
}

func (f *fakePayMongo) last() recorded {
	f.mu.Lock()
	defer f.mu.Unlock()
	require.NotEmpty(f.t, f.requests)
	return f.requests[len(f.requests)-1]
}

func newProvider(t *testing.T, f *fakePayMongo, key string, live bool) *paymongo.Provider {
	p, err := paymongo.New(paymongo.Config{APIBase: f.server.URL, SecretKey: key, WebhookSecret: webhookSecret, Live: live})
	require.NoError(t, err)
	return p
}

func checkout(paymentType string) palaro.Checkout {
	return paymenttest.Checkout("https://palaro.ph", paymentType, time.Now())
}

func TestProvider_CreateCheckout(t *testing.T) {
	t.Run("OK", func(t *testing.T) {
		f := newFake(t)
		p := newProvider(t, f, secretKey, false)
		s, err := p.CreateCheckout(context.Background(), checkout(palaro.PaymentCard))
		require.NoError(t, err)
		assert.Equal(t, palaro.CheckoutSession{ID: "cs_5f3a9b0c1d2e3f4a5b6c7d8e", URL: "https://checkout.paymongo.com/cs_5f3a9b0c1d2e3f4a5b6c7d8e#fake", IntentID: "pi_fake"}, s)

		req := f.last()
		assert.Equal(t, "POST", req.Method)
		assert.Equal(t, "/v2/checkout_sessions", req.Path)
		assert.Equal(t, "application/json", req.ContentType)
		assert.Equal(t, map[string]any{"data": map[string]any{"attributes": map[string]any{
			"line_items": []any{
				map[string]any{"name": "Upper Box", "amount": 150000.0, "currency": "PHP", "quantity": 2.0},
				map[string]any{"name": "Rally towel", "amount": 25000.0, "currency": "PHP", "quantity": 1.0},
			},
			"payment_method_types": []any{"card", "gcash", "paymaya"},
			"success_url":          "https://palaro.ph/payment/success/ord_7Q2X9",
			"cancel_url":           "https://palaro.ph/b/upper-box",
			"reference_number":     "ord_7Q2X9",
			"description":          "MPL Season Finals",
			"send_email_receipt":   false,
			"billing":              map[string]any{"email": "ana@example.ph", "name": "Ana Cruz"},
		}}}, req.Body)
	})
	t.Run("OK_QRPh", func(t *testing.T) {
		f := newFake(t)
		_, err := newProvider(t, f, secretKey, false).CreateCheckout(context.Background(), checkout(palaro.PaymentQR))
		require.NoError(t, err)
		attrs := f.last().Body["data"].(map[string]any)["attributes"].(map[string]any)
		assert.Equal(t, []any{"qrph"}, attrs["payment_method_types"])
	})
	t.Run("OK_Wallets", func(t *testing.T) {
		for paymentType, method := range map[string]string{palaro.PaymentGCash: "gcash", palaro.PaymentMaya: "paymaya",
			palaro.PaymentGrabPay: "grab_pay", palaro.PaymentShopeePay: "shopee_pay"} {
			f := newFake(t)
			s, err := newProvider(t, f, secretKey, false).CreateCheckout(context.Background(), checkout(paymentType))
			require.NoError(t, err, paymentType)
			assert.Equal(t, "pi_fake", s.IntentID)
			attrs := f.last().Body["data"].(map[string]any)["attributes"].(map[string]any)
			assert.Equal(t, []any{method}, attrs["payment_method_types"], "%s offers its wallet alone", paymentType)
			assert.Equal(t, "https://palaro.ph/payment/success/ord_7Q2X9", attrs["success_url"], "the wallet sends the buyer back to the order")
			assert.Equal(t, "https://palaro.ph/b/upper-box", attrs["cancel_url"])
			assert.Equal(t, "ord_7Q2X9", attrs["reference_number"])
		}
	})
	t.Run("ErrUnknownType", func(t *testing.T) {
		f := newFake(t)
		_, err := newProvider(t, f, secretKey, false).CreateCheckout(context.Background(), checkout("PAYPAL"))
		assert.Equal(t, palaro.EINVALID, palaro.ErrorCode(err))
		assert.Empty(t, f.requests, "nothing is sent")
	})
	t.Run("ErrInvalid", func(t *testing.T) {
		f := newFake(t)
		c := checkout(palaro.PaymentCard)
		c.Total = 1
		_, err := newProvider(t, f, secretKey, false).CreateCheckout(context.Background(), c)
		assert.Equal(t, palaro.EINVALID, palaro.ErrorCode(err))
		assert.Empty(t, f.requests, "nothing is sent")
	})
	t.Run("ErrRefused", func(t *testing.T) {
		f := newFake(t)
		p, err := paymongo.New(paymongo.Config{APIBase: f.server.URL, SecretKey: secretKey, WebhookSecret: webhookSecret,
			MethodTypes: map[string][]string{palaro.PaymentCard: {"card", "bitcoin"}}})
		require.NoError(t, err)
		_, err = p.CreateCheckout(context.Background(), checkout(palaro.PaymentCard))
		assert.Equal(t, palaro.EINVALID, palaro.ErrorCode(err))
		assert.Contains(t, palaro.ErrorMessage(err), "payment_method_types contains an invalid value.")
	})
	t.Run("ErrBadKey", func(t *testing.T) {
		f := newFake(t)
		_, err := newProvider(t, f, "sk_test_wrong", false).CreateCheckout(context.Background(), checkout(palaro.PaymentCard))
		require.Error(t, err)
		assert.Equal(t, palaro.EINTERNAL, palaro.ErrorCode(err))
		assert.Contains(t, err.Error(), "api_key_invalid")
		assert.Equal(t, "Internal Server Error", palaro.ErrorMessage(err), "details stay out of the buyer's sight")
	})
	t.Run("ErrUnreachable", func(t *testing.T) {
		f := newFake(t)
		p := newProvider(t, f, secretKey, false)
		f.server.Close()
		_, err := p.CreateCheckout(context.Background(), checkout(palaro.PaymentCard))
		assert.Equal(t, palaro.EINTERNAL, palaro.ErrorCode(err))
	})
}

// session is a retrieved checkout session resource with the given payment parts.
func session(status, intentStatus, payments string) string {
	return `{"id":"cs_5f3a","type":"checkout_session","attributes":{
		"billing":{"email":"ana@example.ph","name":"Ana Cruz","phone":null,"address":{}},
		"checkout_url":"https://checkout.paymongo.com/cs_5f3a",
		"line_items":[{"amount":325000,"currency":"PHP","name":"Order","quantity":1}],
		"livemode":false,
		"payment_intent":{"id":"pi_1","type":"payment_intent","attributes":{"amount":325000,"currency":"PHP","status":"` + intentStatus + `"}},
		"payment_method_types":["qrph"],
		"payment_method_used":` + map[bool]string{true: `"qrph"`, false: `null`}[payments != ""] + `,
		"payments":[` + payments + `],
		"reference_number":"ord_7Q2X9",
		"send_email_receipt":false,
		"status":"` + status + `",
		"created_at":1760000000,"updated_at":1760000090}}`
}

func TestProvider_SessionStatus(t *testing.T) {
	paid := `{"id":"pay_1","type":"payment","attributes":{"amount":325000,"currency":"PHP","status":"paid","paid_at":1760000090,"source":{"id":"src_1","type":"qrph"}}}`
	failed := `{"id":"pay_0","type":"payment","attributes":{"amount":325000,"currency":"PHP","status":"failed","source":{"id":"src_0","type":"qrph"}}}`
	cases := map[string]struct {
		resource string
		want     palaro.PaymentEvent
	}{
		"OK_Paid": {session("active", "succeeded", failed+","+paid), palaro.PaymentEvent{ID: "cs_5f3a/paid", SessionID: "cs_5f3a", OrderID: "ord_7Q2X9",
			Status: palaro.PaymentPaid, Amount: 325000, Currency: "PHP", Method: "qrph", OccurredAt: time.Unix(1760000090, 0)}},
		"OK_Pending": {session("active", "awaiting_payment_method", ""), palaro.PaymentEvent{ID: "cs_5f3a/pending", SessionID: "cs_5f3a", OrderID: "ord_7Q2X9",
			Status: palaro.PaymentPending, OccurredAt: time.Unix(1760000090, 0)}},
		"OK_Expired": {session("expired", "awaiting_payment_method", ""), palaro.PaymentEvent{ID: "cs_5f3a/expired", SessionID: "cs_5f3a", OrderID: "ord_7Q2X9",
			Status: palaro.PaymentExpired, OccurredAt: time.Unix(1760000090, 0)}},
		"OK_Failed": {session("expired", "awaiting_payment_method", failed), palaro.PaymentEvent{ID: "cs_5f3a/failed", SessionID: "cs_5f3a", OrderID: "ord_7Q2X9",
			Status: palaro.PaymentFailed, Method: "qrph", OccurredAt: time.Unix(1760000090, 0)}},
	}
	for name, c := range cases {
		t.Run(name, func(t *testing.T) {
			f := newFake(t)
			f.sessions["cs_5f3a"] = c.resource
			ev, err := newProvider(t, f, secretKey, false).SessionStatus(context.Background(), "cs_5f3a")
			require.NoError(t, err)
			assert.Equal(t, c.want, ev)
			req := f.last()
			assert.Equal(t, "GET", req.Method)
			assert.Equal(t, "/v2/checkout_sessions/cs_5f3a", req.Path)
		})
	}
	t.Run("ErrNotFound", func(t *testing.T) {
		f := newFake(t)
		_, err := newProvider(t, f, secretKey, false).SessionStatus(context.Background(), "cs_missing")
		assert.Equal(t, palaro.ENOTFOUND, palaro.ErrorCode(err))
	})
	t.Run("ErrPathInjection", func(t *testing.T) {
		f := newFake(t)
		f.sessions["cs_5f3a"] = session("active", "succeeded", paid)
		_, err := newProvider(t, f, secretKey, false).SessionStatus(context.Background(), "../checkout_sessions/cs_5f3a")
		assert.Equal(t, palaro.ENOTFOUND, palaro.ErrorCode(err))
	})
}

func TestProvider_ParseWebhook(t *testing.T) {
	now := time.Unix(1760000100, 0)
	body := []byte(`{"data":{"id":"evt_Zq81","type":"event","attributes":{"type":"checkout_session.payment.paid","livemode":false,"data":` +
		session("active", "succeeded", `{"id":"pay_1","type":"payment","attributes":{"amount":325000,"currency":"PHP","status":"paid","paid_at":1760000090,"source":{"id":"src_1","type":"qrph"}}}`) +
		`,"previous_data":{},"created_at":1760000091,"updated_at":1760000091}}}`)
	f := newFake(t)
	t.Run("OK_TestMode", func(t *testing.T) {
		ev, err := newProvider(t, f, secretKey, false).ParseWebhook(payment.Sign([]byte(webhookSecret), now, body, false), body, now)
		require.NoError(t, err)
		assert.Equal(t, palaro.PaymentEvent{ID: "evt_Zq81", SessionID: "cs_5f3a", OrderID: "ord_7Q2X9", Status: palaro.PaymentPaid,
			Amount: 325000, Currency: "PHP", Method: "qrph", OccurredAt: time.Unix(1760000091, 0)}, ev)
	})
	t.Run("OK_LiveMode", func(t *testing.T) {
		ev, err := newProvider(t, f, secretKey, true).ParseWebhook(payment.Sign([]byte(webhookSecret), now, body, true), body, now)
		require.NoError(t, err)
		assert.Equal(t, "evt_Zq81", ev.ID)
	})
	t.Run("ErrTestSignatureInLiveMode", func(t *testing.T) {
		_, err := newProvider(t, f, secretKey, true).ParseWebhook(payment.Sign([]byte(webhookSecret), now, body, false), body, now)
		assert.Equal(t, palaro.EUNAUTHORIZED, palaro.ErrorCode(err))
	})
	t.Run("ErrSignedWithAPIKey", func(t *testing.T) {
		_, err := newProvider(t, f, secretKey, false).ParseWebhook(payment.Sign([]byte(secretKey), now, body, false), body, now)
		assert.Equal(t, palaro.EUNAUTHORIZED, palaro.ErrorCode(err))
	})
	t.Run("ErrStale", func(t *testing.T) {
		_, err := newProvider(t, f, secretKey, false).ParseWebhook(payment.Sign([]byte(webhookSecret), now, body, false), body, now.Add(6*time.Minute))
		assert.Equal(t, palaro.EUNAUTHORIZED, palaro.ErrorCode(err))
	})
}

// walletEvent is a webhook delivery of the given type carrying data, as PayMongo sends it.
func walletEvent(eventType, data string) []byte {
	return []byte(`{"data":{"id":"evt_W4ll","type":"event","attributes":{"type":"` + eventType + `","livemode":false,"data":` + data +
		`,"previous_data":{},"created_at":1760000095,"updated_at":1760000095}}}`)
}

func TestProvider_ParseWebhook_Wallets(t *testing.T) {
	now := time.Unix(1760000100, 0)
	p := newProvider(t, newFake(t), secretKey, false)
	parse := func(body []byte) (palaro.PaymentEvent, error) {
		return p.ParseWebhook(payment.Sign([]byte(webhookSecret), now, body, false), body, now)
	}
	t.Run("OK_GCashPaid", func(t *testing.T) {
		resource := strings.Replace(session("active", "succeeded",
			`{"id":"pay_g1","type":"payment","attributes":{"amount":325000,"currency":"PHP","status":"paid","paid_at":1760000090,"source":{"id":"src_g1","type":"gcash"},"payment_intent_id":"pi_1"}}`),
			`"payment_method_used":"qrph"`, `"payment_method_used":"gcash"`, 1)
		ev, err := parse(walletEvent("checkout_session.payment.paid", resource))
		require.NoError(t, err)
		assert.Equal(t, palaro.PaymentEvent{ID: "evt_W4ll", SessionID: "cs_5f3a", OrderID: "ord_7Q2X9", Status: palaro.PaymentPaid,
			Amount: 325000, Currency: "PHP", Method: "gcash", OccurredAt: time.Unix(1760000095, 0)}, ev)
		assert.Equal(t, "GCash", palaro.PaidWith(ev.Method, ev.Account))
	})
	t.Run("OK_MayaFailed", func(t *testing.T) {
		ev, err := parse(walletEvent("payment.failed",
			`{"id":"pay_m1","type":"payment","attributes":{"amount":325000,"currency":"PHP","status":"failed","failed_code":"payment_declined","source":{"id":"src_m1","type":"paymaya","last4":"4321"},"payment_intent_id":"pi_1"}}`))
		require.NoError(t, err)
		assert.Equal(t, palaro.PaymentEvent{ID: "evt_W4ll", IntentID: "pi_1", Status: palaro.PaymentFailed,
			Amount: 325000, Currency: "PHP", Method: "paymaya", Account: "4321", OccurredAt: time.Unix(1760000095, 0)}, ev)
	})
	t.Run("ErrFailedWithoutIntent", func(t *testing.T) {
		_, err := parse(walletEvent("payment.failed", `{"id":"pay_m1","type":"payment","attributes":{"status":"failed"}}`))
		assert.Equal(t, palaro.EINVALID, palaro.ErrorCode(err))
	})
	t.Run("ErrPaymentPaid", func(t *testing.T) {
		// payment.paid duplicates checkout_session.payment.paid: register only the two the app reads
		_, err := parse(walletEvent("payment.paid", `{"id":"pay_m1","type":"payment","attributes":{"status":"paid","payment_intent_id":"pi_1"}}`))
		assert.Equal(t, palaro.EINVALID, palaro.ErrorCode(err))
	})
}

func TestNew(t *testing.T) {
	for name, cfg := range map[string]paymongo.Config{
		"ErrNoSecretKey":     {WebhookSecret: webhookSecret},
		"ErrNoWebhookSecret": {SecretKey: secretKey},
		"ErrRelativeAPIBase": {APIBase: "api.paymongo.com", SecretKey: secretKey, WebhookSecret: webhookSecret},
	} {
		t.Run(name, func(t *testing.T) {
			_, err := paymongo.New(cfg)
			assert.Equal(t, palaro.EINVALID, palaro.ErrorCode(err))
		})
	}
	p, err := paymongo.New(paymongo.Config{SecretKey: secretKey, WebhookSecret: webhookSecret})
	require.NoError(t, err)
	assert.Equal(t, "paymongo", p.Name())
	assert.True(t, strings.HasPrefix(paymongo.DefaultAPIBase, "https://"))
}
