package e2e

import (
	"context"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"palaro"
	"palaro/store"
)

// sellOut takes what is left of a ticket type off sale (as if it sold) and drops the page caches.
func sellOut(t *testing.T, a *testApp, code string) {
	t.Helper()
	_, err := a.DB().Writer().Exec(`UPDATE ticket_types SET capacity = sold + held WHERE code = ?`, code)
	require.NoError(t, err)
	a.Server().EventsChanged()
}

// addCapacity gives a ticket type n more places, as an organizer raising its capacity does.
func addCapacity(t *testing.T, a *testApp, code string, n int) {
	t.Helper()
	_, err := a.DB().Writer().Exec(`UPDATE ticket_types SET capacity = capacity + ? WHERE code = ?`, n, code)
	require.NoError(t, err)
}

// lastMail returns the newest outbox message of a kind to an address.
func lastMail(t *testing.T, a *testApp, to, kind string) palaro.OutboxMessage {
	t.Helper()
	msgs, err := store.NewOutboxService(a.DB()).ListOutbox(context.Background(), palaro.OutboxFilter{To: to, Limit: 50})
	require.NoError(t, err)
	for _, m := range msgs {
		if m.Kind == kind {
			return m
		}
	}
	t.Fatalf("no %s e-mail to %s", kind, to)
	return palaro.OutboxMessage{}
}

// joinWaitlist puts each address on a ticket type's waiting list for quantity tickets, each from
// its own visitor's form.
func joinWaitlist(t *testing.T, a *testApp, code, quantity string, emails ...string) {
	t.Helper()
	for _, email := range emails {
		status, page := newVisitor(t, a).post("/waitlist/"+code, url.Values{"email": {email}, "quantity": {quantity}})
		require.Equal(t, http.StatusOK, status, page)
	}
}

var offerPath = regexp.MustCompile(`/waitlist/offer/[A-Za-z0-9_-]+`)

// TestWaitlist_JoinWithoutJavaScript joins a sold-out type's waiting list with plain form posts:
// the event page and the buy page lead there, bad input is answered on the form with what was
// typed, a join is confirmed on a page and by e-mail, a second join updates the quantity.
func TestWaitlist_JoinWithoutJavaScript(t *testing.T) {
	a := startApp(t)
	const event, code = "dota-2-visayas-major", "dota-2-visayas-major-gen"
	v := newVisitor(t, a)
	_, page := v.get("/waitlist/" + code)
	require.Contains(t, page, "can be bought now", "a type on sale has no waiting list")
	require.NotContains(t, page, `id="waitlist-form"`)

	sellOut(t, a, code)
	_, page = v.get("/e/" + event)
	require.Contains(t, page, `href="/waitlist/`+code+`"`, "the sold-out type's button leads to its waiting list")
	require.Contains(t, page, "Join the waiting list")
	_, page = v.get("/b/" + code)
	require.Contains(t, page, `action="/waitlist/`+code+`"`, "the buy page of a sold-out type has the join form")
	require.NotContains(t, page, `data-island="purchase"`)

	status, page := v.get("/waitlist/" + code)
	require.Equal(t, http.StatusOK, status)
	require.Contains(t, page, `id="waitlist-form"`)
	require.Contains(t, page, "Max. 10 per person")

	status, page = v.post("/waitlist/"+code, url.Values{"email": {"fan@example"}, "quantity": {"2"}})
	require.Equal(t, http.StatusUnprocessableEntity, status)
	require.Contains(t, page, "Invalid E-mail address")
	require.Contains(t, page, `value="fan@example"`, "what was typed stays")
	status, page = v.post("/waitlist/"+code, url.Values{"email": {"fan@example.ph"}, "quantity": {"11"}})
	require.Equal(t, http.StatusUnprocessableEntity, status)
	require.Contains(t, page, "Choose between 1 and 10 tickets.")
	status, page = v.post("/waitlist/"+code, url.Values{"email": {"fan@example.ph"}, "quantity": {"two"}})
	require.Equal(t, http.StatusUnprocessableEntity, status)
	require.Contains(t, page, "Choose between 1 and 10 tickets.")

	status, page = v.post("/waitlist/"+code, url.Values{"email": {"Fan@Example.ph"}, "quantity": {"2"}})
	require.Equal(t, http.StatusOK, status, page)
	require.Contains(t, page, "You are on the waiting list")
	require.Contains(t, page, "#1")
	require.Contains(t, page, "fan@example.ph")
	mail := lastMail(t, a, "fan@example.ph", palaro.MessageWaitlistJoined)
	require.Contains(t, mail.Text, "2 tickets of General Admission")

	other := newVisitor(t, a)
	_, page = other.post("/waitlist/"+code, url.Values{"email": {"second@example.ph"}, "quantity": {"1"}})
	require.Contains(t, page, "#2")
	status, page = v.post("/waitlist/"+code, url.Values{"email": {"fan@example.ph"}, "quantity": {"3"}})
	require.Equal(t, http.StatusOK, status)
	require.Contains(t, page, "You were on the waiting list already")
	require.Contains(t, page, "#1", "the place is kept")
	status, _ = newVisitor(t, a).post("/waitlist/"+code, url.Values{"email": {"fan@example.ph"}, "quantity": {"2"}})
	require.Equal(t, http.StatusOK, status, "the fifth e-mail to the address in 20 minutes")
	status, _ = newVisitor(t, a).post("/waitlist/"+code, url.Values{"email": {"fan@example.ph"}, "quantity": {"2"}})
	require.Equal(t, http.StatusTooManyRequests, status, "joins e-mail their address: one cannot flood an inbox")

	_, page = v.get("/waitlist/dota-2-visayas-major-lower")
	require.Contains(t, page, "can be bought now", "a seated type on sale has no waiting list yet")
	status, _ = v.get("/waitlist/no-such-type")
	require.Equal(t, http.StatusNotFound, status)
}

// TestWaitlist_OfferChainOverHTTP follows tickets that come back through the console, the job loop
// and the offer link: the organizer sees the list, sets the offer time and offers by hand; the
// link buys exactly the held tickets; an unclaimed offer expires in the job and passes on.
func TestWaitlist_OfferChainOverHTTP(t *testing.T) {
	a := startApp(t)
	ctx := context.Background()
	const code = demoOwnedType
	base := "/organizer/events/" + demoOwnedEvent
	sellOut(t, a, code)
	joinWaitlist(t, a, code, "1", "first@example.ph", "second@example.ph")

	owner := signedIn(t, a, store.DemoOrganizerEmail)
	_, page := owner.get(base)
	require.Contains(t, page, `href="`+base+`/waitlist"`, "the event's console links its waiting list")
	status, page := owner.get(base + "/waitlist")
	require.Equal(t, http.StatusOK, status)
	require.Regexp(t, `(?s)#1</strong>\s*<strong>first@example.ph.*#2</strong>\s*<strong>second@example.ph`, page)
	require.Contains(t, page, `value="24"`, "24 hours by default")
	entries := regexp.MustCompile(`action="`+regexp.QuoteMeta(base)+`/waitlist/(\d+)/offer"`).FindAllStringSubmatch(page, -1)
	require.Len(t, entries, 2)

	status, page = owner.post(base+"/waitlist/offer-time", url.Values{"offerHours": {"soon"}})
	require.Equal(t, http.StatusUnprocessableEntity, status)
	require.Contains(t, page, "The offer time must be between 1 and 336 hours.")
	status, _ = owner.post(base+"/waitlist/offer-time", url.Values{"offerHours": {"2"}})
	require.Equal(t, http.StatusSeeOther, status)
	_, page = owner.get(base + "/waitlist")
	require.Contains(t, page, `value="2"`)

	status, page = owner.post(base+"/waitlist/"+entries[1][1]+"/offer", url.Values{"quantity": {"1"}})
	require.Equal(t, http.StatusConflict, status, "nothing is free to offer")
	require.Contains(t, page, "Only 0 tickets of General Admission free to offer")

	// one place more: the organizer gives it to #2 by hand, ahead of #1
	addCapacity(t, a, code, 1)
	status, _ = owner.post(base+"/waitlist/"+entries[1][1]+"/offer", url.Values{"quantity": {"1"}})
	require.Equal(t, http.StatusSeeOther, status)
	_, page = owner.get(base + "/waitlist")
	require.Contains(t, page, "Offered by hand 1 ticket")
	require.Contains(t, page, "open until")
	link := offerPath.FindString(lastMail(t, a, "second@example.ph", palaro.MessageWaitlistOffer).Text)
	require.NotEmpty(t, link, "the offer is e-mailed with its link")

	_, raw := newVisitor(t, a).postJSON("/v1/ticket/buy", `{"ticketCode":"`+code+`","quantity":1,"email":"walkin@example.ph",`+
		`"firstName":"Walk","lastName":"In","mobileNumber":"0917-555-0100","paymentType":"QR"}`)
	require.Contains(t, raw, "sold out", "an ordinary buyer cannot take the held ticket")

	// the event's sale goes behind a queue: the offer's holder does not queue for tickets held for them
	tok := organizerToken(t, a, store.DemoOrganizerEmail, "--organization", "2")
	api := orgAPI(t, newVisitor(t, a), tok)
	status, _ = api(http.MethodPatch, "/v1/organizer/events/"+demoOwnedEvent,
		`{"queue":{"opensAt":"`+a.Now().Add(time.Hour).Format(time.RFC3339)+`","admitPerMinute":1}}`)
	require.Equal(t, http.StatusOK, status)
	status, _ = newVisitor(t, a).get("/b/" + code)
	require.Equal(t, http.StatusSeeOther, status, "others are sent to the queue")

	buyer := newVisitor(t, a)
	status, page = buyer.get(link)
	require.Equal(t, http.StatusOK, status)
	require.Contains(t, page, "Tickets held for you")
	require.Contains(t, page, "second@example.ph")
	buyHref := regexp.MustCompile(`href="(/b/` + code + `\?offer=[^"]+)"`).FindStringSubmatch(page)
	require.NotNil(t, buyHref, page)
	status, page = buyer.get(strings.ReplaceAll(buyHref[1], "&amp;", "&"))
	require.Equal(t, http.StatusOK, status)
	require.Contains(t, page, `data-island="purchase"`, "the held ticket can be bought though the type is sold out")
	require.Contains(t, page, `"offer":{"token":`)
	require.Contains(t, page, "1 ticket is held for you (second@example.ph)")

	token := strings.TrimPrefix(link, "/waitlist/offer/")
	body := func(email string) string {
		return `{"ticketCode":"` + code + `","quantity":1,"email":"` + email + `","firstName":"Ana","lastName":"Cruz",` +
			`"mobileNumber":"0917-555-0101","offer":"` + token + `","paymentType":"QR"}`
	}
	_, raw = buyer.postJSON("/v1/ticket/buy", body("first@example.ph"))
	require.Contains(t, raw, "This waiting-list offer is for second@example.ph")
	// the form works without JavaScript too: it posts the offer back with its action
	require.Contains(t, page, `action="/b/`+code+`?offer=`+token+`"`)
	require.Regexp(t, `<input id="email"[^>]*value="second@example.ph"[^>]*readonly`, page)
	status, page = buyer.post("/b/"+code+"?offer="+token, url.Values{"email": {"second@example.ph"}, "quantity": {"1"},
		"firstName": {"Ana"}, "lastName": {"Cruz"}, "mobileNumber": {"0917-555-0101"}, "paymentType": {"QR"}})
	require.Equal(t, http.StatusSeeOther, status, page)
	_, page = buyer.get(link)
	require.Contains(t, page, "You used this offer")

	// the claimed order is never paid: its hold expires in the job loop and the ticket goes to #1;
	// #1 lets the 2-hour offer lapse, and with nobody else waiting the ticket is on sale again
	later := a.Now().Add(20 * time.Minute)
	a.SettleOnce(ctx, later)
	firstLink := offerPath.FindString(lastMail(t, a, "first@example.ph", palaro.MessageWaitlistOffer).Text)
	require.NotEmpty(t, firstLink, "the expired order's ticket is offered to #1")
	offer, err := a.Waitlist().FindOffer(ctx, strings.TrimPrefix(firstLink, "/waitlist/offer/"))
	require.NoError(t, err)
	require.Equal(t, later.Add(2*time.Hour).UTC().Truncate(time.Second), offer.ExpiresAt, "the event's offer time")
	a.SettleOnce(ctx, offer.ExpiresAt)
	offer, err = a.Waitlist().FindOffer(ctx, strings.TrimPrefix(firstLink, "/waitlist/offer/"))
	require.NoError(t, err)
	require.Equal(t, palaro.OfferExpired, offer.Status)
	require.Contains(t, lastMail(t, a, "first@example.ph", palaro.MessageWaitlistOfferExpired).Text, "/waitlist/"+code,
		"#1 hears that the offer passed on, with the way back onto the list")
	_, page = newVisitor(t, a).get(firstLink)
	require.Contains(t, page, "This offer has expired")

	status, out := api(http.MethodGet, "/v1/organizer/events/"+demoOwnedEvent+"/waitlist", "")
	require.Equal(t, http.StatusOK, status)
	require.EqualValues(t, 2, out["offerHours"])
	list := out["entries"].([]any)
	require.Len(t, list, 2)
	for _, e := range list {
		e := e.(map[string]any)
		require.Equal(t, code, e["ticketType"])
		require.Nil(t, e["position"], "nobody is waiting any more")
		require.Len(t, e["offers"], 1)
	}
	status, out = api(http.MethodPatch, "/v1/organizer/events/"+demoOwnedEvent+"/waitlist", `{"offerHours": 0}`)
	require.Equal(t, http.StatusBadRequest, status)
	require.Contains(t, out["message"], "between 1 and 336 hours")
	status, _ = api(http.MethodPatch, "/v1/organizer/events/"+demoOwnedEvent+"/waitlist", `{"offerHours": 6}`)
	require.Equal(t, http.StatusOK, status)
	status, out = api(http.MethodPost, "/v1/organizer/events/"+demoOwnedEvent+"/waitlist/"+entries[0][1]+"/offer", `{"quantity": 1}`)
	require.Equal(t, http.StatusCreated, status, "the free ticket, offered again by hand through the API")
	require.Equal(t, true, out["byHand"])
	require.Equal(t, palaro.OfferOpen, out["status"])
}
