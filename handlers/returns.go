package handlers

import (
	"context"
	"fmt"
	"net/http"
	"time"

	"github.com/labstack/echo/v5"

	"palaro"
	"palaro/views"
)

// selfCancelPath is the confirmation page where a buyer cancels their order.
func selfCancelPath(orderPublicID string) string { return palaro.OrderPath(orderPublicID) + "/cancel" }

// returnPath is the form that returns a ticket of an order at face value.
func returnPath(orderPublicID, ticketPublicID string) string {
	return palaro.OrderPath(orderPublicID) + "/return/" + ticketPublicID
}

// cancelTimeFormat is how the self-cancel deadline is shown (Manila time).
const cancelTimeFormat = "Mon 2 Jan 2006, 3:04 PM"

// refundStatusWords says where a refund stands, for the buyer.
func refundStatusWords(status string) string {
	switch status {
	case palaro.RefundRefunded:
		return "refunded"
	case palaro.RefundFailed:
		return "not through yet: the organizer will contact you"
	}
	return "on its way"
}

// orderReturns builds the order page's block for a buyer who cannot go (and, once they cancelled,
// the page's heading): the self-cancel link while the organizer allows it, each ticket's return
// button or its return's state, and the refunds written by either.
func (s *Server) orderReturns(c *echo.Context, o *palaro.Order, v *views.OrderView) error {
	if o.Kind != palaro.OrderKindTickets || o.Total <= 0 || (o.Status != palaro.OrderPaid && o.Status != palaro.OrderRefunded) {
		return nil
	}
	ctx, now := c.Request().Context(), s.Now()
	refunds, err := s.services.Returns.OrderRefunds(ctx, o.PublicID)
	if err != nil {
		return err
	}
	for _, r := range refunds {
		if r.Reason == palaro.RefundBuyerCancelled {
			v.Heading, v.Message = "Order cancelled", "You cancelled this order; its tickets no longer admit anyone at the gate."
			v.Returns.Refunds = append(v.Returns.Refunds, fmt.Sprintf("Refund of %s (the organizer kept %s as their fee): %s.",
				r.Amount, r.Fee, refundStatusWords(r.Status)))
		}
	}
	q, err := s.services.Returns.QuoteSelfCancel(ctx, o.PublicID, now)
	if err != nil {
		return err
	}
	if q.Allowed {
		v.Returns.CancelHref = selfCancelPath(o.PublicID)
		v.Returns.CancelNote = fmt.Sprintf("You can cancel this order until %s and get %s back; the organizer keeps %s.",
			q.Deadline.In(palaro.Manila).Format(cancelTimeFormat), q.Refund, q.Fee)
	}
	returns, err := s.services.Returns.OrderReturns(ctx, o.PublicID)
	if err != nil {
		return err
	}
	latest := map[int64]palaro.TicketReturn{}
	for _, r := range returns { // newest first: the first one of a ticket is its state
		if _, seen := latest[r.TicketID]; !seen {
			latest[r.TicketID] = r
		}
	}
	ev := o.Event
	open := o.Status == palaro.OrderPaid && ev != nil && ev.Status != palaro.EventCancelled && now.Before(ev.StartsAt) &&
		(o.TicketType == nil || o.TicketType.SalesEnd.IsZero() || now.Before(o.TicketType.SalesEnd))
	for _, t := range o.Tickets {
		if t.Email != o.Email {
			continue // moved to someone else: theirs to deal with
		}
		row := views.ReturnTicketView{Code: t.Code, Title: t.TicketType.Name}
		r, returned := latest[t.ID]
		switch {
		case returned && r.Status == palaro.ReturnOpen:
			row.State = fmt.Sprintf("Returned: on sale again. You get %s back once someone buys it.", r.Amount)
			row.WithdrawAction = returnPath(o.PublicID, t.PublicID) + "/withdraw"
		case returned && r.Status == palaro.ReturnSold:
			row.State = fmt.Sprintf("Bought by someone else. Your refund of %s: %s.", r.Amount, refundStatusWords(r.RefundStatus))
		case returned && r.Status == palaro.ReturnRefunded:
			row.State = fmt.Sprintf("Refunded with your order before anyone bought it. Your refund of %s: %s.", r.Amount, refundStatusWords(r.RefundStatus))
		case open && t.Status == palaro.TicketValid && t.Seat == "":
			row.ReturnAction = returnPath(o.PublicID, t.PublicID)
		default:
			continue
		}
		v.Returns.Tickets = append(v.Returns.Tickets, row)
	}
	return nil
}

// selfCancelPage serves /payment/success/{orderId}/cancel: GET states what the buyer gets back and
// the fee kept, POST cancels the order and goes back to its page.
func (s *Server) selfCancelPage(c *echo.Context) error {
	ctx, id := c.Request().Context(), c.Param("id")
	o, err := s.services.Purchases.FindOrderByPublicID(ctx, id)
	if err != nil {
		return err
	}
	status, problem := http.StatusOK, ""
	if c.Request().Method == http.MethodPost {
		_, err := s.services.Returns.SelfCancel(ctx, o.PublicID, s.Now())
		if err == nil {
			s.eventsChanged() // the tickets are back on sale
			return c.Redirect(http.StatusSeeOther, palaro.OrderPath(o.PublicID))
		}
		if palaro.ErrorCode(err) != palaro.ECONFLICT {
			return err
		}
		status, problem = http.StatusConflict, palaro.ErrorMessage(err)
	}
	q, err := s.services.Returns.QuoteSelfCancel(ctx, o.PublicID, s.Now())
	if err != nil {
		return err
	}
	v := views.SelfCancelView{OrderHref: palaro.OrderPath(o.PublicID), Heading: "Cancel your order?", Error: problem}
	if o.Event != nil {
		v.EventName = o.Event.Name
	}
	if !q.Allowed {
		v.Heading = "This order cannot be cancelled"
		if v.Error == "" {
			v.Error = q.Reason
		}
	} else {
		v.Rows = [][2]string{{"Tickets to cancel", palaro.Tickets(q.Tickets)}, {"You paid for them", q.Paid.String()},
			{"Cancellation fee kept by the organizer", q.Fee.String()}, {"You get back", q.Refund.String()}}
		v.Action, v.Submit = selfCancelPath(o.PublicID), "Cancel my order and get "+q.Refund.String()+" back"
		v.Note = "The tickets stop working at once and cannot be restored. The refund goes back to the way you paid and can take a few days. You can cancel until " +
			q.Deadline.In(palaro.Manila).Format(cancelTimeFormat) + "."
	}
	p := s.privatePage(c, v.Heading)
	return render(c, status, views.SelfCancelPage(p, v))
}

// returnTicket returns a ticket of the order at face value and goes back to the order's page.
func (s *Server) returnTicket(c *echo.Context) error {
	return s.returnAction(c, s.services.Returns.ReturnTicket)
}

// withdrawReturn takes a returned ticket back while nobody is buying it.
func (s *Server) withdrawReturn(c *echo.Context) error {
	return s.returnAction(c, s.services.Returns.WithdrawReturn)
}

// returnAction runs a return's action on the request's order and ticket: done or refused (the
// page shows why), the buyer lands on the order's page.
func (s *Server) returnAction(c *echo.Context, act func(ctx context.Context, order, ticket string, now time.Time) error) error {
	id := c.Param("id")
	err := act(c.Request().Context(), id, c.Param("ticket"), s.Now())
	switch code := palaro.ErrorCode(err); {
	case err == nil:
		s.eventsChanged() // a place is back on sale, or taken back
	case code == palaro.ECONFLICT:
		o, ferr := s.services.Purchases.FindOrderByPublicID(c.Request().Context(), id)
		if ferr != nil {
			return ferr
		}
		v, rerr := s.orderView(c, o)
		if rerr != nil {
			return rerr
		}
		v.Message = palaro.ErrorMessage(err)
		return render(c, http.StatusConflict, views.OrderPage(s.privatePage(c, v.Heading), v))
	default:
		return err
	}
	return c.Redirect(http.StatusSeeOther, palaro.OrderPath(id)+"#order-returns")
}
