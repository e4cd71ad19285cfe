package notify

import "palaro"

var _ palaro.OrganizerComposer = Composer{}

// OrganizerApproved tells an owner that their organization may now run events on Palaro.
func (c Composer) OrganizerApproved(org palaro.Organization) palaro.Message {
	v := emailView{
		Support: c.Support,
		Title:   "Your organization is approved",
		Intro: []string{"Good news: " + org.Name + " can now run its events on Palaro. Sign in to the organizer " +
			"console to create your first event, add ticket types and publish it."},
		Button: emailLink{Label: "Open the organizer console", URL: c.url("/organizer")},
		Outro:  []string{"Invite your team from the console: managers, gate staff and booth staff."},
	}
	return c.message(palaro.MessageOrganizerApproved, org.OwnerEmail, org.Name+" is approved on Palaro", v)
}

// TeamInvitation invites an address to join an organization's team on Palaro.
func (c Composer) TeamInvitation(org, role, invitedBy, email, token string) palaro.Message {
	v := emailView{
		Support: c.Support,
		Title:   "Join " + org + " on Palaro",
		Intro: []string{invitedBy + " invites you to the team of " + org + " as " + role + ". Sign in (or sign up) with this " +
			"address, " + email + ", then open the link below."},
		Button: emailLink{Label: "Join the team", URL: c.url(palaro.InvitationPath(token))},
		Outro:  []string{"The link works for 7 days. If you do not know " + org + ", ignore this e-mail."},
	}
	return c.message(palaro.MessageTeamInvitation, email, "Join "+org+" on Palaro", v)
}
