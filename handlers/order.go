package handlers

import (
	"fmt"
	"net/http"
	"strings"

	"github.com/labstack/echo/v5"

	"palaro"
	"palaro/views"
)

// orderPage renders /payment/success/{orderId}: the order's summary, totals and tickets. A paid
// add-on order sends the buyer on to its ticket's /change-ticket/success page.
func (s *Server) orderPage(c *echo.Context) error {
	o, err := s.services.Purchases.FindOrderByPublicID(c.Request().Context(), c.Param("id"))
	if err != nil {
		return err
	}
	addOns := o.Kind == palaro.OrderKindAddOns
	if addOns && o.Status == palaro.OrderPaid && len(o.Tickets) > 0 {
		// paid add-ons are on the ticket now: show it with them
		return c.Redirect(http.StatusSeeOther, palaro.ChangeTicketSuccessPath(o.Tickets[0].PublicID))
	}
	v, err := s.orderView(c, o)
	if err != nil {
		return err
	}
	p := s.privatePage(c, v.Heading)
	return render(c, http.StatusOK, views.OrderPage(p, v))
}

// orderView builds the view of an order's page.
func (s *Server) orderView(c *echo.Context, o *palaro.Order) (views.OrderView, error) {
	addOns := o.Kind == palaro.OrderKindAddOns
	v := views.OrderView{PublicID: o.PublicID, Email: o.Email, Total: o.Total.Display(), StatusText: orderStatusText(o.Status),
		Invoices: invoiceLinks(o)}
	if ev := o.Event; ev != nil {
		v.EventName, v.EventHref = ev.Name, "/e/"+ev.Code
		v.When, v.Place = formatWhen(ev.StartsAt, ev.EndsAt), ev.Venue.Name+", "+ev.Venue.City
	}
	if !addOns && o.TicketType != nil {
		v.Lines = append(v.Lines, views.LineView{Label: fmt.Sprintf("%s × %d", o.TicketType.Name, o.Quantity), Value: (o.UnitPrice * palaro.Money(o.Quantity)).Display()})
	}
	for _, a := range o.AddOns {
		label := a.Name
		if a.Count() > 1 {
			label = fmt.Sprintf("%s × %d", a.Name, a.Count())
		}
		v.Lines = append(v.Lines, views.LineView{Label: label, Value: (a.Price * palaro.Money(a.Count())).Display()})
	}
	if o.PromoDiscount > 0 {
		v.Lines = append(v.Lines, views.LineView{Label: "Promo " + o.PromoCode, Value: "-" + o.PromoDiscount.String()})
	}
	if o.SeniorPWDDiscount > 0 {
		v.Lines = append(v.Lines, views.LineView{Label: "Senior citizen / PWD discount", Value: "-" + o.SeniorPWDDiscount.String()})
	}
	switch o.Status {
	case palaro.OrderPaid:
		v.Heading, v.Message = "You're in!", "We sent your tickets to "+o.Email+". Open them on your phone at the gate: they work offline once opened."
		if addOns {
			v.Heading, v.Message = "Add-ons confirmed", "Your add-ons are on your ticket. Show its QR code at the booth to claim them."
		}
	case palaro.OrderPending:
		v.Pending = true
		if strings.HasPrefix(o.CheckoutURL, "https://") || strings.HasPrefix(o.CheckoutURL, s.config.BaseURL+"/") {
			v.PayHref = o.CheckoutURL // the buyer may come back here from 'You have an unpaid order waiting'
		}
		v.Heading, v.Message = "Waiting for your payment", "This page updates by itself when the payment is confirmed. It usually takes a few seconds."
		if o.PaymentFailed != "" {
			v.Heading, v.PayLabel = "Payment not completed", "Try again"
			v.Message = "Your " + palaro.PaymentMethodName(o.PaymentFailed) + " payment did not go through, and no money was taken. Your tickets are held until " +
				o.HoldExpiresAt.In(palaro.Manila).Format("3:04 PM") + ": you can try again."
		}
	case palaro.OrderExpired:
		v.Heading, v.Message = "Payment not completed", "Your order expired before the payment was confirmed, and its tickets were released."
		if o.TicketType != nil && !addOns {
			v.BackHref = "/b/" + o.TicketType.Code
		}
	case palaro.OrderRefund:
		v.Heading, v.Message = "Payment received too late", "The tickets sold out while your payment was on its way. Your payment will be refunded in full; our support team will contact you."
	case palaro.OrderRefunded:
		v.Heading, v.Message = "Order refunded", "This order was refunded, and its tickets are no longer valid."
	}
	if o.TicketType != nil && o.TicketType.TournamentID != 0 {
		entryFeeTexts(o, &v)
	}
	if o.Status != palaro.OrderPending && o.Status != palaro.OrderExpired {
		v.PaidWith = palaro.PaidWith(o.PaymentMethod, o.PaymentAccount)
	}
	for _, t := range o.Tickets {
		if t.Email != o.Email {
			continue // moved to another address: its link is that holder's now
		}
		v.Tickets = append(v.Tickets, s.ticketLink(&t, o.Event))
	}
	return v, s.orderReturns(c, o, &v)
}

// entryFeeTexts words the page of a tournament's entry-fee order: a team's registration, no ticket.
func entryFeeTexts(o *palaro.Order, v *views.OrderView) {
	switch o.Status {
	case palaro.OrderPaid:
		v.Heading, v.Message = "Entry fee paid", "We e-mailed your team's registration to "+o.Email+": its place, or its place on the waiting list, is on the team's page."
	case palaro.OrderPending:
		if o.PaymentFailed != "" {
			v.Message = "Your " + palaro.PaymentMethodName(o.PaymentFailed) + " payment did not go through, and no money was taken. You can try again until " +
				o.HoldExpiresAt.In(palaro.Manila).Format("3:04 PM") + "."
		}
	case palaro.OrderExpired:
		v.Message, v.BackHref = "The registration expired before its entry fee was paid: register the team again.", ""
	case palaro.OrderRefund:
		v.Heading, v.Message = "Entry fee refunded", "This entry fee is being refunded in full."
	case palaro.OrderRefunded:
		v.Message = "This entry fee was refunded."
	}
}

func orderStatusText(status string) string {
	switch status {
	case palaro.OrderPaid:
		return "Paid"
	case palaro.OrderPending:
		return "Waiting for payment"
	case palaro.OrderExpired:
		return "Expired"
	case palaro.OrderRefund:
		return "To be refunded"
	case palaro.OrderRefunded:
		return "Refunded"
	}
	return status
}
