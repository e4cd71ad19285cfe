// Package sandbox is the built-in, default payment provider: a hosted checkout served by the app
// itself under /sandbox/ that behaves like a real gateway. Its card page takes PayMongo's test
// cards, its QR Ph page shows a real EMVCo QR Ph code and lets the tester simulate the wallet's
// payment, its e-wallet page (GCash, Maya, GrabPay, ShopeePay) lets the tester approve, decline or
// let the authorization expire, and it reports each with a signed PayMongo-style webhook.
//
// internal/app selects it when PALARO_PAYMENT_PROVIDER is "sandbox" or empty, signs its webhooks
// with PALARO_PAYMENT_SECRET, keeps its sessions in the app's database (NewSQLStoreIn, writing
// through the store's batching writer) and mounts Handler() for every path under /sandbox/.
package sandbox

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"time"

	"palaro"
	"palaro/payment"
)

// Name is the provider's configuration name.
const Name = "sandbox"

// PathPrefix is where Handler serves the checkout pages.
const PathPrefix = "/sandbox/"

// Defaults of Config's optional fields.
const (
	DefaultQRLifetime      = 10 * time.Minute
	DefaultSessionLifetime = time.Hour
)

// DefaultRetryDelays are the waits between webhook delivery attempts: five attempts in about 80 s.
var DefaultRetryDelays = []time.Duration{time.Second, 4 * time.Second, 15 * time.Second, time.Minute}

// Payment methods the sandbox reports, named as PayMongo names them.
const (
	MethodCard      = "card"
	MethodQRPh      = "qrph"
	MethodGCash     = "gcash"
	MethodMaya      = "paymaya"
	MethodGrabPay   = "grab_pay"
	MethodShopeePay = "shopee_pay"
)

// method is the payment method a checkout of paymentType is paid by.
func method(paymentType string) string {
	switch paymentType {
	case palaro.PaymentQR:
		return MethodQRPh
	case palaro.PaymentGCash:
		return MethodGCash
	case palaro.PaymentMaya:
		return MethodMaya
	case palaro.PaymentGrabPay:
		return MethodGrabPay
	case palaro.PaymentShopeePay:
		return MethodShopeePay
	}
	return MethodCard
}

// Config configures the sandbox provider.
type Config struct {
	// BaseURL is the app's absolute base URL, such as http://localhost:8080.
	BaseURL string
	// WebhookURL is the absolute URL the signed payment webhooks are POSTed to.
	WebhookURL string
	// Secret signs the webhooks.
	Secret []byte
	Store  SessionStore
	// HTTPClient sends the webhooks; http.DefaultClient when nil.
	HTTPClient *http.Client
	// RetryDelays are the waits between webhook attempts; DefaultRetryDelays when nil.
	RetryDelays []time.Duration
	// QRLifetime is how long a QR Ph code can be paid; DefaultQRLifetime when zero.
	QRLifetime time.Duration
	// SessionLifetime bounds a session whose checkout has no ExpiresAt; DefaultSessionLifetime when zero.
	SessionLifetime time.Duration
	Logger          *slog.Logger
	// RefundDelay is how long each refund takes (a slow gateway, for tests); none when zero.
	RefundDelay time.Duration
	// Now tells the time; time.Now when nil.
	Now func() time.Time
}

// Provider is the sandbox payment provider; it implements palaro.PaymentProvider.
type Provider struct {
	cfg        Config
	deliveries sync.WaitGroup
}

var _ palaro.PaymentProvider = (*Provider)(nil)

// New returns a sandbox provider. Returns EINVALID when BaseURL or WebhookURL is not an absolute
// http(s) URL, the secret is empty or the store is missing.
func New(cfg Config) (*Provider, error) {
	cfg.BaseURL = strings.TrimRight(cfg.BaseURL, "/")
	switch {
	case !absoluteURL(cfg.BaseURL):
		return nil, palaro.Errorf(palaro.EINVALID, "The sandbox needs the app's absolute base URL.")
	case !absoluteURL(cfg.WebhookURL):
		return nil, palaro.Errorf(palaro.EINVALID, "The sandbox needs an absolute webhook URL.")
	case len(cfg.Secret) == 0:
		return nil, palaro.Errorf(palaro.EINVALID, "The sandbox needs a webhook secret.")
	case cfg.Store == nil:
		return nil, palaro.Errorf(palaro.EINVALID, "The sandbox needs a session store.")
	}
	if cfg.HTTPClient == nil {
		cfg.HTTPClient = http.DefaultClient
	}
	if cfg.RetryDelays == nil {
		cfg.RetryDelays = DefaultRetryDelays
	}
	if cfg.QRLifetime == 0 {
		cfg.QRLifetime = DefaultQRLifetime
	}
	if cfg.SessionLifetime == 0 {
		cfg.SessionLifetime = DefaultSessionLifetime
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.Default()
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	return &Provider{cfg: cfg}, nil
}

// Name returns "sandbox".
func (p *Provider) Name() string { return Name }

// CreateCheckout stores a new session and returns the URL of its page. A QR Ph session expires
// after QRLifetime, or when the order's hold ends if that is sooner. Returns EINVALID for an
// invalid or already expired checkout.
func (p *Provider) CreateCheckout(ctx context.Context, c palaro.Checkout) (palaro.CheckoutSession, error) {
	if err := c.Validate(); err != nil {
		return palaro.CheckoutSession{}, err
	}
	now := p.cfg.Now()
	expires := c.ExpiresAt
	if expires.IsZero() {
		expires = now.Add(p.cfg.SessionLifetime)
	}
	if c.PaymentType == palaro.PaymentQR {
		if qrEnd := now.Add(p.cfg.QRLifetime); qrEnd.Before(expires) {
			expires = qrEnd
		}
		if _, err := qrPayload(c); err != nil {
			return palaro.CheckoutSession{}, err
		}
	}
	if !expires.After(now) {
		return palaro.CheckoutSession{}, palaro.Errorf(palaro.EINVALID, "The checkout has already expired.")
	}
	s := Session{ID: newID("cs_"), Checkout: c, Status: palaro.PaymentPending, CreatedAt: now, ExpiresAt: expires}
	if err := p.cfg.Store.CreateSession(ctx, s); err != nil {
		return palaro.CheckoutSession{}, err
	}
	return palaro.CheckoutSession{ID: s.ID, URL: p.checkoutURL(s.ID), IntentID: intentID(s.ID)}, nil
}

// ParseWebhook verifies and parses a webhook the sandbox sent. Returns EUNAUTHORIZED for a bad or
// stale signature and EINVALID for a malformed body.
func (p *Provider) ParseWebhook(signatureHeader string, body []byte, now time.Time) (palaro.PaymentEvent, error) {
	return payment.ParseWebhook(signatureHeader, body, p.cfg.Secret, false, now)
}

// SessionStatus reports a session's payment as it stands now. Returns ENOTFOUND for an unknown session.
func (p *Provider) SessionStatus(ctx context.Context, sessionID string) (palaro.PaymentEvent, error) {
	s, err := p.cfg.Store.FindSession(ctx, sessionID)
	if err != nil {
		return palaro.PaymentEvent{}, err
	}
	return p.document(s, p.cfg.Now()).PaymentEvent(), nil
}

// Live reports false: the sandbox is always in test mode.
func (p *Provider) Live() bool { return false }

// Wait blocks until every webhook delivery in flight has succeeded or given up, for shutdown and tests.
func (p *Provider) Wait() { p.deliveries.Wait() }

// pay marks the session paid by method and, when this call is the one that paid it, sends the
// webhook; it returns once the first delivery attempt is over or after a short wait, so the
// buyer's redirect is not held up. Returns ECONFLICT when the session expired unpaid.
func (p *Provider) pay(ctx context.Context, id, method string) (Session, error) {
	now := p.cfg.Now()
	attempt := Payment{ID: newID("pay_"), Method: method, EventID: newID("evt_"), PaidAt: now}
	s, err := p.cfg.Store.PaySession(ctx, id, attempt)
	if err != nil || s.Payment.EventID != attempt.EventID {
		return s, err
	}
	return s, p.send(ctx, attempt.EventID, payment.EventCheckoutPaid, p.document(s, now), now)
}

// decline sends the payment.failed webhook of a wallet payment the buyer declined; the session
// stays open, so the buyer may try again, as on PayMongo's checkout.
func (p *Provider) decline(ctx context.Context, s Session) error {
	now := p.cfg.Now()
	c := s.Checkout
	failed := payment.Payment{ID: newID("pay_"), Type: "payment", Attributes: payment.PaymentAttributes{
		Amount: c.Total, Currency: payment.Currency, Status: payment.PaymentStatusFailed,
		Source: &payment.PaymentSource{Type: method(c.PaymentType), Last4: walletAccount(s.ID)}, PaymentIntentID: intentID(s.ID),
	}}
	return p.send(ctx, newID("evt_"), payment.EventPaymentFailed, failed, now)
}

// expire ends a pending session now and sends its checkout_session.expired webhook, whose id is
// the one the reconciliation derives for the expired session, so the order is released once
// whichever comes first. A paid session stays paid.
func (p *Provider) expire(ctx context.Context, s Session) (Session, error) {
	now := p.cfg.Now()
	s, err := p.cfg.Store.ExpireSession(ctx, s.ID, now)
	if err != nil || !s.Expired(now) {
		return s, err
	}
	doc := p.document(s, now)
	return s, p.send(ctx, doc.PaymentEvent().ID, payment.EventCheckoutExpired, doc, now)
}

// send delivers a signed event about data (a checkout session or a payment) to the app's webhook
// and waits for the first attempt, at most a short while.
func (p *Provider) send(ctx context.Context, eventID, eventType string, data any, now time.Time) error {
	body, err := json.Marshal(payment.Event{Data: payment.EventData{
		ID:   eventID,
		Type: "event",
		Attributes: payment.EventAttributes{
			Type:      eventType,
			Data:      data,
			CreatedAt: now.Unix(),
			UpdatedAt: now.Unix(),
		},
	}})
	if err != nil {
		return err
	}
	select {
	case <-p.deliver(body):
	case <-time.After(2 * time.Second):
	case <-ctx.Done():
	}
	return nil
}

// intentID is the id of the payment intent behind session id.
func intentID(id string) string { return "pi_" + strings.TrimPrefix(id, "cs_") }

// walletAccount is the made-up last four digits of the wallet account that pays session id: the
// same for every attempt on the session, so the order page can say "GCash ending 4321".
func walletAccount(id string) string {
	sum := sha256.Sum256([]byte(id))
	return fmt.Sprintf("%04d", binary.BigEndian.Uint16(sum[:2])%10000)
}

// document describes a session as a PayMongo checkout session resource at time now.
func (p *Provider) document(s Session, now time.Time) payment.CheckoutSession {
	c := s.Checkout
	method := method(c.PaymentType)
	status := payment.SessionActive
	if s.Expired(now) {
		status = payment.SessionExpired
	}
	intent := &payment.PaymentIntent{ID: intentID(s.ID), Type: "payment_intent",
		Attributes: payment.PaymentIntentAttributes{Amount: c.Total, Currency: payment.Currency, Status: "awaiting_payment_method"}}
	a := payment.CheckoutSessionAttributes{
		Billing:            &payment.Billing{Email: c.Email, Name: c.Name},
		CheckoutURL:        p.checkoutURL(s.ID),
		Description:        c.Description,
		LineItems:          payment.LineItems(c.LineItems),
		PaymentIntent:      intent,
		PaymentMethodTypes: []string{method},
		ReferenceNumber:    c.OrderID,
		Status:             status,
		SuccessURL:         c.SuccessURL,
		CancelURL:          c.CancelURL,
		CreatedAt:          s.CreatedAt.Unix(),
		UpdatedAt:          s.CreatedAt.Unix(),
	}
	if s.Status == palaro.PaymentPaid {
		paid := s.Payment
		intent.Attributes.Status = payment.IntentSucceeded
		a.PaymentMethodUsed = paid.Method
		a.UpdatedAt = paid.PaidAt.Unix()
		a.Payments = []payment.Payment{{ID: paid.ID, Type: "payment", Attributes: payment.PaymentAttributes{
			Amount: c.Total, Currency: payment.Currency, Status: payment.PaymentStatusPaid,
			Source: &payment.PaymentSource{Type: paid.Method, Last4: walletAccount(s.ID)}, PaidAt: paid.PaidAt.Unix(), PaymentIntentID: intent.ID,
		}}}
		if paid.Method == MethodCard || paid.Method == MethodQRPh {
			a.Payments[0].Attributes.Source.Last4 = "" // the card's digits are the buyer's; QR Ph names no account
		}
	}
	return payment.CheckoutSession{ID: s.ID, Type: "checkout_session", Attributes: a}
}

func (p *Provider) checkoutURL(id string) string {
	return p.cfg.BaseURL + PathPrefix + "checkout/" + id
}

// newID returns prefix followed by 24 random hexadecimal digits.
func newID(prefix string) string {
	b := make([]byte, 12)
	_, _ = rand.Read(b)
	return prefix + hex.EncodeToString(b)
}

func absoluteURL(s string) bool {
	u, err := url.Parse(s)
	return err == nil && (u.Scheme == "http" || u.Scheme == "https") && u.Host != ""
}

// isCode reports whether err is a palaro error with the given code.
func isCode(err error, code string) bool {
	var e *palaro.Error
	return errors.As(err, &e) && e.Code == code
}
