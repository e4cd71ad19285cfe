package handlers

import (
	"bufio"
	"crypto/ed25519"
	"encoding/base64"
	"encoding/json"
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

// gateEvent returns the event named in a JSON body (or the route's :code) when the caller may
// check tickets in there: ENOTFOUND for another organization's event, so nothing leaks about its
// tickets. It comes from memory (GateEvent): every scan and change fetch of every gate asks.
func (s *Server) gateEvent(c *echo.Context, caller *palaro.Caller, code string) (*palaro.Event, error) {
	ev, err := s.services.Organizers.GateEvent(c.Request().Context(), strings.TrimSpace(code))
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
		// Date is, for a series, the date (slug) the gate admitted to; "" is the scan's day's.
		Date string `json:"date"`
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
		req.At, req.ClientID, req.Date = ci.At, scanID(caller, ci.ID), strings.TrimSpace(ci.Date)
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

// Gate list formats: 2 is the compact one (a ticket is an array; no holder names but a discounted
// ticket's ID holder), a single-date event's; 3 is a series' list of one date, whose rows add the
// ticket's state on that date (gateListRow). A phone drops a kept list of a format it does not read.
const (
	gateListFormat       = 2
	gateListFormatSeries = 3
)

// gateListHead is what a gate list answer carries besides its tickets, written after them.
type gateListHead struct {
	Format    int    `json:"format"`
	EventCode string `json:"eventCode"`
	// PublicKey is the current signing key's; PublicKeys are every key that verifies, by key id.
	PublicKey   string            `json:"publicKey"`
	PublicKeys  map[string]string `json:"publicKeys"`
	HashKey     string            `json:"hashKey"`
	Version     int64             `json:"version"`
	Since       *int64            `json:"since,omitempty"`
	GeneratedAt time.Time         `json:"generatedAt"`
	// Types are the ticket types' names a ticket's second element counts in.
	Types  []string `json:"types"`
	Voided []string `json:"voided,omitempty"`
	// Date is a series' list's date (format 3), DateLabel its name at the gate.
	Date      string `json:"date,omitempty"`
	DateLabel string `json:"dateLabel,omitempty"`
}

// gateListRow is a ticket as the gate list writes it, a JSON array: its code's keyed hash (never
// the code), the index of its type's name in types, then seat, status ("" for valid),
// checkedInAt, gate, discount, the discount's ID holder and ID (last 4), with empty ones at the end
// left out. Holder names are not sent: a phone offline shows type and seat, and the online answer
// names the holder. In a series' list (format 3) these are the ticket's on the list's date (its
// status may be wrong_date or pass_used_up; a pass's check-in is the date's), followed by the date
// a wrong_date day ticket is for, the dates (slugs, comma-separated) a pass was admitted on and the
// pass's description ("Every date"; "" for a day ticket).
func gateListRow(key []byte, t palaro.GateTicket, typeIndex int) []any {
	status := t.Status
	if status == palaro.TicketValid {
		status = ""
	}
	at := ""
	if !t.CheckedInAt.IsZero() {
		at = t.CheckedInAt.UTC().Format(time.RFC3339)
	}
	ticketDate := ""
	if status == palaro.GateWrongDate {
		ticketDate = t.Date
	}
	row := []any{palaro.GateCodeHash(key, t.Code), typeIndex, t.Seat, status, at, t.Gate, t.Discount, t.DiscountHolder, t.DiscountID,
		ticketDate, strings.Join(t.UsedDates, ","), t.Pass}
	for len(row) > 2 && row[len(row)-1] == "" {
		row = row[:len(row)-1]
	}
	return row
}

// apiGateList answers GET /v1/organizer/events/{code}/gate-list: the event's tickets (hashed codes,
// types, seats, status), the key that hashes a scanned code the same way and the Ed25519 public
// keys, by key id, that verify ticket QR codes. With ?since={version}, only what changed after it:
// the changed tickets and the hashes of codes a transfer replaced (or the whole list, when the
// version is too old). The tickets are written as the database reads them, so a list of 55,000
// tickets is never held in memory. A series' list is of one date (?date={slug}, else the gate's
// date now): format 3, each ticket in its state on that date.
func (s *Server) apiGateList(c *echo.Context, caller *palaro.Caller) error {
	ev, err := s.gateEvent(c, caller, c.Param("code"))
	if err != nil {
		return err
	}
	_, date, err := s.gateDate(c, ev, strings.TrimSpace(c.QueryParam("date")))
	if err != nil {
		return err
	}
	since := int64(-1)
	if v := c.QueryParam("since"); v != "" {
		if since, err = strconv.ParseInt(v, 10, 64); err != nil || since < 0 {
			return palaro.Errorf(palaro.EINVALID, "since is a gate list's version (a whole number).")
		}
	}
	key := palaro.GateHashKey(s.config.GateListKey, ev.ID)
	head := gateListHead{Format: gateListFormat, EventCode: ev.Code, PublicKey: s.ticketPublicKey(), PublicKeys: s.ticketPublicKeys(),
		HashKey: base64.RawURLEncoding.EncodeToString(key), GeneratedAt: s.Now().UTC(), Types: []string{}, Date: date.Slug, DateLabel: date.Label}
	if date.Slug != "" {
		head.Format = gateListFormatSeries
	}
	types := map[string]int{}
	for _, tt := range ev.TicketTypes {
		if _, ok := types[tt.Name]; !ok {
			types[tt.Name] = len(head.Types)
			head.Types = append(head.Types, tt.Name)
		}
	}
	w := bufio.NewWriterSize(c.Response(), 32<<10)
	started := false
	start := func() {
		if !started {
			started = true
			h := c.Response().Header()
			h.Set(echo.HeaderContentType, echo.MIMEApplicationJSON)
			h.Set("Cache-Control", "no-store")
			c.Response().WriteHeader(http.StatusOK)
			_, _ = w.WriteString(`{"tickets":[`)
		}
	}
	n := 0
	list, err := s.services.CheckIns.StreamGateChanges(c.Request().Context(), ev.ID, date.Slug, since, func(t palaro.GateTicket) error {
		i, ok := types[t.TicketType]
		if !ok { // a type the event no longer lists
			i = len(head.Types)
			types[t.TicketType] = i
			head.Types = append(head.Types, t.TicketType)
		}
		row, err := json.Marshal(gateListRow(key, t, i))
		if err != nil {
			return err
		}
		start()
		if n > 0 {
			_ = w.WriteByte(',')
		}
		n++
		_, err = w.Write(row)
		return err
	})
	if err != nil {
		if started { // the answer is on its way: the phone sees a broken list and keeps its own
			s.logger.Warn("gate list cut short", "event", ev.Code, "error", err)
			_ = w.Flush()
			return nil
		}
		return err
	}
	start()
	head.Version = list.Version
	if list.Delta {
		head.Since = &list.Since
	}
	for _, code := range list.Voided {
		head.Voided = append(head.Voided, palaro.GateCodeHash(key, code))
	}
	rest, err := json.Marshal(head)
	if err != nil {
		return err
	}
	_, _ = w.WriteString("],")
	_, _ = w.Write(rest[1:]) // the head's fields follow the tickets in the same object
	return w.Flush()
}

// boxOfficeBody is the body of POST /v1/organizer/events/{code}/box-office.
type boxOfficeBody struct {
	TicketType    string `json:"ticketType"`
	Quantity      int    `json:"quantity"`
	HolderName    string `json:"holderName"`
	Email         string `json:"email"`
	PaymentMethod string `json:"paymentMethod"`
	Gate          string `json:"gate"`
	// Date is, for a series, the date (slug) the gate sells for and admits to (required there).
	Date string `json:"date"`
}

// apiBoxOffice sells a ticket at the door and checks it in at once; on a series, for the body's date.
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
		Date: strings.TrimSpace(body.Date), Actor: caller.Actor(), At: s.Now()})
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
