package e2e

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/pb33f/libopenapi"
	validator "github.com/pb33f/libopenapi-validator"
	"github.com/stretchr/testify/require"

	"palaro/handlers"
	"palaro/store"
)

// validatingTransport checks every /v1 request it carries, and the answer to it, against the
// OpenAPI document the server serves: a path or method the document lacks, a parameter, body or
// answer that does not fit its schema is recorded as a failure of the test.
type validatingTransport struct {
	t         *testing.T
	next      http.RoundTripper
	validator validator.Validator
	mu        sync.Mutex
	seen      map[string]bool // "METHOD /path status" of every call checked
}

// invalidOnPurpose is the header a test sets on a request that breaks the document on purpose.
const invalidOnPurpose = "X-Test-Invalid-On-Purpose"

func newValidatingTransport(t *testing.T) *validatingTransport {
	raw, err := handlers.OpenAPI()
	require.NoError(t, err)
	doc, err := libopenapi.NewDocument(raw)
	require.NoError(t, err)
	v, errs := validator.NewValidator(doc)
	require.Empty(t, errs)
	return &validatingTransport{t: t, next: http.DefaultTransport, validator: v, seen: map[string]bool{}}
}

func (vt *validatingTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	if !strings.HasPrefix(req.URL.Path, "/v1/") {
		return vt.next.RoundTrip(req)
	}
	var body []byte
	if req.Body != nil {
		var err error
		if body, err = io.ReadAll(req.Body); err != nil {
			return nil, err
		}
		req.Body.Close()
	}
	copyOf := func() *http.Request {
		r := req.Clone(req.Context())
		r.Body = io.NopCloser(bytes.NewReader(body))
		return r
	}
	// A call that breaks the document on purpose (a bad parameter) has its answer checked alone.
	answerOnly := req.Header.Get(invalidOnPurpose) != ""
	req.Header.Del(invalidOnPurpose)
	resp, err := vt.next.RoundTrip(copyOf())
	if err != nil {
		return nil, err
	}
	answer, err := io.ReadAll(resp.Body)
	resp.Body.Close()
	if err != nil {
		return nil, err
	}
	resp.Body = io.NopCloser(bytes.NewReader(answer))
	checked := *resp
	checked.Body = io.NopCloser(bytes.NewReader(answer))
	call := fmt.Sprintf("%s %s → %d", req.Method, req.URL.RequestURI(), resp.StatusCode)
	ok, errs := vt.validator.ValidateHttpRequestResponse(copyOf(), &checked)
	if answerOnly {
		ok, errs = vt.validator.ValidateHttpResponse(copyOf(), &checked)
	}
	if !ok {
		for _, e := range errs {
			vt.t.Errorf("%s does not fit the OpenAPI document: %s: %s %v (answer %.300s)", call, e.Message, e.Reason,
				e.SchemaValidationErrors, answer)
		}
	}
	vt.mu.Lock()
	vt.seen[fmt.Sprintf("%s %s %d", req.Method, req.URL.Path, resp.StatusCode)] = true
	vt.mu.Unlock()
	return resp, nil
}

// TestOpenAPI_RealAnswers runs the main calls of the public and the organizer API against a real
// server (a bearer token, a browser session with its CSRF token), and validates every request
// and answer, errors included, against the document of GET /v1/openapi.json: the document
// cannot drift from what the code answers.
func TestOpenAPI_RealAnswers(t *testing.T) {
	a := startApp(t)
	vt := newValidatingTransport(t)

	buyer := newVisitor(t, a)
	buyer.client.Transport = vt
	status, doc := buyer.get("/v1/openapi.json")
	require.Equal(t, http.StatusOK, status)
	served, err := handlers.OpenAPI()
	require.NoError(t, err)
	require.JSONEq(t, string(served), doc)

	status, body := buyer.get("/v1/calendar?month=2026-03")
	require.Equal(t, http.StatusOK, status, body)
	require.Contains(t, body, demoOwnedEvent)
	req, err := http.NewRequest(http.MethodGet, a.URL+"/v1/calendar?month=March", nil)
	require.NoError(t, err)
	req.Header.Set(invalidOnPurpose, "1")
	status, body = buyer.do(req)
	require.Equal(t, http.StatusBadRequest, status, body)
	status, body = buyer.get("/v1/ticket_type?eventCode=" + demoOwnedEvent + "&ticketTypeCode=" + demoOwnedType)
	require.Equal(t, http.StatusOK, status, body)
	status, _ = buyer.get("/v1/ticket_type?ticketTypeCode=no-such-type")
	require.Equal(t, http.StatusNotFound, status)

	email := "openapi.buyer@example.ph"
	status, body = buyer.postJSON("/v1/ticket/buy", fmt.Sprintf(`{"eventCode":%q,"ticketCode":%q,"quantity":1,"email":%q,
		"fullName":"Open Api","firstName":"Open","lastName":"Api","mobileNumber":"09171234567","paymentType":"QR"}`,
		demoOwnedEvent, demoOwnedType, email))
	require.Equal(t, http.StatusOK, status, body)
	var bought struct{ RedirectURL, OrderID string }
	require.NoError(t, json.Unmarshal([]byte(body), &bought))
	require.NotEmpty(t, bought.OrderID)
	status, body = buyer.postJSON("/v1/ticket/buy", fmt.Sprintf(`{"ticketCode":%q,"quantity":1,"email":"not an address"}`, demoOwnedType))
	require.Equal(t, http.StatusBadRequest, status, body)
	require.Contains(t, body, `"fields"`)

	// An e-wallet, and the senior citizen and PWD discount (its ticket type first: the offer it shows).
	status, body = buyer.postJSON("/v1/ticket/buy", fmt.Sprintf(`{"eventCode":%q,"ticketCode":%q,"quantity":1,"email":"wallet.buyer@example.ph",
		"fullName":"Gee Cash","firstName":"Gee","lastName":"Cash","mobileNumber":"09171234568","paymentType":"GCASH"}`,
		demoOwnedEvent, demoOwnedType))
	require.Equal(t, http.StatusOK, status, body)
	require.Contains(t, body, "/sandbox/", "the sandbox's wallet page")
	status, body = buyer.get("/v1/ticket_type?eventCode=kundiman-gala&ticketTypeCode=kundiman-gala-orchestra")
	require.Equal(t, http.StatusOK, status, body)
	require.Contains(t, body, `"wallet":true`)
	status, body = buyer.postJSON("/v1/ticket/buy", `{"eventCode":"kundiman-gala","ticketCode":"kundiman-gala-orchestra","quantity":2,
		"email":"lola.openapi@example.ph","fullName":"Corazon Reyes","mobileNumber":"09171234569","paymentType":"MAYA",
		"discounts":[{"type":"senior","holderName":"Corazon Reyes","idNumber":"OSCA-2024-90001"}]}`)
	require.Equal(t, http.StatusOK, status, body)
	status, body = buyer.postJSON("/v1/ticket/buy", `{"ticketCode":"kundiman-gala-orchestra","quantity":1,"email":"lola.openapi@example.ph",
		"fullName":"Corazon Reyes","mobileNumber":"09171234569","discounts":[{"type":"senior","holderName":"Corazon Reyes","idNumber":""}]}`)
	require.Equal(t, http.StatusBadRequest, status, body)
	require.Contains(t, body, `"discounts[0].idNumber"`)

	status, _ = buyer.get("/v1/ticket/add?uuid=no-such-ticket")
	require.Equal(t, http.StatusNotFound, status)
	status, body = buyer.postJSON("/v1/tickets/link", `{"email":"`+email+`"}`)
	require.Equal(t, http.StatusOK, status, body)
	status, _ = buyer.get("/v1/queue/" + demoOwnedEvent)
	require.Equal(t, http.StatusNotFound, status, "the demo event has no queue")
	status, _ = buyer.get("/v1/scan?activityCode=nothing&eventCode=" + demoOwnedEvent + "&participantId=nobody")
	require.Equal(t, http.StatusNotFound, status)

	// The organizer API with a token, as an integration calls it.
	token := organizerToken(t, a, store.DemoOrganizerEmail, "--organization", "2") // the organization of demoOwnedEvent
	org := newVisitor(t, a)
	org.client.Transport = vt
	call := func(method, path, body string, want int) string {
		t.Helper()
		ct := ""
		if body != "" {
			ct = "application/json"
		}
		status, answer := org.send(method, path, ct, body, token)
		require.Equal(t, want, status, "%s %s: %.500s", method, path, answer)
		return answer
	}
	events := "/v1/organizer/events"
	call(http.MethodGet, events, "", http.StatusOK)
	call(http.MethodGet, events+"/"+demoOwnedEvent, "", http.StatusOK)
	call(http.MethodGet, events+"/no-such-event", "", http.StatusNotFound)
	orders := call(http.MethodGet, events+"/"+demoOwnedEvent+"/orders?q="+email, "", http.StatusOK)
	require.Contains(t, orders, bought.OrderID, "the order bought above")

	ev := events + "/openapi-cup"
	call(http.MethodPost, events, `{"code":"openapi-cup","name":"OpenAPI Cup","startsAt":"2026-04-19T16:00:00+08:00",
		"endsAt":"2026-04-19T22:00:00+08:00","venue":{"name":"Laro Hall","address":"12 Katipunan Avenue","city":"Quezon City",
		"latitude":14.639,"longitude":121.077},"tags":["valorant"],"requiredFields":["fullName"],"status":"draft"}`, http.StatusCreated)
	call(http.MethodPost, events, `{"code":"openapi-cup","name":"Again"}`, http.StatusBadRequest)
	call(http.MethodPost, ev+"/ticket-types", `{"code":"openapi-cup-ga","name":"General Admission","price":45000,"capacity":50,
		"maxPurchasable":4,"paymentTypes":["QR","CARD"]}`, http.StatusCreated)
	call(http.MethodPatch, ev+"/ticket-types/openapi-cup-ga", `{"capacity":60}`, http.StatusOK)
	call(http.MethodPatch, ev, `{"status":"published","queue":{"opensAt":"2026-04-01T12:00:00+08:00","admitPerMinute":300}}`, http.StatusOK)
	call(http.MethodPatch, ev, `{"queue":null}`, http.StatusOK)
	call(http.MethodPatch, ev, `{"rate":5}`, http.StatusBadRequest)

	addOn := call(http.MethodPost, ev+"/add-ons", `{"name":"Lanyard","price":15000,"category":"Merchandise"}`, http.StatusCreated)
	var added struct{ ID int64 }
	require.NoError(t, json.Unmarshal([]byte(addOn), &added))
	call(http.MethodGet, ev+"/add-ons", "", http.StatusOK)
	call(http.MethodDelete, fmt.Sprintf("%s/add-ons/%d", ev, added.ID), "", http.StatusNoContent)

	call(http.MethodPost, ev+"/promo-codes", `{"code":"OPENAPI25","kind":"percent","percent":25,"usageLimit":100,
		"ticketTypes":["openapi-cup-ga"]}`, http.StatusCreated)
	call(http.MethodGet, ev+"/promo-codes", "", http.StatusOK)
	call(http.MethodPatch, ev+"/promo-codes/OPENAPI25", `{"paused":true}`, http.StatusOK)
	call(http.MethodDelete, ev+"/promo-codes/OPENAPI25", "", http.StatusNoContent)

	call(http.MethodGet, ev+"/activities", "", http.StatusOK)
	call(http.MethodGet, ev+"/waitlist", "", http.StatusOK)
	call(http.MethodPatch, ev+"/waitlist", `{"offerHours":12}`, http.StatusOK)

	// The gate: a sale at the door (checked in at once), the same ticket again, a sync, the list.
	sale := call(http.MethodPost, events+"/"+demoOwnedEvent+"/box-office", fmt.Sprintf(`{"ticketType":%q,"quantity":2,
		"holderName":"Walk In","paymentMethod":"CASH","gate":"North gate"}`, demoOwnedType), http.StatusOK)
	code := regexp.MustCompile(`"code":"([A-Z0-9]+)"`).FindStringSubmatch(sale)
	require.NotNil(t, code, sale)
	call(http.MethodPost, "/v1/checkin", fmt.Sprintf(`{"eventCode":%q,"ticket":%q,"gate":"North gate"}`, demoOwnedEvent, code[1]),
		http.StatusConflict)
	call(http.MethodPost, "/v1/checkin", fmt.Sprintf(`{"eventCode":%q,"ticket":"NOSUCHCODE"}`, demoOwnedEvent), http.StatusNotFound)
	call(http.MethodPost, "/v1/checkin/sync", fmt.Sprintf(`{"eventCode":%q,"checkIns":[{"id":"scan-1","ticket":%q,"gate":"North gate",
		"at":"2026-03-18T10:00:00+08:00"}]}`, demoOwnedEvent, code[1]), http.StatusOK)
	call(http.MethodGet, events+"/"+demoOwnedEvent+"/gate-list", "", http.StatusOK)

	// A partial refund (one ticket of two; the sandbox confirms at once), then the same again.
	paid := paidOrder(t, a, "openapi.refund@example.ph", 2)
	refund := fmt.Sprintf(`{"tickets":[%q]}`, paid.Tickets[0].Code)
	refunded := call(http.MethodPost, "/v1/organizer/orders/"+paid.PublicID+"/refund", refund, http.StatusOK)
	require.Contains(t, refunded, `"refunds"`)
	call(http.MethodPost, "/v1/organizer/orders/"+paid.PublicID+"/refund", refund, http.StatusOK)
	call(http.MethodPost, "/v1/organizer/orders/"+paid.PublicID+"/refund", `{"tickets":["NOSUCHCODE"]}`, http.StatusNotFound)
	call(http.MethodPost, "/v1/organizer/orders/no-such-order/refund", "", http.StatusNotFound)

	// Webhooks: an endpoint on a public-looking address (PALARO_WEBHOOK_ALLOW_PRIVATE unset), listed, removed.
	hook := call(http.MethodPost, "/v1/organizer/webhooks", `{"url":"https://203.0.113.10/palaro","events":["order.paid","order.refunded"]}`,
		http.StatusCreated)
	var created struct{ ID any }
	require.NoError(t, json.Unmarshal([]byte(hook), &created))
	require.NotNil(t, created.ID, hook)
	call(http.MethodPost, "/v1/organizer/webhooks", `{"url":"http://127.0.0.1/palaro","events":["order.paid"]}`, http.StatusBadRequest)
	require.Contains(t, call(http.MethodGet, "/v1/organizer/webhooks", "", http.StatusOK), "203.0.113.10")
	call(http.MethodDelete, fmt.Sprintf("/v1/organizer/webhooks/%v", created.ID), "", http.StatusNoContent)
	call(http.MethodDelete, fmt.Sprintf("/v1/organizer/webhooks/%v", created.ID), "", http.StatusNotFound)
	tt := call(http.MethodPatch, ev+"/ticket-types/openapi-cup-ga", `{"seniorPwdDiscount":false,"paymentTypes":["GCASH","MAYA","CARD"]}`, http.StatusOK)
	require.Contains(t, tt, `"seniorPwdDiscount":false`)
	require.Contains(t, tt, `"paymentTypes":["GCASH","MAYA","CARD"]`)

	status, _ = org.send(http.MethodGet, events, "", "", "plr_not-a-token")
	require.Equal(t, http.StatusUnauthorized, status)

	var calls []string
	for c := range vt.seen {
		calls = append(calls, c)
	}
	slices.Sort(calls)
	t.Logf("validated against the OpenAPI document:\n%s", strings.Join(calls, "\n"))
	require.GreaterOrEqual(t, len(calls), 30)
}
