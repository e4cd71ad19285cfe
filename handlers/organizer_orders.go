package handlers

import (
	"net/http"
	"strconv"
	"strings"

	"github.com/labstack/echo/v5"

	"palaro"
	"palaro/views"
)

// orderRow is an order as the console's lists show it.
func orderRow(base string, o *palaro.Order) views.OrgOrderRow {
	row := views.OrgOrderRow{Href: base + "/orders/" + o.PublicID, ID: o.PublicID, When: manilaTime(o.CreatedAt), Email: o.Email,
		Total: o.Total.Display(), Status: o.Status}
	if o.TicketType != nil {
		row.Item = strconv.Itoa(o.Quantity) + " × " + o.TicketType.Name
	}
	if o.Kind == palaro.OrderKindAddOns {
		row.Item = palaro.Plural(len(o.AddOns), "add-on", "add-ons")
	}
	for _, t := range o.Tickets {
		row.Tickets = append(row.Tickets, t.Code)
	}
	return row
}

func (s *Server) orgOrderPage(c *echo.Context, caller *palaro.Caller) error {
	return s.renderOrgOrder(c, caller, c.Param("order"), nil, "")
}

// renderOrgOrder renders an order's page; errTicket names the ticket whose e-mail change failed with err.
func (s *Server) renderOrgOrder(c *echo.Context, caller *palaro.Caller, orderID string, err error, errTicket string) error {
	ev, evErr := s.orgEvent(c, caller)
	if evErr != nil {
		return evErr
	}
	o, oErr := s.services.Organizers.FindOrder(c.Request().Context(), ev.ID, orderID)
	if oErr != nil {
		return oErr
	}
	base := "/organizer/events/" + ev.Code
	href := base + "/orders/" + o.PublicID
	v := views.OrgOrderView{Frame: orgFrame(c, caller, "Order "+o.PublicID), Status: o.Status}
	v.Frame.Back = views.Link{Label: "Orders", Href: base + "/orders"}
	if errTicket == "" {
		v.Error = formError(err)
	}
	b := o.Buyer
	name := strings.TrimSpace(cmpStr(b.FullName, b.FirstName+" "+b.LastName))
	item := ""
	if o.TicketType != nil {
		item = strconv.Itoa(o.Quantity) + " × " + o.TicketType.Name
	}
	v.Facts = [][2]string{{"E-mail", o.Email}, {"Buyer", name}, {"Mobile", b.MobileNumber}, {"Item", item},
		{"Seats", strings.Join(o.Seats, ", ")}, {"Total", o.Total.Display()}, {"Promo code", o.PromoCode},
		{"Source", o.Source}, {"Payment", strings.TrimSpace(o.PaymentType + " " + o.Provider)},
		{"Created", manilaTime(o.CreatedAt)}, {"Paid", manilaTime(o.PaidAt)}}
	if o.Status == palaro.OrderPaid && len(o.Tickets) > 0 {
		v.Actions = append(v.Actions, views.OrgAction{Label: "Send the tickets e-mail again", Action: href + "/resend", Secondary: true})
	}
	if o.Status == palaro.OrderRefund {
		v.Actions = append(v.Actions, views.OrgAction{Label: "Mark refunded", Action: href + "/refunded"})
	}
	if o.Status == palaro.OrderPaid && o.Total > 0 {
		v.Actions = append(v.Actions, views.OrgAction{Label: "Mark refunded (cancels its tickets)", Action: href + "/refunded", Secondary: true})
	}
	for _, t := range o.Tickets {
		row := views.OrgTicketRow{Code: t.Code, Status: t.Status, Holder: t.HolderName, Email: t.Email, Seat: t.Seat}
		if t.Status == palaro.TicketValid && o.Kind == palaro.OrderKindTickets {
			row.EmailAction = base + "/tickets/" + t.Code + "/email?order=" + o.PublicID
			row.Cancel = &views.OrgAction{Label: "Cancel this ticket", Action: base + "/tickets/" + t.Code + "/cancel?order=" + o.PublicID, Secondary: true}
			if errTicket == t.Code {
				row.EmailError = palaro.ErrorMessage(err)
			}
		}
		v.Tickets = append(v.Tickets, row)
	}
	status := http.StatusOK
	if err != nil {
		status = statusOfForm(err)
	}
	return render(c, status, views.OrgOrder(s.orgPage(c, "Order "+o.PublicID), v))
}

func cmpStr(a, b string) string {
	if strings.TrimSpace(a) != "" {
		return a
	}
	return b
}

// orderRedirect goes back to the order page after an action, with a notice.
func orderRedirect(c *echo.Context, code, order, notice string) error {
	return c.Redirect(http.StatusSeeOther, "/organizer/events/"+code+"/orders/"+order+"?notice="+notice)
}

func (s *Server) orgResendTickets(c *echo.Context, caller *palaro.Caller) error {
	ev, err := s.orgEvent(c, caller)
	if err != nil {
		return err
	}
	if err := s.services.Organizers.ResendTickets(c.Request().Context(), ev.ID, c.Param("order"), caller.Actor()); err != nil {
		return err
	}
	return orderRedirect(c, ev.Code, c.Param("order"), "resent")
}

func (s *Server) orgMarkRefunded(c *echo.Context, caller *palaro.Caller) error {
	ev, err := s.orgEvent(c, caller)
	if err != nil {
		return err
	}
	ctx := c.Request().Context()
	o, err := s.services.Organizers.FindOrder(ctx, ev.ID, c.Param("order"))
	if err != nil {
		return err
	}
	if err := s.services.Organizers.MarkRefunded(ctx, ev.ID, o.PublicID, caller.Actor()); err != nil {
		return err
	}
	s.eventsChanged() // the capacity of a paid order's tickets is back on sale
	if o.Status == palaro.OrderPaid {
		return orderRedirect(c, ev.Code, o.PublicID, "refunded")
	}
	return c.Redirect(http.StatusSeeOther, "/organizer/events/"+ev.Code+"/refunds?notice=refunded")
}

func (s *Server) orgTicketEmail(c *echo.Context, caller *palaro.Caller) error {
	ev, err := s.orgEvent(c, caller)
	if err != nil {
		return err
	}
	err = s.services.Organizers.ChangeTicketEmail(c.Request().Context(), ev.ID, c.Param("ticket"), c.FormValue(palaro.FieldEmail), caller.Actor())
	order := c.QueryParam("order")
	if _, ok := userFacing(err); ok && palaro.ErrorCode(err) == palaro.EINVALID && order != "" {
		return s.renderOrgOrder(c, caller, order, err, c.Param("ticket"))
	} else if err != nil {
		return err
	}
	if order == "" {
		return c.Redirect(http.StatusSeeOther, "/organizer/events/"+ev.Code+"/orders?notice=saved")
	}
	return orderRedirect(c, ev.Code, order, "moved")
}

func (s *Server) orgCancelTicket(c *echo.Context, caller *palaro.Caller) error {
	ev, err := s.orgEvent(c, caller)
	if err != nil {
		return err
	}
	if err := s.services.Organizers.CancelTicket(c.Request().Context(), ev.ID, c.Param("ticket"), caller.Actor()); err != nil {
		return err
	}
	s.eventsChanged() // the place is on sale again
	if order := c.QueryParam("order"); order != "" {
		return orderRedirect(c, ev.Code, order, "cancelled")
	}
	return c.Redirect(http.StatusSeeOther, "/organizer/events/"+ev.Code+"/orders?notice=cancelled")
}

func (s *Server) orgRefundsPage(c *echo.Context, caller *palaro.Caller) error {
	ev, err := s.orgEvent(c, caller)
	if err != nil {
		return err
	}
	orders, err := s.services.Organizers.ListRefundQueue(c.Request().Context(), ev.ID)
	if err != nil {
		return err
	}
	base := "/organizer/events/" + ev.Code
	v := views.OrgRefundsView{Frame: eventFrame(c, caller, ev, "Refund queue · "+ev.Name)}
	for _, o := range orders {
		v.Orders = append(v.Orders, orderRow(base, o))
	}
	return render(c, http.StatusOK, views.OrgRefunds(s.orgPage(c, "Refund queue · "+ev.Name), v))
}
