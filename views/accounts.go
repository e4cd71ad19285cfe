package views

import (
	"net/url"
	"strings"
)

// FormField is one input of a server-rendered form, with the value to show again and its error.
type FormField struct {
	Name  string
	Label string
	// Type is the input type (text, email, password, tel, date, number), or "textarea".
	Type         string
	Value        string
	Error        string
	Hint         string
	Autocomplete string
	InputMode    string
	MaxLength    int
	Required     bool
	// Class is an extra class on the field's row (such as "personal-detail", hidden from existing users).
	Class string
	// SuggestFrom names the field whose value the page script turns into this one's (an event's code
	// from its name) until the person edits this one.
	SuggestFrom string
}

// ID is the input's element id.
func (f FormField) ID() string { return "f-" + f.Name }

// FormCheckbox is one checkbox of a form; LinkText, when set, is a link (to LinkHref, opening
// LinkPopup when scripts run) written after Label.
type FormCheckbox struct {
	Name      string
	Label     string
	LinkText  string
	LinkHref  string
	LinkPopup string
	Checked   bool
	Error     string
	// Hint is a sentence shown under the checkbox while it is ticked.
	Hint string
	// Class is an extra class on the checkbox's row.
	Class string
}

// ID is the checkbox's element id.
func (f FormCheckbox) ID() string { return "f-" + f.Name }

// Form is a server-rendered form: its fields keep what the visitor typed and show each error
// next to its field.
type Form struct {
	ID     string
	Action string
	Submit string
	// Error is a message about the whole form (such as a failed sign-in).
	Error string
	// Notice is a message that something worked (such as a code being sent).
	Notice string
	// Lead are checkboxes shown before the fields (such as one that hides some of them).
	Lead       []FormCheckbox
	Fields     []FormField
	Checkboxes []FormCheckbox
	// Hidden are extra hidden fields (name → value), besides the CSRF token.
	Hidden [][2]string
}

// Link is a labelled link below a form.
type Link struct {
	Label string
	Href  string
}

// AccountPage is an account screen: a heading, an intro, a form and links.
type AccountPage struct {
	Heading string
	Intro   string
	Form    Form
	Links   []Link
}

// MessagePage is a page with a heading, a message and links (success pages, sign-in prompts).
type MessagePage struct {
	Heading string
	Message string
	// Detail is shown large under the message (a reference, an e-mail address).
	Detail string
	// QRDataURI, when set, is a QR code image shown under the message.
	QRDataURI string
	QRAlt     string
	Links     []Link
	// SignInPrompt shows the 'Register or Sign In' call to action.
	SignInPrompt bool
	// Next is where sign-in returns to, for the prompt's links.
	Next string
}

// ProfilePage is /profile: the person fields, the picture and the e-mail change.
type ProfilePage struct {
	Name       string
	Email      string
	Status     string
	Role       string
	PictureURL string
	// PictureError is the message of a refused upload.
	PictureError string
	// PictureMaxBytes and PictureTooLarge are the upload's size limit and its message, for the
	// page script to refuse a file that is too large before uploading it.
	PictureMaxBytes int
	PictureTooLarge string
	Notice          string
	Form            Form
	EmailForm       Form
	// PasswordForm changes the password (current, new, repeat).
	PasswordForm Form
	// MobileForm asks for the code sent to a new mobile number; nil when no change is pending.
	MobileForm *Form
	// MobileText says why the number needs confirming ("" for none).
	MobileText string
	// MobileResend is the action that sends a (new) code for the number ("" when none is awaited).
	MobileResend string
}

// signInHref is the sign-in page's URL, returning to next after sign-in.
func signInHref(next string) string {
	if next == "" || next == "/" {
		return "/sign-in"
	}
	return "/sign-in?next=" + url.QueryEscape(next)
}

// initial is the first letter of a name, for an empty avatar.
func initial(name string) string {
	for _, r := range name {
		return strings.ToUpper(string(r))
	}
	return "?"
}

// checkboxDescribedBy is the id of the text describing a checkbox: its error, else its hint, else "".
func checkboxDescribedBy(c FormCheckbox) string {
	switch {
	case c.Error != "":
		return c.ID() + "-error"
	case c.Hint != "":
		return c.ID() + "-hint"
	}
	return ""
}

// describedBy is the id of the text describing a field: its error, else its hint, else "".
func describedBy(f FormField) string {
	switch {
	case f.Error != "":
		return f.ID() + "-error"
	case f.Hint != "":
		return f.ID() + "-hint"
	}
	return ""
}
