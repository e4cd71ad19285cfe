package handlers

import (
	"net/http"
	"slices"
	"strconv"
	"strings"

	"github.com/labstack/echo/v5"

	"palaro"
	"palaro/views"
)

// webhookNotices are the console's notices after a webhook action.
var webhookNotices = map[string]string{
	"webhook-removed": "The endpoint is removed; nothing more is sent to it.",
	"webhook-paused":  "The endpoint is paused: events are kept for it and sent when it is resumed.",
	"webhook-resumed": "The endpoint is active again.",
	"webhook-test":    "A test event is on its way; its delivery shows below in a few seconds.",
	"webhook-resent":  "The delivery is queued again, with the same event id.",
}

func webhookForm(caller *palaro.Caller, url string, events []string, orgID int64, err error) views.OrgForm {
	checks := views.OrgCheckGroup{Name: palaro.FieldWebhookEvents, Legend: "Events to send", Error: fieldError(err, palaro.FieldWebhookEvents)}
	for _, t := range palaro.WebhookEventTypes {
		checks.Options = append(checks.Options, views.SelectOption{Value: t, Label: t, Selected: len(events) == 0 || slices.Contains(events, t)})
	}
	sec := views.OrgFormSection{Fields: []views.FormField{{Name: palaro.FieldWebhookURL, Label: "URL (https://…)", Type: "url",
		Value: url, MaxLength: 500, Required: true, InputMode: "url", Error: fieldError(err, palaro.FieldWebhookURL)}},
		Checks: []views.OrgCheckGroup{checks}, Selects: orgSelect(caller, palaro.ActionWebhooks, orgID)}
	return views.OrgForm{Action: "/organizer/webhooks", Submit: "Add endpoint", Error: formError(err), Sections: []views.OrgFormSection{sec}}
}

// webhookRow is an endpoint as the console lists it, with its actions.
func webhookRow(e *palaro.WebhookEndpoint) views.OrgWebhookRow {
	base := "/organizer/webhooks/" + e.PublicID
	r := views.OrgWebhookRow{ID: e.PublicID, URL: e.URL, Events: strings.Join(e.Events, ", "), Status: "active",
		Created: manilaTime(e.CreatedAt), Href: base,
		Toggle: views.OrgAction{Label: "Pause", Action: base + "/active", Hidden: [][2]string{{"active", "0"}}, Secondary: true},
		Test:   views.OrgAction{Label: "Send a test event", Action: base + "/test", Secondary: true},
		Remove: views.OrgAction{Label: "Remove", Action: base + "/delete", Secondary: true}}
	if !e.Active {
		r.Status = "paused"
		r.Toggle = views.OrgAction{Label: "Resume", Action: base + "/active", Hidden: [][2]string{{"active", "1"}}}
	}
	if !e.FailingSince.IsZero() {
		r.Failing = manilaTime(e.FailingSince)
	}
	return r
}

func (s *Server) renderWebhooks(c *echo.Context, caller *palaro.Caller, secret string, form views.OrgForm, status int) error {
	found, err := s.services.Webhooks.ListEndpoints(c.Request().Context(), caller.OrganizationIDs(palaro.ActionWebhooks))
	if err != nil {
		return err
	}
	v := views.OrgWebhooksView{Frame: orgFrame(c, caller, "Webhooks"), Secret: secret, Form: form}
	for _, e := range found {
		v.Endpoints = append(v.Endpoints, webhookRow(e))
	}
	return render(c, status, views.OrgWebhooks(s.orgPage(c, "Webhooks"), v))
}

func (s *Server) orgWebhooksPage(c *echo.Context, caller *palaro.Caller) error {
	return s.renderWebhooks(c, caller, "", webhookForm(caller, "", nil, 0, nil), http.StatusOK)
}

func (s *Server) orgCreateWebhook(c *echo.Context, caller *palaro.Caller) error {
	orgID, err := chosenOrg(c, caller, palaro.ActionWebhooks)
	if err != nil {
		return err
	}
	url, events := c.FormValue(palaro.FieldWebhookURL), formValues(c, palaro.FieldWebhookEvents)
	e, err := s.createWebhook(c.Request().Context(), orgID, url, events, caller.Actor())
	if _, ok := userFacing(err); ok {
		return s.renderWebhooks(c, caller, "", webhookForm(caller, url, events, orgID, err), statusOfForm(err))
	} else if err != nil {
		return err
	}
	// The secret is shown on this answer only.
	return s.renderWebhooks(c, caller, e.Secret, webhookForm(caller, "", nil, orgID, nil), http.StatusOK)
}

// orgWebhook returns the caller's endpoint named by the route's :id.
func (s *Server) orgWebhook(c *echo.Context, caller *palaro.Caller) (*palaro.WebhookEndpoint, error) {
	return s.services.Webhooks.Endpoint(c.Request().Context(), caller.OrganizationIDs(palaro.ActionWebhooks), c.Param("id"))
}

func (s *Server) orgWebhookPage(c *echo.Context, caller *palaro.Caller) error {
	e, err := s.orgWebhook(c, caller)
	if err != nil {
		return err
	}
	deliveries, err := s.services.Webhooks.Deliveries(c.Request().Context(), e.ID, 50)
	if err != nil {
		return err
	}
	frame := orgFrame(c, caller, e.URL)
	frame.Back = views.Link{Label: "Webhooks", Href: "/organizer/webhooks"}
	v := views.OrgWebhookView{Frame: frame, Endpoint: webhookRow(e)}
	for _, d := range deliveries {
		row := views.OrgDeliveryRow{EventID: d.EventID, Type: d.Type, Status: d.Status, Attempts: palaro.Plural(d.Attempts, "attempt", "attempts"),
			Created: manilaTime(d.CreatedAt), Answer: "not tried yet",
			Resend: views.OrgAction{Label: "Send again", Action: "/organizer/webhooks/" + e.PublicID + "/deliveries/" +
				strconv.FormatInt(d.ID, 10) + "/resend", Secondary: true}}
		switch {
		case d.AnswerCode != 0:
			row.Answer = "answered " + strconv.Itoa(d.AnswerCode)
		case d.LastError != "":
			row.Answer = d.LastError
		}
		if !d.LastAttemptAt.IsZero() {
			row.Last = manilaTime(d.LastAttemptAt)
		}
		if d.Status == palaro.DeliveryPending && d.Attempts > 0 {
			row.Next = manilaTime(d.NextAttemptAt)
		}
		v.Deliveries = append(v.Deliveries, row)
	}
	return render(c, http.StatusOK, views.OrgWebhook(s.orgPage(c, "Webhook endpoint"), v))
}

func (s *Server) orgSetWebhookActive(c *echo.Context, caller *palaro.Caller) error {
	active := c.FormValue("active") == "1"
	if err := s.services.Webhooks.SetEndpointActive(c.Request().Context(), caller.OrganizationIDs(palaro.ActionWebhooks), c.Param("id"), active); err != nil {
		return err
	}
	notice := "webhook-paused"
	if active {
		notice = "webhook-resumed"
	}
	return c.Redirect(http.StatusSeeOther, "/organizer/webhooks?notice="+notice)
}

func (s *Server) orgDeleteWebhook(c *echo.Context, caller *palaro.Caller) error {
	if err := s.services.Webhooks.DeleteEndpoint(c.Request().Context(), caller.OrganizationIDs(palaro.ActionWebhooks), c.Param("id")); err != nil {
		return err
	}
	return c.Redirect(http.StatusSeeOther, "/organizer/webhooks?notice=webhook-removed")
}

func (s *Server) orgTestWebhook(c *echo.Context, caller *palaro.Caller) error {
	e, err := s.orgWebhook(c, caller)
	if err != nil {
		return err
	}
	if err := s.services.Webhooks.SendTest(c.Request().Context(), e.ID, s.Now()); err != nil {
		return err
	}
	return c.Redirect(http.StatusSeeOther, "/organizer/webhooks/"+e.PublicID+"?notice=webhook-test")
}

func (s *Server) orgRedeliverWebhook(c *echo.Context, caller *palaro.Caller) error {
	e, err := s.orgWebhook(c, caller)
	if err != nil {
		return err
	}
	id, _ := strconv.ParseInt(c.Param("delivery"), 10, 64)
	if err := s.services.Webhooks.Redeliver(c.Request().Context(), e.ID, id, s.Now()); err != nil {
		return err
	}
	return c.Redirect(http.StatusSeeOther, "/organizer/webhooks/"+e.PublicID+"?notice=webhook-resent")
}
