package palaro

import (
	"context"
	"slices"
	"strconv"
	"strings"
	"time"
)

// Statuses of a payment as a provider reports it.
const (
	PaymentPending = "pending"
	PaymentPaid    = "paid"
	PaymentFailed  = "failed"
	PaymentExpired = "expired"
)

// PaymentTypes are every payment type a ticket type can accept, in the order the console lists them.
var PaymentTypes = []string{PaymentQR, PaymentCard, PaymentGCash, PaymentMaya, PaymentGrabPay, PaymentShopeePay}

// ValidPaymentType reports whether t is one of PaymentTypes.
func ValidPaymentType(t string) bool { return slices.Contains(PaymentTypes, t) }

// WalletPayment reports whether t is an e-wallet the buyer approves in the wallet's app: on a
// phone these come first, since a phone cannot scan the QR Ph code it shows.
func WalletPayment(t string) bool {
	return t == PaymentGCash || t == PaymentMaya || t == PaymentGrabPay || t == PaymentShopeePay
}

// PaymentTypeName is how people call a payment type: "GCash", "Maya", "QR Ph", "Card", ….
func PaymentTypeName(t string) string {
	switch t {
	case PaymentQR:
		return "QR Ph"
	case PaymentCard:
		return "Card"
	case PaymentGCash:
		return "GCash"
	case PaymentMaya:
		return "Maya"
	case PaymentGrabPay:
		return "GrabPay"
	case PaymentShopeePay:
		return "ShopeePay"
	}
	return t
}

// PaymentMethodName is how people call a provider's payment method ("gcash" is "GCash",
// "paymaya" is "Maya"); an unknown method is shown as the provider names it.
func PaymentMethodName(method string) string {
	switch strings.ToLower(method) {
	case "card":
		return "Card"
	case "qrph":
		return "QR Ph"
	case "gcash":
		return "GCash"
	case "paymaya", "maya":
		return "Maya"
	case "grab_pay", "grabpay":
		return "GrabPay"
	case "shopee_pay", "shopeepay":
		return "ShopeePay"
	}
	return method
}

// PaidWith says how an order was paid for its buyer, such as "GCash ending 4321" or "Card": the
// method's name and, where the provider told them, the account's last digits. "" when the
// method is unknown.
func PaidWith(method, account string) string {
	if method == "" {
		return ""
	}
	if account == "" {
		return PaymentMethodName(method)
	}
	return PaymentMethodName(method) + " ending " + account
}

// LineItem is one line of a checkout: a unit price times a quantity.
type LineItem struct {
	Name     string
	Amount   Money
	Quantity int
}

// Subtotal is the line's unit amount times its quantity.
func (l LineItem) Subtotal() Money { return l.Amount * Money(l.Quantity) }

// Checkout is what the app asks a payment provider to collect for one order. Providers charge the
// sum of the line items, so a promo discount must already be taken off the lines: Total must
// equal that sum.
type Checkout struct {
	// OrderID is our order's public id; providers echo it back as the payment's reference.
	OrderID     string
	Description string
	LineItems   []LineItem
	Total       Money
	Email       string
	Name        string
	// PaymentType is one of PaymentTypes.
	PaymentType string
	SuccessURL  string
	CancelURL   string
	// ExpiresAt is when the order's hold ends; a provider may expire its session sooner.
	ExpiresAt time.Time
}

// Validate reports an EINVALID error when the checkout cannot be sent to a provider: no order id,
// no line items, a line that is not positive, a total that is not the sum of its lines, an
// unknown payment type or a missing return URL.
func (c Checkout) Validate() error {
	switch {
	case c.OrderID == "":
		return Errorf(EINVALID, "A checkout needs an order id.")
	case len(c.LineItems) == 0:
		return Errorf(EINVALID, "A checkout needs at least one line item.")
	case !ValidPaymentType(c.PaymentType):
		return Errorf(EINVALID, "Unknown payment type %q.", c.PaymentType)
	case c.SuccessURL == "" || c.CancelURL == "":
		return Errorf(EINVALID, "A checkout needs a success URL and a cancel URL.")
	}
	var sum Money
	for _, l := range c.LineItems {
		if l.Name == "" || l.Amount <= 0 || l.Quantity <= 0 {
			return Errorf(EINVALID, "Line item %q needs a name, a positive amount and a positive quantity.", l.Name)
		}
		sum += l.Subtotal()
	}
	if sum != c.Total {
		return Errorf(EINVALID, "The checkout total %s is not the sum of its line items %s.", c.Total, sum)
	}
	return nil
}

// CheckoutSession is a provider's hosted checkout created for one order.
type CheckoutSession struct {
	// ID is the provider's id of the session.
	ID string
	// URL is the page to send the buyer to.
	URL string
	// IntentID is the provider's payment intent behind the session ("" when it has none): a
	// failed payment's webhook names the intent, not the session.
	IntentID string
}

// PaymentEvent is what a provider tells the app about a checkout session's payment.
type PaymentEvent struct {
	// ID is the provider's event id: the same event delivered twice has the same ID.
	ID        string
	SessionID string
	// IntentID is the payment intent the event names when it does not name the session (a
	// failed payment); the order is found by either.
	IntentID string
	OrderID  string
	// Status is PaymentPaid, PaymentFailed, PaymentExpired or PaymentPending.
	Status string
	Amount Money
	// Currency is the ISO 4217 code of Amount, as the provider reports it.
	Currency string
	// Live is true for an event of the provider's live mode, false for its test mode.
	Live bool
	// Method is the provider's payment method ("card", "qrph", "gcash", "paymaya", …).
	Method string
	// Account is the last digits of the card or wallet account paid with, where the provider
	// tells ("" otherwise).
	Account    string
	OccurredAt time.Time
}

// PaymentEventRecord is a payment event as the app received it, for the operator.
type PaymentEventRecord struct {
	Provider string
	EventID  string
	// OrderPublicID is the order the event matched; "" when it matched none.
	OrderPublicID string
	Status        string
	// Refused says why the event was refused; "" when it was applied.
	Refused    string
	ReceivedAt time.Time
}

// PaymentEventFilter selects payment events for the operator's list.
type PaymentEventFilter struct {
	Refused bool // only refused events
	Limit   int
}

// PaymentCurrency is the only currency the app charges in: Philippine pesos.
const PaymentCurrency = "PHP"

// Refusal says why a payment event cannot settle order o when the provider runs in live mode
// (live) or test mode, or returns "" when it can: an event of the other mode, or a paid event
// whose currency is not PaymentCurrency or whose amount is not the order's total, is refused.
func (ev PaymentEvent) Refusal(o *Order, live bool) string {
	switch {
	case ev.Live != live:
		if ev.Live {
			return "a live-mode event for a provider in test mode"
		}
		return "a test-mode event for a provider in live mode"
	case ev.Status != PaymentPaid:
		return ""
	case ev.Currency != PaymentCurrency:
		return "currency " + strconv.Quote(ev.Currency) + " is not " + PaymentCurrency
	case ev.Amount != o.Total:
		return "amount " + ev.Amount.String() + " is not the order's total " + o.Total.String()
	}
	return ""
}

// PaymentProvider collects payments through a hosted checkout and reports them back.
type PaymentProvider interface {
	// Name returns the provider's configuration name, such as "sandbox" or "paymongo".
	Name() string
	// CreateCheckout creates a hosted checkout session for an order. Returns EINVALID for a
	// checkout that fails Validate and EINTERNAL when the provider cannot be reached.
	CreateCheckout(ctx context.Context, c Checkout) (CheckoutSession, error)
	// ParseWebhook verifies the signature header of a webhook delivery at time now and parses
	// its body. Returns EUNAUTHORIZED for a missing, forged or stale signature and EINVALID for
	// a malformed body or an event type the app does not handle.
	ParseWebhook(signatureHeader string, body []byte, now time.Time) (PaymentEvent, error)
	// SessionStatus asks the provider for the current state of a checkout session, to reconcile
	// orders whose webhook was lost. The event's ID is derived from the session and its status,
	// so asking twice about an unchanged session gives the same ID. Returns ENOTFOUND for an
	// unknown session and EINTERNAL when the provider cannot be reached.
	SessionStatus(ctx context.Context, sessionID string) (PaymentEvent, error)
	// Live reports whether the provider runs in live mode; events of the other mode are refused.
	Live() bool

	// Refunds (refund.go): every provider gives money back, idempotently by the refund's key.
	Refunder
}
