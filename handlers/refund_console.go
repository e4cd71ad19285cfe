package handlers

import (
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"

	"github.com/labstack/echo/v5"

	"palaro"
	"palaro/views"
)

// refundReasons are the refund reasons as the console says them.
var refundReasons = map[string]string{
	palaro.RefundByOrganizer: "refunded by the organizer", palaro.RefundEventCancelled: "event cancelled",
	palaro.RefundBuyerCancelled: "cancelled by the buyer", palaro.RefundReturnedTickets: "ticket returned",
	palaro.RefundDateCancelled: "date cancelled",
}

// orderRefundsView fills the order page's refunds and refund form, and shows each refunded
// ticket's refund state instead of "cancelled".
func (s *Server) orderRefundsView(c *echo.Context, base string, o *palaro.Order, v *views.OrgOrderView) error {
	byOrder, err := s.services.Refunds.OrderRefunds(c.Request().Context(), o.ID)
	if err != nil {
		return err
	}
	refunds := byOrder[o.ID]
	refunded := palaro.RefundedTicketStatuses(refunds) // the same ticket states as the API's
	for _, r := range refunds {
		rv := views.OrgRefundRow{ID: r.PublicID, Status: r.Status, Amount: r.Amount.Display(), Tickets: strings.Join(r.TicketCodes, ", "),
			Reason: refundReasons[r.Reason], When: manilaTime(r.CreatedAt), Failure: r.Failure}
		if o.Event != nil {
			rv.Reason = cmpStr(palaro.RefundWhy(o.Event.Name, r), rv.Reason)
		}
		if len(r.PassCodes) > 0 {
			rv.Tickets = strings.TrimPrefix(rv.Tickets+", part of pass "+strings.Join(r.PassCodes, ", ")+" (still valid)", ", ")
		}
		if r.Status == palaro.RefundFailed {
			rv.Retry = &views.OrgAction{Label: "Try the refund again", Action: base + "/refunds/" + r.PublicID + "/retry?order=" + url.QueryEscape(o.PublicID)}
		}
		v.Refunds = append(v.Refunds, rv)
	}
	for i, t := range v.Tickets {
		if status, ok := refunded[t.Code]; ok {
			v.Tickets[i].Status, v.Tickets[i].Cancel, v.Tickets[i].EmailAction = status, nil, ""
		}
	}
	if o.Total == 0 || (o.Status != palaro.OrderPaid && o.Status != palaro.OrderRefund) {
		return nil
	}
	form := &views.OrgRefundForm{Action: base + "/orders/" + o.PublicID + "/refund"}
	for _, t := range o.Tickets {
		if _, done := refunded[t.Code]; o.Kind == palaro.OrderKindTickets && !done {
			label := strings.TrimSpace(cmpStr(t.HolderName, t.Email))
			if t.Seat != "" {
				label += " · seat " + t.Seat
			}
			if t.Status == palaro.TicketCancelled {
				label += " · cancelled, not refunded"
			}
			form.Tickets = append(form.Tickets, views.OrgRefundChoice{Code: t.Code, Label: label})
		}
	}
	if len(form.Tickets) > 0 || (o.Kind == palaro.OrderKindAddOns && len(refunds) == 0) {
		v.Refund = form
	}
	return nil
}

// orgOrder returns the event of the route's :code (checked as orgEvent does) and its order of :order.
func (s *Server) orgOrder(c *echo.Context, caller *palaro.Caller) (*palaro.Event, *palaro.Order, error) {
	ev, err := s.orgEvent(c, caller)
	if err != nil {
		return nil, nil, err
	}
	o, err := s.services.Organizers.FindOrder(c.Request().Context(), ev.ID, c.Param("order"))
	return ev, o, err
}

// orgRefundOrder refunds the checked tickets of an order (the whole of an add-on order) once
// confirmed; the first tap shows the confirmation step.
func (s *Server) orgRefundOrder(c *echo.Context, caller *palaro.Caller) error {
	ev, o, err := s.orgOrder(c, caller)
	if err != nil {
		return err
	}
	ctx := c.Request().Context()
	form, err := c.FormValues()
	if err != nil {
		return err
	}
	codes := form["ticket"]
	if o.Kind == palaro.OrderKindTickets && len(codes) == 0 {
		return s.renderOrgOrder(c, caller, o.PublicID, palaro.Errorf(palaro.EINVALID, "Check at least one ticket to refund."), "")
	}
	href := "/organizer/events/" + ev.Code + "/orders/" + o.PublicID
	if !confirmed(c) {
		what := "The whole order"
		if len(codes) > 0 {
			what = palaro.Plural(len(codes), "ticket", "tickets") + " (" + strings.Join(codes, ", ") + ")"
		}
		lines := []string{what + " of order " + o.PublicID + " of " + o.Email + " (" + o.Total.Display() + " in all).",
			"What the buyer paid for " + map[bool]string{true: "it", false: "them"}[len(codes) == 1] +
				" goes back through the payment provider, the way they paid. Discounts and promo codes are taken into account.",
			map[bool]string{true: "The ticket is cancelled at once: it no longer admits anyone at the gate, and its place goes back on sale.",
				false: "The tickets are cancelled at once: they no longer admit anyone at the gate, and their places go back on sale."}[len(codes) == 1] +
				" This cannot be undone.",
			"The buyer is told by e-mail."}
		hidden := slices.Clone(confirmHidden)
		for _, code := range codes {
			hidden = append(hidden, [2]string{"ticket", code})
		}
		label := "Refund " + palaro.Plural(len(codes), "ticket", "tickets")
		if len(codes) == 0 {
			label = "Refund the order"
		}
		return s.renderConfirm(c, caller, "Refund order "+o.PublicID+"?", lines,
			views.OrgAction{Label: label, Action: href + "/refund", Hidden: hidden},
			views.Link{Label: "Keep the order as it is", Href: href})
	}
	if _, err := s.refundOrder(ctx, ev.ID, o.PublicID, codes, caller.Actor()); err != nil {
		return err
	}
	return orderRedirect(c, ev.Code, o.PublicID, "refund")
}

// orgRetryRefund sets a failed refund pending again and asks the gateway at once.
func (s *Server) orgRetryRefund(c *echo.Context, caller *palaro.Caller) error {
	ev, err := s.orgEvent(c, caller)
	if err != nil {
		return err
	}
	ctx := c.Request().Context()
	if err := s.services.Refunds.RetryRefund(ctx, ev.ID, c.Param("refund"), caller.Actor()); err != nil {
		return err
	}
	order := c.QueryParam("order")
	if o, err := s.services.Organizers.FindOrder(ctx, ev.ID, order); err == nil {
		if byOrder, err := s.services.Refunds.OrderRefunds(ctx, o.ID); err == nil {
			s.settleNow(ctx, byOrder[o.ID])
		}
		return orderRedirect(c, ev.Code, o.PublicID, "refund-retried")
	}
	return c.Redirect(http.StatusSeeOther, "/organizer/events/"+ev.Code+"/refunds?notice=refund-retried")
}

// refundAllView is the refund queue page's "refund every order" for the event.
func (s *Server) refundAllView(c *echo.Context, ev *palaro.Event) (views.OrgRefundAll, error) {
	var v views.OrgRefundAll
	p, err := s.services.Refunds.EventRefundProgress(c.Request().Context(), ev.ID)
	if err != nil {
		return v, err
	}
	switch {
	case p.Started.IsZero() && ev.Status != palaro.EventCancelled:
		v.Note = "Once the event is cancelled, every paid order can be refunded here in one go."
	case p.Started.IsZero():
		v.Note = "The event is cancelled. Refund every paid order through the payment provider: each buyer gets what they paid and an e-mail."
		v.Start = &views.OrgAction{Label: "Refund every order", Action: "/organizer/events/" + ev.Code + "/refund-all"}
	default:
		v.Max, v.Value = p.Orders+p.Left, p.Refunded
		v.Progress = strconv.Itoa(p.Refunded) + " of " + palaro.Plural(v.Max, "order", "orders") + " refunded"
		if p.Done() {
			v.Progress += " · done"
		}
		var parts []string
		if n := p.Pending + p.Left; n > 0 {
			parts = append(parts, palaro.Plural(n, "order is", "orders are")+" still being refunded (this page shows the progress when reloaded)")
		}
		if p.Failed > 0 {
			parts = append(parts, palaro.Plural(p.Failed, "refund", "refunds")+" failed: open the order to see why and try again")
		}
		v.Detail = strings.Join(parts, "; ")
	}
	return v, nil
}

// orgRefundAll starts the refund of every order of a cancelled event once confirmed; the first
// tap shows the confirmation step. The refund job does the work, a few orders at a time.
func (s *Server) orgRefundAll(c *echo.Context, caller *palaro.Caller) error {
	ev, err := s.orgEvent(c, caller)
	if err != nil {
		return err
	}
	base := "/organizer/events/" + ev.Code
	if !confirmed(c) {
		p, err := s.services.Refunds.EventRefundProgress(c.Request().Context(), ev.ID)
		if err != nil {
			return err
		}
		lines := []string{palaro.Plural(p.Left, "paid order is", "paid orders are") + " refunded through the payment provider, each in full (less what was refunded before).",
			"Their tickets are cancelled and each buyer is told by e-mail. The refunds go on in the background, even if the server restarts; the refund queue page shows how far they are.",
			"This cannot be undone."}
		return s.renderConfirm(c, caller, "Refund every order of "+ev.Name+"?", lines,
			views.OrgAction{Label: "Refund every order", Action: base + "/refund-all", Hidden: confirmHidden},
			views.Link{Label: "Not now", Href: base + "/refunds"})
	}
	if err := s.services.Refunds.RefundEvent(c.Request().Context(), ev.ID, caller.Actor()); err != nil {
		return err
	}
	return c.Redirect(http.StatusSeeOther, base+"/refunds?notice=refund-all")
}
