package handlers

import (
	"net/http"
	"net/url"
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
		if o.TicketType.IsPass() {
			row.Date = palaro.PassRowLabel
		}
	}
	if o.Date != nil && o.Kind != palaro.OrderKindAddOns {
		row.Date = palaro.DateSlugLabel(o.Date.Slug)
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
	if o.Status == palaro.OrderRefunded && o.Free() {
		v.Status = "cancelled" // a free order whose tickets were all cancelled: nothing was given back
	}
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
		{"Source", o.Source}, {"Payment", strings.TrimSpace(o.PaymentType + " " + o.Provider)}, {"Paid with", palaro.PaidWith(o.PaymentMethod, o.PaymentAccount)},
		{"Created", manilaTime(o.CreatedAt)}, {"Paid", manilaTime(o.PaidAt)}}
	v.Invoices = invoiceLinks(o)
	v.Facts = append(v.Facts, discountFacts(o)...)
	if o.Status == palaro.OrderPaid && len(o.Tickets) > 0 {
		v.Actions = append(v.Actions, views.OrgAction{Label: "Send the tickets e-mail again", Action: href + "/resend", Secondary: true})
	}
	if o.Status == palaro.OrderRefund {
		v.Actions = append(v.Actions, views.OrgAction{Label: "Mark refunded", Action: href + "/refunded"})
	}
	if o.Status == palaro.OrderPaid && o.Total > 0 {
		v.Actions = append(v.Actions, views.OrgAction{Label: "Mark refunded (cancels its tickets)", Action: href + "/refunded", Secondary: true})
	}
	if o.Status == palaro.OrderRefund || (o.Status == palaro.OrderPaid && o.Total > 0) {
		v.Note = notRefundedNote
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
	if err := s.orderRefundsView(c, base, o, &v); err != nil {
		return err
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

// confirmed reports whether a destructive action's form came from its confirmation step.
func confirmed(c *echo.Context) bool { return c.FormValue("confirm") == "yes" }

// confirmHidden is the hidden field of a confirmation step's button.
var confirmHidden = [][2]string{{"confirm", "yes"}}

// renderConfirm renders the confirmation step of a destructive console action.
func (s *Server) renderConfirm(c *echo.Context, caller *palaro.Caller, question string, lines []string, confirm views.OrgAction, keep views.Link) error {
	v := views.OrgConfirmView{Frame: orgFrame(c, caller, question), Lines: lines, Confirm: confirm, Keep: keep}
	return render(c, http.StatusOK, views.OrgConfirm(s.orgPage(c, question), v))
}

// notRefundedNote says what 'Mark refunded' does not do, until refunds go through the payment provider.
const notRefundedNote = "With 'Mark refunded', Palaro does not return the money: it records a refund you made yourself " +
	"(through the payment provider's dashboard or by bank transfer). To give the money back through the payment provider, use Refund below."

// orgMarkRefunded marks an order refunded once confirmed; the first tap shows the confirmation step.
func (s *Server) orgMarkRefunded(c *echo.Context, caller *palaro.Caller) error {
	ev, o, err := s.orgOrder(c, caller)
	if err != nil {
		return err
	}
	ctx := c.Request().Context()
	if !confirmed(c) {
		href := "/organizer/events/" + ev.Code + "/orders/" + o.PublicID
		lines := []string{"Order " + o.PublicID + " of " + o.Email + ", " + o.Total.Display() + "."}
		if o.Status == palaro.OrderPaid {
			lines = append(lines, "Its "+palaro.Plural(len(o.Tickets), "ticket is", "tickets are")+" cancelled at once: they no longer admit anyone, "+
				"and their places go back on sale. This cannot be undone.")
		} else {
			lines = append(lines, "It leaves the refund queue. This cannot be undone.")
		}
		lines = append(lines, notRefundedNote, "The buyer is told by e-mail.")
		return s.renderConfirm(c, caller, "Mark this order refunded?", lines,
			views.OrgAction{Label: "Mark refunded", Action: href + "/refunded", Hidden: confirmHidden},
			views.Link{Label: "Keep the order as it is", Href: href})
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

// orgCancelTicket cancels a ticket once confirmed; the first tap shows the confirmation step.
func (s *Server) orgCancelTicket(c *echo.Context, caller *palaro.Caller) error {
	ev, err := s.orgEvent(c, caller)
	if err != nil {
		return err
	}
	ctx := c.Request().Context()
	code, order := c.Param("ticket"), c.QueryParam("order")
	if !confirmed(c) {
		base := "/organizer/events/" + ev.Code
		keep := views.Link{Label: "Keep the ticket", Href: base + "/orders"}
		lines := []string{"It no longer admits anyone at the gate, and its place goes back on sale. This cannot be undone."}
		action := base + "/tickets/" + url.PathEscape(code) + "/cancel"
		if order != "" {
			o, err := s.services.Organizers.FindOrder(ctx, ev.ID, order)
			if err != nil {
				return err
			}
			keep.Href, action = base+"/orders/"+o.PublicID, action+"?order="+url.QueryEscape(o.PublicID)
			valid, holder := 0, ""
			for _, t := range o.Tickets {
				if t.Status == palaro.TicketValid || t.Status == palaro.TicketCheckedIn {
					valid++
				}
				if strings.EqualFold(t.Code, code) {
					holder = t.Email
				}
			}
			if o.Status == palaro.OrderPaid && valid == 1 && !o.Free() {
				lines = append(lines, "It is the order's last ticket: the order moves to the refund queue.")
			}
			switch {
			case holder != "" && holder != o.Email:
				lines = append(lines, "Its holder, "+holder+", and its buyer, "+o.Email+", are told by e-mail.")
			case holder != "":
				lines = append(lines, "Its holder, "+holder+", is told by e-mail.")
			}
		}
		lines = append(lines, "Cancelling does not return the money: refund the buyer yourself if a refund is due.")
		return s.renderConfirm(c, caller, "Cancel ticket "+code+"?", lines,
			views.OrgAction{Label: "Cancel ticket " + code, Action: action, Hidden: confirmHidden}, keep)
	}
	if err := s.services.Organizers.CancelTicket(ctx, ev.ID, code, caller.Actor()); err != nil {
		return err
	}
	s.eventsChanged() // the place is on sale again
	if order != "" {
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
	if v.All, err = s.refundAllView(c, ev); err != nil {
		return err
	}
	dates, err := s.services.Refunds.DateRefunds(c.Request().Context(), ev.ID)
	if err != nil {
		return err
	}
	for _, d := range dates {
		line := d.Date.Cancelled(ev.Name) + ": " +
			palaro.Plural(d.Refunds, "refund", "refunds") + " (" + d.Amount.Display() + "), " + strconv.Itoa(d.Refunded) + " done"
		if d.Pending > 0 {
			line += ", " + strconv.Itoa(d.Pending) + " pending"
		}
		if d.Failed > 0 {
			line += ", " + strconv.Itoa(d.Failed) + " failed: open the order to see why and try again"
		}
		v.Dates = append(v.Dates, line+".")
	}
	for _, o := range orders {
		v.Orders = append(v.Orders, orderRow(base, o))
	}
	return render(c, http.StatusOK, views.OrgRefunds(s.orgPage(c, "Refund queue · "+ev.Name), v))
}
