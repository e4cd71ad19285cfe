package handlers

import (
	"bytes"
	"errors"
	"fmt"
	"image"
	"image/png"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/labstack/echo/v5"
	"golang.org/x/image/draw"

	"palaro"
	"palaro/views"
)

// orgActivity returns the route's event and its activity named by :activity.
func (s *Server) orgActivity(c *echo.Context, caller *palaro.Caller) (*palaro.Event, *palaro.Activity, error) {
	ev, err := s.orgEvent(c, caller)
	if err != nil {
		return nil, nil, err
	}
	a, err := s.services.Activities.FindActivity(c.Request().Context(), ev.Code, c.Param("activity"))
	return ev, a, err
}

// consoleTime is how the console's form shows and reads times: Manila, to the minute.
const consoleTime = "2006-01-02T15:04"

// activityForm is the console's form of an activity input.
func activityForm(action string, in palaro.ActivityInput, err error) views.Form {
	prizes := make([]string, len(in.Prizes))
	for i, p := range in.Prizes {
		prizes[i] = fmt.Sprintf("%s, %s, %d", p.Code, p.Name, p.Stock)
	}
	at := func(t time.Time) string {
		if t.IsZero() {
			return ""
		}
		return t.In(palaro.Manila).Format(consoleTime)
	}
	field := func(name, label, typ, value, hint string, required bool) views.FormField {
		return views.FormField{Name: name, Label: label, Type: typ, Value: value, Hint: hint, Required: required, MaxLength: 300, Error: fieldError(err, name)}
	}
	return views.Form{ID: "activity", Action: action, Submit: "Save activity", Error: formError(err), Fields: []views.FormField{
		field("code", "Code", "text", in.Code, "Lower-case letters, digits and hyphens; part of the booth's QR code.", true),
		field("kind", "Kind", "text", in.Kind, "booth, scratch or quiz", true),
		field("name", "Name", "text", in.Name, "", true),
		field("description", "Instructions (printed on the poster)", "text", in.Description, "", false),
		field("points", "Points", "number", strconv.Itoa(in.Points), "", true),
		field("startsAt", "Opens (Manila time)", "datetime-local", at(in.StartsAt), "", true),
		field("endsAt", "Closes (Manila time)", "datetime-local", at(in.EndsAt), "", true),
		field("winPercent", "Win chance of a scratch card (percent)", "number", strconv.Itoa(in.WinPercent), "", false),
		field("quiz", "Quiz of a quiz activity", "text", in.Quiz, "investment-persona or investment-power", false),
		field("prizes", "Prizes of a scratch card", "textarea", strings.Join(prizes, "\n"), "One per line: code, name, stock", false),
	}, Checkboxes: []views.FormCheckbox{{Name: "ticketHoldersOnly", Label: "Ticket holders only", Checked: in.TicketHoldersOnly}}}
}

// activityInputFromForm reads the console's activity form; an unreadable number or time is left
// zero, and Validate names the field.
func activityInputFromForm(c *echo.Context) palaro.ActivityInput {
	num := func(name string) int { n, _ := strconv.Atoi(strings.TrimSpace(c.FormValue(name))); return n }
	at := func(name string) time.Time {
		t, _ := time.ParseInLocation(consoleTime, strings.TrimSpace(c.FormValue(name)), palaro.Manila)
		return t
	}
	in := palaro.ActivityInput{Code: c.FormValue("code"), Kind: strings.TrimSpace(c.FormValue("kind")), Name: c.FormValue("name"),
		Description: c.FormValue("description"), Points: num("points"), StartsAt: at("startsAt"), EndsAt: at("endsAt"),
		TicketHoldersOnly: c.FormValue("ticketHoldersOnly") != "", WinPercent: num("winPercent"), Quiz: strings.TrimSpace(c.FormValue("quiz")),
		Prizes: []palaro.PrizeInput{}}
	for _, line := range strings.Split(c.FormValue("prizes"), "\n") {
		parts := strings.Split(line, ",")
		if strings.TrimSpace(line) == "" {
			continue
		}
		p := palaro.PrizeInput{Code: strings.TrimSpace(parts[0]), Stock: -1, Claimable: true}
		if len(parts) == 3 {
			p.Name = parts[1]
			if n, err := strconv.Atoi(strings.TrimSpace(parts[2])); err == nil {
				p.Stock = n
			}
		}
		in.Prizes = append(in.Prizes, p)
	}
	return in
}

func (s *Server) renderOrgActivities(c *echo.Context, caller *palaro.Caller, ev *palaro.Event, in palaro.ActivityInput, err error) error {
	return s.renderOrgActivitiesImage(c, caller, ev, in, err, "", http.StatusOK)
}

// renderOrgActivitiesImage renders the console's activities page, with why a prize picture was
// refused (imageErr, answered with imageStatus) when it was.
func (s *Server) renderOrgActivitiesImage(c *echo.Context, caller *palaro.Caller, ev *palaro.Event, in palaro.ActivityInput, err error,
	imageErr string, imageStatus int) error {
	acts, lerr := s.services.Activities.ListActivities(c.Request().Context(), ev.Code)
	if lerr != nil {
		return lerr
	}
	base := "/organizer/events/" + ev.Code + "/activities"
	v := views.OrgActivitiesView{Frame: eventFrame(c, caller, ev, "Activities · "+ev.Name), Form: activityForm(base, in, err), ImageError: imageErr}
	for _, a := range acts {
		row := views.OrgActivityRow{Code: a.Code, Name: a.Name, Kind: kindLabels[a.Kind], Points: a.Points, Window: activityWindow(a.StartsAt, a.EndsAt),
			PosterURL: base + "/" + a.Code + "/poster", BoothURL: base + "/" + a.Code + "/scan"}
		if a.HasPrizes() {
			row.ScreenURL = base + "/" + a.Code + "/screen"
		}
		for _, p := range a.Prizes {
			pr := views.OrgPrizeRow{Label: fmt.Sprintf("%s: %d of %d won", p.Name, p.Awarded, p.Stock), Name: p.Name,
				ImageAction: base + "/" + a.Code + "/prizes/" + url.PathEscape(p.Code) + "/image"}
			if p.ImageURL != "" {
				pr.ImageURL = s.assetURL(p.ImageURL)
			}
			for _, b := range builtinPrizePictures {
				pr.Choices = append(pr.Choices, views.Option{Value: b[0], Label: b[1], Selected: b[0] == p.ImageURL})
			}
			row.Prizes = append(row.Prizes, pr)
		}
		v.Activities = append(v.Activities, row)
	}
	status := imageStatus
	if err != nil {
		status = statusOfForm(err)
	}
	p := s.orgPage(c, "Activities · "+ev.Name)
	p.Styles = []string{"css/engage.css"}
	return render(c, status, views.OrgActivitiesPage(p, v))
}

func (s *Server) orgActivitiesPage(c *echo.Context, caller *palaro.Caller) error {
	ev, err := s.orgEvent(c, caller)
	if err != nil {
		return err
	}
	in := palaro.ActivityInput{Kind: palaro.ActivityBooth, Points: 10, WinPercent: 30, StartsAt: ev.StartsAt, EndsAt: ev.EndsAt}
	return s.renderOrgActivities(c, caller, ev, in, nil)
}

func (s *Server) orgSaveActivity(c *echo.Context, caller *palaro.Caller) error {
	ev, err := s.orgEvent(c, caller)
	if err != nil {
		return err
	}
	in := activityInputFromForm(c)
	if cur, err := s.services.Activities.FindActivity(c.Request().Context(), ev.Code, in.Code); err == nil {
		// The form's prize lines carry no picture: each prize keeps the one it has.
		for i := range in.Prizes {
			for _, p := range cur.Prizes {
				if p.Code == in.Prizes[i].Code {
					in.Prizes[i].ImageURL = p.ImageURL
				}
			}
		}
	}
	if _, err := s.services.ActivityAdmin.SaveActivity(c.Request().Context(), ev.ID, caller.Actor(), in); err != nil {
		if _, ok := userFacing(err); ok {
			return s.renderOrgActivities(c, caller, ev, in, err)
		}
		return err
	}
	return c.Redirect(http.StatusSeeOther, "/organizer/events/"+ev.Code+"/activities")
}

// orgPosterPage renders the booth's A4 poster with the activity's QR code (a URL of Palaro, so a
// phone's own camera opens it).
func (s *Server) orgPosterPage(c *echo.Context, caller *palaro.Caller) error {
	ev, a, err := s.orgActivity(c, caller)
	if err != nil {
		return err
	}
	u := s.config.BaseURL + a.ScanURL()
	qr, err := qrDataURI(u, 300, 5)
	if err != nil {
		return err
	}
	text := a.Description
	if text == "" {
		text = "Scan this code with your phone's camera to join " + a.Name + " and earn " + palaro.Plural(a.Points, "point", "points") + "."
	}
	if a.HasPrizes() {
		text += " To play for prizes, scan the code on the booth's screen."
	}
	p := s.orgPage(c, "Poster · "+a.Name)
	p.ShowNav = false
	p.Styles = []string{"css/engage.css"}
	return render(c, http.StatusOK, views.OrgPosterPage(p, views.OrgPosterView{EventName: ev.Name, ActivityName: a.Name,
		Instructions: text, QRDataURI: qr, URL: u}))
}

// orgBoothScreen renders the booth's screen (GET …/screen): the activity's QR code with the
// booth code of the moment (palaro.BoothScanURL), which changes every palaro.BoothCodePeriod; with
// ?fragment=1 only the QR code, which htmx reloads every 10 seconds.
func (s *Server) orgBoothScreen(c *echo.Context, caller *palaro.Caller) error {
	ev, a, err := s.orgActivity(c, caller)
	if err != nil {
		return err
	}
	u := s.config.BaseURL + palaro.BoothScanURL(s.config.BoothKey, a, s.Now())
	qr, err := qrDataURI(u, 300, 5)
	if err != nil {
		return err
	}
	v := views.OrgBoothScreenView{EventName: ev.Name, ActivityName: a.Name, QRDataURI: qr, URL: u,
		Instructions: "Scan this code with your phone's camera to play " + a.Name + ".",
		RefreshURL:   "/organizer/events/" + ev.Code + "/activities/" + a.Code + "/screen?fragment=1",
		Seconds:      int(palaro.BoothCodePeriod / time.Second)}
	c.Response().Header().Set("Cache-Control", "no-store")
	if c.QueryParam("fragment") != "" {
		return render(c, http.StatusOK, views.OrgBoothScreenQR(v))
	}
	p := s.orgPage(c, "Booth screen · "+a.Name)
	p.ShowNav = false
	p.NoIndex = true
	p.Styles = []string{"css/engage.css"}
	p.Refresh = 20 // without scripts, the whole page
	return render(c, http.StatusOK, views.OrgBoothScreenPage(p, v))
}

func (s *Server) renderBooth(c *echo.Context, caller *palaro.Caller, ev *palaro.Event, a *palaro.Activity, result string, isErr bool) error {
	claims, err := s.services.ActivityAdmin.ListClaims(c.Request().Context(), a.ID)
	if err != nil {
		return err
	}
	base := "/organizer/events/" + ev.Code + "/activities/" + a.Code
	v := views.OrgBoothView{Frame: orgFrame(c, caller, "Booth · "+a.Name), ScanAction: base + "/scan", ClaimAction: base + "/claims/",
		Result: result, ResultError: isErr, Camera: s.cameraScan("participant")}
	v.Frame.Back = views.Link{Label: "Activities", Href: "/organizer/events/" + ev.Code + "/activities"}
	for _, cl := range claims {
		row := views.OrgClaimRow{ID: strconv.FormatInt(cl.VisitID, 10), Participant: cl.Participant, Prize: cl.PrizeName,
			WonAt: cl.WonAt.In(palaro.Manila).Format("Jan 2, 3:04 PM")}
		if !cl.ClaimedAt.IsZero() {
			row.Claimed = "Claimed " + cl.ClaimedAt.In(palaro.Manila).Format("Jan 2, 3:04 PM") + " by " + cl.ClaimedBy
		}
		v.Claims = append(v.Claims, row)
	}
	p := s.orgPage(c, "Booth · "+a.Name)
	p.Styles = []string{"css/engage.css"}
	p.Islands = []string{"camerascan"}
	allowWasm(c)
	return render(c, http.StatusOK, views.OrgBoothPage(p, v))
}

func (s *Server) orgBoothPage(c *echo.Context, caller *palaro.Caller) error {
	ev, a, err := s.orgActivity(c, caller)
	if err != nil {
		return err
	}
	return s.renderBooth(c, caller, ev, a, "", false)
}

// orgBoothScan registers a visit for the participant whose QR code booth staff scanned (or typed).
func (s *Server) orgBoothScan(c *echo.Context, caller *palaro.Caller) error {
	ev, a, err := s.orgActivity(c, caller)
	if err != nil {
		return err
	}
	pid := strings.TrimSpace(c.FormValue("participantId"))
	if i := strings.LastIndex(pid, "/"); i >= 0 {
		pid = pid[i+1:] // a participant page URL
	}
	// Booth staff scanning the participant's QR code is the proof that the visit is at the booth.
	res, err := s.services.Activities.Scan(c.Request().Context(), palaro.ScanRequest{ActivityCode: a.Code, EventCode: ev.Code, ParticipantID: pid,
		AtBooth: true})
	who := ""
	if p, perr := s.services.Accounts.FindParticipant(c.Request().Context(), pid); perr == nil {
		who = p.FirstName + " " + p.LastName + ": " // staff see whom they scanned
	}
	if _, ok := userFacing(err); ok {
		return s.renderBooth(c, caller, ev, a, who+palaro.ErrorMessage(err), true)
	} else if err != nil {
		return err
	}
	visit := "Visit registered"
	if who != "" {
		visit = who + "visit registered"
	}
	msg := visit + fmt.Sprintf(": +%s (%d in total).", palaro.Plural(res.Points, "point", "points"), res.TotalPoints)
	if res.Repeat {
		msg = who + "joined before; nothing more was awarded."
	}
	if w := res.Scratch; w != nil && w.PrizeWon != nil && w.PrizeWon.Claimable {
		msg += " Prize won: " + w.PrizeWon.Name + "."
	} else if w != nil && w.PrizeWon != nil {
		msg += " " + palaro.ScratchRemarks(w.PrizeWon.Name, false) + "."
	}
	return s.renderBooth(c, caller, ev, a, msg, false)
}

// orgClaimPrize marks a prize handed over at the booth.
func (s *Server) orgClaimPrize(c *echo.Context, caller *palaro.Caller) error {
	ev, a, err := s.orgActivity(c, caller)
	if err != nil {
		return err
	}
	id, _ := strconv.ParseInt(c.Param("visit"), 10, 64)
	if err := s.services.ActivityAdmin.ClaimPrize(c.Request().Context(), a.ID, id, caller.Actor()); err != nil {
		if _, ok := userFacing(err); ok {
			return s.renderBooth(c, caller, ev, a, palaro.ErrorMessage(err), true)
		}
		return err
	}
	return c.Redirect(http.StatusSeeOther, "/organizer/events/"+ev.Code+"/activities/"+a.Code+"/scan")
}

// apiOrgActivities answers GET /v1/organizer/events/{code}/activities: the event's activities with prizes.
func (s *Server) apiOrgActivities(c *echo.Context, caller *palaro.Caller) error {
	ev, err := s.orgEvent(c, caller)
	if err != nil {
		return err
	}
	acts, err := s.services.Activities.ListActivities(c.Request().Context(), ev.Code)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, map[string]any{"activities": acts})
}

// apiOrgCreateActivity answers POST /v1/organizer/events/{code}/activities (201 with the activity).
func (s *Server) apiOrgCreateActivity(c *echo.Context, caller *palaro.Caller) error {
	ev, err := s.orgEvent(c, caller)
	if err != nil {
		return err
	}
	var in palaro.ActivityInput
	if err := decodeJSONStrict(c, &in); err != nil {
		return err
	}
	if _, err := s.services.Activities.FindActivity(c.Request().Context(), ev.Code, in.Code); err == nil {
		return palaro.Errorf(palaro.ECONFLICT, "An activity with this code exists: change it with PATCH.")
	}
	a, err := s.services.ActivityAdmin.SaveActivity(c.Request().Context(), ev.ID, caller.Actor(), in)
	if err != nil {
		return apiError(err)
	}
	return c.JSON(http.StatusCreated, a)
}

// apiOrgUpdateActivity answers PATCH /v1/organizer/events/{code}/activities/{activityCode}: the
// fields given change (kind, name, points, window, prizes with stock), the rest stay.
func (s *Server) apiOrgUpdateActivity(c *echo.Context, caller *palaro.Caller) error {
	ev, cur, err := s.orgActivity(c, caller)
	if err != nil {
		return err
	}
	in := palaro.ActivityInputOf(*cur)
	if err := decodeJSONStrict(c, &in); err != nil {
		return err
	}
	in.Code = cur.Code
	a, err := s.services.ActivityAdmin.SaveActivity(c.Request().Context(), ev.ID, caller.Actor(), in)
	if err != nil {
		return apiError(err)
	}
	return c.JSON(http.StatusOK, a)
}

// prizeImagePath is the route of prize picture uploads, which take a picture-sized body.
const prizeImagePath = "/organizer/events/:code/activities/:activity/prizes/:prize/image"

// builtinPrizePictures are the pictures an organizer can choose for a prize without uploading one
// (asset name, label).
var builtinPrizePictures = [][2]string{
	{"img/prizes/headset.svg", "Headset"}, {"img/prizes/jersey.svg", "Jersey"}, {"img/prizes/stickers.svg", "Sticker pack"},
	{"img/prizes/try-again.svg", "Try again"}, {"img/prizes/better-luck.svg", "Better luck next time"},
}

// prizeImageSide is the side in pixels of a stored prize picture (a scratch cell is at most 120 CSS px).
const prizeImageSide = 240

// prizeImage cuts a picture square around its centre and encodes it as a PNG of prizeImageSide.
func prizeImage(img image.Image) ([]byte, error) {
	b := img.Bounds()
	side := min(b.Dx(), b.Dy())
	crop := image.Rect(b.Min.X+(b.Dx()-side)/2, b.Min.Y+(b.Dy()-side)/2, b.Min.X+(b.Dx()-side)/2+side, b.Min.Y+(b.Dy()-side)/2+side)
	dst := image.NewRGBA(image.Rect(0, 0, prizeImageSide, prizeImageSide))
	draw.CatmullRom.Scale(dst, dst.Bounds(), img, crop, draw.Src, nil)
	var buf bytes.Buffer
	if err := (&png.Encoder{CompressionLevel: png.BestCompression}).Encode(&buf, dst); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// orgPrizeImage sets a prize's picture from an upload (checked and re-encoded like covers) or a
// built-in choice. Cards already drawn keep the pictures they were dealt.
func (s *Server) orgPrizeImage(c *echo.Context, caller *palaro.Caller) error {
	ev, a, err := s.orgActivity(c, caller)
	if err != nil {
		return err
	}
	refuse := func(msg string, status int) error {
		return s.renderOrgActivitiesImage(c, caller, ev, palaro.ActivityInputOf(*a), nil, msg, status)
	}
	if pictureTooLarge(c) {
		return refuse(errPictureTooLarge.msg, errPictureTooLarge.status)
	}
	var data []byte
	imageURL := c.FormValue("builtin")
	if f, _, ferr := c.Request().FormFile("picture"); ferr == nil {
		defer f.Close()
		img, _, release, err := decodePicture(f)
		var pe *pictureError
		if errors.As(err, &pe) {
			return refuse(pe.msg, pe.status)
		} else if err != nil {
			return err
		}
		data, err = prizeImage(img)
		release()
		if err != nil {
			return err
		}
	} else if !slices.ContainsFunc(builtinPrizePictures, func(b [2]string) bool { return b[0] == imageURL }) {
		return refuse("Choose a picture or upload a JPEG, PNG or WebP picture.", http.StatusUnprocessableEntity)
	}
	if _, err := s.services.ActivityAdmin.SetPrizeImage(c.Request().Context(), ev.ID, caller.Actor(), a.Code, c.Param("prize"), data, imageURL); err != nil {
		return err
	}
	return c.Redirect(http.StatusSeeOther, "/organizer/events/"+ev.Code+"/activities")
}

// prizeImageFile serves an uploaded prize picture; a new upload gets a new URL, so it is cached for a year.
func (s *Server) prizeImageFile(c *echo.Context) error {
	name, ok := strings.CutSuffix(c.Param("file"), ".png")
	if !ok || !imageNameRE.MatchString(name) {
		return errPageNotFound
	}
	data, err := s.services.ActivityAdmin.FindPrizeImage(c.Request().Context(), name)
	if err != nil {
		return err
	}
	c.Response().Header().Set("Cache-Control", "public, max-age=31536000, immutable")
	return c.Blob(http.StatusOK, "image/png", data)
}
