package handlers

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/labstack/echo/v5"

	"palaro"
	"palaro/views"
)

// keyParticipant is the session value holding the public id of the participant this browser
// registered (or played) as.
const keyParticipant = "pid"

// rememberParticipant makes this browser play as the participant from now on.
func (s *Server) rememberParticipant(c *echo.Context, publicID string) error {
	v := visitOf(c)
	if v.session.Values[keyParticipant] == publicID {
		return nil
	}
	v.session.Values[keyParticipant] = publicID
	return v.session.Save(c.Request(), c.Response())
}

// participantOf returns the participant this browser plays as: the signed-in account's, when an
// SMS code confirmed the account's number (found by that number, else this browser's own
// registration of it, else created), else the one this browser registered. It is nil for anyone
// else: an unconfirmed number links an account to nobody, so typing someone's number shows
// nothing of theirs.
func (s *Server) participantOf(c *echo.Context) (*palaro.Participant, error) {
	ctx := c.Request().Context()
	pid, _ := visitOf(c).session.Values[keyParticipant].(string)
	if u := currentUser(c); u != nil && u.MobileConfirmed {
		return s.services.Activities.ConfirmedParticipant(ctx, palaro.ParticipantSignUp{
			FirstName: u.FirstName, LastName: u.LastName, MobileNumber: u.MobileNumber}, pid)
	}
	if pid == "" {
		return nil, nil
	}
	p, err := s.services.Accounts.FindParticipant(ctx, pid)
	if palaro.ErrorCode(err) == palaro.ENOTFOUND {
		return nil, nil
	}
	return p, err
}

// keyBoothPass is the session value recording a valid booth code this browser scanned:
// "eventCode activityCode unix-expiry". It lets a visitor who scanned the booth's screen finish
// registering (or confirming their number) and still play, for boothPassTTL.
const keyBoothPass = "booth"

// boothPassTTL is how long a scanned booth code lets this browser play that activity.
const boothPassTTL = 10 * time.Minute

// atBooth reports whether this request proves the visitor is at the activity's booth: a valid
// booth code (boothCode), or one this browser scanned lately (its booth pass).
func (s *Server) atBooth(c *echo.Context, eventCode, activityCode, code string) bool {
	if code != "" && palaro.CheckBoothCode(s.config.BoothKey, eventCode, activityCode, code, s.Now()) {
		return true
	}
	v := visitOf(c)
	if v.session == nil {
		return false
	}
	pass, _ := v.session.Values[keyBoothPass].(string)
	parts := strings.Fields(pass)
	if len(parts) != 3 || parts[0] != eventCode || parts[1] != activityCode {
		return false
	}
	until, err := strconv.ParseInt(parts[2], 10, 64)
	return err == nil && s.Now().Unix() < until
}

// throttleScan limits the self-scans of one activity (limitScanActivity).
func (s *Server) throttleScan(c *echo.Context, eventCode, activityCode string) error {
	return s.throttle(c, limitCheck{limitScanActivity, "scan|" + eventCode + "|" + activityCode})
}

// assetURL returns the served URL of an image: the hashed URL of an embedded asset named
// relative to static/ ("img/prizes/cap.svg"), or the value as it is (an absolute URL).
func (s *Server) assetURL(name string) string {
	if strings.HasPrefix(name, "/") || strings.Contains(name, "://") {
		return name
	}
	if u := s.assets.URL(name); u != "" {
		return u
	}
	return name
}

// servedCard returns a copy of a stored scratch card with its image names as served URLs.
func (s *Server) servedCard(card *palaro.ScratchCard) *palaro.ScratchCard {
	if card == nil {
		return nil
	}
	out := *card
	out.Prizes = make([]palaro.ScratchPrize, len(card.Prizes))
	for i, p := range card.Prizes {
		p.ImageURL = s.assetURL(p.ImageURL)
		out.Prizes[i] = p
	}
	out.Cells = make([]palaro.ScratchCell, len(card.Cells))
	for i, c := range card.Cells {
		c.Src = s.assetURL(c.Src)
		out.Cells[i] = c
	}
	return &out
}

// scanAnswer is the body of GET /v1/scan.
type scanAnswer struct {
	Message     string              `json:"message"`
	Points      int                 `json:"points"`
	TotalPoints int                 `json:"totalPoints"`
	Scratch     *palaro.ScratchCard `json:"scratch,omitempty"`
}

// scan runs a scan; a refusal (outside the window, not a ticket holder) comes back as a 422 error.
func (s *Server) scan(c *echo.Context, req palaro.ScanRequest) (*palaro.ScanResult, error) {
	res, err := s.services.Activities.Scan(c.Request().Context(), req)
	if palaro.ErrorCode(err) == palaro.EINVALID {
		return nil, errScanRefused(palaro.ErrorMessage(err))
	}
	return res, err
}

// apiScan answers GET /v1/scan?activityCode=&eventCode=&participantId=: the stored result of the
// participant's visit (registered now, or before). 404 for unknown codes or participant, 422
// outside the activity's window or for a participant without a ticket where one is needed.
//
// An activity with prizes also needs boothCode, the booth screen's current code (422 without it),
// and a participant who confirmed their number. Scans of one activity are rate-limited (429).
func (s *Server) apiScan(c *echo.Context) error {
	event, activity := c.QueryParam("eventCode"), c.QueryParam("activityCode")
	if err := s.throttleScan(c, event, activity); err != nil {
		return err
	}
	res, err := s.scan(c, palaro.ScanRequest{ActivityCode: activity, EventCode: event,
		ParticipantID: c.QueryParam("participantId"),
		AtBooth:       palaro.CheckBoothCode(s.config.BoothKey, event, activity, c.QueryParam("boothCode"), s.Now())})
	if err != nil {
		return err
	}
	c.Response().Header().Set("Cache-Control", "no-store")
	return c.JSON(http.StatusOK, scanAnswer{Message: res.Message, Points: res.Points, TotalPoints: res.TotalPoints,
		Scratch: s.servedCard(res.Scratch)})
}

// kindLabels name the kinds of activity for people.
var kindLabels = map[string]string{palaro.ActivityBooth: "Booth", palaro.ActivityScratch: "Scratch & Win", palaro.ActivityQuiz: "Quiz"}

// engagePage returns a Page of the engagement area: never indexed, with its stylesheet.
func (s *Server) engagePage(c *echo.Context, title, description string) views.Page {
	p := s.page(c, title+" · Palaro", description)
	p.NoIndex = true
	p.Styles = []string{"css/engage.css"}
	return p
}

// scratchProps are the scratch island's props for a stored card.
func (s *Server) scratchProps(card *palaro.ScratchCard) *views.ScratchProps {
	return &views.ScratchProps{Card: *s.servedCard(card), Title: palaro.ScratchTitle, WonTitle: palaro.ScratchWonTitle,
		LostTitle: palaro.ScratchLostTitle, Redirecting: palaro.ScratchRedirecting, StrokePct: palaro.ScratchStrokePct,
		LiftPct: palaro.ScratchLiftPct, BrushPx: palaro.ScratchBrushPx, ReloadMs: palaro.ScratchReloadMs, WinCells: palaro.ScratchWinCells,
		NoClaim: palaro.ScratchNoClaim}
}

// keyScanBanner is the session value carrying the result of a POST /scan to the page it redirects to.
const keyScanBanner = "scanned"

// scanQuery returns the event and activity codes of a /scan request (query or form).
func scanQuery(c *echo.Context) url.Values {
	return url.Values{"activityCode": {c.FormValue("activityCode")}, "eventCode": {c.FormValue("eventCode")}}
}

// scanPage is what a booth's QR code opens (GET /scan?activityCode=&eventCode=). A GET changes
// nothing: it shows the activity with a button that POSTs the visit (CSRF-protected), which the
// page script presses at once where JavaScript runs, so the camera flow stays one scan and no tap.
// A browser without a participant is sent to register and comes back.
//
// A valid booth code (boothCode, from the booth's screen) is remembered in the session for
// boothPassTTL, so that registering or confirming a number on the way does not make it stale.
func (s *Server) scanPage(c *echo.Context) error {
	q := scanQuery(c)
	code := c.QueryParam("boothCode")
	if code != "" && palaro.CheckBoothCode(s.config.BoothKey, q.Get("eventCode"), q.Get("activityCode"), code, s.Now()) {
		sess := visitOf(c).session
		sess.Values[keyBoothPass] = q.Get("eventCode") + " " + q.Get("activityCode") + " " +
			strconv.FormatInt(s.Now().Add(boothPassTTL).Unix(), 10)
		if err := sess.Save(c.Request(), c.Response()); err != nil {
			return err
		}
	}
	p, err := s.participantOf(c)
	if err != nil {
		return err
	}
	if p == nil {
		return c.Redirect(http.StatusSeeOther, "/register?next="+url.QueryEscape("/scan?"+q.Encode()))
	}
	a, err := s.services.Activities.FindActivity(c.Request().Context(), q.Get("eventCode"), q.Get("activityCode"))
	if err != nil {
		return err
	}
	c.Response().Header().Set("Cache-Control", "no-store")
	return render(c, http.StatusOK, views.ScanConfirmPage(s.engagePage(c, a.Name, "Join the activity."), views.ScanConfirmView{
		ActivityName: a.Name, EventName: a.EventName, Kind: kindLabels[a.Kind], Points: a.Points, ParticipantName: p.FirstName,
		ActivityCode: a.Code, EventCode: a.EventCode, BoothCode: code}))
}

// scanPost registers the visit for this browser's participant (POST /scan) and redirects to
// /activities, which shows the result once and the stored scratch card until it is played. A
// refusal (outside the window, not a ticket holder) is shown at once with 422.
func (s *Server) scanPost(c *echo.Context) error {
	q := scanQuery(c)
	p, err := s.participantOf(c)
	if err != nil {
		return err
	}
	if p == nil {
		return c.Redirect(http.StatusSeeOther, "/register?next="+url.QueryEscape("/scan?"+q.Encode()))
	}
	err = s.throttleScan(c, q.Get("eventCode"), q.Get("activityCode"))
	var res *palaro.ScanResult
	if err == nil {
		res, err = s.scan(c, palaro.ScanRequest{ActivityCode: q.Get("activityCode"), EventCode: q.Get("eventCode"), ParticipantID: p.PublicID,
			AtBooth: s.atBooth(c, q.Get("eventCode"), q.Get("activityCode"), c.FormValue("boothCode"))})
	} else {
		err = errScanThrottled(palaro.ErrorMessage(err))
	}
	if code := echo.StatusCode(err); code == http.StatusUnprocessableEntity || code == http.StatusTooManyRequests {
		v, verr := s.activitiesView(c, p)
		if verr != nil {
			return verr
		}
		v.Banner = &views.ScanBanner{Message: err.(*echo.HTTPError).Message, Error: true}
		return s.renderActivities(c, echo.StatusCode(err), v)
	} else if err != nil {
		return err
	}
	b, _ := json.Marshal(views.ScanBanner{Message: res.Message, Points: res.Points, TotalPoints: res.TotalPoints})
	sess := visitOf(c).session
	sess.Values[keyScanBanner] = string(b)
	if err := sess.Save(c.Request(), c.Response()); err != nil {
		return err
	}
	return c.Redirect(http.StatusSeeOther, "/activities?"+q.Encode())
}

// takeScanBanner returns and forgets the result of the last POST /scan, if any.
func (s *Server) takeScanBanner(c *echo.Context) *views.ScanBanner {
	sess := visitOf(c).session
	raw, _ := sess.Values[keyScanBanner].(string)
	if raw == "" {
		return nil
	}
	delete(sess.Values, keyScanBanner)
	_ = sess.Save(c.Request(), c.Response())
	var b views.ScanBanner
	if json.Unmarshal([]byte(raw), &b) != nil {
		return nil
	}
	return &b
}

// activitiesPage renders /activities: the participant's points and log, and the activities of
// events. With ?eventCode=&activityCode= of a visit whose scratch card was not played to the end,
// it opens that stored card (no new draw).
func (s *Server) activitiesPage(c *echo.Context) error {
	p, err := s.participantOf(c)
	if err != nil {
		return err
	}
	v, err := s.activitiesView(c, p)
	if err != nil {
		return err
	}
	v.Banner = s.takeScanBanner(c)
	switch {
	case c.QueryParam("confirm") == "sent" && v.Confirm != nil && v.Confirm.SendAction != "":
		f := participantCodeForm(nil)
		v.Confirm.CodeForm = &f
	case c.QueryParam("confirm") == "done" && p != nil && p.Confirmed:
		v.Banner = &views.ScanBanner{Message: "Your mobile number is confirmed: you can play for prizes. Scan the booth's code again to play.", Notice: true}
	}
	if p != nil && c.QueryParam("activityCode") != "" {
		card, err := s.services.Activities.PendingCard(c.Request().Context(), p.PublicID, c.QueryParam("eventCode"), c.QueryParam("activityCode"))
		if err != nil && palaro.ErrorCode(err) != palaro.ENOTFOUND {
			return err
		}
		if card != nil {
			v.Scratch = s.scratchProps(card)
			v.Scratch.RevealURL = "/activities/revealed?" + scanQuery(c).Encode()
		}
	}
	return s.renderActivities(c, http.StatusOK, v)
}

// participantCodeForm asks for the code sent to the participant's number.
func participantCodeForm(err error) views.Form {
	return views.Form{ID: "confirm-form", Action: "/activities/confirm/code#confirm", Submit: "Confirm my number",
		Error: formError(err), Fields: []views.FormField{{Name: palaro.FieldCode, Label: "Code from the SMS", Type: "text",
			InputMode: "numeric", Autocomplete: "one-time-code", MaxLength: palaro.MaxLength(palaro.FieldCode), Required: true,
			Error: fieldError(err, palaro.FieldCode)}}}
}

// sendParticipantCode sends a code by SMS to the number of this browser's unconfirmed participant
// (POST /activities/confirm). Codes to one number are limited like reset codes.
func (s *Server) sendParticipantCode(c *echo.Context) error {
	p, err := s.participantOf(c)
	if err != nil {
		return err
	}
	if p == nil || p.Confirmed {
		return c.Redirect(http.StatusSeeOther, "/activities")
	}
	if err := s.throttle(c, limitCheck{limitResetNumber, "participant-code|" + p.MobileNumber}); err != nil {
		v, verr := s.activitiesView(c, p)
		if verr != nil {
			return verr
		}
		v.Banner = &views.ScanBanner{Message: palaro.ErrorMessage(err), Error: true}
		return s.renderActivities(c, http.StatusTooManyRequests, v)
	}
	if err := s.services.Accounts.RequestParticipantCode(c.Request().Context(), p.PublicID); err != nil {
		return err
	}
	return c.Redirect(http.StatusSeeOther, "/activities?confirm=sent#confirm")
}

// confirmParticipantCode checks the code sent to this browser's participant's number (POST
// /activities/confirm/code); from then on the browser plays as the number's confirmed participant.
func (s *Server) confirmParticipantCode(c *echo.Context) error {
	p, err := s.participantOf(c)
	if err != nil {
		return err
	}
	if p == nil {
		return c.Redirect(http.StatusSeeOther, "/activities")
	}
	err = s.throttle(c, limitCheck{limitResetCheck, "participant-check|" + p.PublicID})
	var confirmed *palaro.Participant
	if err == nil {
		confirmed, err = s.services.Accounts.ConfirmParticipant(c.Request().Context(), p.PublicID, c.FormValue(palaro.FieldCode))
	}
	if _, ok := userFacing(err); ok {
		v, verr := s.activitiesView(c, p)
		if verr != nil {
			return verr
		}
		if v.Confirm != nil {
			f := participantCodeForm(err)
			v.Confirm.CodeForm = &f
		}
		return s.renderActivities(c, statusOfForm(err), v)
	} else if err != nil {
		return err
	}
	if err := s.rememberParticipant(c, confirmed.PublicID); err != nil {
		return err
	}
	// Sent here from a booth's code a moment ago: back to that booth, which now plays.
	if pass := strings.Fields(fmt.Sprint(visitOf(c).session.Values[keyBoothPass])); len(pass) == 3 &&
		s.atBooth(c, pass[0], pass[1], "") {
		return c.Redirect(http.StatusSeeOther, "/scan?"+url.Values{"activityCode": {pass[1]}, "eventCode": {pass[0]}}.Encode())
	}
	return c.Redirect(http.StatusSeeOther, "/activities?confirm=done")
}

// renderActivities renders the activities page, with the scratch island when it opens a card.
func (s *Server) renderActivities(c *echo.Context, status int, v views.ActivitiesView) error {
	page := s.engagePage(c, "Activities", "Booth games, scratch cards and quizzes at events, and your log of points and prizes.")
	if v.Scratch != nil {
		page.Islands = []string{"scratch"}
	}
	page.Islands = append(page.Islands, "camerascan")
	allowWasm(c)
	c.Response().Header().Set("Cache-Control", "no-store")
	return render(c, status, views.ActivitiesPage(page, v))
}

// cardRevealed records that this browser's participant played the card to the end (the island
// posts it when the game ends), so /activities no longer opens it.
func (s *Server) cardRevealed(c *echo.Context) error {
	p, err := s.participantOf(c)
	if err != nil {
		return err
	}
	if p == nil {
		return errParticipantGone
	}
	if err := s.services.Activities.MarkCardRevealed(c.Request().Context(), p.PublicID, c.QueryParam("eventCode"), c.QueryParam("activityCode")); err != nil {
		return err
	}
	return c.NoContent(http.StatusNoContent)
}

// activitiesView builds the activities page for participant p (nil for a visitor who is none).
func (s *Server) activitiesView(c *echo.Context, p *palaro.Participant) (views.ActivitiesView, error) {
	ctx := c.Request().Context()
	v := views.ActivitiesView{RegisterHref: "/register?next=%2Factivities", Camera: s.cameraScan("booth")}
	acts, err := s.services.Activities.ListActivities(ctx, "")
	if err != nil {
		return v, err
	}
	for _, a := range acts {
		if len(v.Events) == 0 || v.Events[len(v.Events)-1].EventHref != "/e/"+a.EventCode {
			v.Events = append(v.Events, views.ActivityEventGroup{EventName: a.EventName, EventHref: "/e/" + a.EventCode})
		}
		card := views.ActivityCard{Name: a.Name, Kind: kindLabels[a.Kind], Points: a.Points,
			Window: activityWindow(a.StartsAt, a.EndsAt)}
		if a.TicketHoldersOnly {
			card.Note = "Ticket holders only"
		}
		if a.Kind == palaro.ActivityQuiz && a.Quiz != "" {
			card.Href, card.HrefText = "/quiz/"+a.Quiz+"/"+a.EventCode, "Take the quiz"
		}
		g := &v.Events[len(v.Events)-1]
		g.Activities = append(g.Activities, card)
	}
	if p == nil {
		if u := currentUser(c); u != nil && !u.MobileConfirmed {
			v.Confirm = &views.ConfirmBox{Href: "/profile#mobile",
				Text: "Confirm your mobile number to see your participant QR code, points and prizes: we send you a code by SMS."}
		}
		return v, nil
	}
	if !p.Confirmed {
		v.Confirm = &views.ConfirmBox{SendAction: "/activities/confirm#confirm",
			Text: "Confirm your mobile number " + p.MobileNumber + " to play for prizes: we send you a 6-digit code by SMS."}
	}
	v.ParticipantName, v.QRHref = p.FirstName+" "+p.LastName, "/register/success/"+p.PublicID
	log, total, err := s.services.Activities.ParticipantLog(ctx, p.PublicID)
	if err != nil {
		return v, err
	}
	v.TotalPoints = total
	for _, l := range log {
		row := views.ActivityLogRow{Time: l.At.In(palaro.Manila).Format("Jan 2, 3:04 PM"), DateTime: l.At.Format(time.RFC3339),
			Activity: l.ActivityName, Event: l.EventName, Points: l.Points, Remarks: l.Remarks, Prize: l.PrizeName}
		if l.PrizeName != "" && !l.Claimable { // not a prize to collect: the log says so, as the card does
			row.Remarks, row.Prize = palaro.ScratchRemarks(l.PrizeName, false), ""
		}
		switch {
		case l.PrizeName == "" || !l.Claimable:
		case !l.ClaimedAt.IsZero():
			row.Claim = "Claimed"
		default:
			row.Claim = "To claim at the booth"
		}
		if l.CardPending && l.ClaimedAt.IsZero() { // the outcome stays hidden until the card is scratched (or the prize handed over)
			row.CardHref = "/activities?" + url.Values{"activityCode": {l.ActivityCode}, "eventCode": {l.EventCode}}.Encode()
			row.Remarks, row.Prize, row.Claim = "Your card is not scratched yet.", "", ""
		}
		v.Log = append(v.Log, row)
	}
	return v, nil
}

// activityWindow says when an activity is open, in Manila time.
func activityWindow(from, to time.Time) string {
	f, t := from.In(palaro.Manila), to.In(palaro.Manila)
	return "Open " + f.Format("Jan 2, 3:04 PM") + " to " + t.Format("Jan 2, 3:04 PM")
}

// leaderboardSize is how many participants a leaderboard shows.
const leaderboardSize = 50

// leaderboardPage renders /leaderboard (overall, or ?event=CODE); with ?fragment=1 only the table
// that htmx reloads every 30 seconds.
func (s *Server) leaderboardPage(c *echo.Context) error {
	ctx := c.Request().Context()
	event := c.QueryParam("event")
	p, err := s.participantOf(c)
	if err != nil {
		return err
	}
	pid := ""
	if p != nil {
		pid = p.PublicID
	}
	lb, err := s.services.Activities.Leaderboard(ctx, event, pid, leaderboardSize)
	if err != nil {
		return err
	}
	v := views.LeaderboardView{Heading: "Overall", Event: event, RefreshURL: "/leaderboard?fragment=1", RegisterHref: "/register?next=%2Factivities"}
	if p != nil {
		v.ParticipantName = p.FirstName
	}
	if event != "" {
		v.RefreshURL = "/leaderboard?fragment=1&event=" + url.QueryEscape(event)
	}
	acts, err := s.services.Activities.ListActivities(ctx, "")
	if err != nil {
		return err
	}
	seen := map[string]bool{}
	for _, a := range acts {
		if !seen[a.EventCode] {
			seen[a.EventCode] = true
			v.Options = append(v.Options, views.LeaderboardOption{Code: a.EventCode, Name: a.EventName, Selected: a.EventCode == event})
			if a.EventCode == event {
				v.Heading = a.EventName
			}
		}
	}
	ownShown := false
	for _, r := range lb.Rows {
		own := r.ParticipantID == pid
		ownShown = ownShown || own
		v.Rows = append(v.Rows, views.LeaderboardRow{Rank: r.Rank, Name: r.Name, Points: r.Points, Own: own})
	}
	if lb.Own != nil && !ownShown {
		v.Own = &views.LeaderboardRow{Rank: lb.Own.Rank, Name: lb.Own.Name, Points: lb.Own.Points, Own: true}
	}
	c.Response().Header().Set("Cache-Control", "no-store")
	if c.QueryParam("fragment") != "" {
		return render(c, http.StatusOK, views.LeaderboardTable(v))
	}
	return render(c, http.StatusOK, views.LeaderboardPage(s.engagePage(c, "Leaderboard",
		"Participants ranked by the points they earned at events, overall and per event."), v))
}

// participantQR sends this browser's participant (the signed-in account's, created by mobile
// number when there is none yet) to their QR page, and anyone else to register.
func (s *Server) participantQR(c *echo.Context) error {
	p, err := s.participantOf(c)
	if err != nil {
		return err
	}
	if p == nil {
		return c.Redirect(http.StatusSeeOther, "/register")
	}
	return c.Redirect(http.StatusSeeOther, "/register/success/"+p.PublicID)
}
