// Package paymongo is the PayMongo payment provider: it creates PayMongo Checkout Sessions (API
// v2) for card, QR Ph and the e-wallets (GCash, Maya, GrabPay, ShopeePay: the buyer approves in
// the wallet and comes back to the success or cancel URL), verifies their
// checkout_session.payment.paid and payment.failed webhooks and asks for a session's status.
//
// internal/app selects it when PALARO_PAYMENT_PROVIDER is "paymongo" and configures it with
// PAYMONGO_SECRET_KEY (sk_test_… or sk_live_…), PAYMONGO_WEBHOOK_SECRET (the secret key of the
// webhook registered for checkout_session.payment.paid and payment.failed) and PAYMONGO_LIVE (true to verify live-mode
// signatures).
package paymongo

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"time"

	"palaro"
	"palaro/payment"
)

// Name is the provider's configuration name.
const Name = "paymongo"

// DefaultAPIBase is PayMongo's API address.
const DefaultAPIBase = "https://api.paymongo.com"

// checkoutSessionsPath is the Checkout Sessions resource under the API base.
const checkoutSessionsPath = "/v2/checkout_sessions"

// DefaultMethodTypes are the PayMongo payment methods offered for each of our payment types: a
// wallet's checkout offers that wallet alone, so the buyer who pressed "Pay with GCash" lands on
// GCash's authorization.
var DefaultMethodTypes = map[string][]string{
	palaro.PaymentQR:        {"qrph"},
	palaro.PaymentCard:      {"card", "gcash", "paymaya"},
	palaro.PaymentGCash:     {"gcash"},
	palaro.PaymentMaya:      {"paymaya"},
	palaro.PaymentGrabPay:   {"grab_pay"},
	palaro.PaymentShopeePay: {"shopee_pay"},
}

// Config configures the PayMongo provider.
type Config struct {
	// APIBase is PayMongo's API address; DefaultAPIBase when empty.
	APIBase string
	// SecretKey authenticates API calls (HTTP basic auth user name, no password).
	SecretKey string
	// WebhookSecret verifies webhook signatures.
	WebhookSecret string
	// Live selects the li (live mode) signature of webhooks instead of te (test mode).
	Live bool
	// HTTPClient makes the API calls; a client with a 30 s timeout when nil.
	HTTPClient *http.Client
	// MethodTypes overrides DefaultMethodTypes.
	MethodTypes map[string][]string
}

// Provider is the PayMongo payment provider; it implements palaro.PaymentProvider.
type Provider struct {
	cfg Config
}

var _ palaro.PaymentProvider = (*Provider)(nil)

// New returns a PayMongo provider. Returns EINVALID when the secret key or webhook secret is
// missing or the API base is not an absolute URL.
func New(cfg Config) (*Provider, error) {
	if cfg.APIBase == "" {
		cfg.APIBase = DefaultAPIBase
	}
	cfg.APIBase = strings.TrimRight(cfg.APIBase, "/")
	if u, err := url.Parse(cfg.APIBase); err != nil || u.Host == "" || (u.Scheme != "https" && u.Scheme != "http") {
		return nil, palaro.Errorf(palaro.EINVALID, "The PayMongo API base must be an absolute URL.")
	}
	if cfg.SecretKey == "" || cfg.WebhookSecret == "" {
		return nil, palaro.Errorf(palaro.EINVALID, "PayMongo needs a secret key and a webhook secret.")
	}
	if cfg.HTTPClient == nil {
		cfg.HTTPClient = &http.Client{Timeout: 30 * time.Second}
	}
	if cfg.MethodTypes == nil {
		cfg.MethodTypes = DefaultMethodTypes
	}
	return &Provider{cfg: cfg}, nil
}

// Name returns "paymongo".
func (p *Provider) Name() string { return Name }

// CreateCheckout creates a PayMongo checkout session for the order and returns its checkout URL.
// PayMongo's own session lifetime applies; the order's hold is enforced by the app. Returns
// EINVALID for an invalid checkout or one PayMongo refuses, EINTERNAL when PayMongo cannot be
// reached or rejects the key.
func (p *Provider) CreateCheckout(ctx context.Context, c palaro.Checkout) (palaro.CheckoutSession, error) {
	if err := c.Validate(); err != nil {
		return palaro.CheckoutSession{}, err
	}
	attrs := payment.CheckoutSessionAttributes{
		Description:        c.Description,
		LineItems:          payment.LineItems(c.LineItems),
		PaymentMethodTypes: p.cfg.MethodTypes[c.PaymentType],
		ReferenceNumber:    c.OrderID,
		SendEmailReceipt:   false,
		SuccessURL:         c.SuccessURL,
		CancelURL:          c.CancelURL,
	}
	if c.Email != "" || c.Name != "" {
		attrs.Billing = &payment.Billing{Email: c.Email, Name: c.Name}
	}
	var out payment.CheckoutSessionDocument
	err := p.call(ctx, http.MethodPost, checkoutSessionsPath, payment.CheckoutSessionDocument{Data: payment.CheckoutSession{Attributes: attrs}}, &out)
	if err != nil {
		return palaro.CheckoutSession{}, err
	}
	if out.Data.ID == "" || out.Data.Attributes.CheckoutURL == "" {
		return palaro.CheckoutSession{}, errors.New("paymongo: checkout session without an id or URL")
	}
	session := palaro.CheckoutSession{ID: out.Data.ID, URL: out.Data.Attributes.CheckoutURL}
	if pi := out.Data.Attributes.PaymentIntent; pi != nil {
		session.IntentID = pi.ID
	}
	return session, nil
}

// ParseWebhook verifies a webhook's Paymongo-Signature header with the webhook secret (li in live
// mode, te in test mode) and parses its checkout_session.payment.paid or payment.failed event. Returns
// EUNAUTHORIZED for a bad or stale signature and EINVALID for a malformed body or another event type.
func (p *Provider) ParseWebhook(signatureHeader string, body []byte, now time.Time) (palaro.PaymentEvent, error) {
	return payment.ParseWebhook(signatureHeader, body, []byte(p.cfg.WebhookSecret), p.cfg.Live, now)
}

// Live reports whether the provider is configured for live mode (PAYMONGO_LIVE).
func (p *Provider) Live() bool { return p.cfg.Live }

// SessionStatus retrieves a checkout session and reports its payment. Returns ENOTFOUND for an
// unknown session and EINTERNAL when PayMongo cannot be reached.
func (p *Provider) SessionStatus(ctx context.Context, sessionID string) (palaro.PaymentEvent, error) {
	var out payment.CheckoutSessionDocument
	if err := p.call(ctx, http.MethodGet, checkoutSessionsPath+"/"+url.PathEscape(sessionID), nil, &out); err != nil {
		return palaro.PaymentEvent{}, err
	}
	return out.Data.PaymentEvent(), nil
}

// apiErrors is PayMongo's error body.
type apiErrors struct {
	Errors []struct {
		Code   string `json:"code"`
		Detail string `json:"detail"`
	} `json:"errors"`
}

// call sends a JSON request to the API with the secret key and decodes a 2xx answer into out.
// Failures that are not the caller's are plain errors (EINTERNAL), so their details reach the
// log and not the buyer.
func (p *Provider) call(ctx context.Context, method, path string, in, out any) error {
	return p.callKeyed(ctx, method, path, "", in, out)
}

// callKeyed is call with an Idempotency-Key header when key is not empty.
func (p *Provider) callKeyed(ctx context.Context, method, path, key string, in, out any) error {
	var body io.Reader
	if in != nil {
		b, err := json.Marshal(in)
		if err != nil {
			return err
		}
		body = bytes.NewReader(b)
	}
	req, err := http.NewRequestWithContext(ctx, method, p.cfg.APIBase+path, body)
	if err != nil {
		return err
	}
	req.SetBasicAuth(p.cfg.SecretKey, "")
	req.Header.Set("Accept", "application/json")
	if in != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	if key != "" {
		req.Header.Set("Idempotency-Key", key)
	}
	resp, err := p.cfg.HTTPClient.Do(req)
	if err != nil {
		return fmt.Errorf("paymongo: %w", err)
	}
	defer resp.Body.Close()
	raw, err := io.ReadAll(io.LimitReader(resp.Body, 1<<20))
	if err != nil {
		return fmt.Errorf("paymongo: reading the answer: %w", err)
	}
	if resp.StatusCode >= 200 && resp.StatusCode <= 299 {
		if err := json.Unmarshal(raw, out); err != nil {
			return fmt.Errorf("paymongo: decoding the answer: %w", err)
		}
		return nil
	}
	var apiErr apiErrors
	_ = json.Unmarshal(raw, &apiErr)
	detail := resp.Status
	if len(apiErr.Errors) > 0 {
		detail = fmt.Sprintf("%s (%s)", apiErr.Errors[0].Detail, apiErr.Errors[0].Code)
	}
	switch resp.StatusCode {
	case http.StatusNotFound:
		return palaro.Errorf(palaro.ENOTFOUND, "PayMongo has no such %s.", resourceOf(path))
	case http.StatusBadRequest, http.StatusUnprocessableEntity:
		return palaro.Errorf(palaro.EINVALID, "PayMongo refused the %s: %s", resourceOf(path), detail)
	}
	return fmt.Errorf("paymongo: %s %s answered %s", method, path, detail)
}
