package e2e

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"github.com/labstack/echo/v5"
	"github.com/stretchr/testify/require"

	"palaro/store"
)

// TestAPI_MalformedJSON_EveryEndpoint walks every state-changing /v1 route of the wired router
// (the signed webhooks aside) and sends it bodies that are not JSON, not an object, or carry a
// field of the wrong type: each answer names what is wrong instead of "Invalid request.".
func TestAPI_MalformedJSON_EveryEndpoint(t *testing.T) {
	a := startApp(t)
	tok := organizerToken(t, a, store.DemoOrganizerEmail, "--organization", "2") // the organization of demoOwnedEvent
	v := newVisitor(t, a)
	v.get("/about")
	const event, ticketType = demoOwnedEvent, demoOwnedType
	status, text := v.send(http.MethodPost, "/v1/organizer/events/"+event+"/promo-codes", "application/json",
		`{"code": "JSONTEST", "kind": "percent", "percent": 10}`, tok)
	require.Equal(t, http.StatusCreated, status, text) // the promo code the PATCH row changes
	// route → a concrete path, a body with a wrong field, and the message it gets
	endpoints := map[string]struct{ path, body, msg string }{
		"POST /v1/ticket/buy":              {"/v1/ticket/buy", `{"ticketCode": "x", "quantity": "two"}`, "quantity must be a whole number"},
		"POST /v1/ticket/add":              {"/v1/ticket/add", `{"uuid": "x", "addOns": ["cap"]}`, "addOns must be a list of whole numbers"},
		"POST /v1/ticket/change-email":     {"/v1/ticket/change-email", `{"uuid": "x", "email": 5}`, "email must be text"},
		"POST /v1/tickets/link":            {"/v1/tickets/link", `{"email": ["a@b.ph"]}`, "email must be text"},
		"POST /v1/participant/register":    {"/v1/participant/register", `{"firstName": "A", "mobileNumber": true}`, "mobileNumber must be text or a number"},
		"POST /v1/user/signup":             {"/v1/user/signup", `{"email": "o@b.ph", "username": {"name": "x"}}`, "username must be text"},
		"POST /v1/organizer/events":        {"/v1/organizer/events", `{"organization": 1, "name": "X", "startsAt": "tomorrow"}`, "Times are RFC 3339"},
		"PATCH /v1/organizer/events/:code": {"/v1/organizer/events/" + event, `{"tags": "esports"}`, "tags must be a list of texts"},
		"POST /v1/organizer/events/:code/ticket-types": {"/v1/organizer/events/" + event + "/ticket-types",
			`{"code": "x", "capacity": "lots"}`, "capacity must be a whole number"},
		"PATCH /v1/organizer/events/:code/ticket-types/:type": {"/v1/organizer/events/" + event + "/ticket-types/" + ticketType,
			`{"seated": "no"}`, "seated must be true or false"},
		"POST /v1/organizer/events/:code/box-office": {"/v1/organizer/events/" + event + "/box-office",
			`{"ticketType": "x", "holderName": ["A", "B"]}`, "holderName must be text"},
		"POST /v1/organizer/events/:code/activities": {"/v1/organizer/events/" + event + "/activities",
			`{"code": "x", "points": "many"}`, "points must be a whole number"},
		"PATCH /v1/organizer/events/:code/activities/:activity": {"/v1/organizer/events/" + event + "/activities/booth",
			`{"prizes": {"code": "x"}}`, "prizes must be a list of objects"},
		"POST /v1/organizer/events/:code/add-ons": {"/v1/organizer/events/" + event + "/add-ons",
			`{"name": "Cap", "hidden": "yes"}`, "hidden must be true or false"},
		"POST /v1/organizer/events/:code/promo-codes": {"/v1/organizer/events/" + event + "/promo-codes",
			`{"code": "X", "usageLimit": "many"}`, "usageLimit must be a whole number"},
		"PATCH /v1/organizer/events/:code/promo-codes/:promo": {"/v1/organizer/events/" + event + "/promo-codes/JSONTEST",
			`{"paused": "yes"}`, "paused must be true or false"},
		"PATCH /v1/organizer/events/:code/waitlist": {"/v1/organizer/events/" + event + "/waitlist",
			`{"offerHours": "a day"}`, "offerHours must be a whole number"},
		"PATCH /v1/organizer/events/:code/self-cancel": {"/v1/organizer/events/" + event + "/self-cancel",
			`{"percent": "ten"}`, "percent must be a number"},
		"POST /v1/organizer/events/:code/waitlist/:entry/offer": {"/v1/organizer/events/" + event + "/waitlist/1/offer",
			`{"quantity": "two"}`, "quantity must be a whole number"},
		"POST /v1/checkin":      {"/v1/checkin", `{"eventCode": "x", "ticket": 12345}`, "ticket must be text"},
		"POST /v1/checkin/sync": {"/v1/checkin/sync", `{"eventCode": "x", "checkIns": {"id": "1"}}`, "checkIns must be a list of objects"},
		"POST /v1/organizer/webhooks": {"/v1/organizer/webhooks", `{"url": "https://hooks.example.com", "events": "order.paid"}`,
			"events must be a list of texts"},
		"POST /v1/organizer/orders/:order/refund": {"/v1/organizer/orders/nope/refund", `{"tickets": "ABC"}`, "tickets must be a list of texts"},
		"POST /v1/seats/:code/best":               {"/v1/seats/lan-party-baguio-seat/best", `{"quantity": "two"}`, "quantity must be a whole number"},
		"POST /v1/organizer/events/:code/dates": {"/v1/organizer/events/" + event + "/dates", `{"dates": "every friday"}`,
			"dates must be a list of objects"},
		"PATCH /v1/organizer/events/:code/dates/:date": {"/v1/organizer/events/" + event + "/dates/2027-01-09", `{"eventVenue": "yes"}`,
			"eventVenue must be true or false"},
		"POST /v1/organizer/events/:code/tournaments": {"/v1/organizer/events/" + event + "/tournaments", `{"code": "x", "maxTeams": "many"}`,
			"maxTeams must be a whole number"},
		"PATCH /v1/organizer/events/:code/tournaments/:tournament": {"/v1/organizer/events/" + event + "/tournaments/x",
			`{"minPlayers": "five"}`, "minPlayers must be a whole number"},
		"PATCH /v1/organizer/events/:code/tournaments/:tournament/teams/:team": {"/v1/organizer/events/" + event + "/tournaments/x/teams/1",
			`{"seed": "first"}`, "seed must be a whole number"},
	}
	// routes where an empty body means something: a refund of the whole order
	emptyIsWhole := map[string]bool{"POST /v1/organizer/orders/:order/refund": true}
	common := []struct{ body, msg string }{
		{`{"email": "a@b.ph",`, "The request body is not valid JSON"},
		{``, "The request body is empty"},
		{`[{"email": "a@b.ph"}]`, "The request body must be a JSON object."},
	}
	checked := 0
	for _, r := range a.Server().Echo().Router().Routes() {
		route := r.Method + " " + r.Path
		if !strings.HasPrefix(r.Path, "/v1/") || r.Method == http.MethodGet || r.Method == http.MethodHead ||
			r.Method == http.MethodDelete || r.Method == echo.RouteNotFound { // a DELETE takes no body
			continue
		}
		if routeTable()[route].CSRFExempt != "" {
			continue // signed by the payment provider, not a client's JSON
		}
		ep, ok := endpoints[route]
		require.True(t, ok, "%s: add it to this table", route)
		checked++
		t.Run(route, func(t *testing.T) {
			for _, tc := range append(common, struct{ body, msg string }{ep.body, ep.msg}) {
				if tc.body == "" && emptyIsWhole[route] {
					continue // no body is a request of its own there (the whole order)
				}
				status, text := v.send(r.Method, ep.path, "application/json", tc.body, tok)
				var out map[string]any
				require.NoError(t, json.Unmarshal([]byte(text), &out), text)
				require.Equal(t, http.StatusBadRequest, status, "%s: %s", tc.body, text)
				require.Contains(t, out["message"], tc.msg, tc.body)
			}
		})
	}
	require.Equal(t, len(endpoints), checked, "every endpoint of the table exists")

	t.Run("OK numbers where the form sends digits", func(t *testing.T) {
		status, text := v.send(http.MethodPost, "/v1/participant/register", "application/json",
			`{"firstName": "Nina", "lastName": "Cruz", "mobileNumber": 9171239876}`, "")
		require.Equal(t, http.StatusOK, status, text)
		require.Contains(t, text, `"redirectUrl":"/register/success/`)
	})
}
