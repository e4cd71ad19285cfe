package handlers_test

import (
	"context"
	"crypto/ed25519"
	"fmt"
	"net/http"
	"regexp"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"palaro"
)

// freeTicket buys one free Valorant watch-party ticket and returns it.
func freeTicket(t *testing.T, f *apiFixture, email string) palaro.Ticket {
	t.Helper()
	o, err := f.purchases.CreateOrder(context.Background(), palaro.PurchaseRequest{TicketCode: "valorant-night-market-bgc-watch",
		Quantity: 1, Email: email, FullName: "Ana Reyes", MobileNumber: "09171234567"}, f.now)
	require.NoError(t, err)
	return o.Tickets[0]
}

// lastLink returns the first link to path in the newest outbox message to an address.
func lastLink(t *testing.T, f *apiFixture, to, path string) string {
	t.Helper()
	msgs, err := f.outbox.ListOutbox(context.Background(), palaro.OutboxFilter{To: to})
	require.NoError(t, err)
	require.NotEmpty(t, msgs)
	link := regexp.MustCompile(regexp.QuoteMeta(f.http.URL+path) + `[a-z0-9]+`).FindString(msgs[0].Text)
	require.NotEmpty(t, link, msgs[0].Text)
	return link
}

func TestAPI_TicketAddOns(t *testing.T) {
	f, _ := withSandbox(t, "")
	ctx := context.Background()
	// an event with add-ons and free tickets: add a free ticket type to the Dota 2 major
	_, err := f.db.Writer().Exec(`INSERT INTO ticket_types (event_id, code, name, price, max_purchasable, capacity)
		SELECT id, 'dota-free', 'Free Pass', 0, 1, 10 FROM events WHERE code = 'dota-2-visayas-major'`)
	require.NoError(t, err)
	o, err := f.purchases.CreateOrder(ctx, palaro.PurchaseRequest{TicketCode: "dota-free", Quantity: 1, Email: "h@x.ph"}, f.now)
	require.NoError(t, err)
	tk := o.Tickets[0]
	t.Run("OK lists available add-ons", func(t *testing.T) {
		status, body := f.call(t, "GET", "/v1/ticket/add?uuid="+tk.PublicID, nil)
		require.Equal(t, 200, status)
		require.Equal(t, tk.Code, body["ticket"].(map[string]any)["code"])
		require.NotEmpty(t, body["addOns"])
	})
	t.Run("OK buying a paid add-on goes to checkout, then it is on the ticket", func(t *testing.T) {
		_, body := f.call(t, "GET", "/v1/ticket/add?uuid="+tk.PublicID, nil)
		var paidID int64
		for _, a := range body["addOns"].([]any) {
			if a.(map[string]any)["price"].(float64) > 0 {
				paidID = int64(a.(map[string]any)["id"].(float64))
				break
			}
		}
		require.NotZero(t, paidID)
		status, res := f.call(t, "POST", "/v1/ticket/add", map[string]any{"uuid": tk.PublicID, "addOns": []int64{paidID},
			"ticketCode": tk.Code, "paymentType": "CARD"})
		require.Equal(t, 200, status, res)
		require.Contains(t, res["redirectUrl"], "/sandbox/checkout/")
		order, err := f.purchases.FindOrderByPublicID(ctx, res["orderId"].(string))
		require.NoError(t, err)
		ev := palaro.PaymentEvent{ID: "evt_addon", SessionID: order.ProviderRef, Status: palaro.PaymentPaid, Amount: order.Total, Currency: palaro.PaymentCurrency}
		_, err = f.purchases.ConfirmPayment(ctx, "sandbox", false, ev)
		require.NoError(t, err)
		got, err := f.purchases.FindTicketByPublicID(ctx, tk.PublicID)
		require.NoError(t, err)
		require.Len(t, got.AddOns, 1)
		require.Equal(t, paidID, got.AddOns[0].ID)
		status, location, _ := f.page(t, palaro.OrderPath(order.PublicID))
		require.Equal(t, http.StatusSeeOther, status, "the paid add-on order leads on to its ticket")
		require.Equal(t, palaro.ChangeTicketSuccessPath(tk.PublicID), location)
		msgs, err := f.outbox.ListOutbox(ctx, palaro.OutboxFilter{To: "h@x.ph"})
		require.NoError(t, err)
		require.Equal(t, palaro.MessageAddOnReceipt, msgs[0].Kind)
		// the add-on is no longer offered, and cannot be bought twice
		status, res = f.call(t, "POST", "/v1/ticket/add", map[string]any{"uuid": tk.PublicID, "addOns": []int64{paidID}, "ticketCode": tk.Code})
		require.Equal(t, 400, status)
		require.Equal(t, "This add-on is not available.", res["message"])
	})
	t.Run("ErrNotFound without the ticket's own code", func(t *testing.T) {
		_, body := f.call(t, "GET", "/v1/ticket/add?uuid="+tk.PublicID, nil)
		addOn := int64(body["addOns"].([]any)[0].(map[string]any)["id"].(float64))
		before, err := f.purchases.ListOrders(ctx, palaro.OrderFilter{})
		require.NoError(t, err)
		for name, code := range map[string]any{"omitted": nil, "empty": "", "ticket type code": "dota-free"} {
			req := map[string]any{"uuid": tk.PublicID, "addOns": []int64{addOn}, "paymentType": "CARD"}
			if code != nil {
				req["ticketCode"] = code
			}
			status, res := f.call(t, "POST", "/v1/ticket/add", req)
			require.Equal(t, 404, status, name)
			require.Equal(t, "Ticket not found.", res["message"], name)
		}
		after, err := f.purchases.ListOrders(ctx, palaro.OrderFilter{})
		require.NoError(t, err)
		require.Len(t, after, len(before), "no add-on order was created")
	})
	t.Run("ErrInvalid no add-ons", func(t *testing.T) {
		status, res := f.call(t, "POST", "/v1/ticket/add", map[string]any{"uuid": tk.PublicID, "addOns": []int64{}, "ticketCode": tk.Code})
		require.Equal(t, 400, status)
		require.Equal(t, "Please choose at least one add-on.", res["message"])
	})
	t.Run("ErrNotFound unknown ticket or wrong code", func(t *testing.T) {
		status, res := f.call(t, "GET", "/v1/ticket/add?uuid=nope", nil)
		require.Equal(t, 404, status)
		require.Equal(t, "Ticket not found.", res["message"])
		status, res = f.call(t, "POST", "/v1/ticket/add", map[string]any{"uuid": tk.PublicID, "addOns": []int64{1}, "ticketCode": "WRONG"})
		require.Equal(t, 404, status)
		require.Equal(t, "Ticket not found.", res["message"])
	})
}

func TestAPI_ChangeEmail(t *testing.T) {
	f := newAPIFixture(t)
	tk := freeTicket(t, f, "old@x.ph")
	t.Run("ErrInvalid messages", func(t *testing.T) {
		for email, want := range map[string]string{"": "E-mail is required", "bad@": "Invalid E-mail address",
			"OLD@x.ph": "This ticket is already registered to old@x.ph."} {
			status, body := f.call(t, "POST", "/v1/ticket/change-email", map[string]any{"uuid": tk.PublicID, "email": email})
			require.Equal(t, 400, status)
			require.Equal(t, want, body["message"])
		}
		status, body := f.call(t, "POST", "/v1/ticket/change-email", map[string]any{"uuid": "nope", "email": "n@x.ph"})
		require.Equal(t, 404, status)
		require.Equal(t, "Ticket not found.", body["message"])
	})
	t.Run("OK the holder consents, the new address accepts, the ticket is reissued", func(t *testing.T) {
		ctx := context.Background()
		status, body := f.call(t, "POST", "/v1/ticket/change-email", map[string]any{"uuid": tk.PublicID, "email": "New@x.ph"})
		require.Equal(t, 200, status)
		require.Contains(t, body["message"], "old@x.ph", "the link goes to the current address")
		msgs, err := f.outbox.ListOutbox(ctx, palaro.OutboxFilter{To: "new@x.ph"})
		require.NoError(t, err)
		require.Empty(t, msgs, "nothing goes to the new address before the holder consents")
		consent := lastLink(t, f, "old@x.ph", "/change-email/confirm/")[len(f.http.URL):]
		// a second request, to another address, waits for the holder too
		status, _ = f.call(t, "POST", "/v1/ticket/change-email", map[string]any{"uuid": tk.PublicID, "email": "thief@x.ph"})
		require.Equal(t, 200, status)
		other := lastLink(t, f, "old@x.ph", "/change-email/confirm/")[len(f.http.URL):]
		require.NotEqual(t, consent, other)

		status, _, doc := f.page(t, consent)
		require.Equal(t, 200, status, "opening the link shows what it confirms")
		require.Contains(t, doc.Find("h1").Text(), "Move your ticket?")
		require.Equal(t, 1, doc.Find(`form[method="post"] button`).Length())
		status, _ = f.call(t, "POST", consent, nil)
		require.Equal(t, 200, status)
		got, err := f.purchases.FindTicketByPublicID(ctx, tk.PublicID)
		require.NoError(t, err)
		require.Equal(t, "old@x.ph", got.Email, "nothing moves before the new address accepts")
		status, _ = f.call(t, "POST", consent, nil)
		require.Equal(t, 410, status, "the consent link works once")

		receipt := lastLink(t, f, "new@x.ph", "/change-email/confirm/")[len(f.http.URL):]
		status, _, doc = f.page(t, receipt)
		require.Equal(t, 200, status)
		require.Contains(t, doc.Find("h1").Text(), "Accept this ticket?")
		status, _ = f.call(t, "POST", receipt, nil)
		require.Equal(t, 303, status)

		moved, err := f.purchases.ListTicketsByEmail(ctx, "new@x.ph")
		require.NoError(t, err)
		require.Len(t, moved, 1)
		nt := moved[0]
		require.NotEqual(t, tk.PublicID, nt.PublicID, "a new link")
		require.NotEqual(t, tk.Code, nt.Code, "a new code")
		key := ed25519.NewKeyFromSeed(make([]byte, ed25519.SeedSize))
		require.NotEqual(t, palaro.SignedTicketQR(key, tk.Code), palaro.SignedTicketQR(key, nt.Code), "a new QR code")
		_, err = f.purchases.FindTicketByPublicID(ctx, tk.PublicID)
		require.Equal(t, palaro.ENOTFOUND, palaro.ErrorCode(err), "the old link no longer opens the ticket")
		status, _, _ = f.page(t, palaro.TicketPath(tk.PublicID))
		require.Equal(t, 404, status)
		_, err = f.purchases.TicketStatus(ctx, tk.Code)
		require.Equal(t, palaro.ENOTFOUND, palaro.ErrorCode(err), "the old code is refused at the gate")
		info, err := f.purchases.TicketStatus(ctx, nt.Code)
		require.NoError(t, err)
		require.Equal(t, palaro.TicketValid, info.Status)

		for _, to := range []string{"old@x.ph", "new@x.ph"} {
			msgs, err := f.outbox.ListOutbox(ctx, palaro.OutboxFilter{To: to})
			require.NoError(t, err)
			require.Equal(t, palaro.MessageTransferDone, msgs[0].Kind, "both addresses are told")
		}
		old, err := f.outbox.ListOutbox(ctx, palaro.OutboxFilter{To: "old@x.ph"})
		require.NoError(t, err)
		require.NotContains(t, old[0].Text, nt.PublicID, "the old holder does not get the new link")
		require.Contains(t, lastLink(t, f, "new@x.ph", "/t/"), nt.PublicID)

		status, _ = f.call(t, "POST", other, nil)
		require.Equal(t, 410, status, "the transfer voided the ticket's other pending links")
		status, _ = f.call(t, "POST", receipt, nil)
		require.Equal(t, 410, status)
		order, err := f.purchases.FindOrderByPublicID(ctx, orderOf(t, f, nt.OrderID))
		require.NoError(t, err)
		_, _, doc = f.page(t, palaro.OrderPath(order.PublicID))
		require.NotContains(t, doc.Text(), nt.Code, "the buyer's order page no longer links the moved ticket")
	})
}

// orderOf returns the public id of the order with an internal id.
func orderOf(t *testing.T, f *apiFixture, id int64) string {
	t.Helper()
	var publicID string
	require.NoError(t, f.db.Writer().QueryRow(`SELECT public_id FROM orders WHERE id = ?`, id).Scan(&publicID))
	return publicID
}

func TestAPI_TicketsLink(t *testing.T) {
	f := newAPIFixture(t)
	tk := freeTicket(t, f, "fan@x.ph")
	status, body := f.call(t, "POST", "/v1/tickets/link", map[string]any{"email": "Fan@x.ph"})
	require.Equal(t, 200, status)
	require.Contains(t, body["message"], "fan@x.ph")
	status, _ = f.call(t, "POST", "/v1/tickets/link", map[string]any{"email": "nobody@x.ph"})
	require.Equal(t, 200, status, "same answer for an address without tickets")
	runJobs(t, f) // the outbox worker makes the link
	require.Equal(t, []string{palaro.JobTicketsLink}, kinds(t, f, "nobody@x.ph"), "no link for an address without tickets")
	link := lastLink(t, f, "fan@x.ph", "/tickets/")
	token := link[len(f.http.URL+"/tickets/"):]
	email, tickets, err := f.purchases.TicketsByLink(context.Background(), token, f.now)
	require.NoError(t, err)
	require.Equal(t, "fan@x.ph", email)
	require.Len(t, tickets, 1)
	require.Equal(t, tk.PublicID, tickets[0].PublicID)
	_, _, err = f.purchases.TicketsByLink(context.Background(), token, f.now.Add(25*time.Hour))
	require.Equal(t, palaro.ENOTFOUND, palaro.ErrorCode(err), "the link expires")
	status, body = f.call(t, "POST", "/v1/tickets/link", map[string]any{"email": "x"})
	require.Equal(t, 400, status)
	require.Equal(t, "Invalid E-mail address", body["message"])
}

func TestAPI_TicketStatus(t *testing.T) {
	f := newAPIFixture(t)
	tk := freeTicket(t, f, "s@x.ph")
	signed := func(code string, at time.Time, secret string) string {
		ts := at.Unix()
		return fmt.Sprintf("/v1/ticket/status?ticketCode=%s&key=%s&timestamp=%d&signature=%s", code, partnerKey, ts,
			palaro.SignPartnerRequest(secret, code, ts))
	}
	t.Run("OK", func(t *testing.T) {
		status, body := f.call(t, "GET", signed(tk.Code, f.now, partnerSecret), nil)
		require.Equal(t, 200, status, body)
		require.Equal(t, tk.Code, body["ticketCode"])
		require.Equal(t, "valid", body["status"])
		require.Equal(t, "valorant-night-market-bgc", body["eventCode"])
	})
	t.Run("ErrUnauthorized", func(t *testing.T) {
		for path, want := range map[string]string{
			signed(tk.Code, f.now, "wrong"):                                                                  "Invalid signature.",
			signed(tk.Code, f.now.Add(-6*time.Minute), partnerSecret):                                        "Request expired.",
			signed(tk.Code, f.now.Add(6*time.Minute), partnerSecret):                                         "Request expired.",
			"/v1/ticket/status?ticketCode=" + tk.Code:                                                        "Invalid signature.",
			"/v1/ticket/status?ticketCode=" + tk.Code + "&key=" + partnerKey + "&timestamp=abc&signature=00": "Invalid timestamp.",
		} {
			status, body := f.call(t, "GET", path, nil)
			require.Equal(t, 401, status, path)
			require.Equal(t, want, body["message"], path)
		}
	})
	t.Run("ErrNotFound", func(t *testing.T) {
		status, body := f.call(t, "GET", signed("ZZZZZZZZZZ", f.now, partnerSecret), nil)
		require.Equal(t, 404, status)
		require.Equal(t, "Ticket not found.", body["message"])
	})
}
