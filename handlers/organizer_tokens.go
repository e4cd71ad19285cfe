package handlers

import (
	"net/http"
	"strconv"
	"strings"

	"github.com/labstack/echo/v5"

	"palaro"
	"palaro/views"
)

func tokenForm(caller *palaro.Caller, name, role string, orgID int64, err error) views.OrgForm {
	roles := views.OrgSelect{Name: palaro.FieldRole, Label: "Role", Error: fieldError(err, palaro.FieldRole), Options: []views.SelectOption{
		{Value: palaro.MemberManager, Label: "manager: events, ticket types, orders and exports", Selected: role != palaro.MemberGate},
		{Value: palaro.MemberGate, Label: "gate: check-in only", Selected: role == palaro.MemberGate}}}
	sec := views.OrgFormSection{Fields: []views.FormField{{Name: palaro.FieldName, Label: "Name (what the token is for)", Type: "text",
		Value: name, MaxLength: 100, Error: fieldError(err, palaro.FieldName)}}, Selects: []views.OrgSelect{roles}}
	sec.Selects = append(sec.Selects, orgSelect(caller, palaro.ActionTokens, orgID)...)
	return views.OrgForm{Action: "/organizer/tokens", Submit: "Create token", Error: formError(err), Sections: []views.OrgFormSection{sec}}
}

func (s *Server) renderTokens(c *echo.Context, caller *palaro.Caller, secret string, form views.OrgForm, status int) error {
	tokens, err := s.services.Organizers.ListTokens(c.Request().Context(), caller.OrganizationIDs(palaro.ActionTokens))
	if err != nil {
		return err
	}
	v := views.OrgTokensView{Frame: orgFrame(c, caller, "API tokens"), Secret: secret, Form: form,
		APIBase: strings.TrimRight(s.config.BaseURL, "/") + "/v1/organizer"}
	for _, t := range tokens {
		used := ""
		if !t.LastUsedAt.IsZero() {
			used = manilaTime(t.LastUsedAt)
		}
		id := strconv.FormatInt(t.ID, 10)
		v.Tokens = append(v.Tokens, views.OrgTokenRow{ID: id, Name: cmpName(t.Name), Organization: t.OrganizationName,
			Role: t.Role, Created: manilaTime(t.CreatedAt) + " by " + t.CreatedBy, LastUsed: used, Revoked: !t.RevokedAt.IsZero(),
			RevokeAction: "/organizer/tokens/" + id + "/revoke"})
	}
	return render(c, status, views.OrgTokens(s.orgPage(c, "API tokens"), v))
}

func cmpName(name string) string {
	if name == "" {
		return "Unnamed token"
	}
	return name
}

func (s *Server) orgTokensPage(c *echo.Context, caller *palaro.Caller) error {
	return s.renderTokens(c, caller, "", tokenForm(caller, "", palaro.MemberManager, 0, nil), http.StatusOK)
}

func (s *Server) orgCreateToken(c *echo.Context, caller *palaro.Caller) error {
	name, role := c.FormValue(palaro.FieldName), c.FormValue(palaro.FieldRole)
	orgID, err := chosenOrg(c, caller, palaro.ActionTokens)
	if err != nil {
		return err
	}
	secret, _, err := s.services.Organizers.CreateToken(c.Request().Context(), orgID, role, name, caller.Actor(), caller.UserID)
	if _, ok := userFacing(err); ok {
		return s.renderTokens(c, caller, "", tokenForm(caller, name, role, orgID, err), statusOfForm(err))
	} else if err != nil {
		return err
	}
	// The secret is shown on this answer only; it is never stored.
	return s.renderTokens(c, caller, secret, tokenForm(caller, "", palaro.MemberManager, orgID, nil), http.StatusOK)
}

func (s *Server) orgRevokeToken(c *echo.Context, caller *palaro.Caller) error {
	id, _ := strconv.ParseInt(c.Param("id"), 10, 64)
	if err := s.services.Organizers.RevokeToken(c.Request().Context(), caller.OrganizationIDs(palaro.ActionTokens), id); err != nil {
		return err
	}
	return c.Redirect(http.StatusSeeOther, "/organizer/tokens?notice=revoked")
}
