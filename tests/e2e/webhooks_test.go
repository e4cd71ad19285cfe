package e2e

import (
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"palaro/internal/app"
	"palaro/internal/testdb"
	"palaro/store"
)

// receiver is an organizer's webhook endpoint: it checks each delivery's signature the way
// docs/API.md shows, answers 500 to the first failFirst attempts of each event, and keeps the
// events it accepted.
type receiver struct {
	*httptest.Server
	t         *testing.T
	failFirst int
	// hold, when not nil, keeps every request unanswered until it is closed.
	hold chan struct{}

	mu       sync.Mutex
	secret   string
	attempts map[string]int // event id → requests
	accepted map[string]int // event id → 2xx answers
	orders   map[string]int // order id → accepted order.paid deliveries (a duplicate counts)
	bad      []string
}

func newReceiver(t *testing.T, failFirst int) *receiver {
	r := &receiver{t: t, failFirst: failFirst, attempts: map[string]int{}, accepted: map[string]int{}, orders: map[string]int{}}
	r.Server = httptest.NewServer(http.HandlerFunc(r.serve)) // on 127.0.0.1
	t.Cleanup(r.Close)
	return r
}

// verify is the receiver's signature check: HMAC-SHA256 of "<t>.<raw body>" with the secret.
func verify(secret, header string, body []byte) bool {
	var ts, sig string
	for _, part := range strings.Split(header, ",") {
		k, v, _ := strings.Cut(part, "=")
		switch k {
		case "t":
			ts = v
		case "v1":
			sig = v
		}
	}
	if _, err := strconv.ParseInt(ts, 10, 64); err != nil {
		return false
	}
	mac := hmac.New(sha256.New, []byte(secret))
	mac.Write([]byte(ts + "." + string(body)))
	return hmac.Equal([]byte(hex.EncodeToString(mac.Sum(nil))), []byte(sig))
}

func (r *receiver) serve(w http.ResponseWriter, req *http.Request) {
	body, _ := io.ReadAll(req.Body)
	if r.hold != nil {
		<-r.hold
		if req.Context().Err() != nil {
			return // its sender died meanwhile: it never learns of an answer
		}
	}
	var ev struct {
		ID, Type  string
		CreatedAt time.Time
		Data      struct{ ID, Status string }
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if !verify(r.secret, req.Header.Get("Palaro-Signature"), body) || json.Unmarshal(body, &ev) != nil || ev.ID == "" || ev.CreatedAt.IsZero() {
		r.bad = append(r.bad, req.Header.Get("Palaro-Signature")+" "+string(body))
		w.WriteHeader(http.StatusBadRequest)
		return
	}
	r.attempts[ev.ID]++
	if r.attempts[ev.ID] <= r.failFirst {
		w.WriteHeader(http.StatusInternalServerError)
		return
	}
	r.accepted[ev.ID]++
	if ev.Type == "order.paid" && ev.Data.Status == "paid" {
		r.orders[ev.Data.ID]++
	}
	w.WriteHeader(http.StatusOK)
}

// got returns how many order.paid events the receiver accepted for each order.
func (r *receiver) got() map[string]int {
	r.mu.Lock()
	defer r.mu.Unlock()
	out := map[string]int{}
	for k, v := range r.orders {
		out[k] = v
	}
	require.Empty(r.t, r.bad, "every delivery carries a valid signature")
	return out
}

// registerWebhook registers the receiver for order.paid with the organizer API and keeps its secret.
func registerWebhook(t *testing.T, v *httpVisitor, tok string, r *receiver) string {
	t.Helper()
	status, body := v.send(http.MethodPost, "/v1/organizer/webhooks", "application/json",
		`{"url": "`+r.URL+`/hook", "events": ["order.paid"]}`, tok)
	require.Equal(t, http.StatusCreated, status, body)
	var created struct {
		ID, URL, Secret string
		Events          []string
		Active          bool
	}
	require.NoError(t, json.Unmarshal([]byte(body), &created))
	require.Equal(t, []string{"order.paid"}, created.Events)
	require.True(t, created.Active)
	require.NotEmpty(t, created.Secret)
	r.mu.Lock()
	r.secret = created.Secret
	r.mu.Unlock()
	status, body = v.send(http.MethodGet, "/v1/organizer/webhooks", "", "", tok)
	require.Equal(t, http.StatusOK, status, body)
	require.Contains(t, body, created.ID)
	require.NotContains(t, body, created.Secret, "the secret is shown once")
	return created.ID
}

// freeTicketType adds a free ticket type to the demo organization's event and returns its code.
func freeTicketType(t *testing.T, v *httpVisitor, tok string) string {
	t.Helper()
	status, body := v.send(http.MethodPost, "/v1/organizer/events/"+demoOwnedEvent+"/ticket-types", "application/json",
		`{"code":"hooks-free","name":"Free pass","price":0,"capacity":100,"maxPurchasable":1}`, tok)
	require.Equal(t, http.StatusCreated, status, body)
	return "hooks-free"
}

// buyFree places a free order (paid at once) as a new buyer and returns its id.
func buyFree(t *testing.T, ta *testApp, ticket string, i int) string {
	t.Helper()
	status, body := newVisitor(t, ta).postJSON("/v1/ticket/buy", `{"ticketCode": "`+ticket+`", "quantity": 1, "email": "hooks`+
		strconv.Itoa(i)+`@buyers.palaro.test", "firstName": "Juan", "lastName": "Dela Cruz", "mobileNumber": "09171234567"}`)
	require.Equal(t, http.StatusOK, status, body)
	var answer struct{ OrderID string }
	require.NoError(t, json.Unmarshal([]byte(body), &answer))
	require.NotEmpty(t, answer.OrderID, body)
	return answer.OrderID
}

// TestWebhooks_OrderPaid_AfterTwoFailures: every paid (free) order reaches the receiver as
// order.paid with a valid signature, once, although the receiver answers 500 to the first two
// attempts of each: the retries come after their backoff (the app's clock is moved on instead of
// waiting), with the same event id. The console lists the deliveries.
func TestWebhooks_OrderPaid_AfterTwoFailures(t *testing.T) {
	var ahead atomic.Int64 // how far the test has moved the app's clock on
	clock := clockFrom(testEpoch)
	a := startApp(t, func(cfg *app.Config) {
		cfg.WebhookAllowPrivate = true
		cfg.Now = func() time.Time { return clock().Add(time.Duration(ahead.Load())) }
	})
	jobs, stop := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { a.RunJobs(jobs); close(done) }()
	t.Cleanup(func() { stop(); <-done })

	r := newReceiver(t, 2)
	tok := organizerToken(t, a, store.DemoOrganizerEmail, "--organization", "2")
	v := newVisitor(t, a)
	id := registerWebhook(t, v, tok, r)
	ticket := freeTicketType(t, v, tok)
	var orders []string
	for i := range 3 {
		orders = append(orders, buyFree(t, a, ticket, 7000+i))
	}
	deadline := time.Now().Add(45 * time.Second)
	for len(r.got()) < len(orders) && time.Now().Before(deadline) {
		ahead.Add(int64(2 * time.Minute)) // past the 30 s and 1 min backoffs of the first two failures
		time.Sleep(300 * time.Millisecond)
	}
	time.Sleep(1500 * time.Millisecond) // a duplicate would come now
	got := r.got()
	for _, o := range orders {
		require.Equal(t, 1, got[o], "order %s reached the receiver once: %v", o, got)
	}
	require.Len(t, got, len(orders))
	r.mu.Lock()
	for ev, n := range r.attempts {
		require.Equal(t, 3, n, "event %s: two 500s, then accepted, then never again", ev)
	}
	r.mu.Unlock()

	owner := signedIn(t, a, store.DemoOrganizerEmail)
	status, page := owner.get("/organizer/webhooks/" + id)
	require.Equal(t, http.StatusOK, status)
	require.Equal(t, 3, strings.Count(page, "answered 200"), "each delivery's last answer")
	require.Contains(t, page, "3 attempts")
}

// TestWebhooks_PrivateAddressRefused: without PALARO_WEBHOOK_ALLOW_PRIVATE an endpoint on a
// loopback, private, link-local or metadata address, or over plain http, is refused by the API
// and the console, naming the url field.
func TestWebhooks_PrivateAddressRefused(t *testing.T) {
	a := startApp(t)
	tok := organizerToken(t, a, store.DemoOrganizerEmail, "--organization", "2")
	v := newVisitor(t, a)
	for _, u := range []string{"https://127.0.0.1:8443/hook", "https://localhost/hook", "https://10.0.0.8/hook",
		"https://192.168.1.20/hook", "https://169.254.169.254/latest/meta-data", "https://[::1]/hook", "http://hooks.example.com/x"} {
		status, body := v.send(http.MethodPost, "/v1/organizer/webhooks", "application/json", `{"url": "`+u+`", "events": ["order.paid"]}`, tok)
		require.Equal(t, http.StatusBadRequest, status, u)
		require.Contains(t, body, `"url"`, u)
	}
	status, body := v.send(http.MethodGet, "/v1/organizer/webhooks", "", "", tok)
	require.Equal(t, http.StatusOK, status)
	require.JSONEq(t, `{"webhooks": []}`, body)

	owner := signedIn(t, a, store.DemoOrganizerEmail)
	status, page := owner.post("/organizer/webhooks", url.Values{"url": {"https://127.0.0.1/hook"}, "events": {"order.paid"}})
	require.Equal(t, http.StatusUnprocessableEntity, status)
	require.Contains(t, page, "webhooks go to public addresses only")
}

// TestWebhooks_KilledBetweenCommitAndDelivery: bin/palaro commits a paid order and is killed
// (SIGKILL) before its webhook is delivered; started again on the same database it delivers the
// order.paid it had queued with the order, once.
func TestWebhooks_KilledBetweenCommitAndDelivery(t *testing.T) {
	bin := buildPalaro(t)
	dbURL := testdb.URL(t)
	env := []string{"PALARO_DB=" + dbURL, "PALARO_DEMO=1", "PALARO_WEBHOOK_ALLOW_PRIVATE=1"}
	r := newReceiver(t, 0)
	r.hold = make(chan struct{}) // nothing is accepted while the first server lives
	first := startServe(t, bin, env...)
	ta := &testApp{URL: first.url, DBPath: dbURL}
	out, err := runCommand(t, dbURL, first.url, "tokens", "create", "--organizer", store.DemoOrganizerEmail, "--organization", "2")
	require.NoError(t, err)
	tok := tokenPattern.FindString(out)
	v := newVisitor(t, ta)
	registerWebhook(t, v, tok, r)
	ticket := freeTicketType(t, v, tok)
	order := buyFree(t, ta, ticket, 7100)
	require.NoError(t, first.cmd.Process.Kill()) // committed, not delivered: the receiver answers nothing yet
	<-first.done
	close(r.hold)
	require.Empty(t, r.got())

	second := startServe(t, bin, env...)
	deadline := time.Now().Add(50 * time.Second) // a delivery the first server had claimed waits out its 30 s lease
	for len(r.got()) == 0 && time.Now().Before(deadline) {
		time.Sleep(200 * time.Millisecond)
	}
	time.Sleep(2 * time.Second) // a duplicate would come now
	require.Equal(t, map[string]int{order: 1}, r.got(), "delivered by %s after the restart", second.url)
}

var tokenPattern = regexp.MustCompile(`plr_[A-Za-z0-9_-]+`)
