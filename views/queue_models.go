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
}
