package e2e

import (
	"fmt"
	"html"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"palaro/store"
)

// buyWithCode places an order of one demo ticket with a promo code and returns the answer's body.
func buyWithCode(t *testing.T, a *testApp, email, code string) string {
	t.Helper()
	v := newVisitor(t, a)
	v.get("/e/" + demoOwnedEvent)
	_, raw := v.postJSON("/v1/ticket/buy", `{"ticketCode":"`+demoOwnedType+`","quantity":1,"email":"`+email+`",`+
		`"firstName":"Pia","lastName":"Cruz","mobileNumber":"09171230000","source":"`+code+`","paymentType":"QR"}`)
	return raw
}

// TestOrganizerPromoCodes_EditPauseDelete changes a promo code's terms on the console, pauses it
// (refused at purchase with a clear message), resumes it, and deletes it: an unused code goes, a
// code an order used is retired (listed, unusable). The form asks for the discount type first.
func TestOrganizerPromoCodes_EditPauseDelete(t *testing.T) {
	a := startApp(t)
	owner := signedIn(t, a, store.DemoOrganizerEmail)
	base := "/organizer/events/" + demoOwnedEvent
	status, _ := owner.post(base+"/promo-codes", url.Values{"code": {"LEAK50"}, "kind": {"percent"}, "percent": {"50"}})
	require.Equal(t, http.StatusSeeOther, status)
	_, body := owner.get(base + "/promo-codes")
	require.Less(t, strings.Index(body, `id="f-kind"`), strings.Index(body, `id="f-code"`), "the discount type comes first")
	require.Less(t, strings.Index(body, `id="f-kind"`), strings.Index(body, `id="f-percent"`))
	edit := regexp.MustCompile(`href="(` + base + `/promo-codes\?edit=\d+)">LEAK50`).FindStringSubmatch(body)
	require.NotNil(t, edit, "the code links to its edit form")

	_, body = owner.get(html.UnescapeString(edit[1]))
	require.Contains(t, body, "Change LEAK50")
	require.Contains(t, body, `value="50"`, "the form shows the code's terms")
	action := regexp.MustCompile(`action="(` + base + `/promo-codes\?id=\d+)"`).FindStringSubmatch(html.UnescapeString(body))
	require.NotNil(t, action)
	status, body = owner.post(action[1], url.Values{"kind": {"fixed"}, "amount": {"abc"}})
	require.Equal(t, http.StatusUnprocessableEntity, status)
	require.Contains(t, body, "Amount is an amount in pesos")
	status, _ = owner.post(action[1], url.Values{"kind": {"fixed"}, "amount": {"75"}, "usageLimit": {"10"}})
	require.Equal(t, http.StatusSeeOther, status)
	_, body = owner.get(base + "/promo-codes")
	require.Contains(t, body, "LEAK50")
	require.Contains(t, body, "₱75.00 off · used 0 of 10")

	pause := regexp.MustCompile(`action="(` + base + `/promo-codes/\d+/pause)"`).FindStringSubmatch(body)
	require.NotNil(t, pause, "the code has a pause button")
	require.Contains(t, body, ">Pause LEAK50<")
	status, _ = owner.post(pause[1], url.Values{"paused": {"1"}})
	require.Equal(t, http.StatusSeeOther, status)
	_, body = owner.get(base + "/promo-codes?notice=promo-paused")
	require.Contains(t, body, "The promo code is paused")
	require.Contains(t, body, ">paused<")
	require.Contains(t, body, ">Resume LEAK50<")
	raw := buyWithCode(t, a, "paused@example.ph", "leak50")
	require.Contains(t, raw, "Promo code LEAK50 is paused by the organizer and cannot be used right now.")
	v := newVisitor(t, a)
	_, raw = v.get("/v1/ticket_type?ticketTypeCode=" + demoOwnedType + "&source=LEAK50")
	require.Contains(t, raw, `"promoError":"Promo code LEAK50 is paused by the organizer and cannot be used right now."`)

	status, _ = owner.post(pause[1], url.Values{"paused": {"0"}})
	require.Equal(t, http.StatusSeeOther, status)
	raw = buyWithCode(t, a, "resumed@example.ph", "LEAK50")
	require.NotContains(t, raw, "paused", "a resumed code works: %s", raw)
	require.Contains(t, raw, "redirect")

	del := regexp.MustCompile(`action="(` + base + `/promo-codes/\d+/delete)"`).FindStringSubmatch(body)
	require.NotNil(t, del, "the code has a delete button")
	status, _ = owner.post(del[1], url.Values{})
	require.Equal(t, http.StatusSeeOther, status)
	_, body = owner.get(base + "/promo-codes?notice=promo-retired")
	require.Contains(t, body, "kept for their history")
	require.Contains(t, body, ">retired<")
	require.NotContains(t, body, ">Delete LEAK50<", "a retired code has no actions")
	raw = buyWithCode(t, a, "retired@example.ph", "LEAK50")
	require.Contains(t, raw, "Promo code LEAK50 is no longer valid.")

	status, _ = owner.post(base+"/promo-codes", url.Values{"code": {"UNUSED9"}, "kind": {"percent"}, "percent": {"9"}})
	require.Equal(t, http.StatusSeeOther, status)
	_, body = owner.get(base + "/promo-codes")
	del = regexp.MustCompile(`action="(` + base + `/promo-codes/\d+/delete)"`).FindStringSubmatch(body)
	require.NotNil(t, del)
	status, _ = owner.post(del[1], url.Values{})
	require.Equal(t, http.StatusSeeOther, status)
	_, body = owner.get(base + "/promo-codes")
	require.NotContains(t, body, "UNUSED9", "an unused code is gone")
}

// TestOrganizerAPI_PromoCodePauseAndDelete pauses, changes and deletes promo codes through the
// organizer API (by code), and refuses a change of the code itself.
func TestOrganizerAPI_PromoCodePauseAndDelete(t *testing.T) {
	a := startApp(t)
	tok := organizerToken(t, a, store.DemoOrganizerEmail, "--organization", "2")
	v := newVisitor(t, a)
	api := orgAPI(t, v, tok)
	base := "/v1/organizer/events/" + demoOwnedEvent + "/promo-codes"
	status, pc := api(http.MethodPost, base, `{"code":"APIPAUSE","kind":"percent","percent":10}`)
	require.Equal(t, http.StatusCreated, status, pc)
	require.Equal(t, false, pc["paused"])

	status, pc = api(http.MethodPatch, base+"/apipause", `{"paused":true,"usageLimit":7}`)
	require.Equal(t, http.StatusOK, status, pc)
	require.Equal(t, true, pc["paused"])
	require.EqualValues(t, 7, pc["usageLimit"])
	require.EqualValues(t, 10, pc["percent"], "fields not sent stay")
	require.Contains(t, buyWithCode(t, a, "apipaused@example.ph", "APIPAUSE"), "is paused by the organizer")

	status, e := api(http.MethodPatch, base+"/APIPAUSE", `{"code":"OTHER"}`)
	require.Equal(t, http.StatusBadRequest, status, e)
	require.Contains(t, e["message"], "code cannot change")
	status, e = api(http.MethodPatch, base+"/APIPAUSE", `{"kind":"fixed","amount":0}`)
	require.Equal(t, http.StatusBadRequest, status, e)
	require.Contains(t, e["message"], "amount")
	status, _ = api(http.MethodPatch, base+"/NOPE", `{"paused":true}`)
	require.Equal(t, http.StatusNotFound, status)

	status, pc = api(http.MethodPatch, base+"/APIPAUSE", `{"paused":false}`)
	require.Equal(t, http.StatusOK, status, pc)
	require.NotContains(t, buyWithCode(t, a, "apiresumed@example.ph", "APIPAUSE"), "paused")
	status, pc = api(http.MethodDelete, base+"/APIPAUSE", "")
	require.Equal(t, http.StatusOK, status, "an order used it: retired")
	require.Equal(t, true, pc["retired"])
	status, _ = api(http.MethodDelete, base+"/APIPAUSE", "")
	require.Equal(t, http.StatusNotFound, status)

	status, _ = api(http.MethodPost, base, `{"code":"APIGONE","kind":"percent","percent":10}`)
	require.Equal(t, http.StatusCreated, status)
	status, _ = api(http.MethodDelete, base+"/APIGONE", "")
	require.Equal(t, http.StatusNoContent, status)
	_, list := api(http.MethodGet, base, "")
	require.NotContains(t, fmt.Sprint(list["promoCodes"]), "APIGONE")
}

// TestOrganizerDashboard_MoneyFigures shows revenue as an amount, ₱0.00 included (never 'FREE'),
// with add-ons on their own line of the table per ticket type.
func TestOrganizerDashboard_MoneyFigures(t *testing.T) {
	a := startApp(t)
	owner := signedIn(t, a, store.DemoOrganizerEmail)
	status, body := owner.get("/organizer/events/" + demoOwnedEvent + "/dashboard")
	require.Equal(t, http.StatusOK, status)
	require.NotContains(t, body, "FREE")
	require.Contains(t, body, "<td>₱0.00</td>", "a ticket type without revenue")
	require.Regexp(t, `<th scope="row">Add-ons</th><td>—</td><td>₱[0-9,.]+</td>`, body)
	_, body = owner.get("/organizer")
	require.NotContains(t, body, "FREE")
}

// TestOrganizerAuditLog_Readable shows each audit entry in words: what changed, from and to, times
// in Manila, no JSON and no zero times.
func TestOrganizerAuditLog_Readable(t *testing.T) {
	a := startApp(t)
	v := newVisitor(t, a)
	api := orgAPI(t, v, organizerToken(t, a, store.DemoOrganizerEmail, "--organization", "2"))
	base := "/v1/organizer/events/" + demoOwnedEvent
	status, ev := api(http.MethodPatch, base, `{"name":"MLBB Manila Showdown II","startsAt":"2026-12-05T18:00:00+08:00","endsAt":"2026-12-05T23:00:00+08:00"}`)
	require.Equal(t, http.StatusOK, status, ev)
	status, tt := api(http.MethodPatch, base+"/ticket-types/"+demoOwnedType, `{"salesEnd":"2026-12-05T17:00:00+08:00","price":45100}`)
	require.Equal(t, http.StatusOK, status, tt)
	status, tt = api(http.MethodPost, base+"/ticket-types", `{"code":"mlbb-audit-ga","name":"Audit GA","price":25000,"capacity":100,
		"maxPurchasable":4,"paymentTypes":["QR"]}`)
	require.Equal(t, http.StatusCreated, status, tt)
	status, pc := api(http.MethodPost, base+"/promo-codes", `{"code":"AUDIT5","kind":"percent","percent":5}`)
	require.Equal(t, http.StatusCreated, status, pc)

	owner := signedIn(t, a, store.DemoOrganizerEmail)
	_, body := owner.get("/organizer/events/" + demoOwnedEvent)
	i := strings.Index(body, `<ol class="org-audit">`)
	require.Greater(t, i, 0, "the page has an audit log")
	log := html.UnescapeString(body[i : strings.Index(body[i:], "</ol>")+i])
	require.Contains(t, log, "<li>Name: "+demoOwnedEventName+" → MLBB Manila Showdown II</li>")
	require.Contains(t, log, "→ Sat 5 Dec 2026, 6:00 PM</li>", "times in Manila")
	require.Regexp(t, `<li>Sales end: [^<]+ → Sat 5 Dec 2026, 5:00 PM</li>`, log)
	require.Regexp(t, `<li>Price: ₱[0-9,.]+ → ₱451\.00</li>`, log)
	require.Contains(t, log, "<strong>ticket type created</strong>")
	require.Contains(t, log, "<li>Per-buyer maximum: 4</li>")
	require.Contains(t, log, "<li>Price: ₱250.00</li>")
	require.Contains(t, log, "<li>Discount: 5% off</li>")
	require.NotContains(t, log, "0001")
	require.NotContains(t, log, `{"`)
	require.NotContains(t, log, "T00:00:00Z")
}

// TestOrganizerNewEvent_CodeFromName marks the new-event form's code as following the name, and a
// create without a code takes the one the name suggests (accents dropped).
func TestOrganizerNewEvent_CodeFromName(t *testing.T) {
	a := startApp(t)
	owner := signedIn(t, a, store.DemoOrganizerEmail)
	_, body := owner.get("/organizer/events/new")
	require.Regexp(t, `<input id="f-code" name="code"[^>]*data-suggest-from="f-name"`, body)
	_, body = owner.get("/organizer/events/" + demoOwnedEvent + "/edit")
	require.NotContains(t, body, "data-suggest-from", "an existing event's code does not follow its name")

	form := url.Values{"name": {"Dasmariñas Peña Cup 2026"}, "summary": {"A cup."}, "startsAt": {"2026-12-05T18:00"},
		"endsAt": {"2026-12-05T22:00"}, "venue.name": {"Hall"}, "venue.address": {"1 Road"}, "venue.city": {"Dasmariñas"},
		"status": {"draft"}, "organization": {"2"}}
	status, _ := owner.post("/organizer/events", form)
	require.Equal(t, http.StatusSeeOther, status)
	status, _ = owner.get("/organizer/events/dasmarinas-pena-cup-2026")
	require.Equal(t, http.StatusOK, status, "the code came from the name")

	form.Set("endsAt", "2026-12-05T17:00")
	status, body = owner.post("/organizer/events", form)
	require.Equal(t, http.StatusUnprocessableEntity, status)
	require.Contains(t, body, `value="dasmarinas-pena-cup-2026"`, "the refused form shows the suggested code")
}

// TestOrganizerTokens_APIHelpInline explains the organizer API on the tokens page itself, with
// this site's address, instead of pointing to a file of the source repository.
func TestOrganizerTokens_APIHelpInline(t *testing.T) {
	a := startApp(t)
	owner := signedIn(t, a, store.DemoOrganizerEmail)
	_, body := owner.get("/organizer/tokens")
	require.NotContains(t, body, "docs/API.md")
	require.Contains(t, body, "How to use the organizer API")
	require.Contains(t, body, a.URL+"/v1/organizer/events</code>")
	require.Contains(t, html.UnescapeString(body), `Authorization: Bearer YOUR_TOKEN`)
}
