package palaro

import "context"

// DefaultPartnerID is the partner number sent with a login session request (SPEC.md section 3).
const DefaultPartnerID = 25

// MsgPartnerUnavailable is what a visitor sees when the partner app cannot be opened.
const MsgPartnerUnavailable = "We could not open the partner app right now. Please try again in a few minutes."

// PartnerLogin opens a session in the partner bank's app for a ticket holder.
type PartnerLogin interface {
	// LoginSession asks the partner for a login session of the ticket code and returns the
	// session URL (http or https) to send the visitor to. Returns EINTERNAL-free errors: any
	// failure is an *Error with code EINVALID and MsgPartnerUnavailable.
	LoginSession(ctx context.Context, ticketCode string) (string, error)
}
