package palaro

import (
	"context"
	"crypto/ed25519"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"fmt"
	"strconv"
	"strings"
	"time"
)

// Ticket QR payload prefixes: format 3 names the signing key, format 2 did not.
const (
	ticketQRv3Prefix = "PLR3."
	ticketQRv2Prefix = "PLR2."
)

// TicketKeyID returns the short id that names an Ed25519 ticket signing key in format 3 QR codes
// and in the gate list: the first 6 bytes of SHA-256 of the public key, base64url (8 characters).
func TicketKeyID(pub ed25519.PublicKey) string {
	sum := sha256.Sum256(pub)
	return base64.RawURLEncoding.EncodeToString(sum[:6])
}

// SignedTicketQR returns what a ticket's QR code holds (format 3): "PLR3.{kid}.{code}.{signature}",
// where kid is TicketKeyID of key's public half and signature is the Ed25519 signature of
// "PLR3.{kid}.{code}" under key, base64url without padding. A gate holding the public keys by kid
// can tell a forged code offline, and a code stays valid after the signing key is rotated.
func SignedTicketQR(key ed25519.PrivateKey, code string) string {
	msg := ticketQRv3Prefix + TicketKeyID(key.Public().(ed25519.PublicKey)) + "." + code
	return msg + "." + base64.RawURLEncoding.EncodeToString(ed25519.Sign(key, []byte(msg)))
}

// TicketKeys are the Ed25519 public keys that verify ticket QR codes, by TicketKeyID: the current
// signing key's and those of the keys it replaced.
type TicketKeys map[string]ed25519.PublicKey

// NewTicketKeys returns the keys pubs by their ids.
func NewTicketKeys(pubs ...ed25519.PublicKey) TicketKeys {
	keys := make(TicketKeys, len(pubs))
	for _, pub := range pubs {
		keys[TicketKeyID(pub)] = pub
	}
	return keys
}

// ParseTicketInput reads what a gate scanned or typed: a QR payload (format 3 or 2) or a bare
// ticket code. It returns the ticket code (upper-cased, without spaces) and forged true when the
// input is a QR payload whose signature does not verify under its key.
func ParseTicketInput(keys TicketKeys, input string) (code string, forged bool) {
	input = strings.TrimSpace(input)
	switch {
	case strings.HasPrefix(input, ticketQRv3Prefix):
		rest := input[len(ticketQRv3Prefix):]
		k, i := strings.IndexByte(rest, '.'), strings.LastIndexByte(rest, '.')
		if k <= 0 || i <= k+1 || !verifyTicketQR(keys[rest[:k]], input[:len(ticketQRv3Prefix)+i], rest[i+1:]) {
			return "", true
		}
		return rest[k+1 : i], false
	case strings.HasPrefix(input, ticketQRv2Prefix):
		// Compatibility, noted 2026-11-24: format 2 (no key id) was shown on ticket pages and sent in
		// confirmation e-mails until format 3 shipped (2026-11-24). It verifies under any known key,
		// which includes the one that made it as long as that key is kept (RotateTicketKey keeps
		// every retired public key). Remove this case, and the PLR2 test cases, once every event
		// that sold tickets before format 3 was deployed has ended; a QR is then never shown again.
		i := strings.LastIndexByte(input, '.')
		if i <= len(ticketQRv2Prefix) {
			return "", true
		}
		for _, pub := range keys {
			if verifyTicketQR(pub, input[:i], input[i+1:]) {
				return input[len(ticketQRv2Prefix):i], false
			}
		}
		return "", true
	}
	return strings.ToUpper(strings.Join(strings.Fields(input), "")), false
}

// verifyTicketQR reports whether sig (base64url) is pub's Ed25519 signature of msg.
func verifyTicketQR(pub ed25519.PublicKey, msg, sig string) bool {
	b, err := base64.RawURLEncoding.DecodeString(sig)
	return err == nil && len(pub) == ed25519.PublicKeySize && ed25519.Verify(pub, []byte(msg), b)
}

// Outcomes of a check-in, each with its HTTP status in the check-in API.
const (
	CheckInOK        = "checked_in"         // 200: let the holder in
	CheckInAlready   = "already_checked_in" // 409: the ticket was used before
	CheckInUnknown   = "unknown"            // 404: no such ticket, or a forged QR code
	CheckInWrongEvt  = "wrong_event"        // 422: a ticket of another event
	CheckInCancelled = "cancelled"          // 422: a cancelled ticket
	CheckInConflict  = "conflict"           // an offline check-in of a ticket already checked in elsewhere
	CheckInWrongDate = "wrong_date"         // 422: a day ticket of another date of the series
	CheckInUsedUp    = "pass_used_up"       // 422: a pass for some dates with none left
)

// GateTicket is a ticket as the gate sees it: what to show the person at the gate, and its state.
type GateTicket struct {
	Code        string    `json:"code"`
	HolderName  string    `json:"holderName"`
	TicketType  string    `json:"ticketType"`
	Seat        string    `json:"seat,omitempty"`
	Status      string    `json:"status"`
	CheckedInAt time.Time `json:"checkedInAt,omitzero"`
	Gate        string    `json:"gate,omitempty"`
	// Discount is the ticket's senior citizen or PWD discount (DiscountSenior, DiscountPWD; "" for
	// none): the gate checks DiscountHolder's ID, whose last 4 letters or digits are DiscountID.
	Discount       string `json:"discount,omitempty"`
	DiscountHolder string `json:"discountHolder,omitempty"`
	DiscountID     string `json:"discountId,omitempty"`
	// Date is, for a series, the date (slug) a day ticket is for, or the date a pass was scanned on.
	Date string `json:"date,omitempty"`
	// Pass describes a season pass ("Every date", "5 dates of your choice"); "" for another ticket.
	Pass string `json:"pass,omitempty"`
	// UsedDates are the dates (slugs) a pass has been admitted on, by date, this scan's included.
	UsedDates []string `json:"usedDates,omitempty"`
}

// Gate list states of a series ticket on the list's date besides the ticket statuses: a day
// ticket of another date, and a pass for some dates with none left (it cannot take this one).
const (
	GateWrongDate = CheckInWrongDate
	GateUsedUp    = CheckInUsedUp
)

// CheckID is what the gate says of a discounted ticket ("Check ID: senior citizen, {name}"), "" for another.
func (t GateTicket) CheckID() string {
	if t.Discount == "" {
		return ""
	}
	return CheckIDLine(t.Discount, t.DiscountHolder)
}

// GateChanges is an event's gate list, whole or (Delta) what changed after version Since.
type GateChanges struct {
	// Version is the list's version: a phone asks for the changes after it next time.
	Version int64
	Delta   bool
	Since   int64
	// Tickets are every issued ticket (whole list) or the changed ones, as they are now.
	Tickets []GateTicket
	// Voided are the codes that stopped naming a ticket since (a transfer reissued it).
	Voided []string
}

// GateHashKey returns the key with which an event's gate list names its tickets: HMAC-SHA256 of
// the event's id under the server's gate-list secret, so each event's phones get a different key.
func GateHashKey(secret []byte, eventID int64) []byte {
	m := hmac.New(sha256.New, secret)
	m.Write([]byte("palaro gate list " + strconv.FormatInt(eventID, 10)))
	return m.Sum(nil)
}

// GateCodeHash returns how the gate list names a ticket instead of its code: the first 40 bits of
// HMAC-SHA256 of the code under the event's key, in hex. A phone hashes a scanned QR's code to find
// the ticket; the list holds no code that could be typed at a gate.
func GateCodeHash(key []byte, code string) string {
	m := hmac.New(sha256.New, key)
	m.Write([]byte(code))
	return hex.EncodeToString(m.Sum(nil)[:5])
}

// CheckInRequest is one scan at a gate.
type CheckInRequest struct {
	EventID int64
	// Code is the ticket code (ParseTicketInput has read the QR payload).
	Code  string
	Gate  string
	Actor string
	// At is when the ticket was scanned: now online, the phone's time for an offline scan.
	At time.Time
	// NotBefore is the earliest an offline scan can have been made (the gate list's download, the
	// gate's opening): an earlier At is from a phone whose clock is wrong, and is clamped and flagged.
	NotBefore time.Time
	// Date is the series date (slug) the gate admits to; "" is the date that falls on the scan's day
	// in Manila. Ignored for a single-date event.
	Date string
	// ClientID names a scan, so that a scan sent twice (a sync retried, or an online call whose
	// answer was lost and which the phone then queued offline) is recorded once.
	ClientID string
}

// CheckInResult is the answer to a scan.
type CheckInResult struct {
	Outcome string     `json:"result"`
	Message string     `json:"message"`
	Ticket  GateTicket `json:"ticket"`
	// CheckID is, for a discounted ticket let in, what the gate checks: "Check ID: senior citizen, {name}".
	CheckID string `json:"checkId,omitempty"`
	// TimeCorrected says an offline scan's time was out of range (before the gate list's download or
	// the gate's opening, or after the server's clock) and was recorded as the nearest possible time.
	TimeCorrected bool `json:"timeCorrected,omitempty"`
}

// GateOpensBefore is how long before an event's start its gate may admit anyone: an offline scan
// timed earlier comes from a phone whose clock is wrong.
const GateOpensBefore = 12 * time.Hour

// ClampScanTime returns the time to record for an offline scan the phone timed at: at itself when
// it lies in [notBefore, now], else the nearest end, with corrected true. A zero at is now.
func ClampScanTime(at, notBefore, now time.Time) (t time.Time, corrected bool) {
	switch {
	case at.IsZero():
		return now, false
	case at.After(now):
		return now, true
	case !notBefore.IsZero() && at.Before(notBefore) && !notBefore.After(now):
		return notBefore, true
	}
	return at, false
}

// NewCheckInResult returns the answer of an outcome for ticket t, with its message.
func NewCheckInResult(outcome string, t GateTicket) *CheckInResult {
	r := &CheckInResult{Outcome: outcome, Message: CheckInMessage(outcome, t), Ticket: t}
	if outcome == CheckInOK {
		r.CheckID = t.CheckID()
	}
	return r
}

// CheckInMessage returns the person-facing message of an outcome; t is the ticket when known.
func CheckInMessage(outcome string, t GateTicket) string {
	switch outcome {
	case CheckInOK:
		return "Checked in"
	case CheckInAlready, CheckInConflict:
		return fmt.Sprintf("Already checked in at %s (%s)", t.CheckedInAt.In(Manila).Format("3:04 PM"), GateName(t.Gate))
	case CheckInWrongEvt:
		return "This ticket is for another event"
	case CheckInCancelled:
		return "This ticket is cancelled"
	case CheckInWrongDate:
		return "This ticket is for " + DateSlugLabel(t.Date)
	case CheckInUsedUp:
		return "This pass has no dates left"
	}
	return "Unknown ticket"
}

// GateName returns a gate's name as shown, "Gate" when it has none.
func GateName(gate string) string {
	if gate == "" {
		return "Gate"
	}
	return gate
}

// NormalizeGate trims a gate name a phone sends to one line of at most 40 characters, dropping
// the characters the single-line rule refuses (controls, bidi controls).
func NormalizeGate(gate string) string {
	gate = strings.Map(func(r rune) rune {
		if r == '\t' || r == '\n' || r == '\r' {
			return ' '
		} else if !textRuneOK(TextLine, r) {
			return -1
		}
		return r
	}, strings.ToValidUTF8(gate, ""))
	gate = strings.Join(strings.Fields(gate), " ")
	if r := []rune(gate); len(r) > 40 {
		gate = string(r[:40])
	}
	return gate
}

// GateCount is a count of check-ins under one name (a gate or a ticket type).
type GateCount struct {
	Name      string
	CheckedIn int
	Sold      int
}

// CheckInCounts are an event's live gate figures: checked in against sold, per gate and type.
type CheckInCounts struct {
	Sold      int
	CheckedIn int
	Conflicts int
	// TimeCorrected counts offline check-ins whose phone time was out of range (ClampScanTime).
	TimeCorrected int
	ByGate        []GateCount
	ByType        []GateCount
}

// Sum sums the counts per type into Sold and CheckedIn and names the gates as shown.
func (c *CheckInCounts) Sum() *CheckInCounts {
	for _, g := range c.ByType {
		c.Sold += g.Sold
		c.CheckedIn += g.CheckedIn
	}
	for i := range c.ByGate {
		c.ByGate[i].Name = GateName(c.ByGate[i].Name)
	}
	return c
}

// CheckInConflictRow is a ticket checked in twice offline: the check-in that counted and the
// later one that found the ticket already used.
type CheckInConflictRow struct {
	Code       string
	HolderName string
	TicketType string
	FirstGate  string
	FirstAt    time.Time
	SecondGate string
	SecondAt   time.Time
	SyncedAt   time.Time
}

// Box office payment methods: cash at the door, or a card terminal outside Palaro.
const (
	PaymentCash         = "CASH"
	PaymentCardTerminal = "CARD_TERMINAL"
)

// DoorSale is one sale at the gate: Quantity tickets (0 counts as 1) of one type for one holder.
type DoorSale struct {
	EventID       int64
	TicketType    string
	Quantity      int
	HolderName    string
	Email         string
	PaymentMethod string
	Gate          string
	// Date is, for a series, the date (slug) the gate sells for and admits to; "" for a single-date event.
	Date  string
	Actor string
	At    time.Time
}

// CheckInService is what the gate needs: check-ins online and offline, their undo, the ticket
// list a phone keeps, live counts, conflicts and the box office.
type CheckInService interface {
	// CheckIn checks a ticket in at an event, once: of concurrent scans of one ticket exactly one
	// gets CheckInOK. Unknown tickets, other events' and cancelled ones are outcomes, not errors.
	// A scan whose ClientID was recorded before answers as it did then.
	CheckIn(ctx context.Context, req CheckInRequest) (*CheckInResult, error)
	// SyncCheckIns records check-ins made offline, in order. A ticket already checked in is
	// recorded as a conflict. A scan whose ClientID was synced before answers as it did then.
	SyncCheckIns(ctx context.Context, reqs []CheckInRequest) ([]CheckInResult, error)
	// UndoCheckIn makes a checked-in ticket valid again; for a series, on date (a slug, required
	// there): a day ticket of the date, or a pass's admission on it (a pass for a number of dates
	// gets that date back). Returns ENOTFOUND, EINVALID for a missing or unknown date, ECONFLICT
	// when the ticket is not checked in (on the date).
	UndoCheckIn(ctx context.Context, eventID int64, code, date, actor string, now time.Time) error
	// GateTickets returns every issued ticket of an event, for a phone to keep offline.
	GateTickets(ctx context.Context, eventID int64) ([]GateTicket, error)
	// GateChanges returns what a phone keeps of an event's tickets: all of them when since is
	// negative, else the tickets changed after that version and the codes transfers replaced since.
	// For a series, date (a slug; "" for none) gives each ticket its state on that date
	// (a day ticket of another date reads GateWrongDate, a pass is checked in or not on that date,
	// with the dates it used); EINVALID for a date the event does not have.
	GateChanges(ctx context.Context, eventID int64, date string, since int64) (*GateChanges, error)
	// StreamGateChanges is GateChanges handing each ticket to each as it is read (the answer's
	// Tickets stays empty), so that a list of any size is never held in memory.
	StreamGateChanges(ctx context.Context, eventID int64, date string, since int64, each func(GateTicket) error) (*GateChanges, error)
	// CheckInCounts returns an event's check-ins against sold tickets, per gate and per type; for
	// a series, those of date (a slug; "" counts the whole event). EINVALID for an unknown date.
	CheckInCounts(ctx context.Context, eventID int64, date string) (*CheckInCounts, error)
	// CheckInConflicts returns the event's offline double check-ins, newest first.
	CheckInConflicts(ctx context.Context, eventID int64) ([]CheckInConflictRow, error)
	// SellAtDoor sells tickets at the gate (up to the type's per-buyer maximum) within the ticket
	// type's capacity, records one paid order with its payment method and checks the tickets in.
	// Returns EINVALID, ENOTFOUND, ECONFLICT when too few are left.
	SellAtDoor(ctx context.Context, sale DoorSale) ([]GateTicket, error)
}
