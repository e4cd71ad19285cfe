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

// admissionOf returns the place of the browser's valid admission to buy in an event's queue, and
// the slug of the series date it buys for ("" for none: an event of one date, a series' passes).
func (s *Server) admissionOf(c *echo.Context, q *palaro.Queue) (int64, string, bool) {
	v, ok := s.signedCookie(c, admitCookiePrefix+q.EventCode)
	if !ok {
		return 0, "", false
	}
	parts := strings.SplitN(v, ".", 3)
	if len(parts) < 2 {
		return 0, "", false
	}
	id, err1 := strconv.ParseInt(parts[0], 10, 64)
	end, err2 := strconv.ParseInt(parts[1], 10, 64)
	if err1 != nil || err2 != nil || !s.Now().Before(time.Unix(end, 0)) {
		return 0, "", false
	}
	slug := ""
	if len(parts) == 3 {
		slug = parts[2]
	}
	return id, slug, true
}

// queueOf returns the queue in front of an event's sale, or nil when it has none.
func (s *Server) queueOf(eventID int64) *palaro.Queue {
	if !s.services.Queues.Active() {
		return nil
	}
	return s.services.Queues.Settings(eventID)
}

// queueDetour returns where a buy or seat page sends a browser without an admission while the
// event's queue is on ("" when it may stay). slug is the series date the page sells ("" for
// none); an admission buys for its own date only, so one for another date detours too, and on a
// series (series set: a date's page or a pass's) the queue is told the date the visitor came for.
// The answer is personal: never cached.
func (s *Server) queueDetour(c *echo.Context, ev *palaro.Event, slug string, series bool) string {
	q := s.queueOf(ev.ID)
	if q == nil {
		return ""
	}
	c.Response().Header().Set("Cache-Control", "private, no-store")
	if _, on, ok := s.admissionOf(c, q); ok && on == slug {
		return ""
	}
	to := "/queue/" + q.EventCode + "?"
	if series {
		to += "date=" + url.QueryEscape(slug) + "&"
	}
	return to + "next=" + url.QueryEscape(c.Request().URL.RequestURI())
}

// queueGate refuses a purchase of a ticket type whose event's queue is on, unless the browser
// was admitted for the purchase's date (slug, "" for none); it answers the admitted browser's
// place (0 without a queue), which the order ties to the buyer's e-mail address in its own
// transaction (so a refused purchase ties nothing).
func (s *Server) queueGate(c *echo.Context, ticketCode, slug string) (int64, error) {
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
	place, on, ok := s.admissionOf(c, q)
	if !ok {
		return 0, palaro.Errorf(palaro.ETOOMANY, palaro.QueueWaitMessage)
	}
	if on != slug {
		return 0, palaro.Errorf(palaro.ETOOMANY, "%s", palaro.QueueOtherDateMessage)
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

// queueVisit is one browser's view of its place in an event's queue.
type queueVisit struct {
	q  *palaro.Queue
	st palaro.QueueStatus
	// dates are the event's series dates with their places (nil for an event of one date, or
	// when neither the place nor the request names a date).
	dates []dated
	// want is the date the request came for when it differs from the place's (the place's turn
	// has come, so it cannot move): nil otherwise.
	want *dated
	// wrote is set when the visit gave a place or moved one to the date the request named.
	wrote bool
}

// on is the series date of the browser's place, nil for none.
func (v *queueVisit) on() *dated { return dateByID(v.dates, v.st.DateID) }

// dateByID finds a date among a series' dates, nil for none.
func dateByID(dates []dated, id int64) *dated {
	if id == 0 {
		return nil
	}
	for i := range dates {
		if dates[i].Date.ID == id {
			return &dates[i]
		}
	}
	return nil
}

// visitQueue finds the browser's place (giving it one, or a new one when rejoin is set and its
// admission has passed or was for another date) and answers its status, setting the admission
// cookie on its turn. The query's date (present: the slug of the series date the visitor came
// for, empty for none, as a pass's buy page sends) gives a new place its date and moves a waiting
// place to it (its place in line stays); without it nothing moves, so a refresh writes nothing.
func (s *Server) visitQueue(c *echo.Context, rejoin bool) (queueVisit, error) {
	var v queueVisit
	qs := s.services.Queues
	if qs == nil {
		return v, palaro.Errorf(palaro.ENOTFOUND, "This event has no queue.")
	}
	if v.q = qs.ByCode(c.Param("code")); v.q == nil {
		return v, palaro.Errorf(palaro.ENOTFOUND, "This event has no queue.")
	}
	q := v.q
	c.Response().Header().Set("Cache-Control", "private, no-store")
	ctx, now := c.Request().Context(), s.Now()
	slug, named := c.QueryParams()["date"]
	var want *dated
	if named && slug[0] != "" {
		ev, err := s.services.Events.FindEventByCode(ctx, q.EventCode)
		if err != nil {
			return v, err
		}
		if v.dates, err = s.seriesDates(ctx, ev); err != nil {
			return v, err
		}
		if want = dateBySlug(v.dates, slug[0]); want == nil {
			return v, palaro.Errorf(palaro.ENOTFOUND, "Date not found.")
		}
	}
	wantID := int64(0)
	if want != nil {
		wantID = want.Date.ID
	}
	id, ok := s.queuePlaceOf(c, q)
	var err error
	if ok {
		v.st, err = qs.Status(ctx, q.EventID, id, now)
		if palaro.ErrorCode(err) == palaro.ENOTFOUND {
			ok = false // the queue was turned off and on again
		} else if err != nil {
			return v, err
		}
	}
	otherDate := named && ok && v.st.DateID != wantID
	switch {
	case !ok || (rejoin && (admissionOver(v.st, now) || (otherDate && v.st.Admitted))):
		// A place is a write: an address may take many (a venue's Wi-Fi, a carrier's NAT), not endlessly.
		if err := s.throttle(c, limitCheck{limitQueueJoinIP, "queue|" + c.RealIP()}); err != nil {
			return v, err
		}
		if !named && ok {
			wantID = v.st.DateID // joining again keeps the date
		}
		if id, err = qs.Join(ctx, q.EventID, wantID, queueClient(c.RealIP()), now); err != nil {
			return v, err
		}
		s.setSignedCookie(c, queueCookiePrefix+q.EventCode, strconv.FormatInt(id, 10), queueCookieAge)
		if v.st, err = qs.Status(ctx, q.EventID, id, now); err != nil {
			return v, err
		}
		v.wrote = named
	case otherDate && !v.st.Admitted:
		if err := qs.Move(ctx, q.EventID, id, wantID); err != nil && palaro.ErrorCode(err) != palaro.ECONFLICT {
			return v, err
		} else if err == nil {
			v.st.DateID, v.wrote = wantID, true
		}
	}
	if named && v.st.DateID != wantID {
		v.want = want // admitted for another date (want nil: the series' passes)
		if want == nil {
			v.want = &dated{}
		}
	}
	if v.dates == nil && v.st.DateID != 0 {
		ev, err := s.services.Events.FindEventByCode(ctx, q.EventCode)
		if err != nil {
			return v, err
		}
		if v.dates, err = s.seriesDates(ctx, ev); err != nil {
			return v, err
		}
	}
	if until := v.st.AdmittedAt.Add(palaro.AdmissionWindow); v.st.Admitted && until.After(now) {
		on := v.on().slug()
		if place, was, ok := s.admissionOf(c, q); !ok || place != id || was != on {
			payload := strconv.FormatInt(id, 10) + "." + strconv.FormatInt(until.Unix(), 10)
			if on != "" {
				payload += "." + on
			}
			s.setSignedCookie(c, admitCookiePrefix+q.EventCode, payload, until.Sub(now))
		}
	}
	return v, nil
}

// dateBySlug finds a date among a series' dates, nil for none.
func dateBySlug(dates []dated, slug string) *dated {
	for i := range dates {
		if dates[i].Slug == slug {
			return &dates[i]
		}
	}
	return nil
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
	// Date is the slug of the series date the place is for, and DateAvailability what that date
	// has left ("On sale", "Only 12 left", "Sold out", "Cancelled", "Postponed", "Sales ended").
	Date             string `json:"date,omitempty"`
	DateAvailability string `json:"dateAvailability,omitempty"`
}

// queueAPI answers GET /v1/queue/{eventCode}[?date={slug}]: the browser's own place (given on its
// first call, for the date named). admitted is true while it may buy.
func (s *Server) queueAPI(c *echo.Context) error {
	v, err := s.visitQueue(c, false)
	if err != nil {
		return err
	}
	now, st := s.Now(), v.st
	out := queueStatusJSON{OpensAt: st.OpensAt.In(palaro.Manila), Position: st.Position, Ahead: st.Ahead,
		EstimatedWaitSeconds: st.EstimatedWaitSeconds, Admitted: st.Admitted && !admissionOver(st, now)}
	if d := v.on(); d != nil {
		out.Date = d.Slug
		out.DateAvailability, _ = dateAvailability(d.Event, now)
	}
	return c.JSON(http.StatusOK, out)
}

// queuePage renders /queue/{eventCode}: the countdown before the opening, then the browser's place,
// how many are ahead and the wait, then its admission; on a series, the date the place is for and
// whether that date can still be bought. It asks again by itself (htmx, or a refresh without
// scripts); an htmx request gets the section alone. A visit that gave a place or moved it to the
// date it named goes on to the address without the date, so a refresh never moves it again.
func (s *Server) queuePage(c *echo.Context) error {
	v, err := s.visitQueue(c, c.QueryParam("rejoin") == "1")
	if palaro.ErrorCode(err) == palaro.ENOTFOUND && v.q == nil {
		if _, evErr := s.services.Events.FindEventByCode(c.Request().Context(), c.Param("code")); evErr == nil {
			return c.Redirect(http.StatusSeeOther, "/e/"+c.Param("code")) // no queue (any more): on to the event
		}
	}
	if err != nil {
		return err
	}
	next := cleanNext(c.QueryParam("next"))
	if v.dates != nil {
		if u, err := url.Parse(next); err == nil && u.Query().Get("date") != v.on().slug() {
			next = "" // a page of another date: the place's date's own page instead
		}
	}
	isHTMX := c.Request().Header.Get("HX-Request") == "true"
	if v.wrote && !isHTMX {
		return c.Redirect(http.StatusSeeOther, queueSelf(v.q.EventCode, next))
	}
	view := s.queueView(v, next)
	if isHTMX {
		return render(c, http.StatusOK, views.QueueSection(view))
	}
	p := s.page(c, "Queue · "+view.EventName+" · Palaro", "Your place in the queue for "+view.EventName+".")
	p.Nav = views.NavDefaultBack
	p.NoIndex = true
	p.Refresh = view.PollSeconds
	return render(c, http.StatusOK, views.QueuePage(p, view))
}

// queueSelf is the queue page of an event, with the page to go to after it.
func queueSelf(code, next string) string {
	self := "/queue/" + code
	if next != "" {
		self += "?next=" + url.QueryEscape(next)
	}
	return self
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

// queueView is the queue page's view of a visit.
func (s *Server) queueView(qv queueVisit, next string) views.QueueView {
	now, q, st := s.Now(), qv.q, qv.st
	v := views.QueueView{EventName: q.EventName, EventHref: "/e/" + q.EventCode, OpensAt: manilaTime(q.OpensAt),
		OpensISO: q.OpensAt.Format(time.RFC3339), Rate: q.AdmitPerMinute, BuyHref: next}
	on := qv.on()
	if on != nil {
		v.EventHref, v.DateLabel = eventPath(q.EventCode, on.Slug), palaro.GateDateLabel(on.Date)
	}
	if v.BuyHref == "" {
		v.BuyHref = v.EventHref
	}
	v.PollURL, v.PollSeconds = queueSelf(q.EventCode, next), int(queuePoll/time.Second)
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
	if qv.want != nil && st.Admitted && !admissionOver(st, now) {
		v.Notice = otherDateNotice(q, on, qv.want)
	} else if on != nil {
		v.Notice = dateOffNotice(q, on, qv.dates, now, st.Admitted)
		if v.Notice != nil && v.State == views.QueueAdmitted {
			v.PollSeconds = int(queuePoll / time.Second) // places may come back while the turn lasts
		}
	}
	if v.PollSeconds > 0 && st.EstimatedWaitSeconds > 0 && st.EstimatedWaitSeconds < v.PollSeconds {
		v.PollSeconds = max(st.EstimatedWaitSeconds, 2) // the turn comes sooner: ask then
	}
	return v
}

// otherDateNotice tells a browser whose turn came for the date on (nil: a series' passes) that
// it came for want: its admission buys for its own date only, so want needs a new place.
func otherDateNotice(q *palaro.Queue, on, want *dated) *views.QueueNotice {
	name := func(d *dated) string {
		if d == nil || d.Slug == "" {
			return "season passes"
		}
		return palaro.GateDateLabel(d.Date)
	}
	return &views.QueueNotice{
		Title:   "Your turn is for " + name(on),
		Text:    "A turn in the queue buys for the date it was for. To buy for " + name(want) + ", join the queue again for it.",
		Actions: []views.Link{{Label: "Join the queue for " + name(want), Href: "/queue/" + q.EventCode + "?rejoin=1&date=" + url.QueryEscape(want.Slug)}},
	}
}

// dateOffNotice says why the series date on cannot be bought now (sold out, cancelled, postponed,
// its sales ended), with its waiting lists and the other coming dates that have places; nil when
// it can (or its sale has not started yet). admitted says the browser's turn has come (it no
// longer moves to another date).
func dateOffNotice(q *palaro.Queue, on *dated, dates []dated, now time.Time, admitted bool) *views.QueueNotice {
	left, open := dateAvailability(on.Event, now)
	if open || left == "Not yet on sale" {
		return nil
	}
	label := palaro.GateDateLabel(on.Date)
	n := &views.QueueNotice{}
	switch on.Date.Status {
	case palaro.DateCancelled:
		n.Title, n.Text = label+" is cancelled", "Its tickets are no longer sold."
	case palaro.DatePostponed:
		n.Title, n.Text = label+" is postponed", palaro.MsgDatePostponed
	default:
		if left != "Sold out" {
			n.Title, n.Text = "Sales for "+label+" have ended", "Its tickets are no longer sold."
			break
		}
		n.Title = label + " is sold out"
		n.Text = "Every ticket for this date is sold or held. Join its waiting list to be offered tickets that come back; this page also says so if places free up."
		for _, t := range on.Event.TicketTypes {
			if !t.IsPass() && t.SaleState(on.Event, now) == palaro.SaleSoldOut {
				n.Actions = append(n.Actions, views.Link{Label: "Join the waiting list for " + t.Name, Href: palaro.WaitlistDatePath(t.Code, on.Slug)})
			}
		}
	}
	for _, d := range dates {
		if d.Date.ID == on.Date.ID || !now.Before(d.Event.EndsAt) {
			continue
		}
		if text, open := dateAvailability(d.Event, now); open {
			href := "/queue/" + q.EventCode + "?date=" + url.QueryEscape(d.Slug)
			if admitted {
				href += "&rejoin=1"
			}
			n.Others = append(n.Others, views.Link{Label: palaro.GateDateLabel(d.Date) + " · " + text, Href: href})
		}
	}
	if len(n.Others) > 0 {
		if admitted {
			n.Text += " Another date needs a new place in the queue."
		} else {
			n.Text += " Or wait for another date instead: your place in line stays."
		}
	}
	return n
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
