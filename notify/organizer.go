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
