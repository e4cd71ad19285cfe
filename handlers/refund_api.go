package handlers

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"time"

	"github.com/labstack/echo/v5"

	"palaro"
)

// orgRefundJSON is a refund of an order in the organizer API.
type orgRefundJSON struct {
	ID      string       `json:"id"`
	Status  string       `json:"status"`
	Reason  string       `json:"reason"`
	Amount  palaro.Money `json:"amount"`
	Tickets []string     `json:"tickets"`
	// Passes are the pass tickets refunded in part for Date, a cancelled date of the series (its slug).
	Passes  []string `json:"passes,omitempty"`
	Date    string   `json:"date,omitempty"`
	Failure string   `json:"failure,omitempty"`
	// CreatedAt and DoneAt are Manila times; DoneAt is null while the refund is pending.
	CreatedAt time.Time  `json:"createdAt"`
	DoneAt    *time.Time `json:"doneAt"`
}

// applyRefunds shows an order's refunds in its API form: each refunded ticket's status becomes
// refund_pending, refunded or refund_failed (palaro.RefundedTicketStatuses), and the refunds are listed.
func applyRefunds(row *orgOrderJSON, refunds []palaro.Refund) {
	row.Refunds = []orgRefundJSON{}
	for _, r := range refunds {
		row.Refunds = append(row.Refunds, orgRefundJSON{ID: r.PublicID, Status: r.Status, Reason: r.Reason, Amount: r.Amount,
			Tickets: palaro.NonNilStrings(r.TicketCodes), Passes: r.PassCodes, Failure: r.Failure, CreatedAt: r.CreatedAt.In(palaro.Manila),
			DoneAt: manilaPtr(r.DoneAt)})
		if r.Date != nil {
			row.Refunds[len(row.Refunds)-1].Date = r.Date.Slug
		}
	}
	status := palaro.RefundedTicketStatuses(refunds)
	for i, t := range row.Tickets {
		if s, ok := status[t.Code]; ok {
			row.Tickets[i].Status = s
		}
	}
}

// refundRequestJSON is the body of POST /v1/organizer/orders/{orderId}/refund; no body, or no
// tickets, refunds the whole order.
type refundRequestJSON struct {
	Tickets []string `json:"tickets"`
}

// refundWait bounds how long a refund request waits for the gateway before it answers; a refund
// not settled by then stays pending for the refund job.
const refundWait = 10 * time.Second

// apiOrgRefund refunds an order, whole or some of its tickets, and answers the order as the
// orders search shows it. The gateway is asked at once (the sandbox confirms at once), so the
// answer shows the tickets refunded; asking again changes nothing.
func (s *Server) apiOrgRefund(c *echo.Context, caller *palaro.Caller) error {
	body, err := io.ReadAll(io.LimitReader(c.Request().Body, maxJSONBody+1))
	if err != nil {
		return err
	}
	var in refundRequestJSON
	if len(bytes.TrimSpace(body)) > 0 {
		c.Request().Body = io.NopCloser(bytes.NewReader(body))
		if err := decodeJSON(c, &in); err != nil {
			return err
		}
	}
	ctx := c.Request().Context()
	code, err := s.services.Refunds.OrderEvent(ctx, c.Param("order"))
	if err != nil {
		return err
	}
	ev, err := s.services.Organizers.FindEvent(ctx, code)
	if err != nil {
		return err
	}
	if err := caller.CheckEventAccess(ev.Organizer.ID, palaro.ActionOrders); err != nil {
		return err
	}
	row, err := s.refundOrder(ctx, ev.ID, c.Param("order"), in.Tickets, caller.Actor())
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, row)
}

// refundOrder asks for the refund of the tickets (all when none) of an order of the event, asks
// the gateway about its pending refunds (briefly) and returns the order as the API shows it.
func (s *Server) refundOrder(ctx context.Context, eventID int64, orderID string, codes []string, actor string) (orgOrderJSON, error) {
	refunds, err := s.services.Refunds.RequestRefund(ctx, eventID, orderID, codes, palaro.RefundByOrganizer, actor)
	if err != nil {
		return orgOrderJSON{}, err
	}
	s.eventsChanged() // the places are back on sale
	s.settleNow(ctx, refunds)
	o, err := s.services.Organizers.FindOrder(ctx, eventID, orderID)
	if err != nil {
		return orgOrderJSON{}, err
	}
	byOrder, err := s.services.Refunds.OrderRefunds(ctx, o.ID)
	if err != nil {
		return orgOrderJSON{}, err
	}
	row := orgOrderOf(o)
	applyRefunds(&row, byOrder[o.ID])
	return row, nil
}

// settleNow asks the gateway about the pending refunds among refunds, within refundWait; what it
// cannot settle now the refund job settles later.
func (s *Server) settleNow(ctx context.Context, refunds []palaro.Refund) {
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), refundWait)
	defer cancel()
	for _, r := range refunds {
		if r.Status != palaro.RefundPending {
			continue
		}
		if _, err := palaro.SettleRefund(ctx, s.services.Refunds, s.services.Payments, r, s.Now()); err != nil {
			s.logger.Warn("refund left to the job", "refund", r.PublicID, "error", err)
		}
	}
}
