package handlers

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"math"
	"net/http"
	"net/netip"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/labstack/echo/v5"

	"palaro"
	"palaro/views"
)

// Queue cookies: one place per browser and event, and the admission that lets it buy.
const (
	queueCookiePrefix = "palaro_queue_"
	admitCookiePrefix = "palaro_admit_"
	// queueCookieAge keeps a browser's place for a long sale.
	queueCookieAge = 2 * 24 * time.Hour
	// queuePoll is how often a waiting browser asks again.
	queuePoll = 10 * time.Second
)

// queueSignature signs a cookie's payload with a key drawn from the session key.
func (s *Server) queueSignature(payload string) string {
	mac := hmac.New(sha256.New, s.config.SessionKey)
	mac.Write([]byte("palaro queue\x00" + payload))
	return base64.RawURLEncoding.EncodeToString(mac.Sum(nil)[:18])
}

// signedCookie reads a cookie written by setSignedCookie and returns its payload.
func (s *Server) signedCookie(c *echo.Context, name string) (string, bool) {
	ck, err := c.Request().Cookie(name)
	if err != nil {
		return "", false
	}
	payload, sig, ok := strings.Cut(ck.Value, "~")
	if !ok || !hmac.Equal([]byte(sig), []byte(s.queueSignature(name+"\x00"+payload))) {
		return "", false
	}
	return payload, true
}

// setSignedCookie writes a signed cookie for age (relative, so a browser's clock does not matter).
func (s *Server) setSignedCookie(c *echo.Context, name, payload string, age time.Duration) {
	c.SetCookie(&http.Cookie{Name: name, Value: payload + "~" + s.queueSignature(name+"\x00"+payload), Path: "/",
		MaxAge: int(age / time.Second), HttpOnly: true, Secure: s.secure, SameSite: http.SameSiteLaxMode})
}

// queuePlaceOf returns the browser's place in an event's queue, from its signed cookie.
func (s *Server) queuePlaceOf(c *echo.Context, q *palaro.Queue) (int64, bool) {
	v, ok := s.signedCookie(c, queueCookiePrefix+q.EventCode)
	if !ok {
		return 0, false
	}
	id, err := strconv.ParseInt(v, 10, 64)
	return id, err == nil
}

// admissionOf returns the place of the browser's valid admission to buy in an event's queue.
func (s *Server) admissionOf(c *echo.Context, q *palaro.Queue) (int64, bool) {
	v, ok := s.signedCookie(c, admitCookiePrefix+q.EventCode)
	if !ok {
		return 0, false
	}
	place, until, _ := strings.Cut(v, ".")
	id, err1 := strconv.ParseInt(place, 10, 64)
	end, err2 := strconv.ParseInt(until, 10, 64)
	if err1 != nil || err2 != nil || !s.Now().Before(time.Unix(end, 0)) {
		return 0, false
	}
	return id, true
}

// queueOf returns the queue in front of an event's sale, or nil when it has none.
func (s *Server) queueOf(eventID int64) *palaro.Queue {
	if !s.services.Queues.Active() {
		return nil
	}
	return s.services.Queues.Settings(eventID)
}

// queueDetour returns where a buy or seat page sends a browser without an admission while the
// event's queue is on ("" when it may stay). The answer is personal: never cached.
func (s *Server) queueDetour(c *echo.Context, ev *palaro.Event) string {
	q := s.queueOf(ev.ID)
	if q == nil {
		return ""
	}
	c.Response().Header().Set("Cache-Control", "private, no-store")
	if _, ok := s.admissionOf(c, q); ok {
		return ""
	}
	return "/queue/" + q.EventCode + "?next=" + url.QueryEscape(c.Request().URL.RequestURI())
}

// queueGate refuses a purchase of a ticket type whose event's queue is on, unless the browser
// was admitted; it answers the admitted browser's place (0 without a queue), which the order ties
// to the buyer's e-mail address in its own transaction (so a refused purchase ties nothing).
func (s *Server) queueGate(c *echo.Context, ticketCode string) (int64, error) {
	if !s.services.Queues.Active() {
		return 0, nil
	}
	ctx := c.Request().Context()
	_, ev, err := s.services.TicketTypes.FindTicketType(ctx, ticketCode)
	if err != nil {
		return 0, nil // the purchase itself answers an unknown ticket
	}
	q := s.queueOf(ev.ID)
	if q == nil {
		return 0, nil
	}
	place, ok := s.admissionOf(c, q)
	if !ok {
		return 0, palaro.Errorf(palaro.ETOOMANY, palaro.QueueWaitMessage)
	}
	return place, nil
}

// queueClient is the network a browser joins a queue from, as places are counted per address:
// its IPv4 address, or the /64 of its IPv6 one (one subscriber's block).
func queueClient(ip string) string {
	a, err := netip.ParseAddr(ip)
	if err != nil {
		return ip
	}
	if a = a.Unmap(); a.Is4() {
		return a.String()
	}
	p, _ := a.Prefix(64)
	return p.String()
}

// queueVisit finds the browser's place (giving it one, or a new one when rejoin is set and its
// admission has passed) and answers its status, setting the admission cookie on its turn.
func (s *Server) queueVisit(c *echo.Context, rejoin bool) (*palaro.Queue, palaro.QueueStatus, error) {
	var st palaro.QueueStatus
	qs := s.services.Queues
	if qs == nil {
		return nil, st, palaro.Errorf(palaro.ENOTFOUND, "This event has no queue.")
	}
	q := qs.ByCode(c.Param("code"))
	if q == nil {
		return nil, st, palaro.Errorf(palaro.ENOTFOUND, "This event has no queue.")
	}
	c.Response().Header().Set("Cache-Control", "private, no-store")
	ctx, now := c.Request().Context(), s.Now()
	id, ok := s.queuePlaceOf(c, q)
	var err error
	if ok {
		st, err = qs.Status(ctx, q.EventID, id, now)
		if palaro.ErrorCode(err) == palaro.ENOTFOUND {
			ok = false // the queue was turned off and on again
		} else if err != nil {
			return q, st, err
		}
	}
	if !ok || (rejoin && admissionOver(st, now)) {
		// A place is a write: an address may take many (a venue's Wi-Fi, a carrier's NAT), not endlessly.
		if err := s.throttle(c, limitCheck{limitQueueJoinIP, "queue|" + c.RealIP()}); err != nil {
			return q, st, err
		}
		if id, err = qs.Join(ctx, q.EventID, queueClient(c.RealIP()), now); err != nil {
			return q, st, err
		}
		s.setSignedCookie(c, queueCookiePrefix+q.EventCode, strconv.FormatInt(id, 10), queueCookieAge)
		if st, err = qs.Status(ctx, q.EventID, id, now); err != nil {
			return q, st, err
		}
	}
	if until := st.AdmittedAt.Add(palaro.AdmissionWindow); st.Admitted && until.After(now) {
		if place, ok := s.admissionOf(c, q); !ok || place != id {
			s.setSignedCookie(c, admitCookiePrefix+q.EventCode, strconv.FormatInt(id, 10)+"."+strconv.FormatInt(until.Unix(), 10), until.Sub(now))
		}
	}
	return q, st, nil
}

// admissionOver reports whether a browser's time to buy has passed.
func admissionOver(st palaro.QueueStatus, now time.Time) bool {
	return st.Admitted && !st.AdmittedAt.Add(palaro.AdmissionWindow).After(now)
}

// queueStatusJSON is the answer of GET /v1/queue/{eventCode}.
type queueStatusJSON struct {
	OpensAt              time.Time `json:"opensAt"`
	Position             *int      `json:"position"`
	Ahead                *int      `json:"ahead"`
	EstimatedWaitSeconds int       `json:"estimatedWaitSeconds"`
	Admitted             bool      `json:"admitted"`
}

// queueAPI answers GET /v1/queue/{eventCode}: the browser's own place (given on its first call).
// admitted is true while it may buy.
func (s *Server) queueAPI(c *echo.Context) error {
	_, st, err := s.queueVisit(c, false)
	if err != nil {
		return err
	}
	now := s.Now()
	return c.JSON(http.StatusOK, queueStatusJSON{OpensAt: st.OpensAt.In(palaro.Manila), Position: st.Position, Ahead: st.Ahead,
		EstimatedWaitSeconds: st.EstimatedWaitSeconds, Admitted: st.Admitted && !admissionOver(st, now)})
}

// queuePage renders /queue/{eventCode}: the countdown before the opening, then the browser's place,
// how many are ahead and the wait, then its admission. It asks again by itself (htmx, or a
// refresh without scripts); an htmx request gets the section alone.
func (s *Server) queuePage(c *echo.Context) error {
	q, st, err := s.queueVisit(c, c.QueryParam("rejoin") == "1")
	if palaro.ErrorCode(err) == palaro.ENOTFOUND && q == nil {
		if _, evErr := s.services.Events.FindEventByCode(c.Request().Context(), c.Param("code")); evErr == nil {
			return c.Redirect(http.StatusSeeOther, "/e/"+c.Param("code")) // no queue (any more): on to the event
		}
	}
	if err != nil {
		return err
	}
	v := s.queueView(q, st, cleanNext(c.QueryParam("next")))
	if c.Request().Header.Get("HX-Request") == "true" {
		return render(c, http.StatusOK, views.QueueSection(v))
	}
	p := s.page(c, "Queue · "+q.EventName+" · Palaro", "Your place in the queue for "+q.EventName+".")
	p.Nav = views.NavDefaultBack
	p.NoIndex = true
	p.Refresh = v.PollSeconds
	return render(c, http.StatusOK, views.QueuePage(p, v))
}

// cleanNext keeps a page to go to after the queue when it is a buy or seat page of this site.
func cleanNext(next string) string {
	u, err := url.Parse(next)
	if err != nil || u.Scheme != "" || u.Host != "" || !(strings.HasPrefix(u.Path, "/b/") || strings.HasPrefix(u.Path, "/s/")) ||
		strings.Contains(u.Path[3:], "/") {
		return ""
	}
	return u.RequestURI()
}

// queueView is the queue page's view of a status.
func (s *Server) queueView(q *palaro.Queue, st palaro.QueueStatus, next string) views.QueueView {
	now := s.Now()
	v := views.QueueView{EventName: q.EventName, EventHref: "/e/" + q.EventCode, OpensAt: manilaTime(q.OpensAt),
		OpensISO: q.OpensAt.Format(time.RFC3339), Rate: q.AdmitPerMinute, BuyHref: next}
	if v.BuyHref == "" {
		v.BuyHref = v.EventHref
	}
	self := "/queue/" + q.EventCode
	if next != "" {
		self += "?next=" + url.QueryEscape(next)
	}
	v.PollURL, v.PollSeconds = self, int(queuePoll/time.Second)
	switch {
	case admissionOver(st, now):
		v.State = views.QueueExpired
		v.RejoinHref = "/queue/" + q.EventCode + "?rejoin=1"
		if next != "" {
			v.RejoinHref += "&next=" + url.QueryEscape(next)
		}
		v.PollSeconds = 0
	case st.Admitted:
		v.State = views.QueueAdmitted
		v.Until = manilaClock(st.AdmittedAt.Add(palaro.AdmissionWindow))
		v.Minutes = int(math.Ceil(st.AdmittedAt.Add(palaro.AdmissionWindow).Sub(now).Minutes()))
		v.PollSeconds = 0
	case st.Position == nil:
		v.State = views.QueueCountdown
		v.Wait = waitText(st.EstimatedWaitSeconds)
	default:
		v.State = views.QueueWaiting
		v.Position, v.Ahead = *st.Position, *st.Ahead
		v.Wait = waitText(st.EstimatedWaitSeconds)
	}
	if v.PollSeconds > 0 && st.EstimatedWaitSeconds < v.PollSeconds {
		v.PollSeconds = max(st.EstimatedWaitSeconds, 2) // the turn comes sooner: ask then
	}
	return v
}

// manilaClock is a time of day in Manila, such as "8:10 PM".
func manilaClock(t time.Time) string { return t.In(palaro.Manila).Format("3:04 PM") }

// waitText says a wait in words: "less than a minute", "about 1 minute", "about 25 minutes",
// "about 2 hours 5 minutes".
func waitText(seconds int) string {
	m := (seconds + 59) / 60
	switch {
	case seconds < 60:
		return "less than a minute"
	case m < 60:
		return "about " + countOf(m, "minute")
	case m%60 == 0:
		return "about " + countOf(m/60, "hour")
	}
	return "about " + countOf(m/60, "hour") + " " + countOf(m%60, "minute")
}

func countOf(n int, unit string) string {
	if n == 1 {
		return "1 " + unit
	}
	return strconv.Itoa(n) + " " + unit + "s"
}

// queueSaleLive reports whether an event's queued sale is still to be spoken of: the event is not
// cancelled and not over, and some ticket type's sale has not ended.
func queueSaleLive(ev *palaro.Event, now time.Time) bool {
	if ev.Status == palaro.EventCancelled || !now.Before(ev.EndsAt) {
		return false
	}
	for _, t := range ev.TicketTypes {
		if t.SaleState(ev, now) != palaro.SaleEnded {
			return true
		}
	}
	return false
}

// saleOpensText is the event page's word on a queued sale: when it opens, or that it is open
// through the queue. It names no visitor, so it may sit in the cached page.
func saleOpensText(q *palaro.Queue, now time.Time) string {
	if now.Before(q.OpensAt) {
		return "The sale opens " + manilaTime(q.OpensAt) + " (Manila time). Tap a ticket to wait in the queue: everyone who arrives before the opening gets a place drawn at random."
	}
	return "The sale is open through a queue: tap a ticket to get your place."
}
