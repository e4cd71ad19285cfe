package handlers

import (
	"context"
	"net"
	"net/http"
	"time"

	"github.com/labstack/echo/v5"

	"palaro"
)

// webhookJSON is a webhook endpoint as the organizer API answers it; Secret only when it is created.
type webhookJSON struct {
	ID        string    `json:"id"`
	URL       string    `json:"url"`
	Events    []string  `json:"events"`
	Secret    string    `json:"secret,omitempty"`
	Active    bool      `json:"active"`
	CreatedAt time.Time `json:"createdAt"`
}

func webhookOut(e *palaro.WebhookEndpoint) webhookJSON {
	return webhookJSON{ID: e.PublicID, URL: e.URL, Events: palaro.NonNilStrings(e.Events), Active: e.Active, CreatedAt: e.CreatedAt.In(palaro.Manila)}
}

// createWebhook saves an endpoint after checking its URL (the host resolves to public addresses
// only, unless Config.WebhookAllowPrivate), for the API and the console alike.
func (s *Server) createWebhook(ctx context.Context, orgID int64, url string, events []string, actor string) (*palaro.WebhookEndpoint, error) {
	if _, err := palaro.NormalizeWebhookEvents(events); err != nil {
		return nil, err
	}
	lookup, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	if _, err := palaro.CheckWebhookURL(lookup, net.DefaultResolver, url, s.config.WebhookAllowPrivate); err != nil {
		return nil, err
	}
	return s.services.Webhooks.CreateEndpoint(ctx, orgID, url, events, actor, s.Now())
}

// apiOrgWebhooks lists the endpoints of the caller's organizations (never their secrets).
func (s *Server) apiOrgWebhooks(c *echo.Context, caller *palaro.Caller) error {
	found, err := s.services.Webhooks.ListEndpoints(c.Request().Context(), caller.OrganizationIDs(palaro.ActionWebhooks))
	if err != nil {
		return err
	}
	out := make([]webhookJSON, 0, len(found))
	for _, e := range found {
		out = append(out, webhookOut(e))
	}
	return c.JSON(http.StatusOK, map[string]any{"webhooks": out})
}

// apiOrgCreateWebhook registers an endpoint: {"url", "events"} answers 201 with its secret, once.
func (s *Server) apiOrgCreateWebhook(c *echo.Context, caller *palaro.Caller) error {
	var in struct {
		URL    string   `json:"url"`
		Events []string `json:"events"`
		// Organization is the id of the organization, needed only by callers of several.
		Organization int64 `json:"organizationId"`
	}
	if err := decodeJSONStrict(c, &in); err != nil {
		return err
	}
	orgID, err := apiOrg(caller, in.Organization, palaro.ActionWebhooks)
	if err != nil {
		return err
	}
	e, err := s.createWebhook(c.Request().Context(), orgID, in.URL, in.Events, caller.Actor())
	if err != nil {
		return apiError(err)
	}
	out := webhookOut(e)
	out.Secret = e.Secret // shown this once
	return c.JSON(http.StatusCreated, out)
}

// apiOrgDeleteWebhook removes an endpoint and its deliveries.
func (s *Server) apiOrgDeleteWebhook(c *echo.Context, caller *palaro.Caller) error {
	if err := s.services.Webhooks.DeleteEndpoint(c.Request().Context(), caller.OrganizationIDs(palaro.ActionWebhooks), c.Param("id")); err != nil {
		return err
	}
	return c.NoContent(http.StatusNoContent)
}
