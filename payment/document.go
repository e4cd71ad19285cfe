package payment

import (
	"cmp"
	"encoding/json"
	"time"

	"palaro"
)

// Webhook event types the app handles.
const (
	// EventCheckoutPaid is sent when a checkout session is paid.
	EventCheckoutPaid = "checkout_session.payment.paid"
	// EventPaymentFailed is sent when a payment attempt fails (a declined card, a wallet payment
	// the buyer declined); its data is the payment, which names the session's payment intent.
	EventPaymentFailed = "payment.failed"
	// EventCheckoutExpired is the sandbox's own event when a tester lets a session expire;
	// PayMongo's expired sessions are found by the reconciliation job instead.
	EventCheckoutExpired = "checkout_session.expired"
)

// Statuses of PayMongo's resources that the mapping to palaro statuses reads.
const (
	SessionActive       = "active"
	SessionExpired      = "expired"
	PaymentStatusPaid   = "paid"
	PaymentStatusFailed = "failed"
	IntentSucceeded     = "succeeded"
)

// Event is a webhook delivery's body: {"data":{"id":"evt_…","attributes":{"type":…,"data":…}}}.
type Event struct {
	Data EventData `json:"data"`
}

// EventData is the event resource.
type EventData struct {
	ID         string          `json:"id"`
	Type       string          `json:"type"`
	Attributes EventAttributes `json:"attributes"`
}

// EventAttributes says what happened and carries the resource it happened to.
type EventAttributes struct {
	Type     string `json:"type"`
	Livemode bool   `json:"livemode"`
	// Data is the resource the event is about: a CheckoutSession, or a Payment for payment.failed.
	Data      any   `json:"data"`
	CreatedAt int64 `json:"created_at"`
	UpdatedAt int64 `json:"updated_at"`
}

// CheckoutSessionDocument is the body of a checkout session request or response: {"data":{…}}.
type CheckoutSessionDocument struct {
	Data CheckoutSession `json:"data"`
}

// CheckoutSession is a checkout session resource as PayMongo sends and receives it.
type CheckoutSession struct {
	ID         string                    `json:"id,omitempty"`
	Type       string                    `json:"type,omitempty"`
	Attributes CheckoutSessionAttributes `json:"attributes"`
}

// CheckoutSessionAttributes are a checkout session's fields; amounts are in centavos.
type CheckoutSessionAttributes struct {
	Billing            *Billing       `json:"billing,omitempty"`
	CheckoutURL        string         `json:"checkout_url,omitempty"`
	Description        string         `json:"description,omitempty"`
	LineItems          []LineItem     `json:"line_items,omitempty"`
	Livemode           bool           `json:"livemode,omitempty"`
	PaymentIntent      *PaymentIntent `json:"payment_intent,omitempty"`
	PaymentMethodTypes []string       `json:"payment_method_types,omitempty"`
	PaymentMethodUsed  string         `json:"payment_method_used,omitempty"`
	Payments           []Payment      `json:"payments,omitempty"`
	ReferenceNumber    string         `json:"reference_number,omitempty"`
	SendEmailReceipt   bool           `json:"send_email_receipt"`
	Status             string         `json:"status,omitempty"`
	SuccessURL         string         `json:"success_url,omitempty"`
	CancelURL          string         `json:"cancel_url,omitempty"`
	CreatedAt          int64          `json:"created_at,omitempty"`
	UpdatedAt          int64          `json:"updated_at,omitempty"`
}

// Billing is the buyer's contact details.
type Billing struct {
	Email string `json:"email,omitempty"`
	Name  string `json:"name,omitempty"`
}

// Currency is the ISO 4217 code of every amount: Philippine pesos.
const Currency = "PHP"

// LineItems converts a checkout's lines to PayMongo line items in pesos (amounts in centavos).
func LineItems(items []palaro.LineItem) []LineItem {
	out := make([]LineItem, len(items))
	for i, l := range items {
		out[i] = LineItem{Name: l.Name, Amount: l.Amount, Currency: Currency, Quantity: l.Quantity}
	}
	return out
}

// LineItem is one line of a checkout session.
type LineItem struct {
	Name     string       `json:"name"`
	Amount   palaro.Money `json:"amount"`
	Currency string       `json:"currency"`
	Quantity int          `json:"quantity"`
}

// PaymentIntent is the intent behind a checkout session's payments.
type PaymentIntent struct {
	ID         string                  `json:"id"`
	Type       string                  `json:"type,omitempty"`
	Attributes PaymentIntentAttributes `json:"attributes"`
}

// PaymentIntentAttributes are a payment intent's amount and status.
type PaymentIntentAttributes struct {
	Amount   palaro.Money `json:"amount"`
	Currency string       `json:"currency,omitempty"`
	Status   string       `json:"status"`
}

// Payment is one payment attempt on a checkout session.
type Payment struct {
	ID         string            `json:"id"`
	Type       string            `json:"type,omitempty"`
	Attributes PaymentAttributes `json:"attributes"`
}

// PaymentAttributes are a payment's amount, status, method and time.
type PaymentAttributes struct {
	Amount   palaro.Money   `json:"amount"`
	Currency string         `json:"currency,omitempty"`
	Status   string         `json:"status"`
	Source   *PaymentSource `json:"source,omitempty"`
	PaidAt   int64          `json:"paid_at,omitempty"`
	// PaymentIntentID is the intent the payment was made for: a checkout session's intent.
	PaymentIntentID string `json:"payment_intent_id,omitempty"`
}

// PaymentSource says how a payment was made ("card", "qrph", "gcash", …).
type PaymentSource struct {
	ID   string `json:"id,omitempty"`
	Type string `json:"type"`
	// Last4 is the last digits of the card or account, where the provider tells.
	Last4 string `json:"last4,omitempty"`
}

// Status maps the session to a palaro payment status: paid when a payment is paid or the intent
// succeeded, otherwise expired (or failed, if its last payment failed) once the session is no
// longer active, otherwise pending.
func (s CheckoutSession) Status() string {
	a := s.Attributes
	if _, ok := s.paidPayment(); ok {
		return palaro.PaymentPaid
	}
	if a.PaymentIntent != nil && a.PaymentIntent.Attributes.Status == IntentSucceeded {
		return palaro.PaymentPaid
	}
	if a.Status == SessionExpired {
		if n := len(a.Payments); n > 0 && a.Payments[n-1].Attributes.Status == PaymentStatusFailed {
			return palaro.PaymentFailed
		}
		return palaro.PaymentExpired
	}
	return palaro.PaymentPending
}

// PaymentEvent describes the session's payment as the app sees it. Its ID is derived from the
// session and the status, so asking about an unchanged session twice gives the same ID.
func (s CheckoutSession) PaymentEvent() palaro.PaymentEvent {
	a := s.Attributes
	ev := palaro.PaymentEvent{
		SessionID: s.ID,
		OrderID:   a.ReferenceNumber,
		Status:    s.Status(),
		Method:    a.PaymentMethodUsed,
		Live:      a.Livemode,
	}
	ev.ID = s.ID + "/" + ev.Status
	if p, ok := s.paidPayment(); ok {
		ev.Amount, ev.Currency = p.Attributes.Amount, p.Attributes.Currency
		if p.Attributes.PaidAt > 0 {
			ev.OccurredAt = time.Unix(p.Attributes.PaidAt, 0)
		}
		if src := p.Attributes.Source; src != nil {
			ev.Method, ev.Account = cmp.Or(ev.Method, src.Type), src.Last4
		}
	} else if ev.Status == palaro.PaymentPaid {
		ev.Amount, ev.Currency = a.PaymentIntent.Attributes.Amount, a.PaymentIntent.Attributes.Currency
	}
	if ev.OccurredAt.IsZero() && a.UpdatedAt > 0 {
		ev.OccurredAt = time.Unix(a.UpdatedAt, 0)
	}
	return ev
}

func (s CheckoutSession) paidPayment() (Payment, bool) {
	for _, p := range s.Attributes.Payments {
		if p.Attributes.Status == PaymentStatusPaid {
			return p, true
		}
	}
	return Payment{}, false
}

// ParseWebhook verifies a webhook delivery's signature header with secret (the li signature in
// live mode, te otherwise) at time now and parses its event: checkout_session.payment.paid,
// payment.failed or the sandbox's checkout_session.expired. Returns EUNAUTHORIZED for a bad or
// stale signature and EINVALID for a malformed body, another event type, a paid event without a
// paid payment, or a failed event that names no payment intent.
func ParseWebhook(header string, body []byte, secret []byte, live bool, now time.Time) (palaro.PaymentEvent, error) {
	if err := VerifySignature(header, body, secret, live, now); err != nil {
		return palaro.PaymentEvent{}, err
	}
	var e struct {
		Data struct {
			ID         string `json:"id"`
			Attributes struct {
				Type      string          `json:"type"`
				Livemode  bool            `json:"livemode"`
				Data      json.RawMessage `json:"data"`
				CreatedAt int64           `json:"created_at"`
			} `json:"attributes"`
		} `json:"data"`
	}
	if err := json.Unmarshal(body, &e); err != nil {
		return palaro.PaymentEvent{}, palaro.Errorf(palaro.EINVALID, "The webhook body is not a JSON event.")
	}
	a := e.Data.Attributes
	var ev palaro.PaymentEvent
	var err error
	switch a.Type {
	case EventCheckoutPaid, EventCheckoutExpired:
		ev, err = sessionEvent(a.Type, a.Data)
	case EventPaymentFailed:
		ev, err = failedEvent(a.Data)
	default:
		return palaro.PaymentEvent{}, palaro.Errorf(palaro.EINVALID, "Unsupported webhook event type %q.", a.Type)
	}
	if err != nil {
		return palaro.PaymentEvent{}, err
	}
	if e.Data.ID == "" {
		return palaro.PaymentEvent{}, palaro.Errorf(palaro.EINVALID, "The webhook event has no id.")
	}
	ev.ID, ev.Live = e.Data.ID, a.Livemode // the event's own mode: what the signature's slot says too
	if a.CreatedAt > 0 {
		ev.OccurredAt = time.Unix(a.CreatedAt, 0)
	}
	return ev, nil
}

// sessionEvent reads the checkout session of a paid or expired event.
func sessionEvent(eventType string, data []byte) (palaro.PaymentEvent, error) {
	var cs CheckoutSession
	if err := json.Unmarshal(data, &cs); err != nil || cs.ID == "" {
		return palaro.PaymentEvent{}, palaro.Errorf(palaro.EINVALID, "The webhook event has no checkout session.")
	}
	if cs.Attributes.ReferenceNumber == "" {
		return palaro.PaymentEvent{}, palaro.Errorf(palaro.EINVALID, "The checkout session has no reference number.")
	}
	ev := cs.PaymentEvent()
	if eventType == EventCheckoutExpired {
		if ev.Status != palaro.PaymentExpired {
			return palaro.PaymentEvent{}, palaro.Errorf(palaro.EINVALID, "The expired event carries a session that has not expired.")
		}
		return ev, nil
	}
	if ev.Status != palaro.PaymentPaid || ev.Amount <= 0 {
		return palaro.PaymentEvent{}, palaro.Errorf(palaro.EINVALID, "The paid event carries no paid payment.")
	}
	return ev, nil
}

// failedEvent reads the payment of a payment.failed event: the order is found by its intent.
func failedEvent(data []byte) (palaro.PaymentEvent, error) {
	var p Payment
	if err := json.Unmarshal(data, &p); err != nil || p.Attributes.PaymentIntentID == "" {
		return palaro.PaymentEvent{}, palaro.Errorf(palaro.EINVALID, "The failed event names no payment intent.")
	}
	ev := palaro.PaymentEvent{IntentID: p.Attributes.PaymentIntentID, Status: palaro.PaymentFailed,
		Amount: p.Attributes.Amount, Currency: p.Attributes.Currency}
	if p.Attributes.Source != nil {
		ev.Method, ev.Account = p.Attributes.Source.Type, p.Attributes.Source.Last4
	}
	return ev, nil
}
