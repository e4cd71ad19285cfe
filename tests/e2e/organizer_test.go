package e2e

import (
	"bytes"
	"context"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"image"
	"image/color"
	"image/draw"
	_ "image/jpeg"
	"image/png"
	"mime/multipart"
	"net/http"
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"palaro"
	"palaro/handlers"
	"palaro/internal/app"
	"palaro/store"
)

// demoOwnedEvent is a demo event of the demo organizer, with one of its ticket types.
const (
	demoOwnedEvent     = "mlbb-manila-showdown"
	demoOwnedEventName = "MLBB Manila Showdown"
	demoOwnedType      = "mlbb-manila-showdown-gen"
)

// signedIn returns a visitor signed in with the demo organizers' password.
func signedIn(t *testing.T, a *testApp, email string) *httpVisitor {
	t.Helper()
	v := newVisitor(t, a)
	v.get("/sign-in")
	status, body := v.post("/sign-in", url.Values{"email": {email}, "password": {store.DemoOrganizerPassword}})
	require.Equal(t, http.StatusSeeOther, status, "sign in as %s: %.300s", email, body)
	v.get("/organizer")
	return v
}

// send sends a request with the session's CSRF token (and a bearer token when given).
func (v *httpVisitor) send(method, path, contentType, body, bearer string) (int, string) {
	v.t.Helper()
	req, err := http.NewRequest(method, v.app.URL+path, strings.NewReader(body))
	require.NoError(v.t, err)
	if contentType != "" {
		req.Header.Set("Content-Type", contentType)
	}
	req.Header.Set("X-CSRF-Token", v.token())
	if bearer != "" {
		req.Header.Set("Authorization", "Bearer "+bearer)
	}
	return v.do(req)
}

// organizerToken creates an API token the way the operator does and returns it.
func organizerToken(t *testing.T, a *testApp, email string, args ...string) string {
	t.Helper()
	out, err := command(t, a, append([]string{"tokens", "create", "--organizer", email}, args...)...)
	require.NoError(t, err)
	tok := regexp.MustCompile(`plr_[A-Za-z0-9_-]+`).FindString(out)
	require.NotEmpty(t, tok, out)
	return tok
}

// TestOrganizerAccess_EveryRoute walks every organizer route of the wired router and calls it as
// another organizer (404 for anything of the demo organizer's, nothing of its event in any
// answer), as a gate member (403 unless the gate role allows the route's action) and signed out.
func TestOrganizerAccess_EveryRoute(t *testing.T) {
	a := startApp(t)
	owner := signedIn(t, a, store.DemoOrganizerEmail)
	rival := signedIn(t, a, store.DemoRivalEmail)
	gate := signedIn(t, a, store.DemoGateEmail)
	anonymous := newVisitor(t, a)
	anonymous.get("/")

	status, body := owner.get("/organizer/events/" + demoOwnedEvent)
	require.Equal(t, http.StatusOK, status, "the owner sees its event")
	require.Contains(t, body, demoOwnedEventName)
	status, body = owner.post("/organizer/tokens", url.Values{"name": {"access test"}, "role": {"manager"},
		"organization": {"2"}})
	require.Equal(t, http.StatusOK, status, body)
	ownerTokenID := regexp.MustCompile(`#(\d+) · created`).FindStringSubmatch(body)[1]

	actions := map[string]string{} // the action of each organizer route of the table
	for _, r := range handlers.Routes() {
		if r.Access == "organizer" {
			actions[r.Method+" "+r.Path] = r.Action
		}
	}
	checked := 0
	for _, r := range a.Server().Echo().Router().Routes() {
		if !strings.HasPrefix(r.Path, "/organizer") && !strings.HasPrefix(r.Path, "/v1/organizer") && !strings.HasPrefix(r.Path, "/v1/checkin") {
			continue
		}
		action, ok := actions[r.Method+" "+r.Path]
		require.True(t, ok, "%s %s is registered through the organizer route table", r.Method, r.Path)
		path := strings.NewReplacer(":code", demoOwnedEvent, ":type", demoOwnedType, ":id", ownerTokenID, ":order", "x", ":ticket", "x", ":org", "2", ":user", "1", ":entry", "1").Replace(r.Path)
		contentType, reqBody := "application/x-www-form-urlencoded", "name=x"
		if strings.HasPrefix(path, "/v1/") {
			contentType, reqBody = "application/json", `{"name":"x","eventCode":"`+demoOwnedEvent+`"}`
		}
		// the check-in calls name their event in the body
		scoped := strings.Contains(r.Path, ":") || strings.HasPrefix(r.Path, "/v1/checkin")
		name := r.Method + " " + r.Path

		status, body := rival.send(r.Method, path, contentType, reqBody, "")
		if scoped {
			require.Equal(t, http.StatusNotFound, status, "%s as another organizer: %.200s", name, body)
		} else {
			require.Less(t, status, 500, "%s as another organizer: %.200s", name, body)
		}
		require.NotContains(t, body, demoOwnedEventName, "%s as another organizer leaks the event", name)

		status, body = gate.send(r.Method, path, contentType, reqBody, "")
		if palaro.RoleAllows(palaro.MemberGate, action) {
			require.NotEqual(t, http.StatusForbidden, status, "%s as gate: %.200s", name, body)
			require.Less(t, status, 500, "%s as gate: %.200s", name, body)
		} else {
			require.Equal(t, http.StatusForbidden, status, "%s as gate: %.200s", name, body)
		}

		status, _ = anonymous.send(r.Method, path, contentType, reqBody, "")
		if strings.HasPrefix(path, "/v1/") || strings.HasSuffix(path, ".csv") {
			require.Equal(t, http.StatusUnauthorized, status, "%s signed out", name)
		} else if r.Method == http.MethodGet {
			require.Equal(t, http.StatusSeeOther, status, "%s signed out goes to sign-in", name)
		}
		checked++
	}
	require.Equal(t, len(actions), checked, "every route of the table is on the router")

	t.Run("ErrOtherOrganizationsToken", func(t *testing.T) {
		tok := organizerToken(t, a, store.DemoRivalEmail)
		for _, path := range []string{"/v1/organizer/events/" + demoOwnedEvent, "/v1/organizer/events/" + demoOwnedEvent + "/orders",
			"/organizer/events/" + demoOwnedEvent + "/orders.csv", "/v1/organizer/events/no-such-event"} {
			status, body := anonymous.send(http.MethodGet, path, "", "", tok)
			require.Equal(t, http.StatusNotFound, status, path)
			require.NotContains(t, body, demoOwnedEventName)
		}
		status, body := anonymous.send(http.MethodPatch, "/v1/organizer/events/"+demoOwnedEvent, "application/json", `{"name":"Taken"}`, tok)
		require.Equal(t, http.StatusNotFound, status, body)
	})
	t.Run("ErrGateToken", func(t *testing.T) {
		tok := organizerToken(t, a, store.DemoOrganizerEmail, "--organization", "2", "--role", "gate")
		status, _ := anonymous.send(http.MethodGet, "/v1/organizer/events/"+demoOwnedEvent, "", "", tok)
		require.Equal(t, http.StatusForbidden, status)
		status, body := anonymous.send(http.MethodGet, "/v1/organizer/events", "", "", tok)
		require.Equal(t, http.StatusOK, status, "gate tokens list the events")
		require.NotContains(t, body, `"revenue"`)
	})
	t.Run("LastUsed", func(t *testing.T) {
		tok := organizerToken(t, a, store.DemoOrganizerEmail, "--organization", "3", "--name", "used once")
		status, _ := anonymous.send(http.MethodGet, "/v1/organizer/events", "", "", tok)
		require.Equal(t, http.StatusOK, status)
		_, page := owner.get("/organizer/tokens")
		require.Regexp(t, `used once</strong>[^#]*#\d+ · created [^·]+ · last used Wed 18 Mar 2026`, page)
	})
	t.Run("ErrRevokedToken", func(t *testing.T) {
		status, _ := owner.post("/organizer/tokens/"+ownerTokenID+"/revoke", url.Values{})
		require.Equal(t, http.StatusSeeOther, status)
		_, page := owner.get("/organizer/tokens")
		require.Contains(t, page, "revoked")
	})
}

// TestOrganizerRegistration_Approval registers an organization, which waits for the operator's
// approval, then opens the console once approved (with the e-mail telling the owner).
func TestOrganizerRegistration_Approval(t *testing.T) {
	a := startApp(t)
	v := newVisitor(t, a)
	v.get("/register/organizer")
	status, body := v.post("/register/organizer", url.Values{"email": {"ana@kalaro.ph"}, "username": {"ana"},
		"name": {"Ana Santos"}, "organization": {"Kalaro Events"}, "mobileNumber": {"09171234999"},
		"password": {"Kalaro2026"}, "repeatPassword": {"Kalaro2026"}})
	require.Equal(t, http.StatusSeeOther, status, body)
	status, body = v.get("/organizer")
	require.Equal(t, http.StatusForbidden, status)
	require.Contains(t, body, "Waiting for approval")

	out, err := command(t, a, "organizers", "--pending")
	require.NoError(t, err)
	require.Contains(t, out, "Kalaro Events")
	require.Contains(t, out, "ana@kalaro.ph")
	require.NotContains(t, out, "Palaro Events Co.", "approved organizations are not pending")

	out, err = command(t, a, "organizers", "approve", "ana@kalaro.ph")
	require.NoError(t, err)
	require.Contains(t, out, "Approved Kalaro Events")
	msgs, err := a.Outbox().ListOutbox(context.Background(), palaro.OutboxFilter{To: "ana@kalaro.ph"})
	require.NoError(t, err)
	require.Equal(t, palaro.MessageOrganizerApproved, msgs[0].Kind)
	require.Contains(t, msgs[0].Text, a.URL+"/organizer")

	status, body = v.get("/organizer")
	require.Equal(t, http.StatusOK, status)
	require.Contains(t, body, "No events yet")

	_, err = store.NewOrganizerService(a.DB(), nil).ApproveOrganization(context.Background(), "ana@kalaro.ph") // what the command runs
	require.Equal(t, palaro.ENOTFOUND, palaro.ErrorCode(err), "approving twice finds nothing pending")
}

// orgAPI returns a caller of the organizer API with a token: it sends JSON and decodes the answer (nil when empty).
func orgAPI(t *testing.T, v *httpVisitor, tok string) func(method, path, body string) (int, map[string]any) {
	return func(method, path, body string) (int, map[string]any) {
		t.Helper()
		status, text := v.send(method, path, "application/json", body, tok)
		var out map[string]any
		if text != "" {
			require.NoError(t, json.Unmarshal([]byte(text), &out), text)
		}
		return status, out
	}
}

// TestOrganizerAPI_DraftThenPublish creates a draft through the API (not public), adds ticket
// types, publishes it and finds it at once on the home page, /f/, the calendar and the sitemap,
// with public event reads and pages cached for an hour: publishing drops both caches.
func TestOrganizerAPI_DraftThenPublish(t *testing.T) {
	a := startApp(t, func(cfg *app.Config) { cfg.EventCache = time.Hour })
	tok := organizerToken(t, a, store.DemoOrganizerEmail, "--organization", "1")
	v := newVisitor(t, a)
	api := orgAPI(t, v, tok)
	start := testEpoch.Add(26 * time.Hour)
	public := func() []bool {
		_, home := v.get("/")
		_, find := v.get("/f/api-cup")
		_, cal := v.get("/v1/calendar?month=" + start.Format("2006-01"))
		_, sitemap := v.get("/sitemap.xml")
		status, _ := v.get("/e/api-cup-2026")
		return []bool{strings.Contains(home, "API Cup 2026"), strings.Contains(find, "API Cup 2026"),
			strings.Contains(cal, "api-cup-2026"), strings.Contains(sitemap, "/e/api-cup-2026"), status == http.StatusOK}
	}
	require.Equal(t, []bool{false, false, false, false, false}, public(), "warm the cache before the event exists")

	status, ev := api(http.MethodPost, "/v1/organizer/events", `{"code":"api-cup-2026","name":"API Cup 2026",
		"summary":"Made by a script.","startsAt":"`+start.Format(time.RFC3339)+`","endsAt":"`+start.Add(5*time.Hour).Format(time.RFC3339)+`",
		"venue":{"name":"Test Arena","address":"1 Test Street","city":"Pasig","latitude":14.57,"longitude":121.06},
		"tags":["api-cup","esports"],"links":[{"label":"Rules","url":"https://example.ph/rules"}],
		"requiredFields":["fullName"],"status":"draft"}`)
	require.Equal(t, http.StatusCreated, status, ev)
	require.Equal(t, "draft", ev["status"])
	require.Equal(t, start.Format(time.RFC3339), ev["startsAt"], "times answer with the Manila offset")
	require.Equal(t, []bool{false, false, false, false, false}, public(), "a draft is not public")

	status, tt := api(http.MethodPost, "/v1/organizer/events/api-cup-2026/ticket-types", `{"code":"api-cup-2026-ga","name":"General",
		"price":25000,"capacity":100,"maxPurchasable":4,"paymentTypes":["QR"]}`)
	require.Equal(t, http.StatusCreated, status, tt)
	status, tt = api(http.MethodPost, "/v1/organizer/events/api-cup-2026/ticket-types", `{"code":"api-cup-2026-vip","name":"VIP",
		"price":90000,"capacity":24,"seated":true}`)
	require.Equal(t, http.StatusCreated, status, tt)
	require.Equal(t, true, tt["seated"])

	status, ev = api(http.MethodPatch, "/v1/organizer/events/api-cup-2026", `{"status":"published"}`)
	require.Equal(t, http.StatusOK, status, ev)
	require.Equal(t, "published", ev["status"])
	require.Equal(t, "Made by a script.", ev["summary"], "PATCH keeps the fields it leaves out")
	require.Equal(t, []bool{true, true, true, true, true}, public(), "published: public at once")

	status, csvText := v.send(http.MethodGet, "/organizer/events/api-cup-2026/orders.csv", "", "", tok)
	require.Equal(t, http.StatusOK, status, "the exports answer to a token")
	require.True(t, strings.HasPrefix(csvText, "\uFEFForder,created,status"))

	status, body := v.get("/s/api-cup-2026-vip")
	require.Equal(t, http.StatusOK, status, "the seated type has a seat map")
	require.Contains(t, body, `{"row":"A","status":"aaa"}`)

	t.Run("ErrInvalid", func(t *testing.T) {
		status, e := api(http.MethodPatch, "/v1/organizer/events/api-cup-2026", `{"endsAt":"`+start.Add(-time.Hour).Format(time.RFC3339)+`"}`)
		require.Equal(t, http.StatusBadRequest, status)
		require.Contains(t, e["message"], "endsAt")
		status, e = api(http.MethodPost, "/v1/organizer/events", `{"code":"api-cup-2026","name":"Again",
			"startsAt":"`+start.Format(time.RFC3339)+`","endsAt":"`+start.Add(time.Hour).Format(time.RFC3339)+`",
			"venue":{"name":"A","address":"B","city":"C"}}`)
		require.Equal(t, http.StatusBadRequest, status)
		require.Contains(t, e["message"], "code: "+palaro.MsgEventCodeTaken)
		status, e = api(http.MethodPatch, "/v1/organizer/events/api-cup-2026/ticket-types/api-cup-2026-ga", `{"capacity":-1}`)
		require.Equal(t, http.StatusBadRequest, status)
		require.Contains(t, e["message"], "capacity")
	})
	t.Run("ErrOtherOrganization", func(t *testing.T) {
		status, e := api(http.MethodPatch, "/v1/organizer/events/"+demoOwnedEvent, `{"name":"x"}`)
		require.Equal(t, http.StatusNotFound, status, "another organization of the owner is not the token's: %v", e)
	})
	t.Run("ErrCapacityBelowSold", func(t *testing.T) {
		status, e := api(http.MethodPatch, "/v1/organizer/events/valorant-night-market-bgc/ticket-types/valorant-night-market-bgc-watch", `{"capacity":100}`)
		require.Equal(t, http.StatusBadRequest, status)
		require.Contains(t, e["message"], "Capacity cannot be below 120: 120 tickets are sold and 0 are held")
	})
}

// TestOrganizerCSV_Injection buys a ticket with details that a spreadsheet would run as formulas
// (a name may start with a hyphen; the other fields take any printable text) and checks that the
// exports neutralise them, keep UTF-8 names (with a BOM) and quote per RFC 4180.
func TestOrganizerCSV_Injection(t *testing.T) {
	a := startApp(t)
	buyer := newVisitor(t, a)
	buyer.get("/e/codm-campus-clash-iloilo")
	status, body := buyer.postJSON("/v1/ticket/buy", `{"eventCode":"codm-campus-clash-iloilo","ticketCode":"codm-campus-clash-iloilo-free",
		"quantity":1,"email":"evil@example.ph","firstName":"-Ana","lastName":"Peñafrancia",
		"companyName":"+63 \"Quoted\", Inc.","designation":"@SUM(A1:A2)","source":"=HYPERLINK(\"http://x.example\",\"Click\")"}`)
	require.Equal(t, http.StatusOK, status, body)

	owner := signedIn(t, a, store.DemoOrganizerEmail)
	for _, path := range []string{"attendees.csv", "orders.csv"} {
		status, text := owner.get("/organizer/events/codm-campus-clash-iloilo/" + path)
		require.Equal(t, http.StatusOK, status, text)
		require.True(t, strings.HasPrefix(text, "\uFEFF"), "%s starts with a byte-order mark", path)
		rows, err := csv.NewReader(strings.NewReader(strings.TrimPrefix(text, "\uFEFF"))).ReadAll()
		require.NoError(t, err, "%s is valid RFC 4180", path)
		var found []string
		for _, row := range rows[1:] {
			for _, cell := range row {
				if cell != "" && strings.ContainsRune("=+-@", rune(cell[0])) {
					t.Errorf("%s: cell %q would run as a formula", path, cell)
				}
			}
			if strings.Contains(strings.Join(row, "|"), "Peñafrancia") {
				found = row
			}
		}
		require.NotNil(t, found, "%s lists the buyer", path)
		require.Contains(t, found, `'-Ana`)
		if path == "attendees.csv" {
			require.Contains(t, found, `'+63 "Quoted", Inc.`)
			require.Contains(t, found, `'@SUM(A1:A2)`)
			require.Contains(t, text, `"'+63 ""Quoted"", Inc."`, "quotes are doubled inside quoted cells")
		} else {
			require.Contains(t, found, `'=HYPERLINK("http://x.example","Click")`)
			require.Contains(t, text, `"'=HYPERLINK(""http://x.example"",""Click"")"`, "quotes are doubled inside quoted cells")
		}
	}
}

// TestOrganizerOrders_Actions finds an order by ticket code and runs the order page's actions:
// move a ticket to another e-mail, cancel one (its place goes back on sale), send the tickets
// again, and clear the refund queue.
func TestOrganizerOrders_Actions(t *testing.T) {
	a := startApp(t)
	ctx := context.Background()
	buyer := newVisitor(t, a)
	buyer.get("/")
	buy := func() *palaro.Order {
		_, raw := buyer.postJSON("/v1/ticket/buy", `{"ticketCode":"valorant-night-market-bgc-watch","quantity":1,`+
			`"email":"pair@example.ph","fullName":"Pares Santos","mobileNumber":"0917-555-0000"}`)
		var res map[string]any
		require.NoError(t, json.Unmarshal([]byte(raw), &res))
		require.EqualValues(t, 200, res["responseCode"], raw)
		order, err := a.Purchases().FindOrderByPublicID(ctx, res["orderId"].(string))
		require.NoError(t, err)
		require.Len(t, order.Tickets, 1)
		return order
	}
	order, other := buy(), buy()
	orderID, otherID := order.PublicID, other.PublicID
	first, second := order.Tickets[0].Code, other.Tickets[0].Code

	owner := signedIn(t, a, store.DemoOrganizerEmail)
	base := "/organizer/events/valorant-night-market-bgc"
	status, body := owner.get(base + "/orders?q=" + url.QueryEscape(strings.ToLower(second)))
	require.Equal(t, http.StatusOK, status)
	require.Contains(t, body, base+"/orders/"+otherID, "found by ticket code")
	require.NotContains(t, body, base+"/orders/"+orderID, "only the order of that ticket")
	status, body = owner.get(base + "/orders/" + orderID)
	require.Equal(t, http.StatusOK, status)
	require.Contains(t, body, "Pares Santos")

	status, body = owner.post(base+"/tickets/"+first+"/email?order="+orderID, url.Values{"email": {"not-an-email"}})
	require.Equal(t, http.StatusUnprocessableEntity, status)
	require.Contains(t, body, "Invalid E-mail address")
	status, _ = owner.post(base+"/tickets/"+first+"/email?order="+orderID, url.Values{"email": {"Friend@Example.ph"}})
	require.Equal(t, http.StatusSeeOther, status)

	sold := func() int {
		_, ev, err := store.NewEventService(a.DB()).FindTicketType(ctx, "valorant-night-market-bgc-watch")
		require.NoError(t, err)
		for _, tt := range ev.TicketTypes {
			if tt.Code == "valorant-night-market-bgc-watch" {
				return tt.Sold
			}
		}
		return -1
	}
	before := sold()
	confirm := url.Values{"confirm": {"yes"}}
	status, _ = owner.post(base+"/tickets/"+second+"/cancel?order="+otherID, confirm)
	require.Equal(t, http.StatusSeeOther, status)
	require.Equal(t, before-1, sold(), "a cancelled ticket's place is on sale again")
	status, _ = owner.post(base+"/tickets/"+second+"/cancel?order="+otherID, confirm)
	require.Equal(t, http.StatusBadRequest, status, "a cancelled ticket cannot be cancelled again")

	order, err := a.Purchases().FindOrderByPublicID(ctx, orderID)
	require.NoError(t, err)
	require.Equal(t, "friend@example.ph", order.Tickets[0].Email)
	other, err = a.Purchases().FindOrderByPublicID(ctx, otherID)
	require.NoError(t, err)
	require.Equal(t, palaro.TicketCancelled, other.Tickets[0].Status)

	status, _ = owner.post(base+"/orders/"+orderID+"/resend", url.Values{})
	require.Equal(t, http.StatusSeeOther, status)
	msgs, err := a.Outbox().ListOutbox(ctx, palaro.OutboxFilter{To: "pair@example.ph"})
	require.NoError(t, err)
	require.Len(t, msgs, 5, "two confirmations, the move, the cancellation and the one sent again")

	_, body = owner.get(base)
	require.Contains(t, body, "cancelled", "the audit log")
	require.Contains(t, body, "sent again to pair@example.ph")

	t.Run("Dashboard", func(t *testing.T) {
		status, body := owner.get(base + "/dashboard")
		require.Equal(t, http.StatusOK, status)
		// the order whose only ticket was cancelled is no longer a sale
		require.Contains(t, body, "<title>18 Mar: 1 ticket</title>", "the day's bar, in Manila")
		require.Contains(t, body, "<title>18 Mar: ₱0.00</title>")
		ev, err := store.NewOrganizerService(a.DB(), nil).FindEvent(ctx, "valorant-night-market-bgc")
		require.NoError(t, err)
		issued := 0
		for _, tt := range ev.TicketTypes {
			issued += tt.Sold // the demo's tickets and the one left of the test's two
		}
		require.Contains(t, body, fmt.Sprintf("Checked in: 0 of the %d tickets issued.", issued), "the cancelled ticket is not counted")
		require.Regexp(t, `<th scope="row">Direct</th><td>1</td>`, body)
	})
	t.Run("RefundQueue", func(t *testing.T) {
		// An order paid after its hold expired and its tickets were gone is put in that state
		// by the payment path; here it is set directly.
		_, err := a.DB().Writer().Exec(`UPDATE orders SET status = 'refund' WHERE public_id = ?`, orderID)
		require.NoError(t, err)
		_, body := owner.get(base + "/refunds")
		require.Contains(t, body, "pair@example.ph")
		status, _ := owner.post(base+"/orders/"+orderID+"/refunded", confirm)
		require.Equal(t, http.StatusSeeOther, status)
		_, body = owner.get(base + "/refunds")
		require.NotContains(t, body, orderID)
		status, _ = owner.post(base+"/orders/"+orderID+"/refunded", confirm)
		require.Equal(t, http.StatusBadRequest, status, "refunded once")
		refunded, err := a.Purchases().FindOrderByPublicID(ctx, orderID)
		require.NoError(t, err)
		require.Equal(t, palaro.OrderRefunded, refunded.Status)
	})
	t.Run("RefundPaidOrder", func(t *testing.T) {
		paid := buy()
		before := sold()
		status, _ := owner.post(base+"/orders/"+paid.PublicID+"/refunded", confirm)
		require.Equal(t, http.StatusSeeOther, status)
		got, err := a.Purchases().FindOrderByPublicID(ctx, paid.PublicID)
		require.NoError(t, err)
		require.Equal(t, palaro.OrderRefunded, got.Status)
		require.Equal(t, palaro.TicketCancelled, got.Tickets[0].Status, "the gate refuses it")
		require.Equal(t, before-1, sold(), "its place is on sale again")
		_, body := owner.get(base + "/orders/" + paid.PublicID)
		require.Contains(t, body, "refunded")
		_, body = owner.get(base)
		require.Contains(t, body, "order "+paid.PublicID+" marked refunded", "the audit log")
	})
}

// TestOrganizerTeam_Invitation: the owner invites a gate member by e-mail; only the invited
// address can join; the member sees the events without sales and without the team; the owner
// removes them, but never the last owner.
func TestOrganizerTeam_Invitation(t *testing.T) {
	a := startApp(t)
	owner := signedIn(t, a, store.DemoOrganizerEmail)
	status, body := owner.post("/organizer/team", url.Values{"email": {"bad"}, "role": {"gate"}, "organization": {"2"}})
	require.Equal(t, http.StatusUnprocessableEntity, status)
	require.Contains(t, body, "Invalid E-mail address")
	status, _ = owner.post("/organizer/team", url.Values{"email": {"Tess@Example.ph"}, "role": {"gate"}, "organization": {"2"}})
	require.Equal(t, http.StatusSeeOther, status)
	_, body = owner.get("/organizer/team")
	require.Contains(t, body, "tess@example.ph", "the invitation waits")
	status, _ = owner.post("/organizer/team", url.Values{"email": {store.DemoGateEmail}, "role": {"gate"}, "organization": {"2"}})
	require.Equal(t, http.StatusConflict, status, "already in the team")

	link := outboxLink(t, a, "tess@example.ph", "/invitations/")
	path := strings.TrimPrefix(link, a.URL)

	intruder := newVisitor(t, a)
	signUpActive(t, a, intruder, "intruder@example.ph", "09351110000")
	status, _ = intruder.get(path)
	require.Equal(t, http.StatusOK, status)
	status, _ = intruder.post(path, url.Values{})
	require.Equal(t, http.StatusForbidden, status, "the invitation is for another address")

	tess := newVisitor(t, a)
	signUpActive(t, a, tess, "tess@example.ph", "09351112222")
	tess.get(path)
	status, _ = tess.post(path, url.Values{})
	require.Equal(t, http.StatusSeeOther, status)
	status, body = tess.get("/organizer")
	require.Equal(t, http.StatusOK, status)
	require.Contains(t, body, demoOwnedEventName)
	require.NotContains(t, body, "Rival Retro Meetup")
	require.NotContains(t, body, ">Team<", "gate members do not see the team")
	status, _ = tess.get("/organizer/events/" + demoOwnedEvent + "/orders")
	require.Equal(t, http.StatusForbidden, status)
	status, _ = tess.post(path, url.Values{})
	require.Equal(t, http.StatusNotFound, status, "an invitation works once")

	_, body = owner.get("/organizer/team")
	remove := regexp.MustCompile(`/organizer/team/2/members/(\d+)/remove`).FindAllString(body, -1)
	require.NotEmpty(t, remove)
	for _, r := range remove {
		status, _ = owner.post(r, url.Values{})
		require.Equal(t, http.StatusSeeOther, status)
	}
	status, _ = tess.get("/organizer")
	require.Equal(t, http.StatusForbidden, status, "removed from the only organization")

	rival := signedIn(t, a, store.DemoRivalEmail)
	_, body = rival.get("/organizer/team")
	require.NotContains(t, body, "/members/", "the rival cannot remove itself, the last owner")
	require.Equal(t, palaro.EINVALID, palaro.ErrorCode(store.NewOrganizerService(a.DB(), nil).RemoveMember(context.Background(), 90, 3, "test")))
}

// TestOrganizerCover_Upload uploads a wide PNG as an event's cover: it is cut to 16:9, re-encoded
// as JPEG in the cover sizes and shown at once on the public event page; an SVG is refused.
func TestOrganizerCover_Upload(t *testing.T) {
	a := startApp(t, func(cfg *app.Config) { cfg.EventCache = time.Hour })
	owner := signedIn(t, a, store.DemoOrganizerEmail)
	v := newVisitor(t, a)
	_, page := v.get("/e/" + demoOwnedEvent) // cached for an hour from now on
	require.NotContains(t, page, "/event-images/")

	upload := func(name string, data []byte) (int, string) {
		var body bytes.Buffer
		w := multipart.NewWriter(&body)
		require.NoError(t, w.WriteField("_csrf", owner.csrf))
		part, err := w.CreateFormFile("cover", name)
		require.NoError(t, err)
		_, _ = part.Write(data)
		require.NoError(t, w.Close())
		return owner.send(http.MethodPost, "/organizer/events/"+demoOwnedEvent+"/cover", w.FormDataContentType(), body.String(), "")
	}
	status, body := upload("cover.svg", []byte(`<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>`))
	require.Equal(t, http.StatusUnsupportedMediaType, status)
	require.Contains(t, body, "SVG images are not accepted")

	src := image.NewRGBA(image.Rect(0, 0, 1600, 600))
	draw.Draw(src, src.Bounds(), &image.Uniform{C: color.RGBA{R: 200, G: 30, B: 90, A: 255}}, image.Point{}, draw.Src)
	var pngData bytes.Buffer
	require.NoError(t, png.Encode(&pngData, src))
	status, body = upload("cover.png", pngData.Bytes())
	require.Equal(t, http.StatusSeeOther, status, body)

	_, page = v.get("/e/" + demoOwnedEvent)
	url := regexp.MustCompile(`/event-images/[a-z0-9]{24}-800\.jpg`).FindString(page)
	require.NotEmpty(t, url, "the public page shows the new cover at once, under a random name")
	for _, seq := range []string{"/event-images/1-800.jpg", "/event-images/2-800.jpg", "/event-images/1-400.jpg"} {
		resp, err := http.Get(a.URL + seq)
		require.NoError(t, err)
		resp.Body.Close()
		require.Equal(t, http.StatusNotFound, resp.StatusCode, "no cover at a sequential URL: %s", seq)
	}
	for width, height := range map[string]int{"800": 450, "400": 225} {
		resp, err := http.Get(a.URL + strings.Replace(url, "-800.", "-"+width+".", 1))
		require.NoError(t, err)
		img, format, err := image.Decode(resp.Body)
		resp.Body.Close()
		require.NoError(t, err)
		require.Equal(t, "jpeg", format)
		require.Equal(t, height, img.Bounds().Dy(), "16:9 at width %s", width)
		require.Equal(t, "public, max-age=31536000, immutable", resp.Header.Get("Cache-Control"))
	}
}

// TestOrganizerExtras_AddOnsAndPromoCodes creates and edits an add-on (shown at once on the
// public page) and creates promo codes that the purchase path then finds.
func TestOrganizerExtras_AddOnsAndPromoCodes(t *testing.T) {
	a := startApp(t, func(cfg *app.Config) { cfg.EventCache = time.Hour })
	ctx := context.Background()
	owner := signedIn(t, a, store.DemoOrganizerEmail)
	v := newVisitor(t, a)
	base := "/organizer/events/" + demoOwnedEvent
	v.get("/e/" + demoOwnedEvent)

	status, body := owner.post(base+"/add-ons", url.Values{"name": {""}, "price": {"abc"}})
	require.Equal(t, http.StatusUnprocessableEntity, status)
	require.Contains(t, body, "Price is an amount in pesos")
	status, _ = owner.post(base+"/add-ons", url.Values{"name": {"Team jersey"}, "price": {"1,299.50"}, "category": {"Merchandise"}})
	require.Equal(t, http.StatusSeeOther, status)
	_, page := v.get("/b/" + demoOwnedType)
	require.True(t, strings.Contains(page, "Team jersey"), "the buy page offers the add-on")
	_, body = owner.get(base + "/add-ons")
	edit := regexp.MustCompile(`/add-ons\?edit=(\d+)">Team jersey`).FindStringSubmatch(body)
	require.NotNil(t, edit)
	status, _ = owner.post(base+"/add-ons?id="+edit[1], url.Values{"name": {"Team jersey (signed)"}, "price": {"1500"}})
	require.Equal(t, http.StatusSeeOther, status)
	_, body = owner.get(base + "/add-ons")
	require.Contains(t, body, "Team jersey (signed)")
	require.Contains(t, body, "₱1,500.00")

	status, body = owner.post(base+"/promo-codes", url.Values{"code": {"x"}, "kind": {"percent"}, "percent": {"120"}})
	require.Equal(t, http.StatusUnprocessableEntity, status)
	require.Contains(t, body, "The percentage is between 1 and 100.")
	status, _ = owner.post(base+"/promo-codes", url.Values{"code": {"team20"}, "kind": {"percent"}, "percent": {"20"}, "usageLimit": {"50"}})
	require.Equal(t, http.StatusSeeOther, status)
	status, _ = owner.post(base+"/promo-codes", url.Values{"code": {"LESS100"}, "kind": {"fixed"}, "amount": {"100"},
		"validUntil": {testEpoch.Add(48 * time.Hour).Format("2006-01-02T15:04")}})
	require.Equal(t, http.StatusSeeOther, status)
	status, body = owner.post(base+"/promo-codes", url.Values{"code": {"TEAM20"}, "kind": {"percent"}, "percent": {"5"}})
	require.Equal(t, http.StatusConflict, status, "codes are unique")
	_, body = owner.get(base + "/promo-codes")
	require.Contains(t, body, "20% off · used 0 of 50")
	require.Contains(t, body, "₱100.00 off")

	ev, err := store.NewOrganizerService(a.DB(), nil).FindEvent(ctx, demoOwnedEvent)
	require.NoError(t, err)
	p, err := a.Purchases().FindPromoCode(ctx, "TEAM20", ev.ID, testEpoch)
	require.NoError(t, err)
	require.Equal(t, 20, p.Percent)
	_, err = a.Purchases().FindPromoCode(ctx, "LESS100", ev.ID, testEpoch.Add(72*time.Hour))
	require.Error(t, err, "past its validity")

	t.Run("OnlyForTicketTypes", func(t *testing.T) {
		var lower int64
		for _, tt := range ev.TicketTypes {
			if tt.Code == "mlbb-manila-showdown-lower" {
				lower = tt.ID
			}
		}
		status, _ := owner.post(base+"/promo-codes", url.Values{"code": {"LOWER10"}, "kind": {"percent"}, "percent": {"10"},
			"ticketTypes": {strconv.FormatInt(lower, 10)}})
		require.Equal(t, http.StatusSeeOther, status)
		other, err := store.NewOrganizerService(a.DB(), nil).FindEvent(ctx, "tekken-tuesdays-cubao")
		require.NoError(t, err)
		status, body := owner.post(base+"/promo-codes", url.Values{"code": {"ELSEWHERE"}, "kind": {"percent"}, "percent": {"10"},
			"ticketTypes": {strconv.FormatInt(other.TicketTypes[0].ID, 10)}})
		require.Equal(t, http.StatusUnprocessableEntity, status, "a ticket type of another event")
		require.Contains(t, body, "Choose ticket types of this event.")
		_, body = owner.get(base + "/promo-codes")
		require.Contains(t, body, "10% off · used 0 · Lower Box")

		_, raw := v.get("/v1/ticket_type?ticketTypeCode=" + demoOwnedType + "&source=LOWER10")
		require.Contains(t, raw, `"promoError":"Promo code LOWER10 is not valid for this ticket."`)
		_, raw = v.get("/v1/ticket_type?ticketTypeCode=mlbb-manila-showdown-lower&source=LOWER10")
		require.Contains(t, raw, `"promo":{"code":"LOWER10"`)
		v.get("/e/" + demoOwnedEvent)
		_, raw = v.postJSON("/v1/ticket/buy", `{"ticketCode":"`+demoOwnedType+`","quantity":1,"email":"promo@example.ph",`+
			`"firstName":"Pia","lastName":"Cruz","mobileNumber":"09171230000","source":"LOWER10","paymentType":"QR"}`)
		require.Contains(t, raw, "Promo code LOWER10 is not valid for this ticket.", "the order refuses it too")
	})
}

// TestOrganizerSeats_Block takes free seats of a seated ticket type off sale on the console's
// grid (the capacity follows), refuses sold ones, and puts a seat back on sale.
func TestOrganizerSeats_Block(t *testing.T) {
	a := startApp(t)
	ctx := context.Background()
	owner := signedIn(t, a, store.DemoOrganizerEmail)
	const code = "mlbb-manila-showdown-lower"
	edit := "/organizer/events/" + demoOwnedEvent + "/ticket-types/" + code
	capacity := func() int {
		ev, err := store.NewOrganizerService(a.DB(), nil).FindEvent(ctx, demoOwnedEvent)
		require.NoError(t, err)
		for _, tt := range ev.TicketTypes {
			if tt.Code == code {
				return tt.Capacity
			}
		}
		return -1
	}
	before := capacity()
	status, page := owner.get(edit + "/edit")
	require.Equal(t, http.StatusOK, status)
	free := regexp.MustCompile(`name="blocked" value="([A-Z]+\d+)">`).FindAllStringSubmatch(page, 3)
	taken := regexp.MustCompile(`name="blocked" value="([A-Z]+\d+)" disabled>`).FindStringSubmatch(page)
	require.Len(t, free, 3, "free seats to tick")
	require.NotNil(t, taken, "demo seats already sold cannot be ticked")

	status, _ = owner.post(edit+"/seats", url.Values{"blocked": {free[0][1], free[1][1]}})
	require.Equal(t, http.StatusSeeOther, status)
	require.Equal(t, before-2, capacity(), "blocked seats leave the capacity")
	_, page = owner.get(edit + "/edit")
	require.Contains(t, page, `value="`+free[0][1]+`" checked>`)
	require.NoError(t, store.NewSeatService(a.DB()).CheckSeats(ctx, mustTypeID(t, a, code), []string{free[2][1]}))
	require.Error(t, store.NewSeatService(a.DB()).CheckSeats(ctx, mustTypeID(t, a, code), []string{free[0][1]}), "a blocked seat cannot be bought")

	status, page = owner.post(edit+"/seats", url.Values{"blocked": {free[0][1], taken[1]}})
	require.Equal(t, http.StatusUnprocessableEntity, status)
	require.Contains(t, page, "Only free seats can be blocked")
	require.Equal(t, before-2, capacity(), "nothing changed")

	status, _ = owner.post(edit+"/seats", url.Values{"blocked": {free[0][1]}})
	require.Equal(t, http.StatusSeeOther, status)
	require.Equal(t, before-1, capacity(), "the unblocked seat is on sale again")
}

// mustTypeID returns the id of a ticket type by its code.
func mustTypeID(t *testing.T, a *testApp, code string) int64 {
	t.Helper()
	tt, _, err := store.NewEventService(a.DB()).FindTicketType(context.Background(), code)
	require.NoError(t, err)
	return tt.ID
}

// TestOrganizerSeats_Plan lays out a seated ticket type on the console's grid (size, an aisle, an
// empty row, a blocked seat), finds the capacity and the buyer's seat map follow, and is refused
// a plan that drops sold seats.
func TestOrganizerSeats_Plan(t *testing.T) {
	a := startApp(t)
	ctx := context.Background()
	owner := signedIn(t, a, store.DemoOrganizerEmail)
	const code = "mlbb-manila-showdown-lower"
	edit := "/organizer/events/" + demoOwnedEvent + "/ticket-types/" + code
	status, page := owner.get(edit + "/edit")
	require.Equal(t, http.StatusOK, status)
	rows := regexp.MustCompile(`name="rows"[^>]*value="(\d+)"`).FindStringSubmatch(page)
	perRow := regexp.MustCompile(`name="seatsPerRow"[^>]*value="(\d+)"`).FindStringSubmatch(page)
	require.NotNil(t, rows, "the grid has its size")
	require.NotNil(t, perRow)
	free := regexp.MustCompile(`name="blocked" value="([A-Z]+\d+)">`).FindStringSubmatch(page)
	require.NotNil(t, free)
	r, _ := strconv.Atoi(rows[1])
	n, _ := strconv.Atoi(perRow[1])

	status, _ = owner.post(edit+"/seats", url.Values{"rows": {rows[1]}, "seatsPerRow": {perRow[1]}, "aisleAfter": {"2"},
		"gapAfterRows": {"A"}, "blocked": {free[1]}})
	require.Equal(t, http.StatusSeeOther, status)
	ev, err := store.NewOrganizerService(a.DB(), nil).FindEvent(ctx, demoOwnedEvent)
	require.NoError(t, err)
	for _, tt := range ev.TicketTypes {
		if tt.Code == code {
			require.Equal(t, r*n-1, tt.Capacity, "the capacity is the seats for sale")
		}
	}
	_, page = owner.get(edit + "/edit")
	require.Contains(t, page, `name="aisleAfter" value="2" checked`)
	require.Contains(t, page, `name="gapAfterRows" value="A" checked`)
	require.Contains(t, page, `value="`+free[1]+`" checked>`)

	_, page = owner.get("/s/" + code)
	require.Contains(t, page, `"aisles":[2]`, "the buyer's map draws the aisle")
	require.Contains(t, page, `"rowGaps":["A"]`, "and the empty row")

	status, page = owner.post(edit+"/seats", url.Values{"rows": {"1"}, "seatsPerRow": {"1"}})
	require.Equal(t, http.StatusUnprocessableEntity, status)
	require.Contains(t, page, "is sold or held, so it must stay on the seat map.")
	status, page = owner.post(edit+"/seats", url.Values{"rows": {"27"}, "seatsPerRow": {"4"}})
	require.Equal(t, http.StatusUnprocessableEntity, status)
	require.Contains(t, page, "A seat map has 1 to 26 rows.")
}

// TestOrganizerAPI_AddOnsAndPromoCodes creates, hides and deletes an add-on and creates a promo
// code through the organizer API, with the console's field names; a hidden add-on is no longer offered.
func TestOrganizerAPI_AddOnsAndPromoCodes(t *testing.T) {
	a := startApp(t)
	tok := organizerToken(t, a, store.DemoOrganizerEmail, "--organization", "1")
	v := newVisitor(t, a)
	api := orgAPI(t, v, tok)
	const base = "/v1/organizer/events/valorant-night-market-bgc"
	offered := func() bool {
		_, body := v.get("/v1/ticket_type?ticketTypeCode=valorant-night-market-bgc-watch")
		return strings.Contains(body, "API Lanyard")
	}
	status, ao := api(http.MethodPost, base+"/add-ons", `{"name":"API Lanyard","price":15000,"category":"Merchandise","notes":"Green"}`)
	require.Equal(t, http.StatusCreated, status, ao)
	id := strconv.FormatFloat(ao["id"].(float64), 'f', 0, 64)
	require.EqualValues(t, 15000, ao["price"])
	require.True(t, offered(), "a new add-on is offered")

	status, ao = api(http.MethodPost, base+"/add-ons", `{"id":`+id+`,"name":"API Lanyard","price":15000,"category":"Merchandise","hidden":true}`)
	require.Equal(t, http.StatusOK, status, ao)
	require.Equal(t, true, ao["hidden"])
	require.False(t, offered(), "a hidden add-on is no longer offered")
	status, list := api(http.MethodGet, base+"/add-ons", "")
	require.Equal(t, http.StatusOK, status)
	require.Contains(t, fmt.Sprint(list["addOns"]), "API Lanyard", "the organizer still sees it")

	status, _ = api(http.MethodDelete, base+"/add-ons/"+id, "")
	require.Equal(t, http.StatusNoContent, status)
	_, list = api(http.MethodGet, base+"/add-ons", "")
	require.NotContains(t, fmt.Sprint(list["addOns"]), "API Lanyard")
	status, _ = api(http.MethodDelete, base+"/add-ons/"+id, "")
	require.Equal(t, http.StatusNotFound, status)

	status, pc := api(http.MethodPost, base+"/promo-codes", `{"code":"API10","kind":"percent","percent":10,"usageLimit":5,
		"ticketTypes":["valorant-night-market-bgc-watch"]}`)
	require.Equal(t, http.StatusCreated, status, pc)
	require.Equal(t, []any{"valorant-night-market-bgc-watch"}, pc["ticketTypes"])
	_, list = api(http.MethodGet, base+"/promo-codes", "")
	require.Contains(t, fmt.Sprint(list["promoCodes"]), "API10")
	status, e := api(http.MethodPost, base+"/promo-codes", `{"code":"API11","kind":"percent","percent":10,"ticketTypes":["nope"]}`)
	require.Equal(t, http.StatusBadRequest, status)
	require.Contains(t, e["message"], "ticketTypes")
	status, e = api(http.MethodPost, base+"/promo-codes", `{"code":"API12","kind":"percent","percent":0}`)
	require.Equal(t, http.StatusBadRequest, status)
	require.Contains(t, e["message"], "percent")
	status, e = api(http.MethodPost, base+"/promo-codes", `{"code":"API10","kind":"percent","percent":10}`)
	require.Equal(t, http.StatusConflict, status, e)
}

// TestOrganizerAddOns_HideAndDelete hides an add-on and deletes it on the console's add-ons page.
func TestOrganizerAddOns_HideAndDelete(t *testing.T) {
	a := startApp(t)
	owner := signedIn(t, a, store.DemoOrganizerEmail)
	const page = "/organizer/events/valorant-night-market-bgc/add-ons"
	status, _ := owner.post(page, url.Values{"name": {"Console Pin"}, "price": {"20"}, "category": {"Merch"}, "hidden": {"on"}})
	require.Equal(t, http.StatusSeeOther, status)
	_, body := owner.get(page)
	require.Contains(t, body, "₱20.00 · Merch · hidden")
	action := regexp.MustCompile(`action="(` + page + `/\d+/delete)"`).FindStringSubmatch(body)
	require.NotNil(t, action, "the add-on has a delete button")
	status, _ = owner.post(action[1], url.Values{})
	require.Equal(t, http.StatusSeeOther, status)
	_, body = owner.get(page)
	require.NotContains(t, body, "Console Pin")
}
