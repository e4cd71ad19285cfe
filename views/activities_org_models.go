package views

// OrgActivityRow is an activity in the console's list.
type OrgActivityRow struct {
	Code      string
	Name      string
	Kind      string
	Points    int
	Window    string
	Prizes    []OrgPrizeRow
	PosterURL string
	BoothURL  string
	// ScreenURL is the booth's screen with the rotating QR code (an activity with prizes; "" otherwise).
	ScreenURL string
}

// OrgPrizeRow is a prize in the console: its count, its picture and the form that changes it.
type OrgPrizeRow struct {
	Label    string // "Gaming headset: 3 of 10 won"
	Name     string
	ImageURL string // served URL ("" when it has none)
	// ImageAction is where the picture form posts (a chosen built-in picture or an upload).
	ImageAction string
	Choices     []Option
}

// Option is an option of a select element.
type Option struct {
	Value, Label string
	Selected     bool
}

// OrgActivitiesView is the console's activities page of an event: the list and the form to add or change one.
type OrgActivitiesView struct {
	Frame OrgFrame
	// ImageError is why a prize picture was refused ("" when none was).
	ImageError string
	Activities []OrgActivityRow
	Form       Form
}

// OrgPosterView is a booth's printable A4 poster.
type OrgPosterView struct {
	EventName    string
	ActivityName string
	Instructions string
	QRDataURI    string
	URL          string
}

// OrgClaimRow is a prize won at the booth.
type OrgClaimRow struct {
	ID          string
	Participant string
	Prize       string
	WonAt       string
	Claimed     string // "" while unclaimed
}

// OrgBoothView is the booth staff's page: scan a participant's QR (or type the id), and hand over prizes.
type OrgBoothView struct {
	Frame       OrgFrame
	ScanAction  string
	Result      string
	ResultError bool
	Claims      []OrgClaimRow
	ClaimAction string // prefix; the visit id is appended
	Camera      CameraScanProps
}

// OrgBoothScreenView is the booth's screen: its rotating QR code, refreshed by RefreshURL.
type OrgBoothScreenView struct {
	EventName, ActivityName string
	Instructions            string
	QRDataURI               string
	// URL is the address the QR code holds.
	URL        string
	RefreshURL string
	// Seconds is how often the code changes.
	Seconds int
}

// OrgNewsView is the console's news page: the articles and the form to write one.
type OrgNewsView struct {
	Frame    OrgFrame
	Articles []ArticleRow
	Form     Form
}

// ArticleRow is an article in a console's list: its state and where to edit and read it.
type ArticleRow struct {
	Title, Author, State string
	EditHref, ViewHref   string
}

// PartnerFormView is the operator's form of a partner page (/pnk or /pnk/promo).
type PartnerFormView struct {
	Frame OrgFrame
	Form  Form
	// ViewHref is the public page the form edits.
	ViewHref string
}
