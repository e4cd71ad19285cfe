package payment_test

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"palaro"
	"palaro/payment"
)

// paidEvent is a checkout_session.payment.paid delivery shaped like PayMongo's documented one,
// with fields the adapters do not read left in.
const paidEvent = `{
  "data": {
    "id": "evt_9Ld1yNQ4y2bnXbA8",
    "type": "event",
    "attributes": {
      "type": "checkout_session.payment.paid",
      "livemode": false,
      "data": {
        "id": "cs_CbFCTDfxvMFNjwjVi26Uzhtj",
        "type": "checkout_session",
        "attributes": {
          "billing": {"address": {}, "email": "ana@example.ph", "name": "Ana Cruz", "phone": null},
          "checkout_url": "https://checkout.example/cs_CbFCTDfxvMFNjwjVi26Uzhtj",
          "line_items": [{"amount": 150000, "currency": "PHP", "name": "VIP", "quantity": 2}],
          "payment_intent": {"id": "pi_1", "type": "payment_intent", "attributes": {"amount": 300000, "currency": "PHP", "status": "succeeded"}},
          "payment_method_types": ["card", "qrph"],
          "payment_method_used": "card",
          "payments": [{"id": "pay_1", "type": "payment", "attributes": {"amount": 300000, "currency": "PHP", "status": "paid", "paid_at": 1760000030, "source": {"id": "card_1", "type": "card", "brand": "visa", "last4": "4345"}}}],
          "reference_number": "ord_42",
          "send_email_receipt": false,
          "status": "active",
          "created_at": 1760000000,
          "updated_at": 1760000030
        }
      },
      "previous_data": {},
      "created_at": 1760000031,
      "updated_at": 1760000031
    }
  }
}`

func TestParseWebhook(t *testing.T) {
	now := time.Unix(1760000040, 0)
	t.Run("OK", func(t *testing.T) {
		ev, err := payment.ParseWebhook(payment.Sign(secret, now, []byte(paidEvent), false), []byte(paidEvent), secret, false, now)
		require.NoError(t, err)
		assert.Equal(t, palaro.PaymentEvent{
			ID: "evt_9Ld1yNQ4y2bnXbA8", SessionID: "cs_CbFCTDfxvMFNjwjVi26Uzhtj", OrderID: "ord_42",
			Status: palaro.PaymentPaid, Amount: 300000, Currency: "PHP", Method: "card", Account: "4345", OccurredAt: time.Unix(1760000031, 0),
		}, ev)
	})
	t.Run("ErrForged", func(t *testing.T) {
		_, err := payment.ParseWebhook(payment.Sign([]byte("guess"), now, []byte(paidEvent), false), []byte(paidEvent), secret, false, now)
		assert.Equal(t, palaro.EUNAUTHORIZED, palaro.ErrorCode(err))
	})
	for name, body := range map[string]string{
		"ErrNotJSON":     `{"data":`,
		"ErrNoID":        `{"data":{"attributes":{"type":"checkout_session.payment.paid","data":{"id":"cs_1","attributes":{"reference_number":"o"}}}}}`,
		"ErrOtherType":   `{"data":{"id":"evt_1","attributes":{"type":"payment.refunded","data":{"id":"pay_1","attributes":{}}}}}`,
		"ErrFailedNoPI":  `{"data":{"id":"evt_1","attributes":{"type":"payment.failed","data":{"id":"pay_1","attributes":{"status":"failed"}}}}}`,
		"ErrNotExpired":  `{"data":{"id":"evt_1","attributes":{"type":"checkout_session.expired","data":{"id":"cs_1","attributes":{"reference_number":"o","status":"active"}}}}}`,
		"ErrNoReference": `{"data":{"id":"evt_1","attributes":{"type":"checkout_session.payment.paid","data":{"id":"cs_1","attributes":{"payments":[{"attributes":{"amount":100,"status":"paid"}}]}}}}}`,
		"ErrNotPaid":     `{"data":{"id":"evt_1","attributes":{"type":"checkout_session.payment.paid","data":{"id":"cs_1","attributes":{"reference_number":"o","payments":[{"attributes":{"amount":100,"status":"failed"}}]}}}}}`,
	} {
		t.Run(name, func(t *testing.T) {
			_, err := payment.ParseWebhook(payment.Sign(secret, now, []byte(body), false), []byte(body), secret, false, now)
			assert.Equal(t, palaro.EINVALID, palaro.ErrorCode(err))
		})
	}
}

func TestCheckoutSession_PaymentEvent(t *testing.T) {
	paid := payment.Payment{ID: "pay_1", Attributes: payment.PaymentAttributes{Amount: 5000, Status: "paid", PaidAt: 1760000000, Source: &payment.PaymentSource{Type: "gcash"}}}
	failed := payment.Payment{ID: "pay_0", Attributes: payment.PaymentAttributes{Amount: 5000, Status: "failed"}}
	intent := func(status string) *payment.PaymentIntent {
		return &payment.PaymentIntent{ID: "pi_1", Attributes: payment.PaymentIntentAttributes{Amount: 5000, Status: status}}
	}
	cases := map[string]struct {
		attrs  payment.CheckoutSessionAttributes
		status string
		amount palaro.Money
		method string
	}{
		"PaidPayment":      {payment.CheckoutSessionAttributes{Status: "active", Payments: []payment.Payment{failed, paid}}, palaro.PaymentPaid, 5000, "gcash"},
		"IntentSucceeded":  {payment.CheckoutSessionAttributes{Status: "active", PaymentIntent: intent("succeeded")}, palaro.PaymentPaid, 5000, ""},
		"AwaitingPayment":  {payment.CheckoutSessionAttributes{Status: "active", PaymentIntent: intent("awaiting_payment_method")}, palaro.PaymentPending, 0, ""},
		"RetryAfterFailed": {payment.CheckoutSessionAttributes{Status: "active", Payments: []payment.Payment{failed}}, palaro.PaymentPending, 0, ""},
		"Expired":          {payment.CheckoutSessionAttributes{Status: "expired"}, palaro.PaymentExpired, 0, ""},
		"ExpiredOnFailure": {payment.CheckoutSessionAttributes{Status: "expired", Payments: []payment.Payment{failed}}, palaro.PaymentFailed, 0, ""},
	}
	for name, c := range cases {
		t.Run(name, func(t *testing.T) {
			c.attrs.ReferenceNumber = "ord_1"
			ev := payment.CheckoutSession{ID: "cs_1", Attributes: c.attrs}.PaymentEvent()
			assert.Equal(t, c.status, ev.Status)
			assert.Equal(t, c.amount, ev.Amount)
			assert.Equal(t, c.method, ev.Method)
			assert.Equal(t, "ord_1", ev.OrderID)
			assert.Equal(t, "cs_1/"+c.status, ev.ID)
		})
	}
}
