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
// and availability and a buy link each, which opens the buy page in a new tab. The page needs no
// cookie and no script, so it works in a frame with third-party cookies blocked; the purchase then
// happens on Palaro's own tab, where wallets that leave the page come back to.
func (s *Server) embedPage(c *echo.Context) error {
	ev, err := s.services.Events.FindEventByCode(c.Request().Context(), c.Param("code"))
	if err != nil {
		return err
	}
	now := s.Now()
	full := s.eventView(ev, now)
	v := views.EmbedView{Name: ev.Name, When: full.When, Venue: ev.Venue.Name + ", " + ev.Venue.City, Ended: full.Ended,
		EventURL: s.config.BaseURL + "/e/" + ev.Code}
	only := c.QueryParam("type")
	for _, t := range full.Tickets {
		if only != "" && t.Code != only {
			continue
		}
		t.BuyHref = s.config.BaseURL + t.BuyHref
		if t.WaitlistHref != "" {
			t.WaitlistHref = s.config.BaseURL + t.WaitlistHref
		}
		v.Tickets = append(v.Tickets, t)
	}
	if only != "" && len(v.Tickets) == 0 {
		return palaro.Errorf(palaro.ENOTFOUND, "This event has no such ticket type.")
	}
	p := s.page(c, "Tickets · "+ev.Name+" · Palaro", "")
	p.NoIndex, p.ShowNav = true, false
	return render(c, http.StatusOK, views.EmbedPage(p, v))
}

// frameAncestors narrows the security headers of a widget page to the sites its event lists:
// Content-Security-Policy frame-ancestors names them and X-Frame-Options goes. A widget whose
// event lists none (or no such event) keeps frame-ancestors 'none'. It runs before the page
// cache, so a cached widget gets the headers of its event as it is now.
func (s *Server) frameAncestors(c *echo.Context) {
	if c.Path() != embedEventPath {
		return
	}
	ev, err := s.services.Events.FindEventByCode(c.Request().Context(), c.Param("code"))
	if err != nil || len(ev.WidgetOrigins) == 0 {
		return
	}
	h := c.Response().Header()
	h.Set("Content-Security-Policy", strings.Replace(s.csp, "frame-ancestors 'none'", "frame-ancestors "+strings.Join(ev.WidgetOrigins, " "), 1))
	h.Del("X-Frame-Options")
}

// widgetScript is /embed/widget.js, the script snippet's file: it puts the widget's iframe after
// its own <script> tag, for the event (data-event) or one ticket type (data-type) the tag names,
// from the Palaro site the script itself came from. It is the same bytes for every event.
const widgetScript = `(function () {
  var s = document.currentScript;
  if (!s || !s.dataset.event) { return; }
  var src = new URL(s.src).origin + "/embed/e/" + encodeURIComponent(s.dataset.event);
  if (s.dataset.type) { src += "?type=" + encodeURIComponent(s.dataset.type); }
  var f = document.createElement("iframe");
  f.src = src;
  f.title = s.dataset.title || "Tickets";
  f.loading = "lazy";
  f.width = "100%";
  f.height = s.dataset.height || "480";
  f.style.border = "0";
  f.style.maxWidth = "640px";
  s.parentNode.insertBefore(f, s.nextSibling);
})();
`

// widgetJS serves /embed/widget.js (widgetScript).
func (s *Server) widgetJS(c *echo.Context) error {
	c.Response().Header().Set(echo.HeaderCacheControl, "public, max-age=3600")
	return c.Blob(http.StatusOK, "text/javascript; charset=utf-8", []byte(widgetScript))
}
