package sandbox

import (
	"context"
	"time"

	"palaro"
)

// Session is one hosted checkout of the sandbox.
type Session struct {
	// ID is the session's public id ("cs_…"); knowing it is what lets a buyer pay.
	ID       string
	Checkout palaro.Checkout
	// Status is palaro.PaymentPending until the session is paid, then palaro.PaymentPaid.
	Status    string
	CreatedAt time.Time
	// ExpiresAt is when the session stops taking payments; for QR Ph, when the code expires.
	ExpiresAt time.Time
	// Payment is filled once the session is paid.
	Payment Payment
}

// Payment records how a session was paid and the id of the event that announced it.
type Payment struct {
	ID string
	// Method is "card", "qrph" or a wallet's ("gcash", "paymaya", "grab_pay", "shopee_pay").
	Method  string
	EventID string
	PaidAt  time.Time
}

// Expired reports whether a still unpaid session stopped taking payments at time now.
func (s Session) Expired(now time.Time) bool {
	return s.Status != palaro.PaymentPaid && !now.Before(s.ExpiresAt)
}

// SessionStore keeps the sandbox's sessions, so that a restart of the app does not lose them.
type SessionStore interface {
	// CreateSession saves a new pending session. Returns ECONFLICT when its ID is taken.
	CreateSession(ctx context.Context, s Session) error
	// FindSession returns the session with the given id. Returns ENOTFOUND when there is none.
	FindSession(ctx context.Context, id string) (Session, error)
	// PaySession records p on the session when it is still pending and not expired at p.PaidAt,
	// and returns the session as stored afterwards: a session paid before keeps its first
	// payment, so the caller compares the returned payment's EventID with its own. Returns
	// ENOTFOUND for an unknown session and ECONFLICT when it expired unpaid.
	PaySession(ctx context.Context, id string, p Payment) (Session, error)
	// ExpireSession ends a pending session's time at now (the wallet page's "Let it expire") and
	// returns the session as stored afterwards; a paid session stays paid. Returns ENOTFOUND for
	// an unknown session.
	ExpireSession(ctx context.Context, id string, now time.Time) (Session, error)
}
