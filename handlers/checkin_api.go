package handlers

import (
	"crypto/ed25519"
	"encoding/base64"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/labstack/echo/v5"

	"palaro"
)

// ticketKeys are the public keys that verify ticket QR codes at the gate, by key id: the current
// signing key's and the previous ones'.
func (s *Server) ticketKeys() palaro.TicketKeys {
	return palaro.NewTicketKeys(append([]ed25519.PublicKey{s.ticketPublic()}, s.config.PreviousTicketKeys...)...)
}

// ticketPublic is the current signing key's public key.
func (s *Server) ticketPublic() ed25519.PublicKey {
	return s.config.TicketSigningKey.Public().(ed25519.PublicKey)
}

// ticketPublicKey is the current signing key's public key, base64url without padding.
func (s *Server) ticketPublicKey() string {
	return base64.RawURLEncoding.EncodeToString(s.ticketPublic())
}

// ticketPublicKeys are the gate's public keys by key id, base64url without padding, as the gate
// page and the gate list give them: a phone verifies a QR code offline with the key it names.
func (s *Server) ticketPublicKeys() map[string]string {
	keys := s.ticketKeys()
	out := make(map[string]string, len(keys))
	for kid, pub := range keys {
		out[kid] = base64.RawURLEncoding.EncodeToString(pub)
	}
	return out
}

// checkInStatus is the HTTP status of each check-in outcome.
var checkInStatus = map[string]int{
	palaro.CheckInOK:        http.StatusOK,
	palaro.CheckInAlready:   http.StatusConflict,
	palaro.CheckInConflict:  http.StatusConflict,
	palaro.CheckInUnknown:   http.StatusNotFound,
	palaro.CheckInWrongEvt:  http.StatusUnprocessableEntity,
	palaro.CheckInCancelled: http.StatusUnprocessableEntity,
	palaro.CheckInWrongDate: http.StatusUnprocessableEntity,
	palaro.CheckInUsedUp:    http.StatusUnprocessableEntity,
}

// checkInBody is the body of POST /v1/checkin.
type checkInBody struct {
	EventCode string `json:"eventCode"`
	Ticket    string `json:"ticket"`
	Gate      string `json:"gate"`
	// ID optionally names the scan (as in a sync), so a phone that got no answer may queue it
	// offline without the sync counting it twice.
	ID string `json:"id"`
	// Date is, for a series, the date (slug) the gate admits to; "" is today's, Manila time.
	Date string `json:"date"`
}

// checkInAnswer is the JSON answer to a scan.
type checkInAnswer struct {
	palaro.CheckInResult
	ID           string `json:"id,omitempty"`
	ResponseCode int    `json:"responseCode"`
}

// gateEvent returns the event named in a JSON body when the caller may check tickets in there:
// ENOTFOUND for another organization's event, so nothing leaks about its tickets.
func (s *Server) gateEvent(c *echo.Context, caller *palaro.Caller, code string) (*palaro.Event, error) {
	ev, err := s.services.Organizers.FindEvent(c.Request().Context(), strings.TrimSpace(code))
	if err != nil {
		return nil, err
	}
	if err := caller.CheckEventAccess(ev.Organizer.ID, palaro.ActionCheckIn); err != nil {
		return nil, err
	}
	return ev, nil
}

// scanRequest turns what a gate scanned into a check-in request; forged is true for a QR code
// whose signature does not verify.
func (s *Server) scanRequest(ev *palaro.Event, caller *palaro.Caller, ticket, gate string) (palaro.CheckInRequest, bool) {
	code, forged := palaro.ParseTicketInput(s.ticketKeys(), ticket)
	return palaro.CheckInRequest{EventID: ev.ID, Code: code, Gate: gate, Actor: caller.Actor()}, forged || code == ""
}

// scanID is how a phone's scan id is stored: per caller, so one gate cannot answer for another's.
func scanID(caller *palaro.Caller, id string) string { return caller.Actor() + ":" + id }

// forgedAnswer is the answer to a QR code Palaro did not sign.
func forgedAnswer() palaro.CheckInResult {
	return palaro.CheckInResult{Outcome: palaro.CheckInUnknown, Message: "Unknown ticket: this QR code was not issued by Palaro"}
}

// apiCheckIn answers POST /v1/checkin: 200 checked in, 409 already checked in, 404 unknown
// ticket, 422 another event's or a cancelled ticket.
func (s *Server) apiCheckIn(c *echo.Context, caller *palaro.Caller) error {
	var body checkInBody
	if err := decodeJSON(c, &body); err != nil {
		return err
	}
	ev, err := s.gateEvent(c, caller, body.EventCode)
	if err != nil {
		return err
	}
	if len(body.ID) > 64 {
		return palaro.Errorf(palaro.EINVALID, "A scan's id has at most 64 characters.")
	}
	req, forged := s.scanRequest(ev, caller, body.Ticket, body.Gate)
	if body.ID != "" {
		req.ClientID = scanID(caller, body.ID)
	}
	req.Date = strings.TrimSpace(body.Date)
	res := forgedAnswer()
	if !forged {
		r, err := s.services.CheckIns.CheckIn(c.Request().Context(), req)
		if err != nil {
			return err
		}
		res = *r
	}
	status := checkInStatus[res.Outcome]
	return c.JSON(status, checkInAnswer{CheckInResult: res, ResponseCode: status})
}

// maxSyncBatch is how many offline scans one sync request carries at most.
const maxSyncBatch = 200

// syncBody is the body of POST /v1/checkin/sync: scans a phone made offline.
type syncBody struct {
	EventCode string `json:"eventCode"`
	CheckIns  []struct {
		ID     string    `json:"id"`
		Ticket string    `json:"ticket"`
		Gate   string    `json:"gate"`
		At     time.Time `json:"at"`
		// ListAt is the generatedAt of the gate list the phone decided with: no scan is older.
		ListAt time.Time `json:"listAt"`
	} `json:"checkIns"`
}

// scanNotBefore is the earliest an offline scan can have been made: the gate's opening
// (palaro.GateOpensBefore the event's start, unless the gate is already at work before it) or the
// download of the gate list the phone decided with, whichever is later and not after now.
func scanNotBefore(ev *palaro.Event, listAt, now time.Time) time.Time {
	notBefore := ev.StartsAt.Add(-palaro.GateOpensBefore)
	if notBefore.After(now) {
		notBefore = time.Time{}
	}
	if listAt.After(notBefore) && !listAt.After(now) {
		notBefore = listAt
	}
	return notBefore
}

// apiCheckInSync answers POST /v1/checkin/sync with one result per scan, in order. A ticket
// already checked in elsewhere is recorded as a conflict for the console; a scan sent again
// (same id) answers as it did the first time.
func (s *Server) apiCheckInSync(c *echo.Context, caller *palaro.Caller) error {
	var body syncBody
	if err := decodeJSON(c, &body); err != nil {
		return err
	}
	if len(body.CheckIns) > maxSyncBatch {
		return palaro.Errorf(palaro.EINVALID, "Send at most %d check-ins at a time.", maxSyncBatch)
	}
	ev, err := s.gateEvent(c, caller, body.EventCode)
	if err != nil {
		return err
	}
	now := s.Now()
	out := make([]checkInAnswer, len(body.CheckIns))
	var reqs []palaro.CheckInRequest
	var at []int
	for i, ci := range body.CheckIns {
		if ci.ID == "" || len(ci.ID) > 64 {
			return palaro.Errorf(palaro.EINVALID, "Each check-in needs an id of at most 64 characters.")
		}
		req, forged := s.scanRequest(ev, caller, ci.Ticket, ci.Gate)
		out[i] = checkInAnswer{CheckInResult: forgedAnswer(), ID: ci.ID}
		if forged {
			continue
		}
		req.At, req.ClientID = ci.At, scanID(caller, ci.ID)
		req.NotBefore = scanNotBefore(ev, ci.ListAt, now)
		reqs = append(reqs, req)
		at = append(at, i)
	}
	results, err := s.services.CheckIns.SyncCheckIns(c.Request().Context(), reqs)
	if err != nil {
		return err
	}
	for j, r := range results {
		out[at[j]].CheckInResult = r
	}
	for i := range out {
		out[i].ResponseCode = checkInStatus[out[i].Outcome]
	}
	return c.JSON(http.StatusOK, map[string]any{"results": out})
}

// gateListTicket is a ticket in the gate list: named by its code's keyed hash, never by the code.
type gateListTicket struct {
	Hash        string    `json:"hash"`
	HolderName  string    `json:"holderName"`
	TicketType  string    `json:"ticketType"`
	Seat        string    `json:"seat,omitempty"`
	Status      string    `json:"status"`
	CheckedInAt time.Time `json:"checkedInAt,omitzero"`
	Gate        string    `json:"gate,omitempty"`
	// Discount, DiscountHolder and DiscountID (last 4 only) are a senior citizen's or PWD's ticket's.
	Discount       string `json:"discount,omitempty"`
	DiscountHolder string `json:"discountHolder,omitempty"`
	DiscountID     string `json:"discountId,omitempty"`
}

// gateListJSON is what a gate phone keeps for working offline, whole or as a delta (Since set).
type gateListJSON struct {
	EventCode string `json:"eventCode"`
	// PublicKey is the current signing key's; PublicKeys are every key that verifies, by key id.
	PublicKey   string            `json:"publicKey"`
	PublicKeys  map[string]string `json:"publicKeys"`
	HashKey     string            `json:"hashKey"`
	Version     int64             `json:"version"`
	Since       *int64            `json:"since,omitempty"`
	GeneratedAt time.Time         `json:"generatedAt"`
	Tickets     []gateListTicket  `json:"tickets"`
	Voided      []string          `json:"voided,omitempty"`
}

// apiGateList answers GET /v1/organizer/events/{code}/gate-list: the event's tickets (hashed codes,
// holders, types, seats, status), the key that hashes a scanned code the same way and the Ed25519
// public keys, by key id, that verify ticket QR codes. With ?since={version}, only what changed
// after it: the changed tickets and the hashes of codes a transfer replaced.
func (s *Server) apiGateList(c *echo.Context, caller *palaro.Caller) error {
	ev, err := s.orgEvent(c, caller)
	if err != nil {
		return err
	}
	since := int64(-1)
	if v := c.QueryParam("since"); v != "" {
		if since, err = strconv.ParseInt(v, 10, 64); err != nil || since < 0 {
			return palaro.Errorf(palaro.EINVALID, "since is a gate list's version (a whole number).")
		}
	}
	list, err := s.services.CheckIns.GateChanges(c.Request().Context(), ev.ID, since)
	if err != nil {
		return err
	}
	key := palaro.GateHashKey(s.config.GateListKey, ev.ID)
	out := gateListJSON{EventCode: ev.Code, PublicKey: s.ticketPublicKey(), PublicKeys: s.ticketPublicKeys(), HashKey: base64.RawURLEncoding.EncodeToString(key),
		Version: list.Version, GeneratedAt: s.Now().UTC(), Tickets: make([]gateListTicket, len(list.Tickets))}
	if list.Delta {
		out.Since = &list.Since
	}
	for i, t := range list.Tickets {
		out.Tickets[i] = gateListTicket{Hash: palaro.GateCodeHash(key, t.Code), HolderName: t.HolderName, TicketType: t.TicketType,
			Seat: t.Seat, Status: t.Status, CheckedInAt: t.CheckedInAt, Gate: t.Gate,
			Discount: t.Discount, DiscountHolder: t.DiscountHolder, DiscountID: t.DiscountID}
	}
	for _, code := range list.Voided {
		out.Voided = append(out.Voided, palaro.GateCodeHash(key, code))
	}
	c.Response().Header().Set("Cache-Control", "no-store")
	return c.JSON(http.StatusOK, out)
}

// boxOfficeBody is the body of POST /v1/organizer/events/{code}/box-office.
type boxOfficeBody struct {
	TicketType    string `json:"ticketType"`
	Quantity      int    `json:"quantity"`
	HolderName    string `json:"holderName"`
	Email         string `json:"email"`
	PaymentMethod string `json:"paymentMethod"`
	Gate          string `json:"gate"`
}

// apiBoxOffice sells a ticket at the door and checks it in at once.
func (s *Server) apiBoxOffice(c *echo.Context, caller *palaro.Caller) error {
	ev, err := s.orgEvent(c, caller)
	if err != nil {
		return err
	}
	var body boxOfficeBody
	if err := decodeJSON(c, &body); err != nil {
		return err
	}
	tickets, err := s.services.CheckIns.SellAtDoor(c.Request().Context(), palaro.DoorSale{EventID: ev.ID, TicketType: body.TicketType,
		Quantity: body.Quantity, HolderName: body.HolderName, Email: body.Email, PaymentMethod: body.PaymentMethod, Gate: body.Gate,
		Actor: caller.Actor(), At: s.Now()})
	if err != nil {
		return err
	}
	msg := "Sold and checked in"
	if len(tickets) > 1 {
		msg = palaro.Plural(len(tickets), "ticket", "tickets") + " sold and checked in"
	}
	res := palaro.CheckInResult{Outcome: palaro.CheckInOK, Message: msg, Ticket: tickets[0]}
	return c.JSON(http.StatusOK, boxOfficeAnswer{checkInAnswer: checkInAnswer{CheckInResult: res, ResponseCode: http.StatusOK},
		Tickets: tickets})
}

// boxOfficeAnswer is a box-office sale's answer: the check-in answer of its first ticket, and all its tickets.
type boxOfficeAnswer struct {
	checkInAnswer
	Tickets []palaro.GateTicket `json:"tickets"`
}

// ticketQR is what a ticket's QR code holds: the code signed with the current key (format 3).
func (s *Server) ticketQR(code string) string {
	return palaro.SignedTicketQR(s.config.TicketSigningKey, code)
}
