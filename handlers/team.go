package handlers

import (
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"time"

	"github.com/labstack/echo/v5"

	"palaro"
	"palaro/views"
)

// teamRegisterPath is the route of a tournament's registration form (a logo upload: its body
// may be as large as a picture's).
const teamRegisterPath = "/tournament/:tournament/register"

// teamTimeFormat is how tournament times are shown (Manila time).
const teamTimeFormat = "Mon 2 Jan, 3:04 PM"

// tournamentView builds the head of a tournament for its pages.
func tournamentView(t *palaro.Tournament, now time.Time) views.TournamentView {
	opens, closes := t.CheckInWindow()
	who := "the captain"
	if t.CheckInBy == palaro.CheckInByPlayers {
		who = "every player"
	}
	size := fmt.Sprintf("%d players", t.MinPlayers)
	if t.MaxPlayers > t.MinPlayers {
		size = fmt.Sprintf("%d to %d players", t.MinPlayers, t.MaxPlayers)
	}
	if t.Substitutes > 0 {
		size += " and up to " + palaro.Plural(t.Substitutes, "substitute", "substitutes")
	}
	fee := "Free entry"
	if t.EntryFee > 0 {
		fee = "Entry fee " + t.EntryFee.String()
	}
	v := views.TournamentView{Code: t.Code, Name: t.Name, Game: palaro.GameName(t.Game), Format: t.Format,
		BracketURL: t.BracketURL, StreamURL: t.StreamURL,
		Facts: []string{
			"Starts " + t.StartsAt.In(palaro.Manila).Format(teamTimeFormat),
			"Teams of " + size,
			fmt.Sprintf("%d places: %d taken, %s waiting", t.MaxTeams, t.Registered, palaro.Plural(t.Waitlisted, "team", "teams")),
			"Registration " + t.RegistrationOpensAt.In(palaro.Manila).Format(teamTimeFormat) + " to " + t.RegistrationClosesAt.In(palaro.Manila).Format(teamTimeFormat),
			"Roster locks " + t.RosterLocksAt.In(palaro.Manila).Format(teamTimeFormat),
			"Check-in by " + who + ", " + opens.In(palaro.Manila).Format("3:04 PM") + " to " + closes.In(palaro.Manila).Format("3:04 PM"),
			fee,
		}}
	if t.RegistrationOpen(now) {
		v.RegisterHref = "/tournament/" + t.Code + "/register"
	}
	return v
}

// teamRow builds a team's line in a list.
func teamRow(team palaro.Team) views.TeamRow {
	r := views.TeamRow{Name: team.Name, Tag: team.Tag, Players: palaro.Plural(team.Joined(), "player", "players")}
	if team.Seed > 0 {
		r.Seed = "#" + strconv.Itoa(team.Seed)
	}
	if team.CheckedIn() {
		r.State = " · checked in"
	}
	if team.HasLogo {
		r.LogoSrc = "/team/" + team.PublicID + "/logo"
	}
	return r
}

// teamsPage serves /e/{code}/teams: the event's tournaments and their teams (a public page,
// cached; registrations and check-ins drop the cache).
func (s *Server) teamsPage(c *echo.Context) error {
	ctx := c.Request().Context()
	ev, err := s.services.Events.FindEventByCode(ctx, c.Param("code"))
	if err != nil {
		return err
	}
	ts, err := s.services.Tournaments.ListTournaments(ctx, ev.Code)
	if err != nil {
		return err
	}
	now := s.Now()
	v := views.TeamsView{EventName: ev.Name, EventHref: "/e/" + ev.Code}
	for i := range ts {
		tv := tournamentView(&ts[i], now)
		teams, err := s.services.Tournaments.ListTeams(ctx, ts[i].ID)
		if err != nil {
			return err
		}
		for _, team := range teams {
			switch row := teamRow(team); team.Status {
			case palaro.TeamRegistered:
				tv.Teams = append(tv.Teams, row)
			case palaro.TeamWaitlisted:
				tv.Waiting = append(tv.Waiting, row)
			default:
				row.State = " · " + team.Status
				tv.Out = append(tv.Out, row)
			}
		}
		v.Tournaments = append(v.Tournaments, tv)
	}
	p := s.page(c, "Teams · "+ev.Name+" · Palaro", "The teams registered for the tournaments of "+ev.Name+".")
	p.Nav = views.NavDefaultBack
	return render(c, http.StatusOK, views.TeamsPage(p, v))
}

// teamRegisterPage serves a tournament's registration form (GET) and registers the signed-in
// captain's team (POST), then sends them to the team's page.
func (s *Server) teamRegisterPage(c *echo.Context) error {
	ctx := c.Request().Context()
	t, err := s.services.Tournaments.FindTournament(ctx, c.Param("tournament"))
	if err != nil {
		return err
	}
	u := currentUser(c)
	if u == nil {
		return s.signInRequired(c, "Register a team", "Sign in to register a team: you will be its captain.")
	}
	now := s.Now()
	v := views.TeamRegisterView{Tournament: tournamentView(t, now), Rules: t.Rules, Action: "/tournament/" + t.Code + "/register",
		Accept: views.FormCheckbox{Name: palaro.FieldAcceptRules, Label: "I accept the tournament's rules"}}
	name, tag := c.FormValue(palaro.FieldTeamName), c.FormValue(palaro.FieldTeamTag)
	status := http.StatusOK
	if !t.RegistrationOpen(now) {
		v.Error = "Registration is closed."
	}
	if c.Request().Method == http.MethodPost && !pictureTooLarge(c) {
		req := palaro.TeamRegistration{TournamentCode: t.Code, CaptainID: u.ID, Name: name, Tag: tag,
			AcceptRules: c.FormValue(palaro.FieldAcceptRules) != ""}
		if fh, ferr := c.FormFile("logo"); ferr == nil && fh.Size > 0 {
			f, err := fh.Open()
			if err != nil {
				return err
			}
			pic, err := processPicture(f)
			f.Close()
			var perr *pictureError
			if errors.As(err, &perr) {
				v.LogoError = perr.msg
			} else if err != nil {
				return err
			}
			req.Logo, req.LogoType = pic.Data, pic.ContentType
		}
		if v.LogoError == "" {
			team, err := s.services.Tournaments.RegisterTeam(ctx, req, now)
			if err == nil && team.Status == palaro.TeamUnpaid { // the fee first: the place is taken when paid
				return s.payEntryFee(c, team)
			}
			if err == nil {
				s.eventsChanged()
				return c.Redirect(http.StatusSeeOther, palaro.TeamPath(team.PublicID)+"?registered=1")
			}
			if _, ok := userFacing(err); !ok {
				return err
			}
			v.Error, status = formError(err), statusOfForm(err)
			if v.Error == "" {
				v.Error = "Please correct the highlighted fields."
			}
			v.Accept.Error = fieldError(err, palaro.FieldAcceptRules)
			v.Fields = teamFields(name, tag, err)
			return render(c, status, views.TeamRegisterPage(s.accountPage(c, "Register a team", true), v))
		}
		status = http.StatusUnprocessableEntity
	} else if pictureTooLarge(c) {
		v.LogoError, status = errPictureTooLarge.msg, errPictureTooLarge.status
	}
	v.Fields = teamFields(name, tag, nil)
	return render(c, status, views.TeamRegisterPage(s.accountPage(c, "Register a team", true), v))
}

// teamFields are the registration form's text fields.
func teamFields(name, tag string, err error) []views.FormField {
	return []views.FormField{
		{Name: palaro.FieldTeamName, Label: "Team name", Type: "text", Value: name, MaxLength: 40, Required: true, Error: fieldError(err, palaro.FieldTeamName)},
		{Name: palaro.FieldTeamTag, Label: "Tag", Type: "text", Value: tag, MaxLength: 5, Required: true, Hint: "2 to 5 letters or digits, such as BREN",
			Error: fieldError(err, palaro.FieldTeamTag)},
	}
}

// teamNotices are the messages shown after a team page's forms.
var teamNotices = map[string]string{
	"registered": "Your team is registered. Invite your players below: each gets an e-mail with their own link.",
	"invited":    "Invitation sent.",
	"checked-in": "Checked in. See you at the players' entrance.",
	"joined":     "You joined the team. Keep the e-mail's link: it is also where you check in.",
}

// teamStatusText says where a team stands.
func teamStatusText(team *palaro.Team) string {
	switch team.Status {
	case palaro.TeamRegistered:
		if team.CheckedIn() {
			return team.Name + " has a place and is checked in."
		}
		return team.Name + " has a place."
	case palaro.TeamWaitlisted:
		s := fmt.Sprintf("%s is on the waiting list (entry %d). Check in anyway: when a team misses check-in, the first waiting team that checked in takes its place.", team.Name, team.Entry)
		if team.CheckedIn() {
			s += " Checked in."
		}
		return s
	case palaro.TeamDropped:
		return team.Name + " missed check-in and is out."
	case palaro.TeamUnpaid:
		return team.Name + " is not registered yet: its place (or its place on the waiting list) is taken when the entry fee of " +
			team.Tournament.EntryFee.String() + " is paid."
	}
	return team.Name + " is out: " + team.Status + " by the organizer."
}

// playerRows lists a team's players for its pages.
func playerRows(team *palaro.Team) []views.TeamPlayerRow {
	var rows []views.TeamPlayerRow
	for _, p := range team.Players {
		r := views.TeamPlayerRow{Name: p.InGameName, Account: p.GameAccount, Discord: p.Discord, State: "joined"}
		switch {
		case p.JoinedAt == nil:
			r.Name, r.State = "Invited player", "invited, not joined yet"
		case p.CheckedInAt != nil:
			r.State = "joined · checked in"
		}
		rows = append(rows, r)
	}
	return rows
}

// teamPage serves a team's page to its captain: the roster, the invite form, check-in.
func (s *Server) teamPage(c *echo.Context) error {
	u := currentUser(c)
	if u == nil {
		return s.signInRequired(c, "Your team", "Sign in as the team's captain to see its page.")
	}
	team, err := s.services.Tournaments.FindTeam(c.Request().Context(), c.Param("team"))
	if err != nil {
		return err
	}
	if team.CaptainID != u.ID {
		return palaro.Errorf(palaro.ENOTFOUND, "Team not found.")
	}
	return s.renderTeamPage(c, http.StatusOK, team, teamNotices[c.QueryParam("notice")], "", "", nil)
}

func (s *Server) renderTeamPage(c *echo.Context, status int, team *palaro.Team, notice, problem, email string, err error) error {
	if c.QueryParam("registered") == "1" {
		notice = teamNotices["registered"]
	}
	now := s.Now()
	t := team.Tournament
	base := palaro.TeamPath(team.PublicID)
	v := views.TeamPageView{Heading: team.Name + " [" + team.Tag + "]", Status: teamStatusText(team), Notice: notice, Error: problem,
		Tournament: tournamentView(t, now), Players: playerRows(team), TeamsHref: palaro.TeamsPath(t.EventCode)}
	v.Tournament.RegisterHref = ""
	out := team.Out()
	if !out && !t.RosterLocked(now) && len(team.Players) < t.RosterSize() {
		v.Invite = &views.Form{ID: "invite-form", Action: base + "/invite", Submit: "Send the invitation",
			Fields: []views.FormField{{Name: palaro.FieldPlayerEmail, Label: "Player's e-mail", Type: "email", Value: email, Autocomplete: "off",
				MaxLength: 254, Required: true, Error: fieldError(err, palaro.FieldPlayerEmail),
				Hint: fmt.Sprintf("%d of %d places on the roster taken", len(team.Players), t.RosterSize())}}}
	}
	if team.Status == palaro.TeamUnpaid {
		v.Pay = &views.Form{ID: "pay-form", Action: base + "/pay", Submit: "Pay the entry fee of " + t.EntryFee.String()}
	} else if team.OrderPublicID != "" {
		v.OrderHref = palaro.OrderPath(team.OrderPublicID)
	}
	if !out && t.CheckInBy == palaro.CheckInByCaptain && t.CheckInOpen(now) && !team.CheckedIn() {
		v.CheckIn = &views.Form{ID: "checkin-form", Action: base + "/check-in", Submit: "Check the team in"}
	}
	return render(c, status, views.TeamPage(s.accountPage(c, team.Name, true), v))
}

// teamPay handles the pay button of a registration whose entry fee is not paid: to the checkout.
func (s *Server) teamPay(c *echo.Context) error {
	u, err := requireUser(c)
	if u == nil {
		return err
	}
	team, err := s.services.Tournaments.FindTeam(c.Request().Context(), c.Param("team"))
	if err != nil {
		return err
	}
	if team.CaptainID != u.ID {
		return palaro.Errorf(palaro.ENOTFOUND, "Team not found.")
	}
	if team.Status != palaro.TeamUnpaid {
		return c.Redirect(http.StatusSeeOther, palaro.TeamPath(team.PublicID))
	}
	return s.payEntryFee(c, team)
}

// payEntryFee sends a captain to the checkout of their registration's entry fee; back on the
// team's page once paid. An order whose hold ended cannot be paid: the captain registers again.
func (s *Server) payEntryFee(c *echo.Context, team *palaro.Team) error {
	ctx := c.Request().Context()
	order, err := s.services.Purchases.FindOrderByPublicID(ctx, team.OrderPublicID)
	if err != nil {
		return err
	}
	if order.Status != palaro.OrderPending {
		return palaro.Errorf(palaro.ECONFLICT, "This registration's payment time ended: register the team again.")
	}
	if order.CheckoutURL != "" {
		return c.Redirect(http.StatusSeeOther, order.CheckoutURL)
	}
	url, err := s.startCheckoutTo(ctx, order, palaro.TeamPath(team.PublicID), palaro.TeamPath(team.PublicID)+"?registered=1")
	if err != nil {
		return err
	}
	return c.Redirect(http.StatusSeeOther, url)
}

// teamInvite handles the captain's invite form.
func (s *Server) teamInvite(c *echo.Context) error {
	return s.captainAction(c, func(team *palaro.Team, u *palaro.User) (string, error) {
		if err := s.throttleMail(c, mailRecipient(c.FormValue(palaro.FieldPlayerEmail))); err != nil {
			return "", err
		}
		return "invited", s.services.Tournaments.InvitePlayer(c.Request().Context(), team.PublicID, u.ID, c.FormValue(palaro.FieldPlayerEmail), s.Now())
	})
}

// teamCheckIn handles the captain's check-in button.
func (s *Server) teamCheckIn(c *echo.Context) error {
	return s.captainAction(c, func(team *palaro.Team, u *palaro.User) (string, error) {
		return "checked-in", s.services.Tournaments.CheckInCaptain(c.Request().Context(), team.PublicID, u.ID, s.Now())
	})
}

// captainAction runs a captain's form on their team's page: on success back to the page with
// the notice, else the page again with the problem.
func (s *Server) captainAction(c *echo.Context, act func(*palaro.Team, *palaro.User) (string, error)) error {
	u, err := requireUser(c)
	if u == nil {
		return err
	}
	ctx := c.Request().Context()
	team, err := s.services.Tournaments.FindTeam(ctx, c.Param("team"))
	if err != nil {
		return err
	}
	if team.CaptainID != u.ID {
		return palaro.Errorf(palaro.ENOTFOUND, "Team not found.")
	}
	notice, err := act(team, u)
	if err == nil {
		s.eventsChanged()
		return c.Redirect(http.StatusSeeOther, palaro.TeamPath(team.PublicID)+"?notice="+notice)
	}
	if _, ok := userFacing(err); !ok {
		return err
	}
	if team, err2 := s.services.Tournaments.FindTeam(ctx, team.PublicID); err2 == nil {
		return s.renderTeamPage(c, statusOfForm(err), team, "", palaro.ErrorMessage(err), c.FormValue(palaro.FieldPlayerEmail), err)
	}
	return err
}

// teamJoinPage serves a player's invitation link: the join form (GET shows, POST joins), then
// the player's own page with check-in when players check in.
func (s *Server) teamJoinPage(c *echo.Context) error {
	ctx := c.Request().Context()
	token := c.Param("token")
	p, team, err := s.services.Tournaments.FindPlayer(ctx, token)
	if err != nil {
		return err
	}
	now := s.Now()
	status, problem := http.StatusOK, ""
	var joinErr error
	j := palaro.PlayerJoin{InGameName: p.InGameName, GameAccount: p.GameAccount, Discord: p.Discord}
	if c.Request().Method == http.MethodPost {
		j = palaro.PlayerJoin{InGameName: c.FormValue(palaro.FieldInGameName), GameAccount: c.FormValue(palaro.FieldGameAccount),
			Discord: c.FormValue(palaro.FieldDiscord), AcceptRules: c.FormValue(palaro.FieldAcceptRules) != ""}
		_, joinErr = s.services.Tournaments.JoinTeam(ctx, token, j, now)
		if joinErr == nil {
			s.eventsChanged()
			return c.Redirect(http.StatusSeeOther, palaro.TeamJoinPath(token)+"?notice=joined")
		}
		if _, ok := userFacing(joinErr); !ok {
			return joinErr
		}
		status, problem = statusOfForm(joinErr), palaro.ErrorMessage(joinErr)
	}
	return s.renderJoinPage(c, status, token, p, team, j, teamNotices[c.QueryParam("notice")], problem, joinErr)
}

func (s *Server) renderJoinPage(c *echo.Context, status int, token string, p *palaro.TeamPlayer, team *palaro.Team, j palaro.PlayerJoin, notice, problem string, err error) error {
	now := s.Now()
	t := team.Tournament
	v := views.TeamPageView{Heading: team.Name + " [" + team.Tag + "]", Status: teamStatusText(team), Notice: notice, Error: problem,
		Tournament: tournamentView(t, now), Rules: t.Rules, Players: playerRows(team), TeamsHref: palaro.TeamsPath(t.EventCode)}
	v.Tournament.RegisterHref = ""
	out := team.Out()
	if !out && !t.RosterLocked(now) {
		submit := "Join the team"
		if p.JoinedAt != nil {
			submit = "Save my details"
		}
		v.Join = &views.Form{ID: "join-form", Action: palaro.TeamJoinPath(token), Submit: submit,
			Fields: []views.FormField{
				{Name: palaro.FieldInGameName, Label: "In-game name", Type: "text", Value: j.InGameName, MaxLength: 32, Required: true, Autocomplete: "nickname",
					Error: fieldError(err, palaro.FieldInGameName)},
				{Name: palaro.FieldGameAccount, Label: "Game account", Type: "text", Value: j.GameAccount, MaxLength: 64, Required: true,
					Hint: palaro.GameAccountHint(t.Game), Error: fieldError(err, palaro.FieldGameAccount)},
				{Name: palaro.FieldDiscord, Label: "Discord username (optional)", Type: "text", Value: j.Discord, MaxLength: 33,
					Error: fieldError(err, palaro.FieldDiscord)},
			},
			Checkboxes: []views.FormCheckbox{{Name: palaro.FieldAcceptRules, Label: "I accept the tournament's rules", Checked: j.AcceptRules,
				Error: fieldError(err, palaro.FieldAcceptRules)}}}
	}
	if !out && p.JoinedAt != nil && p.CheckedInAt == nil && t.CheckInBy == palaro.CheckInByPlayers && t.CheckInOpen(now) {
		v.CheckIn = &views.Form{ID: "checkin-form", Action: palaro.TeamJoinPath(token) + "/check-in", Submit: "Check in"}
	}
	pass, err := s.services.Tournaments.CompetitorPass(c.Request().Context(), token)
	if err != nil {
		return err
	}
	if pass != nil {
		qr, err := views.QRSVG(s.ticketQR(pass.Code), 220, 4, "QR code of competitor pass "+pass.Code)
		if err != nil {
			return err
		}
		v.Pass = &views.CompetitorPassView{Code: pass.Code, Href: palaro.TicketPath(pass.TicketPublicID), QR: qr}
	}
	page := s.accountPage(c, "Join "+team.Name, true)
	return render(c, status, views.TeamPage(page, v))
}

// teamPlayerCheckIn checks a player in from their link.
func (s *Server) teamPlayerCheckIn(c *echo.Context) error {
	ctx := c.Request().Context()
	token := c.Param("token")
	err := s.services.Tournaments.CheckInPlayer(ctx, token, s.Now())
	if err == nil {
		s.eventsChanged()
		return c.Redirect(http.StatusSeeOther, palaro.TeamJoinPath(token)+"?notice=checked-in")
	}
	if _, ok := userFacing(err); !ok || palaro.ErrorCode(err) == palaro.ENOTFOUND {
		return err
	}
	p, team, ferr := s.services.Tournaments.FindPlayer(ctx, token)
	if ferr != nil {
		return ferr
	}
	j := palaro.PlayerJoin{InGameName: p.InGameName, GameAccount: p.GameAccount, Discord: p.Discord}
	return s.renderJoinPage(c, statusOfForm(err), token, p, team, j, "", palaro.ErrorMessage(err), nil)
}

// teamLogo serves a team's logo (public: it is shown on the teams page).
func (s *Server) teamLogo(c *echo.Context) error {
	data, typ, err := s.services.Tournaments.TeamLogo(c.Request().Context(), c.Param("team"))
	if err != nil {
		return err
	}
	c.Response().Header().Set("Cache-Control", "public, max-age=300")
	return c.Blob(http.StatusOK, typ, data)
}

// tournamentLinks are the event page's links of its tournaments: the teams page, then each
// tournament's bracket and stream (none for a server built without tournaments, as in tests).
func (s *Server) tournamentLinks(c *echo.Context, eventCode string) ([]views.LinkView, error) {
	if s.services.Tournaments == nil {
		return nil, nil
	}
	ts, err := s.services.Tournaments.ListTournaments(c.Request().Context(), eventCode)
	if err != nil || len(ts) == 0 {
		return nil, err
	}
	links := []views.LinkView{{Label: "Registered teams", URL: palaro.TeamsPath(eventCode)}}
	for _, t := range ts {
		if t.BracketURL != "" {
			links = append(links, views.LinkView{Label: t.Name + ": bracket", URL: t.BracketURL})
		}
		if t.StreamURL != "" {
			links = append(links, views.LinkView{Label: t.Name + ": stream", URL: t.StreamURL})
		}
	}
	return links, nil
}
