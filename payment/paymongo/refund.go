package paymongo

import (
	"context"
	"net/http"
	"net/url"
	"strings"

	"palaro"
)

// refundsPath is the Refunds resource (API v1): POST creates a refund of a payment.
const refundsPath = "/v1/refunds"

// paymentsPath is the Payments resource (API v1); a payment lists its refunds.
const paymentsPath = "/v1/payments"

// MetadataRefundKey is the metadata key under which a refund carries the app's idempotency key.
const MetadataRefundKey = "palaro_refund"

// Statuses of a PayMongo refund.
const (
	refundPending    = "pending"
	refundProcessing = "processing"
	refundSucceeded  = "succeeded"
	refundFailed     = "failed"
)

// refundDocument is a refund resource, in a request or an answer: {"data":{…}}.
type refundDocument struct {
	Data refundResource `json:"data"`
}

type refundResource struct {
	ID         string           `json:"id,omitempty"`
	Type       string           `json:"type,omitempty"`
	Attributes refundAttributes `json:"attributes"`
}

// refundAttributes are a refund's fields as PayMongo's Refunds API documents them; the amount is
// in centavos (at least 100), the reason one of duplicate, fraudulent, requested_by_customer, others.
type refundAttributes struct {
	Amount    palaro.Money      `json:"amount"`
	PaymentID string            `json:"payment_id"`
	Reason    string            `json:"reason"`
	Notes     string            `json:"notes,omitempty"`
	Metadata  map[string]string `json:"metadata,omitempty"`
	Status    string            `json:"status,omitempty"`
}

// paymentDocument is a payment with the refunds made of it.
type paymentDocument struct {
	Data struct {
		ID         string `json:"id"`
		Attributes struct {
			Refunds []refundResource `json:"refunds"`
		} `json:"attributes"`
	} `json:"data"`
}

// Refund refunds r.Amount of the payment of checkout session r.SessionID through PayMongo's
// Refunds API. It is idempotent by r.Key: the refund carries the key in its metadata (and as the
// Idempotency-Key header), and a refund of the payment that already carries it is returned instead
// of creating another (unless it failed: then another is asked for, as a retry). Returns EINVALID when the session has no payment or PayMongo refuses the
// refund, another error when PayMongo cannot be reached.
func (p *Provider) Refund(ctx context.Context, r palaro.RefundRequest) (palaro.RefundResult, error) {
	if err := r.Validate(); err != nil {
		return palaro.RefundResult{}, err
	}
	var session struct {
		Data struct {
			Attributes struct {
				Payments []struct {
					ID string `json:"id"`
				} `json:"payments"`
			} `json:"attributes"`
		} `json:"data"`
	}
	err := p.call(ctx, http.MethodGet, checkoutSessionsPath+"/"+url.PathEscape(r.SessionID), nil, &session)
	if palaro.ErrorCode(err) == palaro.ENOTFOUND {
		return palaro.RefundResult{}, palaro.Errorf(palaro.EINVALID, "PayMongo has no checkout session %s to refund.", r.SessionID)
	} else if err != nil {
		return palaro.RefundResult{}, err
	}
	if len(session.Data.Attributes.Payments) == 0 {
		return palaro.RefundResult{}, palaro.Errorf(palaro.EINVALID, "PayMongo has no payment for this order to refund.")
	}
	paymentID := session.Data.Attributes.Payments[0].ID

	var paid paymentDocument
	if err := p.call(ctx, http.MethodGet, paymentsPath+"/"+url.PathEscape(paymentID), nil, &paid); err != nil {
		return palaro.RefundResult{}, err
	}
	idempotencyKey := r.Key
	for _, ref := range paid.Data.Attributes.Refunds {
		switch {
		case ref.Attributes.Metadata[MetadataRefundKey] != r.Key:
		case ref.Attributes.Status == refundFailed:
			idempotencyKey += "-again" // a refund that failed is asked anew (a retry from the console)
		default:
			return refundResult(ref), nil // asked before: that refund, and no money moves
		}
	}
	reason := "others"
	if r.Reason == palaro.RefundBuyerCancelled {
		reason = "requested_by_customer"
	}
	in := refundDocument{Data: refundResource{Attributes: refundAttributes{Amount: r.Amount, PaymentID: paymentID, Reason: reason,
		Notes:    "Palaro refund " + r.Key + " of order " + r.OrderID + " (" + strings.ReplaceAll(r.Reason, "_", " ") + ")",
		Metadata: map[string]string{MetadataRefundKey: r.Key, "order": r.OrderID}}}}
	var out refundDocument
	if err := p.callKeyed(ctx, http.MethodPost, refundsPath, idempotencyKey, in, &out); err != nil {
		return palaro.RefundResult{}, err
	}
	return refundResult(out.Data), nil
}

// refundResult maps a PayMongo refund to the app's answer.
func refundResult(ref refundResource) palaro.RefundResult {
	res := palaro.RefundResult{ID: ref.ID, Status: palaro.RefundPending}
	switch ref.Attributes.Status {
	case refundSucceeded:
		res.Status = palaro.RefundRefunded
	case refundFailed:
		res.Status, res.Failure = palaro.RefundFailed, "PayMongo could not make the refund."
	case refundPending, refundProcessing:
	}
	return res
}

// resourceOf names the resource of an API path for people: "refund", "payment" or "checkout session".
func resourceOf(path string) string {
	switch {
	case strings.HasPrefix(path, refundsPath):
		return "refund"
	case strings.HasPrefix(path, paymentsPath):
		return "payment"
	}
	return "checkout session"
}
