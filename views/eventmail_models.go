package views

// emailsIntro opens the console's e-mails page.
const emailsIntro = "Write the opening words of the e-mails your buyers get, in plain text. Use {name} for the buyer's name, " +
	"{event}, {date} and {venue}; a blank line starts a new paragraph. Leave a box empty to use Palaro's words. " +
	"The tickets, QR codes, links and the event's facts are added below your words."

// OrgEmailsView is the console's e-mails page of an event: the organizer's words for the
// confirmation and the reminder, when reminders go, and previews of both.
type OrgEmailsView struct {
	Frame OrgFrame
	Form  OrgForm
	// Previews are the e-mails as a buyer would get them, after "Preview".
	Previews []OrgEmailPreview
}

// OrgEmailPreview is one e-mail shown as its recipient would read it (its text part).
type OrgEmailPreview struct {
	Title   string
	Subject string
	Text    string
}

// OrgMessagesView is the console's messages page of an event: the form that writes to ticket
// holders and the messages sent.
type OrgMessagesView struct {
	Frame OrgFrame
	Form  OrgForm
	Sent  []OrgMessageRow
}

// OrgMessageRow is one sent message in the console's list.
type OrgMessageRow struct {
	When       string
	Subject    string
	Audience   string
	Recipients string
	// People is "person" or "people", after Recipients.
	People string
	By     string
}
