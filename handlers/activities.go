package handlers

import (
	"net/http"
	"strings"

	"github.com/labstack/echo/v5"

	"palaro"
)

// keyParticipant is the session value holding the public id of the participant this browser
// registered (or played) as.
const keyParticipant = "pid"

// activityRoutes are the participant's side of activities: the scan call and page, the activity
// log and the leaderboard.
func (s *Server) activityRoutes() {
	e := s.echo
	e.GET("/v1/scan", s.apiScan)
}

// rememberParticipant makes this browser play as the participant from now on.
func (s *Server) rememberParticipant(c *echo.Context, publicID string) error {
	v := visitOf(c)
	if v.session.Values[keyParticipant] == publicID {
		return nil
	}
	v.session.Values[keyParticipant] = publicID
	return v.session.Save(c.Request(), c.Response())
}

// participantOf returns the participant this browser plays as: the one it registered, else the
// signed-in account's record (found or created by mobile number). It is nil for anyone else.
func (s *Server) participantOf(c *echo.Context) (*palaro.Participant, error) {
	ctx := c.Request().Context()
	if u := currentUser(c); u != nil && u.MobileNumber != "" {
		return s.services.Activities.ParticipantForMobile(ctx, palaro.ParticipantSignUp{
			FirstName: u.FirstName, LastName: u.LastName, MobileNumber: u.MobileNumber})
	}
	pid, _ := visitOf(c).session.Values[keyParticipant].(string)
	if pid == "" {
		return nil, nil
	}
	p, err := s.services.Accounts.FindParticipant(ctx, pid)
	if palaro.ErrorCode(err) == palaro.ENOTFOUND {
		return nil, nil
	}
	return p, err
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
		return nil, echo.NewHTTPError(http.StatusUnprocessableEntity, palaro.ErrorMessage(err))
	}
	return res, err
}

// apiScan answers GET /v1/scan?activityCode=&eventCode=&participantId=: the stored result of the
// participant's visit (registered now, or before). 404 for unknown codes or participant, 422
// outside the activity's window or for a participant without a ticket where one is needed.
func (s *Server) apiScan(c *echo.Context) error {
	res, err := s.scan(c, palaro.ScanRequest{ActivityCode: c.QueryParam("activityCode"), EventCode: c.QueryParam("eventCode"),
		ParticipantID: c.QueryParam("participantId")})
	if err != nil {
		return err
	}
	c.Response().Header().Set("Cache-Control", "no-store")
	return c.JSON(http.StatusOK, scanAnswer{Message: res.Message, Points: res.Points, TotalPoints: res.TotalPoints,
		Scratch: s.servedCard(res.Scratch)})
}
