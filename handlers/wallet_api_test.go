package handlers_test

import (
	"context"
	"io"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"palaro"
)

// buyWithWallet buys 2 Dota 2 general admission tickets with an e-wallet and returns the order and
// its checkout URL.
func buyWithWallet(t *testing.T, f *apiFixture, paymentType string) (*palaro.Order, string) {
	t.Helper()
	status, body := f.call(t, "POST", "/v1/ticket/buy", map[string]any{"ticketCode": "dota-2-visayas-major-gen",
		"quantity": 2, "email": "wallet@x.ph", "paymentType": paymentType})
	require.Equal(t, 200, status, body)
	o, err := f.purchases.FindOrderByPublicID(context.Background(), body["orderId"].(string))
	require.NoError(t, err)
	require.Equal(t, palaro.OrderPending, o.Status)
	require.Equal(t, paymentType, o.PaymentType)
	return o, body["redirectUrl"].(string)
}

// authorize answers the sandbox wallet's page with decision and returns where it sends the buyer.
func authorize(t *testing.T, checkoutURL, decision string) string {
	t.Helper()
	client := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	resp, err := client.PostForm(checkoutURL+"/authorize", url.Values{"decision": {decision}})
	require.NoError(t, err)
	resp.Body.Close()
	require.Equal(t, http.StatusSeeOther, resp.StatusCode)
	return resp.Header.Get("Location")
}

func getPage(t *testing.T, u string) string {
	t.Helper()
	resp, err := http.Get(u)
	require.NoError(t, err)
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	require.Equal(t, 200, resp.StatusCode, u)
	return string(b)
}

func heldOf(t *testing.T, f *apiFixture) int {
	var held int
	require.NoError(t, f.db.Writer().QueryRow(`SELECT held FROM ticket_types WHERE code = 'dota-2-visayas-major-gen'`).Scan(&held))
	return held
}

func TestAPI_WalletPayment(t *testing.T) {
	ctx := context.Background()
	t.Run("OK GCash approved: tickets, and the order page says GCash", func(t *testing.T) {
		f, provider := withSandbox(t, "")
		o, checkout := buyWithWallet(t, f, palaro.PaymentGCash)
		require.True(t, strings.HasPrefix(checkout, f.http.URL+"/sandbox/checkout/"), "the sandbox's own wallet page: %s", checkout)
		require.Contains(t, getPage(t, checkout), "Authorize ₱700.00 to Palaro — GCash")
		require.Equal(t, f.http.URL+"/payment/success/"+o.PublicID, authorize(t, checkout, "approve"))
		provider.Wait()
		got, err := f.purchases.FindOrderByPublicID(ctx, o.PublicID)
		require.NoError(t, err)
		require.Equal(t, palaro.OrderPaid, got.Status)
		require.Len(t, got.Tickets, 2)
		require.Equal(t, "gcash", got.PaymentMethod)
		require.Regexp(t, `^\d{4}$`, got.PaymentAccount)
		page := getPage(t, f.http.URL+"/payment/success/"+o.PublicID)
		require.Contains(t, page, "GCash ending "+got.PaymentAccount)
		msgs, err := f.outbox.ListOutbox(ctx, palaro.OutboxFilter{To: "wallet@x.ph"})
		require.NoError(t, err)
		require.Len(t, msgs, 1, "exactly one confirmation e-mail")
	})
	t.Run("OK Maya declined: no tickets, the order waits, a retry pays", func(t *testing.T) {
		f, provider := withSandbox(t, "")
		o, checkout := buyWithWallet(t, f, palaro.PaymentMaya)
		require.Equal(t, f.http.URL+"/payment/success/"+o.PublicID, authorize(t, checkout, "decline"))
		provider.Wait()
		got, err := f.purchases.FindOrderByPublicID(ctx, o.PublicID)
		require.NoError(t, err)
		require.Equal(t, palaro.OrderPending, got.Status)
		require.Empty(t, got.Tickets)
		require.Equal(t, "paymaya", got.PaymentFailed)
		require.Equal(t, 2, heldOf(t, f), "the tickets stay held for a retry")
		page := getPage(t, f.http.URL+"/payment/success/"+o.PublicID)
		require.Contains(t, page, "Your Maya payment did not go through, and no money was taken.")
		require.Contains(t, page, "Try again")

		authorize(t, checkout, "approve")
		provider.Wait()
		got, err = f.purchases.FindOrderByPublicID(ctx, o.PublicID)
		require.NoError(t, err)
		require.Equal(t, palaro.OrderPaid, got.Status)
		require.Len(t, got.Tickets, 2)
		require.Empty(t, got.PaymentFailed)
		require.Equal(t, "paymaya", got.PaymentMethod)
	})
	t.Run("OK let it expire: the order expires and its tickets return", func(t *testing.T) {
		f, provider := withSandbox(t, "")
		o, checkout := buyWithWallet(t, f, palaro.PaymentGCash)
		require.Equal(t, 2, heldOf(t, f))
		authorize(t, checkout, "expire")
		provider.Wait()
		got, err := f.purchases.FindOrderByPublicID(ctx, o.PublicID)
		require.NoError(t, err)
		require.Equal(t, palaro.OrderExpired, got.Status)
		require.Zero(t, heldOf(t, f))
		// the reconciliation derives the same event: the expiry is applied once
		ev, err := provider.SessionStatus(ctx, o.ProviderRef)
		require.NoError(t, err)
		_, err = f.purchases.ConfirmPayment(ctx, "sandbox", false, ev)
		require.NoError(t, err)
		require.Zero(t, heldOf(t, f))
	})
	t.Run("OK lost wallet webhook: reconciliation finds the payment and its method", func(t *testing.T) {
		f, provider := withSandbox(t, "/lost")
		o, checkout := buyWithWallet(t, f, palaro.PaymentMaya)
		authorize(t, checkout, "approve")
		provider.Wait()
		n, err := palaro.ReconcilePayments(ctx, f.purchases, provider, f.now.Add(3*time.Minute))
		require.NoError(t, err)
		require.Equal(t, 1, n)
		got, err := f.purchases.FindOrderByPublicID(ctx, o.PublicID)
		require.NoError(t, err)
		require.Equal(t, palaro.OrderPaid, got.Status)
		require.Equal(t, "paymaya", got.PaymentMethod)
		require.Regexp(t, `^\d{4}$`, got.PaymentAccount)
	})
	t.Run("OK a failed event after payment changes nothing", func(t *testing.T) {
		f, provider := withSandbox(t, "")
		o, checkout := buyWithWallet(t, f, palaro.PaymentGCash)
		authorize(t, checkout, "approve")
		provider.Wait()
		_, err := f.purchases.ConfirmPayment(ctx, "sandbox", false, palaro.PaymentEvent{ID: "evt_late_fail",
			IntentID: "pi_" + strings.TrimPrefix(o.ProviderRef, "cs_"), Status: palaro.PaymentFailed, Method: "gcash"})
		require.NoError(t, err)
		got, err := f.purchases.FindOrderByPublicID(ctx, o.PublicID)
		require.NoError(t, err)
		require.Equal(t, palaro.OrderPaid, got.Status)
		require.Empty(t, got.PaymentFailed)
	})
	t.Run("ErrInvalid unknown payment type names the field", func(t *testing.T) {
		f, _ := withSandbox(t, "")
		status, body := f.call(t, "POST", "/v1/ticket/buy", map[string]any{"ticketCode": "dota-2-visayas-major-gen",
			"quantity": 2, "email": "wallet@x.ph", "paymentType": "PAYPAL"})
		require.Equal(t, 400, status)
		require.Equal(t, "Please choose a payment method", body["fields"].(map[string]any)["paymentType"])
		// a wallet the ticket type does not offer is refused the same way
		status, body = f.call(t, "POST", "/v1/ticket/buy", map[string]any{"ticketCode": "dota-2-visayas-major-gen",
			"quantity": 2, "email": "wallet@x.ph", "paymentType": "GRABPAY"})
		require.Equal(t, 400, status)
		require.Equal(t, "Please choose a payment method", body["fields"].(map[string]any)["paymentType"])
	})
}
