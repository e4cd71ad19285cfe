package handlers

import (
	"net/http"
	"strings"

	"github.com/labstack/echo/v5"

	"palaro"
	"palaro/views"
)

func (s *Server) orgWidgetPage(c *echo.Context, caller *palaro.Caller) error {
	ev, err := s.orgEvent(c, caller)
	if err != nil {
		return err
	}
	return s.renderOrgWidget(c, caller, ev, strings.Join(ev.WidgetOrigins, "\n"), nil, http.StatusOK)
}

// renderOrgWidget renders the console's widget page with the sites as typed and a refused form's err.
func (s *Server) renderOrgWidget(c *echo.Context, caller *palaro.Caller, ev *palaro.Event, origins string, err error, status int) error {
	v := views.OrgWidgetView{Frame: eventFrame(c, caller, ev, "Widget · "+ev.Name), Framable: len(ev.WidgetOrigins) > 0,
		IframeSnippet: widgetSnippet(s.config.BaseURL, ev, "")}
	v.ScriptSnippet = `<script src="` + s.config.BaseURL + `/embed/widget.js" data-event="` + ev.Code + `" async></script>`
	if len(ev.TicketTypes) > 0 {
		v.TypeSnippet = widgetSnippet(s.config.BaseURL, ev, ev.TicketTypes[0].Code)
	}
	v.Form = views.OrgForm{Action: "/organizer/events/" + ev.Code + "/widget", Submit: "Save", Error: formError(err),
		Sections: []views.OrgFormSection{{Title: "Sites that may show the widget", Fields: []views.FormField{withHint(views.FormField{
			Name: palaro.FieldWidgetOrigins, Label: "Your sites", Type: "textarea", Value: origins, MaxLength: 1000,
			Error: fieldError(err, palaro.FieldWidgetOrigins)},
			"One per line, such as https://mysite.ph: https only, no path. Empty: no site may show it.")}}}}
	return render(c, status, views.OrgWidget(s.orgPage(c, "Widget · "+ev.Name), v))
}

// widgetSnippet is the iframe tag that shows the event's ticket widget on another site, of one
// ticket type when typeCode is not "".
func widgetSnippet(baseURL string, ev *palaro.Event, typeCode string) string {
	src := baseURL + "/embed/e/" + ev.Code
	if typeCode != "" {
		src += "?type=" + typeCode
	}
	return `<iframe src="` + src + `" title="Tickets: ` + strings.ReplaceAll(ev.Name, `"`, "&quot;") +
		`" width="100%" height="480" style="border:0; max-width:640px" loading="lazy"></iframe>`
}

func (s *Server) orgSaveWidget(c *echo.Context, caller *palaro.Caller) error {
	ev, err := s.orgEvent(c, caller)
	if err != nil {
		return err
	}
	typed := c.FormValue(palaro.FieldWidgetOrigins)
	origins, err := palaro.ParseWidgetOrigins(typed)
	if err == nil {
		err = s.services.Organizers.SaveWidgetOrigins(c.Request().Context(), ev.ID, caller.Actor(), origins, s.Now())
	}
	if _, ok := userFacing(err); ok {
		return s.renderOrgWidget(c, caller, ev, typed, err, http.StatusUnprocessableEntity)
	} else if err != nil {
		return err
	}
	s.eventsChanged()
	return c.Redirect(http.StatusSeeOther, "/organizer/events/"+ev.Code+"/widget?notice=widgetSaved")
}
