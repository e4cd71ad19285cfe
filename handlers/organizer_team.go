package handlers

import (
	"net/http"
	"net/url"
	"strconv"

	"github.com/labstack/echo/v5"

	"palaro"
	"palaro/views"
)

// orgSelect is the organization choice of a form, for callers who may act in several.
func orgSelect(caller *palaro.Caller, action string, selected int64) []views.OrgSelect {
	if len(caller.OrganizationIDs(action)) < 2 {
		return nil
	}
	sel := views.OrgSelect{Name: "organization", Label: "Organization"}
	for _, m := range caller.Approved() {
		if palaro.RoleAllows(m.Role, action) {
			sel.Options = append(sel.Options, views.SelectOption{Value: strconv.FormatInt(m.OrganizationID, 10),
				Label: m.OrganizationName, Selected: m.OrganizationID == selected})
		}
	}
	return []views.OrgSelect{sel}
}

// chosenOrg returns the organization a form names (or the caller's only one for the action).
// Returns ENOTFOUND when the caller may not take the action there.
func chosenOrg(c *echo.Context, caller *palaro.Caller, action string) (int64, error) {
	orgID := caller.OrganizationIDs(action)[0]
	if v := c.FormValue("organization"); v != "" {
		orgID, _ = strconv.ParseInt(v, 10, 64)
	}
	if !caller.Can(orgID, action) {
		return 0, palaro.Errorf(palaro.ENOTFOUND, "Organization not found.")
	}
	return orgID, nil
}

func teamForm(caller *palaro.Caller, email, role string, orgID int64, err error) views.OrgForm {
	roles := views.OrgSelect{Name: palaro.FieldRole, Label: "Role", Error: fieldError(err, palaro.FieldRole)}
	for _, r := range []string{palaro.MemberManager, palaro.MemberGate, palaro.MemberBooth} {
		roles.Options = append(roles.Options, views.SelectOption{Value: r, Label: r, Selected: r == role})
	}
	sec := views.OrgFormSection{Fields: []views.FormField{emailField(email, fieldError(err, palaro.FieldEmail))},
		Selects: append([]views.OrgSelect{roles}, orgSelect(caller, palaro.ActionTeam, orgID)...)}
	return views.OrgForm{Action: "/organizer/team", Submit: "Send the invitation", Error: formError(err), Sections: []views.OrgFormSection{sec}}
}

func (s *Server) renderTeam(c *echo.Context, caller *palaro.Caller, form views.OrgForm, status int) error {
	members, invitations, err := s.services.Organizers.ListTeam(c.Request().Context(), caller.OrganizationIDs(palaro.ActionTeam))
	if err != nil {
		return err
	}
	v := views.OrgTeamView{Frame: orgFrame(c, caller, "Team"), Form: form}
	for _, m := range members {
		row := views.OrgMemberRow{Name: cmpStr(m.Name, m.Email), Email: m.Email, Role: m.Role, Organization: m.OrganizationName}
		if m.UserID != caller.UserID {
			row.Remove = &views.OrgAction{Label: "Remove from the team", Secondary: true,
				Action: "/organizer/team/" + strconv.FormatInt(m.OrganizationID, 10) + "/members/" + strconv.FormatInt(m.UserID, 10) + "/remove"}
		}
		v.Members = append(v.Members, row)
	}
	for _, i := range invitations {
		v.Invitations = append(v.Invitations, views.OrgMemberRow{Email: i.Email, Role: i.Role, Organization: i.OrganizationName,
			Name: "invited by " + i.InvitedBy + ", until " + manilaTime(i.ExpiresAt)})
	}
	return render(c, status, views.OrgTeam(s.orgPage(c, "Team"), v))
}

func (s *Server) orgTeamPage(c *echo.Context, caller *palaro.Caller) error {
	return s.renderTeam(c, caller, teamForm(caller, "", palaro.MemberManager, 0, nil), http.StatusOK)
}

func (s *Server) orgInvite(c *echo.Context, caller *palaro.Caller) error {
	orgID, err := chosenOrg(c, caller, palaro.ActionTeam)
	if err != nil {
		return err
	}
	email, role := c.FormValue(palaro.FieldEmail), c.FormValue(palaro.FieldRole)
	err = s.services.Organizers.Invite(c.Request().Context(), orgID, email, role, caller.Actor())
	if _, ok := userFacing(err); ok {
		return s.renderTeam(c, caller, teamForm(caller, email, role, orgID, err), statusOfForm(err))
	} else if err != nil {
		return err
	}
	return c.Redirect(http.StatusSeeOther, "/organizer/team?notice=invited")
}

func (s *Server) orgRemoveMember(c *echo.Context, caller *palaro.Caller) error {
	orgID, _ := strconv.ParseInt(c.Param("org"), 10, 64)
	userID, _ := strconv.ParseInt(c.Param("user"), 10, 64)
	if !caller.Can(orgID, palaro.ActionTeam) {
		return palaro.Errorf(palaro.ENOTFOUND, "Member not found.")
	}
	if err := s.services.Organizers.RemoveMember(c.Request().Context(), orgID, userID, caller.Actor()); err != nil {
		return err
	}
	return c.Redirect(http.StatusSeeOther, "/organizer/team?notice=removed")
}

// memberRoleLabels say what each role invited to a team does.
var memberRoleLabels = map[string]string{
	palaro.MemberManager: "manager (events, orders and the team's work)",
	palaro.MemberGate:    "gate staff (checking tickets in)",
	palaro.MemberBooth:   "booth staff (activities and prizes)",
}

// invitationPage shows a team invitation's link: the organization and the role. A visitor who is
// not signed in is offered sign-in and sign-up, both of which come back here (next).
func (s *Server) invitationPage(c *echo.Context) error {
	p := s.orgPage(c, "Join a team")
	c.Response().Header().Set("Cache-Control", "no-store")
	c.Response().Header().Set("Referrer-Policy", "no-referrer") // the token is in the path
	inv, err := s.services.Organizers.FindInvitation(c.Request().Context(), c.Param("token"))
	if err != nil {
		return err
	}
	role := cmpStr(memberRoleLabels[inv.Role], inv.Role)
	v := views.OrgJoinView{Frame: views.OrgFrame{Heading: "Join " + inv.OrganizationName},
		Text: inv.OrganizationName + " invites " + inv.Email + " to join its team as " + role + ". You can then open its events in the organizer console."}
	if currentUser(c) == nil {
		next := url.QueryEscape(c.Request().URL.Path)
		v.Text += " Sign in with " + inv.Email + " to accept, or create an account with that address."
		v.Links = []views.Link{{Label: "Sign in", Href: "/sign-in?next=" + next}, {Label: "Create an account", Href: "/sign-up?next=" + next}}
		p.NoIndex = true
		return render(c, http.StatusOK, views.OrgJoin(p, v))
	}
	v.Action = "/invitations/" + c.Param("token")
	return render(c, http.StatusOK, views.OrgJoin(p, v))
}

func (s *Server) acceptInvitation(c *echo.Context) error {
	u := currentUser(c)
	if u == nil {
		return c.Redirect(http.StatusSeeOther, "/sign-in?next="+url.QueryEscape(c.Request().URL.Path))
	}
	if _, err := s.services.Organizers.AcceptInvitation(c.Request().Context(), c.Param("token"), u.ID); err != nil {
		return err
	}
	return c.Redirect(http.StatusSeeOther, "/organizer?notice=joined")
}
