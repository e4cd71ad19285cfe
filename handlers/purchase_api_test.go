package handlers_test

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/cookiejar"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"palaro"
	"palaro/handlers"
	"palaro/internal/testdb"
	"palaro/notify"
	"palaro/static"
	"palaro/store"
)

// apiFixture is the HTTP server on a real SQLite database with the demo data.
type apiFixture struct {
	db        *store.DB
	purchases *store.PurchaseService
	outbox    *store.OutboxService
	server    *handlers.Server
	services  handlers.Services
	http      *httptest.Server
	now       time.Time
	// client keeps the session cookie; csrf is the session's token, sent as X-CSRF-Token.
	client *http.Client
	csrf   string
}

const partnerKey, partnerSecret = "partner1", "s3cret"

func newAPIFixture(t *testing.T, configure ...func(*handlers.Services)) *apiFixture {
	t.Helper()
	ctx := context.Background()
	db, err := store.Open(testdb.URL(t))
	require.NoError(t, err)
	t.Cleanup(func() { db.Close() })
	require.NoError(t, db.Migrate(ctx))
	now := testNow.UTC()
	db.Now = func() time.Time { return now }
	require.NoError(t, db.SeedDemo(ctx, now))
	f := &apiFixture{db: db, now: now, outbox: store.NewOutboxService(db)}
	f.http = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { f.server.ServeHTTP(w, r) }))
	t.Cleanup(f.http.Close)
	f.purchases = store.NewPurchaseService(db, notify.NewComposer(f.http.URL, "help@palaro.test"), 15*time.Minute)
	events := store.NewEventService(db)
	f.services = handlers.Services{Events: events, TicketTypes: events, Purchases: f.purchases, Seats: store.NewSeatService(db)}
	for _, c := range configure {
		c(&f.services)
	}
	handlers.CompleteServices(t, db, &f.services)
	f.server = handlers.New(handlers.Config{BaseURL: f.http.URL, PartnerKeys: map[string]string{partnerKey: partnerSecret}},
		f.services, static.Default(), slog.New(slog.NewTextHandler(io.Discard, nil)))
	f.server.Now = func() time.Time { return f.now }
	f.client, f.csrf = openSession(t, f.http.URL)
	return f
}

// openSession returns a client with a session of its own on the server at base, and its CSRF token.
func openSession(t *testing.T, base string) (*http.Client, string) {
	t.Helper()
	jar, err := cookiejar.New(nil)
	require.NoError(t, err)
	client := &http.Client{Jar: jar, CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	// As a cached public page's script does: the token comes from /v1/csrf, which starts the session.
	resp, err := client.Get(base + "/v1/csrf")
	require.NoError(t, err)
	var got struct{ Token string }
	require.NoError(t, json.NewDecoder(resp.Body).Decode(&got))
	resp.Body.Close()
	require.Regexp(t, `^[A-Za-z0-9_-]{40,}$`, got.Token, "the session's CSRF token")
	return client, got.Token
}

// call sends a request with an optional JSON body and decodes the JSON answer.
func (f *apiFixture) call(t *testing.T, method, path string, body any) (int, map[string]any) {
	t.Helper()
	var r io.Reader
	if s, ok := body.(string); ok {
		r = strings.NewReader(s)
	} else if body != nil {
		b, err := json.Marshal(body)
		require.NoError(t, err)
		r = bytes.NewReader(b)
	}
	req, err := http.NewRequest(method, f.http.URL+path, r)
	require.NoError(t, err)
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("X-CSRF-Token", f.csrf)
	resp, err := f.client.Do(req)
	require.NoError(t, err)
	defer resp.Body.Close()
	var out map[string]any
	raw, _ := io.ReadAll(resp.Body)
	if strings.HasPrefix(resp.Header.Get("Content-Type"), "application/json") {
		require.NoError(t, json.Unmarshal(raw, &out), string(raw))
	}
	return resp.StatusCode, out
}

func TestAPI_TicketType(t *testing.T) {
	f := newAPIFixture(t)
	t.Run("OK details, rules and promo", func(t *testing.T) {
		status, body := f.call(t, "GET", "/v1/ticket_type?eventCode=mlbb-manila-showdown&ticketTypeCode=mlbb-manila-showdown-vip&source=PALARO10", nil)
		require.Equal(t, 200, status)
		require.Equal(t, "mlbb-manila-showdown-vip", body["code"])
		require.EqualValues(t, 360000, body["price"])
		require.EqualValues(t, 306000, body["finalPrice"])
		require.EqualValues(t, 0.15, body["discount"])
		require.EqualValues(t, 2, body["maxPurchasable"])
		require.EqualValues(t, 0, body["quantity"], "the demo VIP passes are sold out")
		require.Equal(t, []any{"QR", "CARD", "GCASH", "MAYA"}, body["paymentTypes"], "every demo ticket type with a price offers GCash and Maya")
		require.Equal(t, "Pay by QR PH", body["payments"].([]any)[0].(map[string]any)["label"])
		require.Equal(t, map[string]any{"type": "GCASH", "label": "Pay with GCash", "wallet": true}, body["payments"].([]any)[2])
		require.NotEmpty(t, body["addOns"])
		ev := body["event"].(map[string]any)
		require.Equal(t, "mlbb-manila-showdown", ev["code"])
		require.Equal(t, []any{"firstName", "lastName", "mobileNumber", "email"}, ev["requiredFields"])
		require.Equal(t, "Which team are you cheering for?", ev["surveyQuestion"])
		promo := body["promo"].(map[string]any)
		require.Equal(t, "PALARO10", promo["code"])
		require.Equal(t, "10% off", promo["description"])
		var fields []string
		for _, r := range body["rules"].([]any) {
			fields = append(fields, r.(map[string]any)["field"].(string))
		}
		require.Equal(t, []string{"email", "quantity", "firstName", "lastName", "mobileNumber", "disclaimerAccepted"}, fields)
	})
	t.Run("OK quantity available and survey", func(t *testing.T) {
		status, body := f.call(t, "GET", "/v1/ticket_type?ticketTypeCode=valorant-night-market-bgc-team", nil)
		require.Equal(t, 200, status)
		require.EqualValues(t, 32-27, body["quantity"])
		require.Equal(t, true, body["withSurvey"])
		rules := body["rules"].([]any)
		survey := rules[len(rules)-1].(map[string]any)
		require.Equal(t, "surveyAnswer", survey["field"])
		require.Equal(t, []any{"Iron to Gold", "Platinum to Diamond", "Ascendant and up"}, survey["options"])
	})
	t.Run("OK seats lock the quantity", func(t *testing.T) {
		seats := freeSeats(t, f, "mlbb-manila-showdown-lower", 2)
		status, body := f.call(t, "GET", "/v1/ticket_type?ticketTypeCode=mlbb-manila-showdown-lower&seats="+strings.Join(seats, ","), nil)
		require.Equal(t, 200, status)
		q := body["rules"].([]any)[1].(map[string]any)
		require.Equal(t, true, q["locked"])
		require.Nil(t, body["promo"])
	})
	t.Run("ErrInvalid seats", func(t *testing.T) {
		taken := takenSeat(t, f, "mlbb-manila-showdown-lower")
		for _, tc := range []struct {
			query   string
			status  int
			message string
		}{
			{"mlbb-manila-showdown-lower&seats=Z9", 400, "Seat Z9 does not exist. Please choose a seat on the map."},
			{"mlbb-manila-showdown-lower&seats=A1,B1,C1,D1,E1,F1,G1", 400, "Maximum ticket limit per user is 6."},
			{"mlbb-manila-showdown-lower&seats=A1,a-1", 400, `"A-1" is not a seat.`},
			{"mlbb-manila-showdown-lower&seats=" + taken, 409, "Seat " + taken + " was just taken. Please choose another seat."},
			{"mlbb-manila-showdown-gen&seats=A1", 400, "General Admission has no assigned seats."},
		} {
			status, body := f.call(t, "GET", "/v1/ticket_type?ticketTypeCode="+tc.query, nil)
			require.Equal(t, tc.status, status, tc.query)
			require.Equal(t, tc.message, body["message"])
		}
	})
	t.Run("ErrNotFound unknown codes", func(t *testing.T) {
		for _, path := range []string{
			"/v1/ticket_type?ticketTypeCode=nope",
			"/v1/ticket_type?ticketTypeCode=",
			"/v1/ticket_type?eventCode=tekken-tuesdays-cubao&ticketTypeCode=mlbb-manila-showdown-vip",
		} {
			status, body := f.call(t, "GET", path, nil)
			require.Equal(t, 404, status, path)
			require.Equal(t, "Ticket not found.", body["message"])
		}
	})
}

func TestAPI_BuyTicket(t *testing.T) {
	t.Run("OK free ticket redirects to the success page", func(t *testing.T) {
		f := newAPIFixture(t)
		status, body := f.call(t, "POST", "/v1/ticket/buy", map[string]any{
			"eventCode": "valorant-night-market-bgc", "ticketCode": "valorant-night-market-bgc-watch", "quantity": 2, "email": "a@b.ph",
			"fullName": "Ana Reyes", "mobileNumber": "+639171234567"})
		require.Equal(t, 200, status, body)
		require.EqualValues(t, 200, body["responseCode"])
		o, err := f.purchases.FindOrderByPublicID(context.Background(), body["orderId"].(string))
		require.NoError(t, err)
		require.Equal(t, f.http.URL+"/payment/success/"+o.PublicID, body["redirectUrl"])
		require.Equal(t, palaro.OrderPaid, o.Status)
		require.Len(t, o.Tickets, 1, "a free ticket is one per order")
	})
	t.Run("ErrInternal paid order without payments releases the hold", func(t *testing.T) {
		f := newAPIFixture(t)
		status, body := f.call(t, "POST", "/v1/ticket/buy", map[string]any{"ticketCode": "dota-2-visayas-major-gen", "quantity": 2, "email": "a@b.ph"})
		require.Equal(t, 500, status)
		require.Equal(t, "Internal Server Error", body["message"])
		var held int
		require.NoError(t, f.db.Writer().QueryRow(`SELECT held FROM ticket_types WHERE code = 'dota-2-visayas-major-gen'`).Scan(&held))
		require.Zero(t, held)
	})
	t.Run("ErrInvalid every message of the form", func(t *testing.T) {
		f := newAPIFixture(t)
		base := map[string]any{"ticketCode": "mlbb-manila-showdown-gen", "quantity": 1, "email": "a@b.ph",
			"firstName": "A", "lastName": "B", "mobileNumber": "0917-123-4567"}
		for _, tc := range []struct {
			field string
			value any
			want  string
		}{
			{"email", "", "E-mail is required"},
			{"email", "not-an-email", "Invalid E-mail address"},
			{"quantity", 0, "Please input no. of tickets to be purchased"},
			{"quantity", 11, "Maximum ticket limit per user is 10."},
			{"firstName", " ", "First Name is required"},
			{"lastName", "", "Last Name is required"},
			{"mobileNumber", "", "Mobile Number is required"},
			{"mobileNumber", "0917 abc", "Invalid Mobile Number"},
			{"paymentType", "BITCOIN", "Please choose a payment method"},
		} {
			req := map[string]any{}
			for k, v := range base {
				req[k] = v
			}
			req[tc.field] = tc.value
			status, body := f.call(t, "POST", "/v1/ticket/buy", req)
			require.Equal(t, 400, status, tc.want)
			require.Equal(t, tc.want, body["message"])
			require.EqualValues(t, 400, body["responseCode"])
			require.Equal(t, tc.want, body["fields"].(map[string]any)[tc.field])
		}
	})
	t.Run("ErrInvalid malformed JSON", func(t *testing.T) {
		f := newAPIFixture(t)
		status, body := f.call(t, "POST", "/v1/ticket/buy", `{"quantity": "x"`)
		require.Equal(t, 400, status)
		require.Equal(t, "The request body is not valid JSON (error at character 16).", body["message"])
	})
	t.Run("OK numbers where the form sends digits", func(t *testing.T) {
		f := newAPIFixture(t)
		status, body := f.call(t, "POST", "/v1/ticket/buy", `{"ticketCode": "valorant-night-market-bgc-watch",
			"quantity": "1", "email": "num@example.ph", "fullName": "Num Ber", "mobileNumber": 639351234567, "age": 27}`)
		require.Equal(t, 200, status, body)
		require.EqualValues(t, 200, body["responseCode"])
	})
	t.Run("ErrNotFound unknown ticket", func(t *testing.T) {
		f := newAPIFixture(t)
		status, body := f.call(t, "POST", "/v1/ticket/buy", map[string]any{"ticketCode": "nope", "quantity": 1, "email": "a@b.ph"})
		require.Equal(t, 404, status)
		require.Equal(t, "Ticket not found.", body["message"])
	})
	t.Run("ErrConflict sold out", func(t *testing.T) {
		f := newAPIFixture(t)
		status, body := f.call(t, "POST", "/v1/ticket/buy", map[string]any{"ticketCode": "mlbb-manila-showdown-vip",
			"quantity": 1, "email": "a@b.ph", "firstName": "A", "lastName": "B", "mobileNumber": "09171234567",
			"disclaimerAccepted": true})
		require.Equal(t, 409, status)
		require.EqualValues(t, 409, body["responseCode"])
		require.Equal(t, "Sorry, VIP Pass is sold out.", body["message"])
	})
}
