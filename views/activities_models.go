package views

import "palaro"

// ActivityCard is one activity as /activities lists it.
type ActivityCard struct {
	Name     string
	Kind     string // "Booth", "Scratch & Win", "Quiz"
	Points   int
	Window   string
	Note     string // "Ticket holders only", or ""
	Href     string // a quiz's page; booths and scratch cards are played by scanning their QR code
	HrefText string
}

// ActivityEventGroup is an event with its activities.
type ActivityEventGroup struct {
	EventName  string
	EventHref  string
	Activities []ActivityCard
}

// ActivityLogRow is one line of the participant's activity log.
type ActivityLogRow struct {
	Time     string
	DateTime string // machine-readable time
	Activity string
	Event    string
	Points   int
	Remarks  string
	Prize    string
	Claim    string // "Claimed", "To claim at the booth", "" when there is no prize to claim
	// CardHref opens the visit's scratch card when it was not played to the end ("" otherwise).
	CardHref string
}

// ScanConfirmView is the page a booth's QR opens: the activity and the button that joins it.
type ScanConfirmView struct {
	ActivityName, EventName, Kind string
	Points                        int
	ParticipantName               string
	ActivityCode, EventCode       string
	// BoothCode is the rotating code of the booth's screen the visitor scanned ("" for none).
	BoothCode string
}

// ScanBanner is the result of a scan shown at the top of the page.
type ScanBanner struct {
	Message     string
	Points      int
	TotalPoints int
	Error       bool
	// Notice is a message without points (such as a confirmed number).
	Notice bool
}

// ScratchProps are the scratch-card island's props: the stored card and the constants of the game.
type ScratchProps struct {
	Card        palaro.ScratchCard `json:"card"`
	Title       string             `json:"title"`
	WonTitle    string             `json:"wonTitle"`
	LostTitle   string             `json:"lostTitle"`
	Redirecting string             `json:"redirecting"`
	// NoClaim follows the name of a matched prize that is not claimable.
	NoClaim   string `json:"noClaim"`
	StrokePct int    `json:"strokePct"`
	LiftPct   int    `json:"liftPct"`
	BrushPx   int    `json:"brushPx"`
	ReloadMs  int    `json:"reloadMs"`
	WinCells  int    `json:"winCells"`
	// RevealURL is posted to when the game ends, so the card is not opened again.
	RevealURL string `json:"revealUrl"`
}

// ActivitiesView is /activities (with a scan's result after POST /scan).
type ActivitiesView struct {
	Banner *ScanBanner
	// Scratch, when set, opens the scratch card.
	Scratch *ScratchProps
	// ParticipantName is the name of the participant this browser plays as ("" for none).
	ParticipantName string
	QRHref          string
	TotalPoints     int
	Log             []ActivityLogRow
	Events          []ActivityEventGroup
	// RegisterHref registers a participant and comes back (when no participant plays here).
	RegisterHref string
	// Camera is the "Scan a booth" camera island's props (the same for every visitor).
	Camera CameraScanProps
	// Confirm, when set, asks the visitor to confirm their mobile number by SMS code.
	Confirm *ConfirmBox
}

// ConfirmBox asks a visitor to confirm their mobile number: a button that sends a code by SMS
// (SendAction) and, once one was sent, the form to enter it; or only a link (Href) to where that happens.
type ConfirmBox struct {
	Text       string
	SendAction string
	Href       string
	// CodeForm is the form of the code sent (nil before one was asked for).
	CodeForm *Form
}

// CameraScanProps are the camera-scan island's props: what a scanned QR code does ("booth": open
// a booth's /scan URL of this site; "participant": fill and submit the booth staff's form).
type CameraScanProps struct {
	Mode string `json:"mode"`
	// Origins are the site's own origins besides the page's (the configured base URL's).
	Origins []string `json:"origins"`
	FormID  string   `json:"formId,omitempty"`
	InputID string   `json:"inputId,omitempty"`
}

// LeaderboardRow is one line of a leaderboard.
type LeaderboardRow struct {
	Rank   int
	Name   string
	Points int
	Own    bool
}

// LeaderboardOption is an event the leaderboard can be narrowed to.
type LeaderboardOption struct {
	Code     string
	Name     string
	Selected bool
}

// LeaderboardView is /leaderboard: overall or for one event.
type LeaderboardView struct {
	Heading string
	Event   string
	Options []LeaderboardOption
	Rows    []LeaderboardRow
	// Own is the participant's own row when it is outside the rows shown.
	Own *LeaderboardRow
	// RefreshURL is the fragment htmx reloads every 30 seconds.
	RefreshURL      string
	ParticipantName string
	RegisterHref    string
}

// QuizOptionView is one answer of a quiz question on the page.
type QuizOptionView struct {
	Value   string
	Text    string
	Checked bool
	// Right and Wrong mark the options of a graded scored quiz.
	Right bool
	Wrong bool
}

// QuizQuestionView is one question on the page, with its explanation once graded.
type QuizQuestionView struct {
	Name        string
	Number      int
	Text        string
	Options     []QuizOptionView
	Explanation string
	Correct     bool
}

// QuizView is a quiz page: the form, or the graded result with share links.
type QuizView struct {
	Title     string
	Intro     string
	EventName string
	Action    string
	Error     string
	Questions []QuizQuestionView
	// Shared is the line a shared link shows ("Someone got The Steady Builder. Which are you?").
	Shared string
	// Graded is true on the result page.
	Graded       bool
	ResultTitle  string
	ResultText   string
	NextSteps    []string
	PointsNote   string
	ShareLinks   []Link
	RegisterHref string
	// StepURL, when set, lets htmx replace the full form with one question at a time.
	StepURL string
}

// QuizStepView is one question of a quiz on its own, with the other answers kept.
type QuizStepView struct {
	Action, StepURL string
	Index, Count    int
	Question        QuizQuestionView
	// Hidden are the other questions' answers (name, value).
	Hidden [][2]string
	Error  string
}

// NewsItem is an article in the news list, or the article page.
type NewsItem struct {
	Href     string
	Title    string
	Summary  string
	Date     string
	DateTime string
	CoverURL string
	Body     string // Markdown
	Events   []Link
	Author   string
}

// NewsView is /news.
type NewsView struct {
	Articles []NewsItem
}

// PartnerView is /pnk and /pnk/promo.
type PartnerView struct {
	Page      palaro.PartnerPage
	ThemeHref string
	Links     []Link
}
