package palaro

import (
	"context"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"time"
	"unicode/utf8"
)

// Kinds of activity an event runs.
const (
	ActivityBooth   = "booth"   // visit a booth, earn points
	ActivityScratch = "scratch" // a scratch card with a prize pool
	ActivityQuiz    = "quiz"    // one of the partner bank's quizzes
)

// ActivityKinds lists the kinds of activity, in the order the console offers them.
var ActivityKinds = []string{ActivityBooth, ActivityScratch, ActivityQuiz}

// Quizzes a quiz activity can run (the part of /quiz/{quiz}/{eventCode}).
const (
	QuizPersona = "investment-persona"
	QuizPower   = "investment-power"
)

// Activity is something a participant does at an event for points: a booth, a scratch card or a quiz.
type Activity struct {
	ID        int64  `json:"-"`
	EventID   int64  `json:"-"`
	EventCode string `json:"eventCode"`
	EventName string `json:"eventName"`
	Code      string `json:"code"`
	Kind      string `json:"kind"`
	Name      string `json:"name"`
	// Description is a line of instructions, printed on the booth's poster.
	Description string    `json:"description"`
	Points      int       `json:"points"`
	StartsAt    time.Time `json:"startsAt"`
	EndsAt      time.Time `json:"endsAt"`
	// TicketHoldersOnly lets only participants with a ticket to the event take part.
	TicketHoldersOnly bool `json:"ticketHoldersOnly"`
	// WinPercent is the chance, in percent, that a scratch card wins while prizes are in stock.
	WinPercent int `json:"winPercent"`
	// Quiz names the quiz of a quiz activity (QuizPersona or QuizPower).
	Quiz   string  `json:"quiz,omitempty"`
	Prizes []Prize `json:"prizes"`
}

// Prize is a prize of a scratch activity, with its stock and how many have been won.
type Prize struct {
	ID        int64  `json:"-"`
	Code      string `json:"code"`
	Name      string `json:"name"`
	ImageURL  string `json:"imageUrl"`
	Stock     int    `json:"stock"`
	Awarded   int    `json:"awarded"`
	Claimable bool   `json:"claimable"`
}

// ScanURL is the path a booth's QR code opens for the activity.
func (a *Activity) ScanURL() string {
	return "/scan?activityCode=" + a.Code + "&eventCode=" + a.EventCode
}

// HasPrizes reports whether the activity can give prizes: a scratch card with prizes. Its plays
// need a confirmed participant at the booth (ScanRequest.AtBooth).
func (a *Activity) HasPrizes() bool { return a.Kind == ActivityScratch && len(a.Prizes) > 0 }

// CheckWindow says whether the activity is open at now: nil, or an EINVALID error saying when it opens or that it closed.
func (a *Activity) CheckWindow(now time.Time) error {
	if now.Before(a.StartsAt) {
		return Errorf(EINVALID, "%s opens on %s.", a.Name, a.StartsAt.In(Manila).Format("January 2 at 3:04 PM"))
	}
	if !now.Before(a.EndsAt) {
		return Errorf(EINVALID, "%s has ended.", a.Name)
	}
	return nil
}

// Scan messages: the answers of /v1/scan that the store writes and the handlers show.
const (
	MsgNotTicketHolder = "This activity is for ticket holders only: get a ticket to the event to join it."
	MsgScanUnknown     = "Unknown activity or event."
	MsgParticipantGone = "Unknown participant: register at /register first."
	// MsgConfirmToWin refuses a prize activity to a participant whose number is not confirmed.
	MsgConfirmToWin = "Confirm your mobile number to play for prizes: open Activities and ask for a code by SMS."
	// MsgBoothCodeNeeded refuses a prize activity's scan without the booth's current code.
	MsgBoothCodeNeeded = "This booth's code has expired. Scan the code on the booth's screen again, or ask the booth staff to scan your QR code."
)

// ScanMessage is what a visit says: the points earned, or that the participant joined before.
func ScanMessage(a *Activity, points int, repeat bool) string {
	if repeat {
		return fmt.Sprintf("You already joined %s. Your result is below.", a.Name)
	}
	if points == 0 {
		return fmt.Sprintf("Thanks for joining %s!", a.Name)
	}
	return fmt.Sprintf("Thanks for joining %s! You earned %s.", a.Name, Plural(points, "point", "points"))
}

// ScanRequest is one participant joining one activity (the query of GET /v1/scan).
type ScanRequest struct {
	ActivityCode  string
	EventCode     string
	ParticipantID string
	// Remarks is what the log keeps of a quiz played ("Score 8/10"); other kinds ignore it.
	Remarks string
	// AtBooth is true when the visit is proven to happen at the booth: booth staff scanned the
	// participant, or the participant scanned the booth's current rotating code (CheckBoothCode).
	// An activity with prizes refuses a scan without it.
	AtBooth bool
}

// ScanResult is the answer of /v1/scan: the stored result of the participant's visit.
type ScanResult struct {
	Message     string       `json:"message"`
	Points      int          `json:"points"`
	TotalPoints int          `json:"totalPoints"`
	Scratch     *ScratchCard `json:"scratch,omitempty"`
	// Repeat is true when the visit was registered before (nothing new was awarded).
	Repeat bool `json:"-"`
	// Activity is the activity visited.
	Activity *Activity `json:"-"`
}

// Visit is one line of a participant's activity log.
type Visit struct {
	At           time.Time
	EventCode    string
	EventName    string
	ActivityCode string
	ActivityName string
	Kind         string
	Points       int
	Remarks      string
	PrizeName    string
	Claimable    bool
	ClaimedAt    time.Time
	// CardPending is true for a scratch card the participant has not finished scratching.
	CardPending bool
}

// LeaderboardRow is one participant's place on a leaderboard.
type LeaderboardRow struct {
	Rank          int
	ParticipantID string
	Name          string
	Points        int
}

// Leaderboard is the top of a ranking and, when asked for, one participant's own row.
type Leaderboard struct {
	Rows []LeaderboardRow
	// Own is the asking participant's row (nil when they have no points).
	Own *LeaderboardRow
}

// ActivityService runs activities, visits, prizes and points.
type ActivityService interface {
	// Scan registers a participant's visit to an activity once and awards its points; for a
	// scratch activity it draws the outcome and takes the prize from the stock in the same write
	// transaction. A repeat answers the stored result. Returns ENOTFOUND for unknown codes or
	// participant, EINVALID outside the window or for a participant without a ticket where one is needed.
	Scan(ctx context.Context, req ScanRequest) (*ScanResult, error)
	// ListActivities returns the activities of events that have not ended, or of one event when eventCode is set.
	ListActivities(ctx context.Context, eventCode string) ([]Activity, error)
	// FindActivity returns one activity of an event with its prizes. Returns ENOTFOUND.
	FindActivity(ctx context.Context, eventCode, activityCode string) (*Activity, error)
	// ParticipantLog returns a participant's visits, newest first, and their total points.
	ParticipantLog(ctx context.Context, participantID string) ([]Visit, int, error)
	// ConfirmedParticipant returns the confirmed participant of a mobile number that an SMS code
	// proved (an account's confirmed number; never call it with an unproven one), creating it with
	// the given names when there is none. adoptPublicID, when set, is this browser's own
	// unconfirmed registration: if it has the number, it becomes the confirmed one (its points kept).
	ConfirmedParticipant(ctx context.Context, req ParticipantSignUp, adoptPublicID string) (*Participant, error)
	// Leaderboard ranks participants by points, overall or for one event, top limit, with
	// participantID's own row. Returns ENOTFOUND for an unknown event.
	Leaderboard(ctx context.Context, eventCode, participantID string, limit int) (*Leaderboard, error)
	// PendingCard returns the stored scratch card of a participant's visit that was not finished
	// scratching (no new draw). Returns ENOTFOUND when there is none.
	PendingCard(ctx context.Context, participantID, eventCode, activityCode string) (*ScratchCard, error)
	// MarkCardRevealed records that the participant finished scratching the visit's card.
	MarkCardRevealed(ctx context.Context, participantID, eventCode, activityCode string) error
}

// activityCodeRE is the pattern of activity and prize codes: lower-case letters, digits and hyphens.
var activityCodeRE = regexp.MustCompile(`^[a-z0-9][a-z0-9-]{0,39}$`)

// ActivityInput is what an organizer sets on an activity (console form and organizer API).
type ActivityInput struct {
	Code              string       `json:"code"`
	Kind              string       `json:"kind"`
	Name              string       `json:"name"`
	Description       string       `json:"description"`
	Points            int          `json:"points"`
	StartsAt          time.Time    `json:"startsAt"`
	EndsAt            time.Time    `json:"endsAt"`
	TicketHoldersOnly bool         `json:"ticketHoldersOnly"`
	WinPercent        int          `json:"winPercent"`
	Quiz              string       `json:"quiz"`
	Prizes            []PrizeInput `json:"prizes"`
}

// PrizeInput is a prize of an activity as an organizer sets it.
type PrizeInput struct {
	Code      string `json:"code"`
	Name      string `json:"name"`
	ImageURL  string `json:"imageUrl"`
	Stock     int    `json:"stock"`
	Claimable bool   `json:"claimable"`
}

// ActivityInputOf returns the input that would save a as it is.
func ActivityInputOf(a Activity) ActivityInput {
	in := ActivityInput{Code: a.Code, Kind: a.Kind, Name: a.Name, Description: a.Description, Points: a.Points, StartsAt: a.StartsAt,
		EndsAt: a.EndsAt, TicketHoldersOnly: a.TicketHoldersOnly, WinPercent: a.WinPercent, Quiz: a.Quiz, Prizes: []PrizeInput{}}
	for _, p := range a.Prizes {
		in.Prizes = append(in.Prizes, PrizeInput{Code: p.Code, Name: p.Name, ImageURL: p.ImageURL, Stock: p.Stock, Claimable: p.Claimable})
	}
	return in
}

// Validate checks an activity input; EINVALID with a message per field.
func (in *ActivityInput) Validate() error {
	in.Code, in.Name, in.Description = strings.TrimSpace(in.Code), strings.TrimSpace(in.Name), strings.TrimSpace(in.Description)
	f := map[string]string{}
	if !activityCodeRE.MatchString(in.Code) {
		f["code"] = "Use 1 to 40 lower-case letters, digits and hyphens."
	}
	if !slices.Contains(ActivityKinds, in.Kind) {
		f["kind"] = "Choose booth, scratch or quiz."
	}
	if in.Name == "" || utf8.RuneCountInString(in.Name) > 80 {
		f["name"] = "Name is required (at most 80 characters)."
	}
	if utf8.RuneCountInString(in.Description) > 300 {
		f["description"] = "At most 300 characters."
	}
	if in.Points < 0 || in.Points > 10000 {
		f["points"] = "Points must be between 0 and 10,000."
	}
	if in.StartsAt.IsZero() || !in.EndsAt.After(in.StartsAt) {
		f["endsAt"] = "The activity must end after it starts."
	}
	if in.WinPercent < 0 || in.WinPercent > 100 {
		f["winPercent"] = "Win chance must be between 0 and 100 percent."
	}
	if in.Kind == ActivityQuiz && in.Quiz != QuizPersona && in.Quiz != QuizPower {
		f["quiz"] = "Choose the quiz: investment-persona or investment-power."
	}
	seen := map[string]bool{}
	for i := range in.Prizes {
		p := &in.Prizes[i]
		p.Code, p.Name = strings.TrimSpace(p.Code), strings.TrimSpace(p.Name)
		if !activityCodeRE.MatchString(p.Code) || seen[p.Code] || p.Name == "" || p.Stock < 0 || p.Stock > 1_000_000 {
			f["prizes"] = fmt.Sprintf("Prize %d: a unique code (lower-case letters, digits, hyphens), a name and a stock of 0 or more.", i+1)
			break
		}
		seen[p.Code] = true
		if !safePrizeImage(p.ImageURL) {
			f["prizes"] = fmt.Sprintf("Prize %d: the picture is a built-in one (img/prizes/…), a path of this site or an https:// address.", i+1)
			break
		}
	}
	if len(f) > 0 {
		return &Error{Code: EINVALID, Message: "Please correct the activity.", Fields: f}
	}
	return nil
}

// Claim is a prize won at an activity, to hand over at the booth.
type Claim struct {
	VisitID     int64     `json:"id"`
	Participant string    `json:"participant"`
	PrizeName   string    `json:"prize"`
	WonAt       time.Time `json:"wonAt"`
	ClaimedAt   time.Time `json:"claimedAt,omitzero"`
	ClaimedBy   string    `json:"claimedBy,omitempty"`
}

// ActivityAdmin is the organizer's side of activities.
type ActivityAdmin interface {
	// SaveActivity creates or updates (by code) an event's activity and its prizes; a prize's stock
	// never goes below what was already won. Returns EINVALID or ECONFLICT.
	SaveActivity(ctx context.Context, eventID int64, actor string, in ActivityInput) (*Activity, error)
	// ListClaims returns the claimable prizes won at an activity, unclaimed first.
	ListClaims(ctx context.Context, activityID int64) ([]Claim, error)
	// ClaimPrize marks a prize handed over. Returns ENOTFOUND, or ECONFLICT when already claimed.
	ClaimPrize(ctx context.Context, activityID, visitID int64, actor string) error
	// SetPrizeImage sets a prize's picture: an uploaded PNG (stored, its URL returned) when png is
	// set, else imageURL (a built-in picture). Returns ENOTFOUND for an unknown activity or prize.
	SetPrizeImage(ctx context.Context, eventID int64, actor, activityCode, prizeCode string, png []byte, imageURL string) (string, error)
	// FindPrizeImage returns the uploaded prize picture (PNG) of that random name. Returns ENOTFOUND.
	FindPrizeImage(ctx context.Context, name string) ([]byte, error)
}

// PrizeImageURL is the served URL of an uploaded prize picture, by its random name (unguessable,
// so a draft event's prizes cannot be found by counting).
func PrizeImageURL(name string) string { return "/prize-images/" + name + ".png" }

// builtinImageRE is the name of an embedded picture (static/img/…).
var builtinImageRE = regexp.MustCompile(`^img/[a-z0-9_-]+(/[a-z0-9_-]+)*\.(svg|png|jpg|webp)$`)

// safePrizeImage reports whether a prize's picture is one a scratch card may show: none, an
// embedded picture, a path of this site or an https address.
func safePrizeImage(s string) bool { return builtinImageRE.MatchString(s) || safeLink(s) }
