package views

// States of the queue page.
const (
	QueueCountdown = "countdown"
	QueueWaiting   = "waiting"
	QueueAdmitted  = "admitted"
	QueueExpired   = "expired"
)

// QueueView is the queue page of one browser: the countdown, its place, its admission.
type QueueView struct {
	EventName string
	EventHref string
	// State is one of QueueCountdown, QueueWaiting, QueueAdmitted, QueueExpired.
	State    string
	OpensAt  string
	OpensISO string
	// Wait is the time until the opening (countdown) or the browser's turn, in words.
	Wait     string
	Position int
	Ahead    int
	Rate     int
	// BuyHref is where an admitted browser buys; Until and Minutes say until when.
	BuyHref string
	Until   string
	Minutes int
	// RejoinHref gives a browser whose time to buy passed a new place at the end.
	RejoinHref string
	// PollURL is asked every PollSeconds while waiting (0: no more).
	PollURL     string
	PollSeconds int
	// DateLabel names the series date the place is for ("Match day 3 · Sat 21 Mar"); empty for
	// an event of one date or a series' passes.
	DateLabel string
	// Notice says why the place's date cannot be bought now (sold out, cancelled, postponed) or
	// that the turn came for another date than the one the visitor came for; nil otherwise.
	Notice *QueueNotice
}

// QueueNotice is the queue page's word on a series date: what happened, what to do, and the
// other dates that still have places (each a link that moves the place there).
type QueueNotice struct {
	Title   string
	Text    string
	Actions []Link
	// Others are the coming dates with places to wait for instead.
	Others []Link
}

// OrgQueueView is the console's queue page of an event: its settings form and live figures.
type OrgQueueView struct {
	Frame OrgFrame
	Form  OrgForm
	// Off turns the queue off; empty when it has none.
	Off   *OrgAction
	Stats *OrgQueueStats
}

// OrgQueueStats are a queue's live figures, asked again every few seconds.
type OrgQueueStats struct {
	URL      string
	State    string
	OpensAt  string
	Waiting  int
	Admitted int
	Rate     int
	// Drain is how long the waiting take at the rate, in words.
	Drain string
	// Dates splits the figures by the series dates the places are for (none for an event of one
	// date).
	Dates []OrgQueueDate
}

// OrgQueueDate is a queue's figures for one date of a series (or its passes, with no date).
type OrgQueueDate struct {
	Label    string
	Waiting  int
	Admitted int
	// Left says what the date has left to sell ("On sale", "Only 12 left", "Sold out", …).
	Left string
}
