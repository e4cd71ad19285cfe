package handlers

import (
	"cmp"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/binary"
	"net/http"
	"net/url"
	"time"

	"github.com/gorilla/sessions"
	"github.com/labstack/echo/v5"

	"palaro"
	"palaro/views"
)

// The widget's framed buy flow: the buy page and the order page that widget.js opens in an
// overlay on the organizer's site. Like the widget they live under /embed/, may be framed only
// by the event's listed sites (frameAncestors), and need no cookie from Palaro: a browser that
// blocks third-party cookies sends none to a frame. Their form carries a signed, short-lived form
// token (embedFormToken) in place of the session's CSRF token.
const (
	embedBuyPath   = "/embed/b/:code"
	embedOrderPath = "/embed/o/:id"
)

// embedFormLife is how long a framed buy form may be sent after it was drawn.
const embedFormLife = 2 * time.Hour

// embedFormToken signs a framed buy form of a ticket type for a frame session sid (16 random
// bytes, base64url) until expiry: base64url(sid ‖ expiry) "." base64url(HMAC-SHA256), with a key
// drawn from the session key and the ticket type's code inside the MAC, so a token is worth
// nothing for another ticket type, after its hour, or with one byte changed.
func (s *Server) embedFormToken(code, sid string, expiry time.Time) string {
	raw, err := base64.RawURLEncoding.DecodeString(sid)
	if err != nil || len(raw) != 16 {
		raw = make([]byte, 16)
		_, _ = rand.Read(raw) // crypto/rand.Read never fails (Go 1.24+)
	}
	payload := binary.BigEndian.AppendUint64(raw, uint64(expiry.Unix()))
	return base64.RawURLEncoding.EncodeToString(payload) + "." + s.embedFormMAC(code, payload)
}

// embedFormMAC is the signature of a framed buy form's payload for a ticket type's code.
func (s *Server) embedFormMAC(code string, payload []byte) string {
	mac := hmac.New(sha256.New, s.config.SessionKey)
	mac.Write([]byte("palaro embed form\x00" + code + "\x00"))
	mac.Write(payload)
	return base64.RawURLEncoding.EncodeToString(mac.Sum(nil))
}

// checkEmbedForm verifies a framed buy form's token for the ticket type's code at now and returns
// its frame session id; ok is false for a token that is malformed, forged, of another ticket type
// or expired.
func (s *Server) checkEmbedForm(code, token string, now time.Time) (sid string, ok bool) {
	enc, sig, found := cutLast(token, '.')
	payload, err := base64.RawURLEncoding.DecodeString(enc)
	if !found || err != nil || len(payload) != 24 || !hmac.Equal([]byte(sig), []byte(s.embedFormMAC(code, payload))) {
		return "", false
	}
	if !now.Before(time.Unix(int64(binary.BigEndian.Uint64(payload[16:])), 0)) {
		return "", false
	}
	return base64.RawURLEncoding.EncodeToString(payload[:16]), true
}

// cutLast slices s around the last sep.
func cutLast(s string, sep byte) (before, after string, found bool) {
	for i := len(s) - 1; i >= 0; i-- {
		if s[i] == sep {
			return s[:i], s[i+1:], true
		}
	}
	return s, "", false
}

// framedBuy reports whether the request is the widget's framed buy page (GET or POST).
func framedBuy(c *echo.Context) bool { return c.Path() == embedBuyPath }

// formTarget is where a buy form posts and the token it carries: /b/{code} with the session's
// CSRF token, or, framed, /embed/b/{code} with a form token of the frame's session (the one the
// form was posted with, or a new one).
func (s *Server) formTarget(c *echo.Context, tt *palaro.TicketType) (action, token string) {
	if !framedBuy(c) {
		return "/b/" + tt.Code, csrfToken(c)
	}
	sid, _ := visitOf(c).session.Values[keySID].(string)
	return "/embed/b/" + tt.Code, s.embedFormToken(tt.Code, sid, s.Now().Add(embedFormLife))
}

// embedBuyPage serves GET /embed/b/{code}, the buy page in the widget's overlay: the purchase
// form drawn by the server (no island: the framed flow stays within the widget's page weight), or,
// where the purchase cannot happen in a frame, a link that continues on Palaro in a new tab: a
// seated ticket type (its seat map) and a sale behind the on-sale queue (whose place and admission
// are cookies of Palaro's own tab).
func (s *Server) embedBuyPage(c *echo.Context) error {
	tt, ev, err := s.findTicketType(c)
	if err != nil {
		return err
	}
	ott, oev, d, err := s.ticketOnDate(c.Request().Context(), tt, ev, c.QueryParam("date"))
	if err == errPickDate || (err == nil && (tt.Seated || s.queueOf(ev.ID) != nil)) {
		return s.embedElsewhere(c, tt, ev, err == errPickDate)
	} else if err != nil {
		return err
	}
	source := cleanSource(c.QueryParam("source"))
	return s.renderBuyPage(c, ott, oev, d, http.StatusOK, s.buyForm(c, ott, d, nil, source), nil, source)
}

// embedElsewhere renders the framed buy page of a ticket type that is bought on Palaro's own tab:
// behind a queue, seated, or a series' day ticket whose date is picked on the event's page
// (pickDate).
func (s *Server) embedElsewhere(c *echo.Context, tt *palaro.TicketType, ev *palaro.Event, pickDate bool) error {
	href, why := s.config.BaseURL+"/b/"+tt.Code, "This sale has a waiting line, which runs on Palaro's own page."
	switch {
	case pickDate:
		href, why = s.config.BaseURL+eventPath(ev.Code, ""), "Choose a date on Palaro's event page."
	case tt.Seated:
		href, why = s.config.BaseURL+"/s/"+tt.Code, "Choose your seats on Palaro's seat map."
	}
	if source := cleanSource(c.QueryParam("source")); source != "" {
		href += "?source=" + url.QueryEscape(source)
	}
	v := views.EmbedBuyView{TicketHeader: s.ticketHeader(tt, ev, nil, s.Now()), ElsewhereHref: href, ElsewhereWhy: why}
	return render(c, http.StatusOK, views.EmbedBuyPage(s.embedPageOf(c, "Buy "+tt.Name+" · "+ev.Name), ev, v))
}

// embedBuyPost handles POST /embed/b/{code}, the framed buy form. The route takes no session CSRF
// token (a frame has no cookie); the form token stands in for it: it must be valid for this
// ticket type and unexpired, and the post must come from Palaro's own origin (the framed page)
// when the browser says where it comes from. The frame session id the token carries keys the
// per-session purchase limits and the order's session (orderKey), as a session cookie would.
// The signed-in user's cookie, if one came along, is never used: the framed flow is anonymous.
func (s *Server) embedBuyPost(c *echo.Context) error {
	r := c.Request()
	if o := r.Header.Get("Origin"); o != "" && o != s.origin() {
		return errCSRF
	}
	if site := r.Header.Get("Sec-Fetch-Site"); site != "" && site != "same-origin" {
		return errCSRF
	}
	if err := r.ParseForm(); err != nil {
		return palaro.Errorf(palaro.EINVALID, "The form could not be read. Please try again.")
	}
	sid, ok := s.checkEmbedForm(c.Param("code"), r.PostFormValue(csrfField), s.Now())
	if !ok {
		return errCSRF
	}
	sess := sessions.NewSession(nil, sessionCookie)
	sess.Values[keySID] = sid
	c.Set(visitKey, &visit{session: sess})
	return s.buyFormPost(c)
}

// origin is the scheme, host and port of Palaro's base URL, as browsers send it in Origin.
func (s *Server) origin() string {
	u, err := url.Parse(s.config.BaseURL)
	if err != nil {
		return s.config.BaseURL
	}
	return u.Scheme + "://" + u.Host
}

// embedOrderPage serves GET /embed/o/{id}, an order placed in the widget's overlay: a free one's
// confirmation with its tickets (links open Palaro in a new tab), or a pending one's button to the
// payment provider's checkout, which opens in a new tab (a wallet leaves the page, and a hosted
// checkout refuses to be framed); the page follows the order until it is paid.
func (s *Server) embedOrderPage(c *echo.Context) error {
	o, err := s.services.Purchases.FindOrderByPublicID(c.Request().Context(), c.Param("id"))
	if err != nil {
		return err
	}
	if o.Event == nil || o.Kind == palaro.OrderKindAddOns {
		return palaro.Errorf(palaro.ENOTFOUND, "Order not found.")
	}
	v, err := s.orderView(c, o)
	if err != nil {
		return err
	}
	v.Returns = views.OrderReturnsView{} // cancelling and returns take Palaro's own page
	if v.Pending && v.PayHref != "" {
		v.PayLabel = cmp.Or(v.PayLabel, paymentLabel(o.PaymentType)) + " (opens a new tab)"
	}
	c.Response().Header().Set("Cache-Control", "private, no-cache")
	return render(c, http.StatusOK, views.EmbedOrderPage(s.embedPageOf(c, v.Heading), o.Event, v))
}

// embedPageOf is the Page of a framed page: never indexed, no navigation.
func (s *Server) embedPageOf(c *echo.Context, title string) views.Page {
	p := s.page(c, title+" · Palaro", "")
	p.NoIndex, p.ShowNav = true, false
	return p
}
