package handlers

import (
	"context"
	"errors"
	"io"
	"net/http"

	"github.com/labstack/echo/v5"

	"palaro"
	"palaro/payment"
)

// startCheckout creates the provider's checkout for a pending order and records it; when the
// provider fails, the order's hold is released at once.
func (s *Server) startCheckout(ctx context.Context, order *palaro.Order) (string, error) {
	cancelPath := "/b/" + order.TicketType.Code
	if order.Kind == palaro.OrderKindAddOns && len(order.Tickets) > 0 {
		cancelPath = palaro.AddOnsPath(order.Tickets[0].PublicID)
	}
	return s.startCheckoutTo(ctx, order, cancelPath, "")
}

// startCheckoutTo is startCheckout with the pages the buyer comes back to: cancelPath, and
// successPath when it is not the order's page.
func (s *Server) startCheckoutTo(ctx context.Context, order *palaro.Order, cancelPath, successPath string) (string, error) {
	provider := s.services.Payments
	checkout := order.Checkout(s.config.BaseURL, cancelPath)
	if successPath != "" {
		checkout.SuccessURL = s.config.BaseURL + successPath
	}
	session, err := provider.CreateCheckout(ctx, checkout)
	if err == nil {
		err = s.services.Purchases.AttachCheckout(ctx, order.ID, provider.Name(), session)
	}
	if err != nil {
		if cErr := s.services.Purchases.CancelOrder(ctx, order.ID); cErr != nil {
			err = errors.Join(err, cErr)
		}
		s.logger.Error("checkout failed", "order", order.PublicID, "error", err)
		return "", palaro.Errorf(palaro.EINTERNAL, "Error occured. Please try again.")
	}
	return session.URL, nil
}

// maxWebhookBody is the largest webhook body read.
const maxWebhookBody = 1 << 20

// paymentWebhook handles POST /v1/payment/webhook/:provider: the provider verifies the signature
// and parses the event, then the order is settled, once however often the event arrives.
func (s *Server) paymentWebhook(c *echo.Context) error {
	provider := s.services.Payments
	if c.Param("provider") != provider.Name() {
		return palaro.Errorf(palaro.ENOTFOUND, "Unknown payment provider.")
	}
	body, err := io.ReadAll(io.LimitReader(c.Request().Body, maxWebhookBody))
	if err != nil {
		return err
	}
	ev, err := provider.ParseWebhook(c.Request().Header.Get(payment.SignatureHeader), body, s.Now())
	if err != nil {
		return err
	}
	order, err := s.services.Purchases.ConfirmPayment(c.Request().Context(), provider.Name(), provider.Live(), ev)
	switch palaro.ErrorCode(err) {
	case "":
	case palaro.ENOTFOUND:
		// not one of our checkout sessions (another app on the same account): recorded as refused,
		// and acknowledged so it is not retried
		s.logger.Warn("payment event refused", "provider", provider.Name(), "event", ev.ID, "reason", palaro.ErrorMessage(err))
		return c.JSON(http.StatusOK, apiResult{ResponseCode: http.StatusOK, Message: "No matching order."})
	case palaro.EINVALID:
		s.logger.Warn("payment event refused", "provider", provider.Name(), "event", ev.ID, "reason", palaro.ErrorMessage(err))
		return err
	default:
		return err
	}
	return c.JSON(http.StatusOK, apiResult{ResponseCode: http.StatusOK, Message: order.Status, OrderID: order.PublicID})
}
