package handlers

import (
	"net/http"
	"strings"

	"github.com/labstack/echo/v5"

	"palaro"
	"palaro/views"
)

// embedEventPath is the route of an event's ticket widget: the pages other sites may frame live
// under /embed/; every other page answers frame-ancestors 'none'.
const embedEventPath = "/embed/e/:code"

// embedPage serves an event's ticket widget (?type= one ticket type): its ticket types with prices
// and availability and a buy link each. The page needs no cookie, so it works in a frame with
// third-party cookies blocked. A buy link opens the buy page in a new tab; put in by widget.js,
// whose hello names a listed site (static/js/embed.js), a ticket type that can be bought in a frame
// (not seated) opens the framed buy flow (/embed/b/{code}) in an overlay on the organizer's page.
func (s *Server) embedPage(c *echo.Context) error {
	ev, err := s.services.Events.FindEventByCode(c.Request().Context(), c.Param("code"))
	if err != nil {
		return err
	}
	now := s.Now()
	full := s.eventView(ev, now)
	v := views.EmbedView{Name: ev.Name, When: full.When, Venue: ev.Venue.Name + ", " + ev.Venue.City, Ended: full.Ended,
		EventURL: s.config.BaseURL + "/e/" + ev.Code, Origins: strings.Join(ev.WidgetOrigins, " ")}
	only := c.QueryParam("type")
	for i, t := range full.Tickets {
		if only != "" && t.Code != only {
			continue
		}
		t.BuyHref = s.config.BaseURL + t.BuyHref
		if t.WaitlistHref != "" {
			t.WaitlistHref = s.config.BaseURL + t.WaitlistHref
		}
		v.Tickets = append(v.Tickets, views.EmbedTicket{TicketView: t, Overlay: t.Available && !ev.TicketTypes[i].Seated})
	}
	if only != "" && len(v.Tickets) == 0 {
		return palaro.Errorf(palaro.ENOTFOUND, "This event has no such ticket type.")
	}
	p := s.page(c, "Tickets · "+ev.Name+" · Palaro", "")
	p.NoIndex, p.ShowNav = true, false
	return render(c, http.StatusOK, views.EmbedPage(p, v))
}

// frameAncestors narrows the security headers of the widget's pages (/embed/e/{code}, and the
// overlay's /embed/b/{code} and /embed/o/{id}) to the sites their event lists: Content-Security-
// Policy frame-ancestors names them and X-Frame-Options goes. A page whose event lists none (or
// no such event) keeps frame-ancestors 'none'. It runs before the page cache, so a cached widget
// gets the headers of its event as it is now.
func (s *Server) frameAncestors(c *echo.Context) {
	ev := s.framedEvent(c)
	if ev == nil || len(ev.WidgetOrigins) == 0 {
		return
	}
	h := c.Response().Header()
	h.Set("Content-Security-Policy", strings.Replace(s.csp, "frame-ancestors 'none'", "frame-ancestors "+strings.Join(ev.WidgetOrigins, " "), 1))
	h.Del("X-Frame-Options")
}

// framedRoute reports whether route (a pattern, such as /embed/e/:code) is one of the widget's
// pages, whose security headers frameAncestors narrows: the cached pages' fast path leaves them to
// Echo's chain.
func framedRoute(route string) bool {
	switch route {
	case embedEventPath, embedBuyPath, embedOrderPath:
		return true
	}
	return false
}

// framedEvent returns the event of a page other sites may frame, or nil for any other page (or
// an unknown event, ticket type or order).
func (s *Server) framedEvent(c *echo.Context) *palaro.Event {
	ctx := c.Request().Context()
	switch c.Path() {
	case embedEventPath:
		if ev, err := s.services.Events.FindEventByCode(ctx, c.Param("code")); err == nil {
			return ev
		}
	case embedBuyPath:
		if _, ev, err := s.findTicketType(c); err == nil {
			return ev
		}
	case embedOrderPath:
		if o, err := s.services.Purchases.FindOrderByPublicID(ctx, c.Param("id")); err == nil {
			return o.Event
		}
	}
	return nil
}

// widgetJS serves /embed/widget.js (static/js/widget.js), the script snippet's file: it puts the
// widget's iframe after its own <script> tag and opens the buy flow in an overlay on the
// organizer's page. It is the same bytes for every event.
func (s *Server) widgetJS(c *echo.Context) error {
	data, err := s.assets.Read("js/widget.js")
	if err != nil {
		return err
	}
	c.Response().Header().Set(echo.HeaderCacheControl, "public, max-age=3600")
	return c.Blob(http.StatusOK, "text/javascript; charset=utf-8", data)
}
