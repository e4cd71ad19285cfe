package e2e

import (
	"context"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"palaro"
	"palaro/store"
)

// seatedType is the demo's seated type (400 seats, 8 rows of 50) and its event.
const seatedEvent, seatedType = "dota-2-visayas-major", "dota-2-visayas-major-lower"

// adjacentFreeSeats returns the first n adjacent free seats of a seated type's map.
func adjacentFreeSeats(t *testing.T, a *testApp, code string, n int) []string {
	t.Helper()
	ctx := context.Background()
	tt, _, err := store.NewEventService(a.DB()).FindTicketType(ctx, code)
	require.NoError(t, err)
	rows, err := store.NewSeatService(a.DB()).SeatMap(ctx, tt.ID)
	require.NoError(t, err)
	seats := palaro.PickSeats(rows, nil, n)
	require.Len(t, seats, n)
	return seats
}

// sellOutSeats sells every free seat of a seated type outside the app (an assignment without an
// order, counted as sold), so its map and its count agree: sold out.
func sellOutSeats(t *testing.T, a *testApp, code string) {
	t.Helper()
	w := a.DB().Writer()
	res, err := w.Exec(`INSERT INTO seat_assignments (ticket_type_id, seat, order_id)
		SELECT s.ticket_type_id, s.label, NULL FROM seats s JOIN ticket_types tt ON tt.id = s.ticket_type_id
		WHERE tt.code = ? AND NOT EXISTS (SELECT 1 FROM seat_assignments a WHERE a.ticket_type_id = s.ticket_type_id AND a.seat = s.label)`, code)
	require.NoError(t, err)
	n, err := res.RowsAffected()
	require.NoError(t, err)
	_, err = w.Exec(`UPDATE ticket_types SET sold = sold + ? WHERE code = ?`, n, code)
	require.NoError(t, err)
	var left int
	require.NoError(t, w.QueryRow(`SELECT capacity - sold - held FROM ticket_types WHERE code = ?`, code).Scan(&left))
	require.Zero(t, left, "the count agrees with the map")
	a.Server().EventsChanged()
}

// freeSeatsOutside gives back seats sold outside the app (as if refunded at the box office),
// without telling the waiting list: the job loop finds them.
func freeSeatsOutside(t *testing.T, a *testApp, code string, seats ...string) {
	t.Helper()
	for _, s := range seats {
		res, err := a.DB().Writer().Exec(`DELETE FROM seat_assignments WHERE seat = ? AND order_id IS NULL AND offer_id IS NULL
			AND ticket_type_id = (SELECT id FROM ticket_types WHERE code = ?)`, s, code)
		require.NoError(t, err)
		n, _ := res.RowsAffected()
		require.EqualValues(t, 1, n, s)
		_, err = a.DB().Writer().Exec(`UPDATE ticket_types SET sold = sold - 1 WHERE code = ?`, code)
		require.NoError(t, err)
	}
}

// TestWaitlist_SeatedOverHTTP: a sold-out seated type's seat page and event page lead to its
// waiting list; the organizer offers named seats by hand and sees the seats of every offer; the
// offer's link buys exactly its seats, which nobody else can buy meanwhile.
func TestWaitlist_SeatedOverHTTP(t *testing.T) {
	a := startApp(t)
	ctx := context.Background()
	free := adjacentFreeSeats(t, a, seatedType, 3)
	sellOutSeats(t, a, seatedType)

	v := newVisitor(t, a)
	_, page := v.get("/e/" + seatedEvent)
	require.Contains(t, page, `href="/waitlist/`+seatedType+`"`, "the sold-out seated type's button leads to its waiting list")
	status, page := v.get("/s/" + seatedType)
	require.Equal(t, http.StatusOK, status)
	require.Contains(t, page, `id="waitlist-form"`, "the seat page offers the waiting list")
	require.Contains(t, page, "how many seats you want")
	require.NotContains(t, page, `data-island="seats"`)
	status, page = v.post("/waitlist/"+seatedType, url.Values{"email": {"fan@example.ph"}, "quantity": {"7"}})
	require.Equal(t, http.StatusUnprocessableEntity, status)
	require.Contains(t, page, "Choose between 1 and 6 tickets.", "up to the per-buyer maximum")
	joinWaitlist(t, a, seatedType, "2", "fan@example.ph")
	joinWaitlist(t, a, seatedType, "1", "next@example.ph")

	// two seats come back: by hand, the organizer offers the second person a named seat first
	freeSeatsOutside(t, a, seatedType, free[0], free[1])
	owner := signedIn(t, a, store.DemoOrganizerEmail)
	base := "/organizer/events/" + seatedEvent
	_, page = owner.get(base + "/waitlist")
	entries := regexp.MustCompile(`action="`+regexp.QuoteMeta(base)+`/waitlist/(\d+)/offer"`).FindAllStringSubmatch(page, -1)
	require.Len(t, entries, 2)
	require.Contains(t, page, `name="seats"`, "a seated type's offer can name its seats")
	status, page = owner.post(base+"/waitlist/"+entries[1][1]+"/offer", url.Values{"quantity": {"1"}, "seats": {free[2]}})
	require.Equal(t, http.StatusConflict, status, "a sold seat cannot be offered")
	require.Contains(t, page, "was just taken")
	status, _ = owner.post(base+"/waitlist/"+entries[1][1]+"/offer", url.Values{"quantity": {"1"}, "seats": {strings.ToLower(free[1])}})
	require.Equal(t, http.StatusSeeOther, status)
	// the job loop offers what is left to #1, who wants two: one seat does not fit
	a.SettleOnce(ctx, a.Now())
	freeSeatsOutside(t, a, seatedType, free[2])
	a.SettleOnce(ctx, a.Now())
	_, page = owner.get(base + "/waitlist")
	require.Contains(t, page, "Offered by hand 1 ticket (seats "+free[1]+")")
	require.Contains(t, page, "Offered 2 tickets (seats "+free[0]+", "+free[2]+")", "the list holds the free seats for #1")

	link := offerPath.FindString(lastMail(t, a, "fan@example.ph", palaro.MessageWaitlistOffer).Text)
	require.NotEmpty(t, link)
	require.Contains(t, lastMail(t, a, "fan@example.ph", palaro.MessageWaitlistOffer).Text, "Seats: "+free[0]+", "+free[2])

	// someone else cannot buy the held seats: the buy page sends them back to the map
	status, _ = newVisitor(t, a).get("/b/" + seatedType + "?seats=" + free[0])
	require.Equal(t, http.StatusSeeOther, status)
	_, raw := newVisitor(t, a).postJSON("/v1/ticket/buy", `{"ticketCode":"`+seatedType+`","quantity":1,"email":"walkin@example.ph",`+
		`"seats":["`+free[0]+`"],"paymentType":"QR"}`)
	require.Contains(t, raw, "was just taken")

	buyer := newVisitor(t, a)
	_, page = buyer.get(link)
	require.Contains(t, page, "Seats "+free[0]+", "+free[2]+" of Lower Box are held for you (fan@example.ph)")
	buyHref := regexp.MustCompile(`href="(/b/` + seatedType + `\?seats=[^"]+)"`).FindStringSubmatch(page)
	require.NotNil(t, buyHref, page)
	status, page = buyer.get(strings.ReplaceAll(buyHref[1], "&amp;", "&"))
	require.Equal(t, http.StatusOK, status, "the held seats can be bought on the offer")
	require.Contains(t, page, `data-island="purchase"`)
	require.Contains(t, page, "2 tickets (seats "+free[0]+", "+free[2]+") are held for you")
	require.NotContains(t, page, "Change seats", "the offer's seats are fixed")
	token := strings.TrimPrefix(link, "/waitlist/offer/")
	status, raw = buyer.get("/v1/ticket_type?ticketTypeCode=" + seatedType + "&seats=" + free[0] + "&seats=" + free[2] + "&offer=" + token)
	require.Equal(t, http.StatusOK, status, "the island's promo check accepts the offer's seats: %s", raw)
	status, page = buyer.post("/b/"+seatedType+"?offer="+token, url.Values{"email": {"fan@example.ph"}, "quantity": {"2"},
		"seats": {free[0] + "," + free[1]}, "paymentType": {"QR"}})
	require.Equal(t, http.StatusBadRequest, status)
	require.Contains(t, page, "This waiting-list offer is for seats "+free[0]+", "+free[2]+".")
	status, page = buyer.post("/b/"+seatedType+"?offer="+token, url.Values{"email": {"fan@example.ph"}, "quantity": {"2"},
		"seats": {free[0] + "," + free[2]}, "paymentType": {"QR"}})
	require.Equal(t, http.StatusSeeOther, status, page)
	_, page = buyer.get(link)
	require.Contains(t, page, "You used this offer")

	// next@ does not need the seat offered by hand: it goes back on sale (nobody else waits)
	nextLink := offerPath.FindString(lastMail(t, a, "next@example.ph", palaro.MessageWaitlistOffer).Text)
	other := newVisitor(t, a)
	_, page = other.get(nextLink)
	require.Contains(t, page, "Pass these seats on")
	status, _ = other.post(nextLink+"/decline", url.Values{})
	require.Equal(t, http.StatusSeeOther, status)
	_, page = other.get(nextLink)
	require.Contains(t, page, "You passed this offer on")
	_, page = owner.get(base + "/waitlist")
	require.Contains(t, page, "Offered by hand 1 ticket (seats "+free[1]+") on")
	require.Contains(t, page, "passed on by them")
	status, _ = newVisitor(t, a).get("/b/" + seatedType + "?seats=" + free[1])
	require.Equal(t, http.StatusOK, status, "the declined seat is on sale again")

	var org string
	require.NoError(t, a.DB().Writer().QueryRow(`SELECT organizer_id FROM events WHERE code = ?`, seatedEvent).Scan(&org))
	tok := organizerToken(t, a, store.DemoOrganizerEmail, "--organization", org)
	api := orgAPI(t, newVisitor(t, a), tok)
	status, res := api(http.MethodGet, "/v1/organizer/events/"+seatedEvent+"/waitlist", "")
	require.Equal(t, http.StatusOK, status, "%v", res)
	seen := map[string]any{}
	for _, e := range res["entries"].([]any) {
		e := e.(map[string]any)
		seen[e["email"].(string)] = e["offers"].([]any)[0].(map[string]any)["seats"]
	}
	require.Equal(t, []any{free[0], free[2]}, seen["fan@example.ph"])
	require.Equal(t, []any{free[1]}, seen["next@example.ph"])
}
