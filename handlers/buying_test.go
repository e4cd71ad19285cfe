package handlers_test

import (
	"context"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"palaro"
)

// html GETs a page and returns its HTML.
func (f *apiFixture) html(t *testing.T, path string) string {
	t.Helper()
	status, _, doc := f.page(t, path)
	require.Equal(t, 200, status, path)
	html, err := doc.Html()
	require.NoError(t, err)
	return html
}

// newSession gives the fixture a fresh browser: a new cookie jar and CSRF token.
func (f *apiFixture) newSession(t *testing.T) {
	t.Helper()
	f.client, f.csrf = openSession(t, f.http.URL)
}

// addOnID returns the id of a demo add-on of an event by name.
func (f *apiFixture) addOnID(t *testing.T, event, name string) int64 {
	t.Helper()
	var id int64
	require.NoError(t, f.db.Writer().QueryRow(`SELECT a.id FROM add_ons a JOIN events e ON e.id = a.event_id
		WHERE e.code = ? AND a.name = ?`, event, name).Scan(&id))
	return id
}

func TestAPI_AddOnsPerTicket(t *testing.T) {
	ctx := context.Background()
	f, provider := withSandbox(t, "")
	parking := f.addOnID(t, "dota-2-visayas-major", "Parking pass")
	lanyard := f.addOnID(t, "dota-2-visayas-major", "Lanyard and sticker pack")
	status, body := f.call(t, "POST", "/v1/ticket/buy", map[string]any{"ticketCode": "dota-2-visayas-major-gen",
		"quantity": 3, "email": "group@x.ph", "paymentType": "QR", "addOns": []int64{parking},
		"addOnQuantities": []map[string]any{{"id": lanyard, "quantity": 3}}})
	require.Equal(t, 200, status, body)
	payByWallet(t, body["redirectUrl"].(string))
	provider.Wait()
	o, err := f.purchases.FindOrderByPublicID(ctx, body["orderId"].(string))
	require.NoError(t, err)
	require.Equal(t, palaro.OrderPaid, o.Status)
	require.Equal(t, palaro.Money(3*35000+15000), o.Total)
	require.Len(t, o.Tickets, 3)

	addOnsOnPage := func(tk palaro.Ticket) string {
		html := f.html(t, palaro.TicketPath(tk.PublicID))
		m := regexp.MustCompile(`(?s)<dt>Add-ons</dt>\s*<dd>(.*?)</dd>`).FindStringSubmatch(html)
		require.NotNil(t, m, "the ticket page lists its add-ons")
		return strings.Join(strings.Fields(m[1]), " ")
	}
	require.Equal(t, "Lanyard and sticker pack, Parking pass", addOnsOnPage(o.Tickets[0]))
	require.Equal(t, "Lanyard and sticker pack", addOnsOnPage(o.Tickets[1]))
	require.Equal(t, "Lanyard and sticker pack", addOnsOnPage(o.Tickets[2]))

	msgs, err := f.outbox.ListOutbox(ctx, palaro.OutboxFilter{To: "group@x.ph"})
	require.NoError(t, err)
	require.Len(t, msgs, 1)
	require.Contains(t, msgs[0].Text, "Ticket 1 of 3 · "+o.Tickets[0].Code+" · with Lanyard and sticker pack, Parking pass")
	require.Contains(t, msgs[0].Text, "Ticket 3 of 3 · "+o.Tickets[2].Code+" · with Lanyard and sticker pack")
	require.Contains(t, msgs[0].Text, "Add-on: Lanyard and sticker pack × 3")

	order := f.html(t, palaro.OrderPath(o.PublicID))
	require.Contains(t, order, "Lanyard and sticker pack × 3")
}

func TestTicketPage_BuyAddOnsOnlyWhenThereIsSomething(t *testing.T) {
	f := newAPIFixture(t)
	buy := func(ticketCode string) palaro.Ticket {
		req := map[string]any{"ticketCode": ticketCode, "quantity": 1, "email": "fan@x.ph"}
		status, body := f.call(t, "POST", "/v1/ticket/buy", req)
		require.Equal(t, 200, status, body)
		o, err := f.purchases.FindOrderByPublicID(context.Background(), body["orderId"].(string))
		require.NoError(t, err)
		require.Len(t, o.Tickets, 1)
		return o.Tickets[0]
	}
	none := buy("tekken-tuesdays-cubao-spectator") // an event without add-ons
	html := f.html(t, palaro.TicketPath(none.PublicID))
	require.Contains(t, html, "Show QR full screen")
	require.NotContains(t, html, "Buy add-ons")
	// control: once the event has an add-on, the same ticket offers it
	_, err := f.db.Writer().Exec(`INSERT INTO add_ons (event_id, name, price) VALUES (?, 'Towel', 10000)`, none.EventID)
	require.NoError(t, err)
	require.Contains(t, f.html(t, palaro.TicketPath(none.PublicID)), "Buy add-ons")
}

func TestAPI_UnpaidHoldsPerSession(t *testing.T) {
	f, _ := withSandbox(t, "")
	buy := func(email string, quantity int) (int, map[string]any) {
		return f.call(t, "POST", "/v1/ticket/buy", map[string]any{"ticketCode": "dota-2-visayas-major-gen",
			"quantity": quantity, "email": email, "paymentType": "QR"})
	}
	status, first := buy("a@x.ph", 10)
	require.Equal(t, 200, status, first)
	status, body := buy("b@x.ph", 1)
	require.Equal(t, 409, status, body)
	require.Equal(t, "You have an unpaid order waiting: "+f.http.URL+palaro.OrderPath(first["orderId"].(string)), body["message"])
	// the link leads to the waiting order, which offers its checkout again
	waiting := f.html(t, palaro.OrderPath(first["orderId"].(string)))
	require.Contains(t, waiting, "Continue to payment")
	require.Contains(t, waiting, `href="`+first["redirectUrl"].(string)+`"`)
	// starting again with the same e-mail replaces the unpaid order
	status, body = buy("a@x.ph", 4)
	require.Equal(t, 200, status, body)
	var held int
	require.NoError(t, f.db.Writer().QueryRow(`SELECT held FROM ticket_types WHERE code = 'dota-2-visayas-major-gen'`).Scan(&held))
	require.Equal(t, 4, held)
	// control: another browser (behind the same address) is another buyer
	f.newSession(t)
	status, body = buy("b@x.ph", 6)
	require.Equal(t, 200, status, body)
}
