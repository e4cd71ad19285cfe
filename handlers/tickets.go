package handlers

import (
	"net/http"

	"github.com/labstack/echo/v5"

	"palaro"
	"palaro/views"
)

// ticketsPage renders /tickets: anonymous visitors enter their e-mail address and receive a link
// to their tickets (POST), which opens /tickets/{token}.
func (s *Server) ticketsPage(c *echo.Context) error {
	v := views.TicketsView{CSRF: csrfToken(c)}
	if u := currentUser(c); u != nil && c.Request().Method == http.MethodGet {
		if u.Status == palaro.AccountActive {
			return s.accountTickets(c, u)
		}
		v.Unconfirmed, v.Email = true, u.Email
		if c.QueryParam("activation") == "sent" {
			v.ActivationSent = "We sent a new activation link to " + u.Email + ". Open it to see your tickets here."
		}
	}
	status := http.StatusOK
	if c.Request().Method == http.MethodPost {
		v.Email = palaro.NormalizeEmail(c.FormValue("email"))
		err := s.throttleMail(c, mailRecipient(v.Email))
		if err == nil {
			err = s.services.Purchases.SendTicketsLink(c.Request().Context(), v.Email, s.Now())
		}
		switch {
		case err == nil:
			return c.Redirect(http.StatusSeeOther, "/tickets?sent=1")
		case palaro.ErrorCode(err) == palaro.EINVALID:
			v.Error, status = palaro.ErrorMessage(err), http.StatusBadRequest
		case palaro.ErrorCode(err) == palaro.ETOOMANY:
			v.Error, status = palaro.ErrorMessage(err), http.StatusTooManyRequests
		default:
			return err
		}
	}
	if c.QueryParam("sent") == "1" {
		v.Sent = "If that address has tickets, a link to them is on its way. Check your inbox."
	}
	p := s.page(c, "My tickets · Palaro", "Get a link to your Palaro tickets by e-mail.")
	return render(c, status, views.TicketsPage(p, v))
}

// accountTickets renders a signed-in visitor's /tickets: the tickets bought with their confirmed
// e-mail address, upcoming first, then those of events that have ended.
func (s *Server) accountTickets(c *echo.Context, u *palaro.User) error {
	tickets, err := s.services.Purchases.ListTicketsByEmail(c.Request().Context(), u.Email)
	if err != nil {
		return err
	}
	now := s.Now()
	v := views.TicketsView{Email: u.Email, Listed: true, Account: true}
	for _, t := range tickets {
		if t.Event != nil && t.Event.EndsAt.Before(now) {
			v.Past = append(v.Past, s.ticketLink(t, nil))
		} else {
			v.Tickets = append(v.Tickets, s.ticketLink(t, nil))
		}
	}
	return render(c, http.StatusOK, views.TicketsPage(s.privatePage(c, "My tickets"), v))
}

// ticketsByLinkPage renders /tickets/{token}: the tickets of the address a tickets link was sent to.
func (s *Server) ticketsByLinkPage(c *echo.Context) error {
	email, tickets, err := s.services.Purchases.TicketsByLink(c.Request().Context(), c.Param("token"), s.Now())
	if err != nil {
		return err
	}
	v := views.TicketsView{Email: email, Listed: true}
	for _, t := range tickets {
		v.Tickets = append(v.Tickets, s.ticketLink(t, nil))
	}
	p := s.privatePage(c, "My tickets")
	return render(c, http.StatusOK, views.TicketsPage(p, v))
}

// serviceWorker serves the service worker that keeps opened tickets working offline, from the
// site's root so that its scope covers /t/ and /q/.
func (s *Server) serviceWorker(c *echo.Context) error {
	data, err := s.assets.Read("js/sw.js")
	if err != nil {
		return err
	}
	h := c.Response().Header()
	h.Set("Cache-Control", "no-cache")
	h.Set("Service-Worker-Allowed", "/")
	return c.Blob(http.StatusOK, "text/javascript; charset=utf-8", data)
}
