package sandbox_test

import (
	"bytes"
	"context"
	"encoding/base64"
	"image/png"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/PuerkitoBio/goquery"
	_ "github.com/mattn/go-sqlite3"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"palaro"
	"palaro/payment"
	"palaro/payment/paymenttest"
	"palaro/payment/qrph"
	"palaro/payment/sandbox"
	"palaro/store"
)

// webhookPath is where the fake app takes the sandbox's webhooks, as the real app will.
const webhookPath = "/v1/payment/webhook/sandbox"

// clock is a settable time shared by the provider and the fake app.
type clock struct {
	mu  sync.Mutex
	now time.Time
}

func (c *clock) Now() time.Time { c.mu.Lock(); defer c.mu.Unlock(); return c.now }

func (c *clock) Advance(d time.Duration) { c.mu.Lock(); c.now = c.now.Add(d); c.mu.Unlock() }

// delivery is one webhook request the fake app received, with what ParseWebhook made of it.
type delivery struct {
	Header string
	Body   []byte
	Event  palaro.PaymentEvent
	Err    error
}

// fixture is the app as the sandbox sees it: one loopback server with the sandbox pages mounted
// under /sandbox/, a webhook endpoint and a success page, over a real SQLite file.
type fixture struct {
	t        *testing.T
	db       *store.DB
	clock    *clock
	server   *httptest.Server
	client   *http.Client
	provider *sandbox.Provider

	mu         sync.Mutex
	failFirst  int
	deliveries []delivery
}

var secret = []byte("sandbox-webhook-secret")

func newFixture(t *testing.T) *fixture {
	db, err := store.Open(filepath.Join(t.TempDir(), "palaro.db"))
	require.NoError(t, err)
	t.Cleanup(func() { db.Close() })
	require.NoError(t, db.Migrate(context.Background()))
	f := &fixture{t: t, db: db, clock: &clock{now: testStart}}
	mux := http.NewServeMux()
	f.server = httptest.NewServer(mux)
	t.Cleanup(f.server.Close)
	f.client = &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	f.provider = f.newProvider()
	t.Cleanup(f.provider.Wait)
	mux.Handle(sandbox.PathPrefix, f.provider.Handler())
	mux.HandleFunc("POST "+webhookPath, f.receiveWebhook)
	mux.HandleFunc("GET /payment/success/{id}", func(w http.ResponseWriter, r *http.Request) { io.WriteString(w, "thanks") })
	return f
}

// newProvider builds a provider over the fixture's database, as the app does at each start.
func (f *fixture) newProvider() *sandbox.Provider {
	p, err := sandbox.New(sandbox.Config{
		BaseURL:     f.server.URL,
		WebhookURL:  f.server.URL + webhookPath,
		Secret:      secret,
		Store:       sandbox.NewSQLStoreIn(f.db.Reader(), f.db.Write),
		RetryDelays: []time.Duration{10 * time.Millisecond, 20 * time.Millisecond, 40 * time.Millisecond},
		Now:         f.clock.Now,
	})
	require.NoError(f.t, err)
	return p
}

func (f *fixture) receiveWebhook(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	header := r.Header.Get(payment.SignatureHeader)
	ev, err := f.provider.ParseWebhook(header, body, f.clock.Now())
	f.mu.Lock()
	f.deliveries = append(f.deliveries, delivery{Header: header, Body: body, Event: ev, Err: err})
	fail := len(f.deliveries) <= f.failFirst
	f.mu.Unlock()
	if fail {
		http.Error(w, "try later", http.StatusServiceUnavailable)
	}
}

// received waits for the deliveries in flight and returns every one received.
func (f *fixture) received() []delivery {
	f.provider.Wait()
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]delivery(nil), f.deliveries...)
}

func (f *fixture) checkout(paymentType string) palaro.CheckoutSession {
	s, err := f.provider.CreateCheckout(context.Background(), paymenttest.Checkout(f.server.URL, paymentType, f.clock.Now()))
	require.NoError(f.t, err)
	return s
}

func (f *fixture) get(url string) (*http.Response, *goquery.Document) {
	resp, err := f.client.Get(url)
	require.NoError(f.t, err)
	return resp, document(f.t, resp)
}

func (f *fixture) post(url string, form url.Values) (*http.Response, *goquery.Document) {
	resp, err := f.client.PostForm(url, form)
	require.NoError(f.t, err)
	return resp, document(f.t, resp)
}

func document(t *testing.T, resp *http.Response) *goquery.Document {
	defer resp.Body.Close()
	doc, err := goquery.NewDocumentFromReader(resp.Body)
	require.NoError(t, err)
	return doc
}

func card(number, expiry, cvc string) url.Values {
	return url.Values{"number": {number}, "expiry": {expiry}, "cvc": {cvc}, "name": {"Ana Cruz"}}
}

// future is an expiry date next year, as MM/YY.
// testStart is where the fixture's clock starts: the last minute of 2026 in Manila, when a card
// that expires "12/26" still has a minute left.
var testStart = time.Date(2026, 12, 31, 23, 59, 0, 0, palaro.Manila)

// future is an expiry date a year after testStart.
func future() string { return "12/" + testStart.AddDate(1, 0, 0).Format("06") }

func TestProvider_CardPayment(t *testing.T) {
	t.Run("OK", func(t *testing.T) {
		f := newFixture(t)
		s := f.checkout(palaro.PaymentCard)
		assert.Equal(t, f.server.URL+"/sandbox/checkout/"+s.ID, s.URL)

		resp, doc := f.get(s.URL)
		require.Equal(t, http.StatusOK, resp.StatusCode)
		assert.Equal(t, "no-store", resp.Header.Get("Cache-Control"))
		assert.Contains(t, doc.Find(".banner").Text(), "SANDBOX — no real money moves")
		assert.Equal(t, "width=device-width, initial-scale=1", doc.Find(`meta[name=viewport]`).AttrOr("content", ""))
		assert.Contains(t, doc.Find("tfoot").Text(), "₱3,250.00")
		for _, label := range []string{"Card number", "Expiry (MM/YY)", "CVC", "Name on card"} {
			id := doc.Find("label:contains('"+label+"')").AttrOr("for", "")
			assert.Equal(t, 1, doc.Find("input#"+id).Length(), "label %q is tied to an input", label)
		}
		assert.Zero(t, doc.Find("link, script[src], img[src^=http]").Length(), "no external resources")

		resp, _ = f.post(s.URL+"/card", card("4343 4343 4343 4345", future(), "123"))
		require.Equal(t, http.StatusSeeOther, resp.StatusCode)
		assert.Equal(t, f.server.URL+"/payment/success/ord_7Q2X9", resp.Header.Get("Location"))

		got := f.received()
		require.Len(t, got, 1)
		require.NoError(t, got[0].Err)
		assert.Regexp(t, `^t=\d+,te=[0-9a-f]{64},li=$`, got[0].Header)
		ev := got[0].Event
		assert.Regexp(t, `^evt_`, ev.ID)
		assert.Equal(t, s.ID, ev.SessionID)
		assert.Equal(t, "ord_7Q2X9", ev.OrderID)
		assert.Equal(t, palaro.PaymentPaid, ev.Status)
		assert.Equal(t, palaro.Money(325000), ev.Amount)
		assert.Equal(t, sandbox.MethodCard, ev.Method)

		status, err := f.provider.SessionStatus(context.Background(), s.ID)
		require.NoError(t, err)
		assert.Equal(t, palaro.PaymentPaid, status.Status)
		assert.Equal(t, palaro.Money(325000), status.Amount)
		assert.Equal(t, "ord_7Q2X9", status.OrderID)

		// Paying again (a double submit, the back button) changes nothing and sends nothing.
		resp, _ = f.post(s.URL+"/card", card("4343 4343 4343 4345", future(), "123"))
		assert.Equal(t, http.StatusSeeOther, resp.StatusCode)
		assert.Len(t, f.received(), 1)
		_, doc = f.get(s.URL)
		assert.Contains(t, doc.Find("h1").Text(), "Payment received")
	})
	t.Run("ErrDeclined", func(t *testing.T) {
		f := newFixture(t)
		s := f.checkout(palaro.PaymentCard)
		resp, doc := f.post(s.URL+"/card", card("4111 1111 1111 1111", future(), "123"))
		assert.Equal(t, http.StatusPaymentRequired, resp.StatusCode)
		assert.Equal(t, "Your card was declined.", doc.Find("[role=alert]").Text())
		assert.Equal(t, "4111 1111 1111 1111", doc.Find("#card-number").AttrOr("value", ""), "the number stays for a retry")
		assert.Equal(t, s.URL[len(f.server.URL):]+"/card", doc.Find("form").AttrOr("action", ""))
		assert.Equal(t, f.server.URL+"/b/upper-box", doc.Find("a.cancel").AttrOr("href", ""))
		assert.Empty(t, f.received())
		status, err := f.provider.SessionStatus(context.Background(), s.ID)
		require.NoError(t, err)
		assert.Equal(t, palaro.PaymentPending, status.Status)

		// The buyer retries with a good card.
		resp, _ = f.post(s.URL+"/card", card("4343434343434345", future(), "9999"))
		assert.Equal(t, http.StatusSeeOther, resp.StatusCode)
		assert.Len(t, f.received(), 1)
	})
	t.Run("ErrMalformed", func(t *testing.T) {
		f := newFixture(t)
		s := f.checkout(palaro.PaymentCard)
		resp, doc := f.post(s.URL+"/card", url.Values{"number": {"4343 4343 4343 4344"}, "expiry": {"01/20"}, "cvc": {"12"}, "name": {""}})
		assert.Equal(t, http.StatusUnprocessableEntity, resp.StatusCode)
		for id, msg := range map[string]string{
			"card-number": sandbox.MsgNumberInvalid, "card-expiry": sandbox.MsgExpired,
			"card-cvc": sandbox.MsgCVCFormat, "card-name": sandbox.MsgNameRequired,
		} {
			input := doc.Find("#" + id)
			assert.Equal(t, "true", input.AttrOr("aria-invalid", ""), id)
			assert.Equal(t, msg, doc.Find("#"+input.AttrOr("aria-describedby", "")).Text(), id)
		}
		assert.Empty(t, f.received())
	})
	t.Run("ErrWrongMethod", func(t *testing.T) {
		f := newFixture(t)
		s := f.checkout(palaro.PaymentQR)
		resp, _ := f.post(s.URL+"/card", card("4343 4343 4343 4345", future(), "123"))
		assert.Equal(t, http.StatusBadRequest, resp.StatusCode)
		assert.Empty(t, f.received())
	})
	t.Run("ErrCrossOrigin", func(t *testing.T) {
		f := newFixture(t)
		s := f.checkout(palaro.PaymentCard)
		req, err := http.NewRequest(http.MethodPost, s.URL+"/card", strings.NewReader(card("4343 4343 4343 4345", future(), "123").Encode()))
		require.NoError(t, err)
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		req.Header.Set("Sec-Fetch-Site", "cross-site")
		resp, err := f.client.Do(req)
		require.NoError(t, err)
		resp.Body.Close()
		assert.Equal(t, http.StatusForbidden, resp.StatusCode)
		assert.Empty(t, f.received())
	})
}

func TestProvider_QRPh(t *testing.T) {
	t.Run("OK", func(t *testing.T) {
		f := newFixture(t)
		s := f.checkout(palaro.PaymentQR)
		resp, doc := f.get(s.URL)
		require.Equal(t, http.StatusOK, resp.StatusCode)
		assert.Equal(t, "no-store", resp.Header.Get("Cache-Control"))
		assert.Contains(t, doc.Find(".banner").Text(), "SANDBOX")

		// The page shows the order's QR Ph payload (the qrph tests check its layout tag by tag).
		text := doc.Find("details code").Text()
		payload, err := qrph.Decode(text)
		require.NoError(t, err)
		want, err := qrph.Encode(qrph.Payment{AcquirerID: sandbox.AcquirerID, MerchantID: sandbox.MerchantID, MCC: sandbox.MerchantMCC,
			MerchantName: "PALARO", City: "MANILA", Amount: paymenttest.Total, Reference: paymenttest.OrderID})
		require.NoError(t, err)
		assert.Equal(t, want, text)
		amount, err := payload.Amount()
		require.NoError(t, err)
		assert.Equal(t, paymenttest.Total, amount)

		src := doc.Find("img.qr").AttrOr("src", "")
		require.True(t, strings.HasPrefix(src, "data:image/png;base64,"))
		raw, err := base64.StdEncoding.DecodeString(strings.TrimPrefix(src, "data:image/png;base64,"))
		require.NoError(t, err)
		img, err := png.Decode(bytes.NewReader(raw))
		require.NoError(t, err)
		assert.Equal(t, 300, img.Bounds().Dx())

		// The code lives 10 minutes, less than the order's 15-minute hold.
		assert.Equal(t, "10:00", doc.Find("#countdown").Text())
		assert.Equal(t, "600", doc.Find("#countdown").AttrOr("data-seconds", ""), "counted down from the seconds left, whatever the phone's clock says")

		button := doc.Find("form button")
		assert.Equal(t, "Simulate payment from wallet", button.Text())
		resp, _ = f.post(f.server.URL+doc.Find("form").AttrOr("action", ""), nil)
		require.Equal(t, http.StatusSeeOther, resp.StatusCode)
		assert.Equal(t, f.server.URL+"/payment/success/ord_7Q2X9", resp.Header.Get("Location"))

		got := f.received()
		require.Len(t, got, 1)
		require.NoError(t, got[0].Err)
		assert.Equal(t, palaro.PaymentPaid, got[0].Event.Status)
		assert.Equal(t, sandbox.MethodQRPh, got[0].Event.Method)
		assert.Equal(t, palaro.Money(325000), got[0].Event.Amount)
	})
	t.Run("ErrExpired", func(t *testing.T) {
		f := newFixture(t)
		s := f.checkout(palaro.PaymentQR)
		f.clock.Advance(10*time.Minute + time.Second)
		resp, doc := f.get(s.URL)
		assert.Equal(t, http.StatusGone, resp.StatusCode)
		assert.Equal(t, f.server.URL+"/b/upper-box", doc.Find("main a").AttrOr("href", ""))
		resp, _ = f.post(s.URL+"/wallet", nil)
		assert.Equal(t, http.StatusGone, resp.StatusCode)
		assert.Empty(t, f.received())
		status, err := f.provider.SessionStatus(context.Background(), s.ID)
		require.NoError(t, err)
		assert.Equal(t, palaro.PaymentExpired, status.Status)
	})
}

func TestProvider_Webhook(t *testing.T) {
	t.Run("OK_RetriedDeliveryKeepsEventID", func(t *testing.T) {
		f := newFixture(t)
		f.failFirst = 2
		s := f.checkout(palaro.PaymentCard)
		resp, _ := f.post(s.URL+"/card", card("4343 4343 4343 4345", future(), "123"))
		require.Equal(t, http.StatusSeeOther, resp.StatusCode)
		got := f.received()
		require.Len(t, got, 3, "two refusals, then a success")
		for _, d := range got {
			require.NoError(t, d.Err)
			assert.Equal(t, got[0].Event.ID, d.Event.ID, "the consumer dedupes by this id")
			assert.Equal(t, got[0].Body, d.Body)
		}
	})
	t.Run("OK_ConcurrentPaysSendOneEvent", func(t *testing.T) {
		f := newFixture(t)
		s := f.checkout(palaro.PaymentQR)
		var wg sync.WaitGroup
		for range 8 {
			wg.Go(func() {
				resp, err := f.client.PostForm(s.URL+"/wallet", nil)
				if assert.NoError(t, err) {
					resp.Body.Close()
					assert.Equal(t, http.StatusSeeOther, resp.StatusCode)
				}
			})
		}
		wg.Wait()
		assert.Len(t, f.received(), 1)
	})
	t.Run("ErrGivesUp", func(t *testing.T) {
		f := newFixture(t)
		f.failFirst = 100
		s := f.checkout(palaro.PaymentCard)
		f.post(s.URL+"/card", card("4343 4343 4343 4345", future(), "123"))
		assert.Len(t, f.received(), 4, "one attempt and three retries")
		// A lost webhook is what SessionStatus is for.
		status, err := f.provider.SessionStatus(context.Background(), s.ID)
		require.NoError(t, err)
		assert.Equal(t, palaro.PaymentPaid, status.Status)
	})
	t.Run("ErrForgedOrStale", func(t *testing.T) {
		f := newFixture(t)
		s := f.checkout(palaro.PaymentCard)
		f.post(s.URL+"/card", card("4343 4343 4343 4345", future(), "123"))
		got := f.received()
		require.Len(t, got, 1)
		d, now := got[0], f.clock.Now()

		_, err := f.provider.ParseWebhook(payment.Sign([]byte("guessed"), now, d.Body, false), d.Body, now)
		assert.Equal(t, palaro.EUNAUTHORIZED, palaro.ErrorCode(err), "forged")
		_, err = f.provider.ParseWebhook(d.Header, d.Body, now.Add(payment.SignatureTolerance+time.Minute))
		assert.Equal(t, palaro.EUNAUTHORIZED, palaro.ErrorCode(err), "stale")
		tampered := bytes.Replace(d.Body, []byte("325000"), []byte("100"), 1)
		_, err = f.provider.ParseWebhook(d.Header, tampered, now)
		assert.Equal(t, palaro.EUNAUTHORIZED, palaro.ErrorCode(err), "tampered")
		_, err = f.provider.ParseWebhook("", d.Body, now)
		assert.Equal(t, palaro.EUNAUTHORIZED, palaro.ErrorCode(err), "unsigned")
		malformed := []byte(`{"data":[]}`)
		_, err = f.provider.ParseWebhook(payment.Sign(secret, now, malformed, false), malformed, now)
		assert.Equal(t, palaro.EINVALID, palaro.ErrorCode(err), "malformed")
	})
}

func TestProvider_Sessions(t *testing.T) {
	t.Run("OK_SurvivesRestart", func(t *testing.T) {
		f := newFixture(t)
		s := f.checkout(palaro.PaymentCard)
		restarted := f.newProvider()
		status, err := restarted.SessionStatus(context.Background(), s.ID)
		require.NoError(t, err)
		assert.Equal(t, palaro.PaymentEvent{ID: s.ID + "/pending", SessionID: s.ID, OrderID: "ord_7Q2X9", Status: palaro.PaymentPending,
			OccurredAt: time.Unix(f.clock.Now().Unix(), 0)}, status)
		rec := httptest.NewRecorder()
		restarted.Handler().ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/sandbox/checkout/"+s.ID, nil))
		assert.Equal(t, http.StatusOK, rec.Code)
	})
	t.Run("ErrNotFound", func(t *testing.T) {
		f := newFixture(t)
		_, err := f.provider.SessionStatus(context.Background(), "cs_nope")
		assert.Equal(t, palaro.ENOTFOUND, palaro.ErrorCode(err))
		resp, doc := f.get(f.server.URL + "/sandbox/checkout/cs_nope")
		assert.Equal(t, http.StatusNotFound, resp.StatusCode)
		assert.Equal(t, "no-store", resp.Header.Get("Cache-Control"))
		assert.Contains(t, doc.Find("h1").Text(), "Checkout not found")
	})
	t.Run("ErrInvalidCheckout", func(t *testing.T) {
		f := newFixture(t)
		_, err := f.provider.CreateCheckout(context.Background(), palaro.Checkout{OrderID: "ord_1", PaymentType: palaro.PaymentCard})
		assert.Equal(t, palaro.EINVALID, palaro.ErrorCode(err))
		_, err = f.provider.CreateCheckout(context.Background(), palaro.Checkout{
			OrderID: strings.Repeat("x", 40), LineItems: []palaro.LineItem{{Name: "A", Amount: 100, Quantity: 1}}, Total: 100,
			PaymentType: palaro.PaymentQR, SuccessURL: "http://x/s", CancelURL: "http://x/c",
		})
		assert.Equal(t, palaro.EINVALID, palaro.ErrorCode(err), "a reference too long for QR Ph")
	})
}

func TestNew(t *testing.T) {
	store := &sandbox.SQLStore{}
	for name, cfg := range map[string]sandbox.Config{
		"ErrRelativeBaseURL": {BaseURL: "/", WebhookURL: "http://localhost/hook", Secret: secret, Store: store},
		"ErrNoWebhookURL":    {BaseURL: "http://localhost", Secret: secret, Store: store},
		"ErrNoSecret":        {BaseURL: "http://localhost", WebhookURL: "http://localhost/hook", Store: store},
		"ErrNoStore":         {BaseURL: "http://localhost", WebhookURL: "http://localhost/hook", Secret: secret},
	} {
		t.Run(name, func(t *testing.T) {
			_, err := sandbox.New(cfg)
			assert.Equal(t, palaro.EINVALID, palaro.ErrorCode(err))
		})
	}
}

func TestProvider_Wallet(t *testing.T) {
	decide := func(f *fixture, s palaro.CheckoutSession, decision string) *http.Response {
		resp, _ := f.post(s.URL+"/authorize", url.Values{"decision": {decision}})
		return resp
	}
	t.Run("OK_Approve", func(t *testing.T) {
		f := newFixture(t)
		s := f.checkout(palaro.PaymentGCash)
		assert.Equal(t, "pi_"+strings.TrimPrefix(s.ID, "cs_"), s.IntentID)
		resp, doc := f.get(s.URL)
		require.Equal(t, http.StatusOK, resp.StatusCode)
		assert.Equal(t, "Authorize ₱3,250.00 to Palaro — GCash", doc.Find("h1").Text())
		account := doc.Find(".card strong").First().Text()
		assert.Regexp(t, `^09•• ••• \d{4}$`, account)
		var buttons []string
		doc.Find("form.decisions button").Each(func(_ int, b *goquery.Selection) { buttons = append(buttons, b.Text()) })
		assert.Equal(t, []string{"Approve", "Decline", "Let it expire"}, buttons)

		resp = decide(f, s, "approve")
		require.Equal(t, http.StatusSeeOther, resp.StatusCode)
		assert.Equal(t, f.server.URL+"/payment/success/ord_7Q2X9", resp.Header.Get("Location"))
		got := f.received()
		require.Len(t, got, 1)
		require.NoError(t, got[0].Err)
		ev := got[0].Event
		assert.Equal(t, palaro.PaymentPaid, ev.Status)
		assert.Equal(t, sandbox.MethodGCash, ev.Method)
		assert.Equal(t, account[len(account)-4:], ev.Account, "the order page can say which account paid")
		assert.Equal(t, "GCash ending "+ev.Account, palaro.PaidWith(ev.Method, ev.Account))

		resp = decide(f, s, "approve")
		assert.Equal(t, http.StatusSeeOther, resp.StatusCode, "a second approval sends the buyer on")
		assert.Len(t, f.received(), 1, "and pays nothing twice")
	})
	t.Run("OK_DeclineThenApprove", func(t *testing.T) {
		f := newFixture(t)
		s := f.checkout(palaro.PaymentMaya)
		resp := decide(f, s, "decline")
		require.Equal(t, http.StatusSeeOther, resp.StatusCode)
		assert.Equal(t, f.server.URL+"/payment/success/ord_7Q2X9", resp.Header.Get("Location"))
		got := f.received()
		require.Len(t, got, 1)
		require.NoError(t, got[0].Err)
		assert.Equal(t, palaro.PaymentFailed, got[0].Event.Status)
		assert.Equal(t, s.IntentID, got[0].Event.IntentID, "a failed payment names the intent")
		assert.Equal(t, sandbox.MethodMaya, got[0].Event.Method)
		status, err := f.provider.SessionStatus(context.Background(), s.ID)
		require.NoError(t, err)
		assert.Equal(t, palaro.PaymentPending, status.Status, "the buyer may try again")

		require.Equal(t, http.StatusSeeOther, decide(f, s, "approve").StatusCode)
		got = f.received()
		require.Len(t, got, 2)
		assert.Equal(t, palaro.PaymentPaid, got[1].Event.Status)
	})
	t.Run("OK_Expire", func(t *testing.T) {
		f := newFixture(t)
		s := f.checkout(palaro.PaymentGrabPay)
		resp := decide(f, s, "expire")
		require.Equal(t, http.StatusSeeOther, resp.StatusCode)
		got := f.received()
		require.Len(t, got, 1)
		require.NoError(t, got[0].Err)
		assert.Equal(t, palaro.PaymentExpired, got[0].Event.Status)
		status, err := f.provider.SessionStatus(context.Background(), s.ID)
		require.NoError(t, err)
		assert.Equal(t, palaro.PaymentExpired, status.Status)
		assert.Equal(t, status.ID, got[0].Event.ID, "the webhook and the reconciliation apply the expiry once")

		resp, _ = f.get(s.URL)
		assert.Equal(t, http.StatusGone, resp.StatusCode)
		assert.Equal(t, http.StatusGone, decide(f, s, "approve").StatusCode, "an expired authorization cannot be approved")
		require.Equal(t, http.StatusSeeOther, decide(f, s, "expire").StatusCode)
		assert.Len(t, f.received(), 2, "expiring again sends the same event, which the app applies once")
	})
	t.Run("ErrNotAWallet", func(t *testing.T) {
		f := newFixture(t)
		s := f.checkout(palaro.PaymentCard)
		assert.Equal(t, http.StatusBadRequest, decide(f, s, "approve").StatusCode)
		s = f.checkout(palaro.PaymentShopeePay)
		assert.Equal(t, http.StatusBadRequest, decide(f, s, "maybe").StatusCode)
		assert.Empty(t, f.received())
	})
}
