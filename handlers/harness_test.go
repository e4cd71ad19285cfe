package handlers

import (
	"context"
	"io"
	"log/slog"
	"net/http"
	"net/http/cookiejar"
	"net/http/httptest"
	"net/url"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"palaro"
	"palaro/internal/testdb"
	"palaro/notify"
	"palaro/queue"
	"palaro/static"
	"palaro/store"
)

// testServer is a Server on a fresh SQLite file.
type testServer struct {
	*Server
	db       *store.DB
	accounts *store.AccountService
}

func newTestServer(t *testing.T) *testServer {
	t.Helper()
	db, err := store.Open(testdb.URL(t))
	require.NoError(t, err)
	t.Cleanup(func() { db.Close() })
	// The clock stands still at a fixed instant, Wednesday 4 March 2026, 10:00 in Manila: dates
	// read the same at any hour, and rate-limit buckets do not refill while a slow run (-race on
	// a loaded machine) sends its requests.
	stopped := time.Date(2026, 3, 4, 10, 0, 0, 0, palaro.Manila)
	db.Now = func() time.Time { return stopped }
	require.NoError(t, db.Migrate(context.Background()))
	ts := &testServer{db: db}
	key := []byte("0123456789abcdef0123456789abcdef")
	ts.accounts = store.NewAccountService(db, key, notify.NewComposer("http://palaro.test", ""))
	services := Services{Events: store.NewEventService(db), Accounts: ts.accounts, Activities: store.NewActivityService(db)}
	completeServices(t, db, &services)
	ts.Server = New(Config{BaseURL: "http://palaro.test", SessionKey: key}, services, static.Default(),
		slog.New(slog.NewTextHandler(io.Discard, nil)))
	ts.Server.Now = db.Now
	return ts
}

// lastMessage returns the newest outbox message on channel to recipient.
func (ts *testServer) lastMessage(t *testing.T, channel, to string) palaro.Message {
	t.Helper()
	msgs, err := store.NewOutboxService(ts.db).ListOutbox(context.Background(), palaro.OutboxFilter{To: to})
	require.NoError(t, err)
	for _, m := range msgs {
		if m.Channel == channel {
			return m.Message
		}
	}
	t.Fatalf("no %s message to %s", channel, to)
	return palaro.Message{}
}

// client is a browser-like visitor: a cookie jar, an IP address and the last CSRF token seen.
type client struct {
	t    *testing.T
	ts   *testServer
	jar  *cookiejar.Jar
	ip   string
	csrf string
}

func (ts *testServer) client(t *testing.T, ip string) *client {
	jar, err := cookiejar.New(nil)
	require.NoError(t, err)
	return &client{t: t, ts: ts, jar: jar, ip: ip}
}

var siteURL, _ = url.Parse("http://palaro.test/")

var metaCSRF = regexp.MustCompile(`<meta name="csrf-token" content="([^"]*)"`)

type response struct {
	*httptest.ResponseRecorder
	body string
}

func (c *client) do(req *http.Request) response {
	c.t.Helper()
	req.RemoteAddr = c.ip + ":40000"
	for _, ck := range c.jar.Cookies(siteURL) {
		req.AddCookie(ck)
	}
	rec := httptest.NewRecorder()
	c.ts.ServeHTTP(rec, req)
	c.jar.SetCookies(siteURL, rec.Result().Cookies())
	body := rec.Body.String()
	if m := metaCSRF.FindStringSubmatch(body); m != nil {
		c.csrf = m[1]
	}
	return response{rec, body}
}

func (c *client) get(path string) response {
	c.t.Helper()
	return c.do(httptest.NewRequest(http.MethodGet, path, nil))
}

// post sends a form with the CSRF token (fetching a page first when none was seen yet) and,
// like a browser, loads the page a 303 redirect points to; it returns the POST's response.
func (c *client) post(path string, form url.Values) response {
	c.t.Helper()
	if c.csrf == "" {
		c.get("/sign-in")
	}
	form.Set("_csrf", c.csrf)
	req := httptest.NewRequest(http.MethodPost, path, strings.NewReader(form.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	return c.follow(c.do(req))
}

// follow loads the target of a 303 redirect on this site, as a browser does.
func (c *client) follow(r response) response {
	if loc := r.Header().Get("Location"); r.Code == http.StatusSeeOther && strings.HasPrefix(loc, "/") {
		c.get(loc)
	}
	return r
}

// postJSON sends a JSON body with the X-CSRF-Token header.
func (c *client) postJSON(path, body string) response {
	c.t.Helper()
	if c.csrf == "" {
		c.get("/sign-in")
	}
	req := httptest.NewRequest(http.MethodPost, path, strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("X-CSRF-Token", c.csrf)
	return c.do(req)
}

// signUp creates an account through the form, confirms its mobile number with the code sent to
// it by SMS (when one was: a number another account uses gets none) and leaves the client signed in.
func (c *client) signUp(email, mobile string) response {
	c.t.Helper()
	r := c.post("/sign-up", url.Values{"email": {email}, "password": {"secret123"}, "repeatPassword": {"secret123"},
		"firstName": {"Juan"}, "lastName": {"Dela Cruz"}, "mobileNumber": {mobile}, "terms": {"1"}})
	require.Equal(c.t, http.StatusSeeOther, r.Code, r.body)
	if n, ok := palaro.NormalizeMobileNumber(mobile); ok {
		if sms := c.ts.smsTo(c.t, n); len(sms) > 0 {
			confirmed := c.post("/profile/mobile", url.Values{"code": {smsCode.FindStringSubmatch(sms[0])[1]}})
			require.Equal(c.t, http.StatusSeeOther, confirmed.Code, confirmed.body)
		}
	}
	return r
}

func (c *client) signIn(email, password string) response {
	c.t.Helper()
	return c.post("/sign-in", url.Values{"email": {email}, "password": {password}})
}

// sessionCookie returns the client's session cookie value.
func (c *client) sessionCookie() string {
	for _, ck := range c.jar.Cookies(siteURL) {
		if ck.Name == sessionCookie {
			return ck.Value
		}
	}
	return ""
}

// withCookie returns a new client that replays a session cookie value.
func (c *client) withCookie(value string) *client {
	o := c.ts.client(c.t, c.ip)
	o.jar.SetCookies(siteURL, []*http.Cookie{{Name: sessionCookie, Value: value, Path: "/"}})
	return o
}

// completeServices sets every required service that sv lacks to the store's, on db, as
// cmd/palaro wires them, so that New accepts it; the payment provider is one that collects
// nothing (a checkout fails), unless the test sets its own.
func completeServices(t testing.TB, db *store.DB, sv *Services) {
	t.Helper()
	composer := notify.NewComposer("http://palaro.test", "help@palaro.test")
	events := store.NewEventService(db)
	activities := store.NewActivityService(db)
	if sv.Mail == nil {
		sv.Mail = store.NewEventMailService(db, composer)
	}
	if sv.Queues == nil {
		queues := queue.NewManager(store.NewQueueStore(db))
		require.NoError(t, queues.Load(context.Background()))
		sv.Queues = queues
	}
	if sv.Events == nil {
		sv.Events = events
	}
	if sv.TicketTypes == nil {
		sv.TicketTypes = events
	}
	if sv.Accounts == nil {
		sv.Accounts = store.NewAccountService(db, []byte("0123456789abcdef0123456789abcdef"), composer)
	}
	if sv.Purchases == nil {
		sv.Purchases = store.NewPurchaseService(db, composer, 15*time.Minute)
	}
	if sv.Waitlist == nil {
		sv.Waitlist = store.NewWaitlistService(db, composer)
	}
	if sv.Seats == nil {
		sv.Seats = store.NewSeatService(db)
	}
	if sv.Series == nil {
		sv.Series = store.NewSeriesService(db)
	}
	if sv.Returns == nil {
		sv.Returns = store.NewReturnsService(db, composer)
	}
	if sv.Payments == nil {
		sv.Payments = noPayments{}
	}
	if sv.Organizers == nil {
		sv.Organizers = store.NewOrganizerService(db, composer)
	}
	if sv.Refunds == nil {
		sv.Refunds = store.NewRefundService(db, composer)
	}
	if sv.CheckIns == nil {
		sv.CheckIns = store.NewCheckInService(db)
	}
	if sv.Webhooks == nil {
		sv.Webhooks = store.NewWebhookService(db, composer)
	}
	if sv.Activities == nil {
		sv.Activities = activities
	}
	if sv.ActivityAdmin == nil {
		sv.ActivityAdmin = activities
	}
	if sv.News == nil {
		sv.News = store.NewNewsService(db)
	}
	if sv.Operators == nil {
		sv.Operators = store.NewOperatorService(db)
	}
}

// noPayments is a payment provider that collects nothing: every checkout fails.
type noPayments struct{}

func (noPayments) Name() string { return "none" }
func (noPayments) Live() bool   { return false }
func (noPayments) CreateCheckout(context.Context, palaro.Checkout) (palaro.CheckoutSession, error) {
	return palaro.CheckoutSession{}, palaro.Errorf(palaro.EINTERNAL, "Payments are not available in this test.")
}
func (noPayments) ParseWebhook(string, []byte, time.Time) (palaro.PaymentEvent, error) {
	return palaro.PaymentEvent{}, palaro.Errorf(palaro.ENOTFOUND, "Unknown payment provider.")
}
func (noPayments) SessionStatus(context.Context, string) (palaro.PaymentEvent, error) {
	return palaro.PaymentEvent{}, palaro.Errorf(palaro.ENOTFOUND, "No such checkout.")
}
func (noPayments) Refund(context.Context, palaro.RefundRequest) (palaro.RefundResult, error) {
	return palaro.RefundResult{}, palaro.Errorf(palaro.EINVALID, "Payments are not available in this test.")
}
