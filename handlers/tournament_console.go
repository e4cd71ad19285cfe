package handlers

import (
	"encoding/csv"
	"fmt"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/labstack/echo/v5"

	"palaro"
	"palaro/views"
)

// orgTournamentsPage lists the event's tournaments and their teams in the console.
func (s *Server) orgTournamentsPage(c *echo.Context, caller *palaro.Caller) error {
	ev, err := s.orgEvent(c, caller)
	if err != nil {
		return err
	}
	return s.renderOrgTournaments(c, caller, ev, http.StatusOK, "")
}

func (s *Server) renderOrgTournaments(c *echo.Context, caller *palaro.Caller, ev *palaro.Event, status int, problem string) error {
	ctx := c.Request().Context()
	ts, err := s.services.Tournaments.ListTournaments(ctx, ev.Code)
	if err != nil {
		return err
	}
	base := "/organizer/events/" + ev.Code + "/tournaments/"
	v := views.OrgTournamentsView{Frame: orgFrame(c, caller, "Tournaments · "+ev.Name), Error: problem}
	manage := caller.Can(ev.Organizer.ID, palaro.ActionManageEvents)
	if manage {
		v.NewHref = base + "new"
	}
	v.Frame.Back = views.Link{Label: ev.Name, Href: "/organizer/events/" + ev.Code}
	if problem == "" {
		switch c.QueryParam("notice") {
		case "saved":
			v.Frame.Notice = "Saved."
		case "removed":
			v.Frame.Notice = "The player is removed; they and the captain are e-mailed."
		}
	}
	for _, t := range ts {
		teams, err := s.services.Tournaments.ListTeams(ctx, t.ID)
		if err != nil {
			return err
		}
		ot := views.OrgTournament{Name: t.Name, CSVHref: base + t.Code + "/teams.csv", BracketHref: base + t.Code + "/bracket.txt",
			Summary: fmt.Sprintf("%s · %d places: %d taken, %d waiting", palaro.GameName(t.Game), t.MaxTeams, t.Registered, t.Waitlisted)}
		if manage {
			ot.EditHref = base + t.Code + "/edit"
		}
		if t.EntryFee > 0 { // the teams listed have paid it; unpaid registrations are not teams yet
			ot.Summary += " · entry fee " + t.EntryFee.String() + " (a team is listed once it paid)"
		}
		for _, team := range teams {
			row := views.OrgTeamRow{Entry: "#" + strconv.Itoa(team.Entry), Name: team.Name + " [" + team.Tag + "]", Status: team.Status,
				Players: palaro.Plural(team.Joined(), "player", "players"), Action: base + t.Code + "/teams/" + team.PublicID, ID: team.PublicID}
			if team.Seed > 0 {
				row.Seed = strconv.Itoa(team.Seed)
			}
			if team.CheckedIn() {
				row.CheckedIn = ", checked in"
			}
			team.Tournament = &t
			if need := team.PlayersNeeded(); need > 0 && !team.Out() && team.CheckedIn() {
				// checked in and short: check-in closed (while open, a removal withdraws the check-in)
				row.Short = fmt.Sprintf("Checked in but %s short of the minimum %d: it keeps its place unless you disqualify it (the first waiting team then moves up).",
					palaro.Plural(need, "player", "players"), t.MinPlayers)
			} else if need > 0 && !team.Out() {
				row.Short = fmt.Sprintf("Needs %s to check in (minimum %d).", palaro.Plural(need, "more player", "more players"), t.MinPlayers)
			}
			if len(team.Players) > 0 {
				row.Remove = base + t.Code + "/teams/" + team.PublicID + "/players/remove"
			}
			for _, p := range team.Players {
				label := p.Email
				if p.InGameName != "" {
					label = p.InGameName + " · " + p.Email
				}
				if p.JoinedAt == nil {
					label += " (invited)"
				}
				row.Roster = append(row.Roster, views.SelectOption{Value: p.Email, Label: label})
			}
			ot.Teams = append(ot.Teams, row)
		}
		v.Tournaments = append(v.Tournaments, ot)
	}
	return render(c, status, views.OrgTournaments(s.orgPage(c, "Tournaments · "+ev.Name), v))
}

// orgTeamDecision saves the console's decision and seed for a team.
func (s *Server) orgTeamDecision(c *echo.Context, caller *palaro.Caller) error {
	ev, err := s.orgEvent(c, caller)
	if err != nil {
		return err
	}
	seed := 0
	if v := strings.TrimSpace(c.FormValue("seed")); v != "" {
		if seed, err = strconv.Atoi(v); err != nil || seed < 1 {
			return s.renderOrgTournaments(c, caller, ev, http.StatusUnprocessableEntity, "Seed: a whole number from 1, or empty for none.")
		}
	}
	// the form shows the team's seed: an empty field clears it
	err = s.services.Tournaments.SetTeamStatus(c.Request().Context(), ev.Code, c.Param("team"), c.FormValue("status"), &seed, s.Now())
	if e, ok := userFacing(err); ok {
		return s.renderOrgTournaments(c, caller, ev, statusOfForm(err), e.Message)
	} else if err != nil {
		return err
	}
	s.eventsChanged()
	return c.Redirect(http.StatusSeeOther, "/organizer/events/"+ev.Code+"/tournaments?notice=saved")
}

// orgRemovePlayer takes the player chosen in the console off a team's roster, with the reason given.
func (s *Server) orgRemovePlayer(c *echo.Context, caller *palaro.Caller) error {
	ev, err := s.orgEvent(c, caller)
	if err != nil {
		return err
	}
	team, err := s.services.Tournaments.RemovePlayer(c.Request().Context(), ev.Code, c.Param("team"), c.FormValue("email"),
		c.FormValue("reason"), caller.Actor(), s.Now())
	if e, ok := userFacing(err); ok {
		return s.renderOrgTournaments(c, caller, ev, statusOfForm(err), e.Message)
	} else if err != nil {
		return err
	}
	s.eventsChanged()
	return c.Redirect(http.StatusSeeOther, "/organizer/events/"+ev.Code+"/tournaments?notice=removed#team-"+team.PublicID)
}

// orgTeamsExport streams a tournament's teams: teams.csv (one row per player, a team without
// players on a row of its own) or bracket.txt (one team per line with its seed, seeded teams
// first, for a bracket site's bulk import); only teams with a place are in the bracket list.
func (s *Server) orgTeamsExport(c *echo.Context, caller *palaro.Caller) error {
	t, teams, err := s.orgTeams(c, caller)
	if err != nil {
		return err
	}
	h := c.Response().Header()
	h.Set("Cache-Control", "no-store")
	if strings.HasSuffix(c.Request().URL.Path, "/bracket.txt") {
		h.Set("Content-Type", "text/plain; charset=utf-8")
		h.Set("Content-Disposition", `attachment; filename="`+t.Code+`-bracket.txt"`)
		c.Response().WriteHeader(http.StatusOK)
		for _, team := range bracketOrder(teams) {
			if _, err := fmt.Fprintf(c.Response(), "%s\t%d\n", team.Name, team.Seed); err != nil {
				return err
			}
		}
		return nil
	}
	h.Set("Content-Type", "text/csv; charset=utf-8")
	h.Set("Content-Disposition", `attachment; filename="`+t.Code+`-teams.csv"`)
	c.Response().WriteHeader(http.StatusOK)
	if _, err := c.Response().Write([]byte(utf8BOM)); err != nil {
		return err
	}
	w := csv.NewWriter(c.Response())
	w.UseCRLF = true
	_ = w.Write([]string{"entry", "team", "tag", "status", "seed", "team checked in", "captain", "player e-mail", "in-game name",
		"game account", "discord", "joined", "player checked in"})
	for _, team := range teams {
		head := []string{strconv.Itoa(team.Entry), team.Name, team.Tag, team.Status, seedText(team.Seed), csvTimePtr(team.CheckedInAt), team.CaptainEmail}
		players := team.Players
		if len(players) == 0 {
			players = []palaro.TeamPlayer{{}}
		}
		for _, p := range players {
			row := append(append([]string{}, head...), p.Email, p.InGameName, p.GameAccount, p.Discord, csvTimePtr(p.JoinedAt), csvTimePtr(p.CheckedInAt))
			for i := range row {
				row[i] = safeCell(row[i])
			}
			if err := w.Write(row); err != nil {
				return err
			}
		}
		w.Flush() // a team at a time reaches the client
	}
	w.Flush()
	return w.Error()
}

// bracketOrder returns the teams with a place, seeded ones first by seed, then in entry order.
func bracketOrder(teams []palaro.Team) []palaro.Team {
	var seeded, rest []palaro.Team
	for _, t := range teams {
		switch {
		case t.Status != palaro.TeamRegistered:
		case t.Seed > 0:
			seeded = append(seeded, t)
		default:
			rest = append(rest, t)
		}
	}
	slices.SortStableFunc(seeded, func(a, b palaro.Team) int { return a.Seed - b.Seed })
	out := append(seeded, rest...)
	for i := range out {
		out[i].Seed = i + 1
	}
	return out
}

func seedText(seed int) string {
	if seed == 0 {
		return ""
	}
	return strconv.Itoa(seed)
}

func csvTimePtr(t *time.Time) string {
	if t == nil {
		return ""
	}
	return csvTime(*t)
}

// ---- Creating and editing a tournament

// tournamentFields are the names of the tournament form's inputs (the API's fields).
var tournamentFields = []string{palaro.FieldTournamentName, palaro.FieldTournamentCode, palaro.FieldGame, palaro.FieldFormat,
	palaro.FieldMinPlayers, palaro.FieldMaxPlayers, palaro.FieldSubstitutes, palaro.FieldMaxTeams, palaro.FieldEntryFee,
	palaro.FieldRegistrationOpen, palaro.FieldRegistrationEnd, palaro.FieldRosterLocksAt, palaro.FieldStartsAt,
	palaro.FieldCheckInOpens, palaro.FieldCheckInCloses, palaro.FieldCheckInBy, palaro.FieldRules, palaro.FieldBracketURL,
	palaro.FieldStreamURL}

// tournamentValues are a tournament's settings as the form shows them (times in Manila, the fee in pesos).
func tournamentValues(t palaro.Tournament) map[string]string {
	fee := "0"
	if t.EntryFee > 0 {
		fee = t.EntryFee.Decimal()
	}
	return map[string]string{palaro.FieldTournamentName: t.Name, palaro.FieldTournamentCode: t.Code, palaro.FieldGame: t.Game,
		palaro.FieldFormat: t.Format, palaro.FieldMinPlayers: strconv.Itoa(t.MinPlayers), palaro.FieldMaxPlayers: strconv.Itoa(t.MaxPlayers),
		palaro.FieldSubstitutes: strconv.Itoa(t.Substitutes), palaro.FieldMaxTeams: strconv.Itoa(t.MaxTeams), palaro.FieldEntryFee: fee,
		palaro.FieldRegistrationOpen: localTime(t.RegistrationOpensAt), palaro.FieldRegistrationEnd: localTime(t.RegistrationClosesAt),
		palaro.FieldRosterLocksAt: localTime(t.RosterLocksAt), palaro.FieldStartsAt: localTime(t.StartsAt),
		palaro.FieldCheckInOpens: strconv.Itoa(t.CheckInOpens), palaro.FieldCheckInCloses: strconv.Itoa(t.CheckInCloses),
		palaro.FieldCheckInBy: t.CheckInBy, palaro.FieldRules: t.Rules, palaro.FieldBracketURL: t.BracketURL, palaro.FieldStreamURL: t.StreamURL}
}

// readTournamentForm reads the tournament form into the API's input, with the values as typed (to
// show them again; a blank code is code); read errors come back with the validation's, every bad
// field at once.
func readTournamentForm(c *echo.Context, code string) (palaro.Tournament, map[string]string, error) {
	typed := map[string]string{}
	for _, f := range tournamentFields {
		typed[f] = c.FormValue(f)
	}
	if strings.TrimSpace(typed[palaro.FieldTournamentCode]) == "" {
		typed[palaro.FieldTournamentCode] = code
	}
	fe := formErrors{}
	t := palaro.Tournament{Name: typed[palaro.FieldTournamentName], Code: typed[palaro.FieldTournamentCode], Game: typed[palaro.FieldGame],
		Format: typed[palaro.FieldFormat], Rules: typed[palaro.FieldRules], CheckInBy: typed[palaro.FieldCheckInBy],
		BracketURL: typed[palaro.FieldBracketURL], StreamURL: typed[palaro.FieldStreamURL],
		MinPlayers:           fe.int(c, palaro.FieldMinPlayers, "Minimum players"),
		MaxPlayers:           fe.int(c, palaro.FieldMaxPlayers, "Maximum players"),
		Substitutes:          fe.int(c, palaro.FieldSubstitutes, "Substitutes"),
		MaxTeams:             fe.int(c, palaro.FieldMaxTeams, "Maximum teams"),
		EntryFee:             fe.pesos(c, palaro.FieldEntryFee, "Entry fee"),
		RegistrationOpensAt:  fe.time(c, palaro.FieldRegistrationOpen, "Registration opening"),
		RegistrationClosesAt: fe.time(c, palaro.FieldRegistrationEnd, "Registration close"),
		RosterLocksAt:        fe.time(c, palaro.FieldRosterLocksAt, "Roster lock"),
		StartsAt:             fe.time(c, palaro.FieldStartsAt, "Start"),
		CheckInOpens:         fe.int(c, palaro.FieldCheckInOpens, "Check-in opening"),
		CheckInCloses:        fe.int(c, palaro.FieldCheckInCloses, "Check-in close"),
	}
	if len(fe) == 0 {
		return t, typed, nil
	}
	check := t
	return t, typed, fe.merge(check.Validate())
}

// tournamentForm builds the tournament form from the values shown and the error of the last try.
func tournamentForm(action, submit string, val map[string]string, isNew bool, err error) views.OrgForm {
	field := func(name, label, typ, hint string, max int) views.FormField {
		f := views.FormField{Name: name, Label: label, Type: typ, Value: val[name], Hint: hint, MaxLength: max, Error: fieldError(err, name)}
		if typ == "number" { // digits on a phone's keyboard, and what was typed shown as typed
			f.Type, f.InputMode = "text", "numeric"
		}
		return f
	}
	choice := func(name, label string, options [][2]string) views.OrgSelect {
		s := views.OrgSelect{Name: name, Label: label, Error: fieldError(err, name)}
		for _, o := range options {
			s.Options = append(s.Options, views.SelectOption{Value: o[0], Label: o[1], Selected: val[name] == o[0]})
		}
		return s
	}
	games := [][2]string{}
	for _, g := range palaro.Games {
		games = append(games, [2]string{g.Code, g.Name})
	}
	name := field(palaro.FieldTournamentName, "Name", "text", "", 120)
	name.Required = true
	code := field(palaro.FieldTournamentCode, "Code (in the address /tournament/…)", "text",
		"Lower-case letters, digits and hyphens; unique on Palaro.", 60)
	if isNew {
		code.SuggestFrom = palaro.FieldTournamentName
		code.Hint = "Made from the name; change it if you like. Lower-case letters, digits and hyphens."
	}
	about := views.OrgFormSection{Title: "Tournament", SelectsFirst: true,
		Selects: []views.OrgSelect{choice(palaro.FieldGame, "Game", games)},
		Fields: []views.FormField{name, code,
			field(palaro.FieldFormat, "Format", "text", "Such as: Single elimination, best of 3; finals best of 5.", 200)}}
	teams := views.OrgFormSection{Title: "Teams", Fields: []views.FormField{
		field(palaro.FieldMinPlayers, "Minimum players", "number", "Starting players a team needs: 1 to 20.", 2),
		field(palaro.FieldMaxPlayers, "Maximum players", "number", "Starting players at most.", 2),
		field(palaro.FieldSubstitutes, "Substitutes", "number", "More players a roster may have: 0 to 10.", 2),
		field(palaro.FieldMaxTeams, "Maximum teams", "number", "Places; teams registering after they are taken wait.", 4),
		field(palaro.FieldEntryFee, "Entry fee in pesos", "text", "0 for free; a fee is paid when the captain registers.", 12),
	}}
	teams.Fields[4].InputMode = "decimal"
	dates := views.OrgFormSection{Title: "Dates (Manila time)", Fields: []views.FormField{
		field(palaro.FieldRegistrationOpen, "Registration opens", "datetime-local", "", 0),
		field(palaro.FieldRegistrationEnd, "Registration closes", "datetime-local", "", 0),
		field(palaro.FieldRosterLocksAt, "Roster locks", "datetime-local", "Players can no longer join or leave.", 0),
		field(palaro.FieldStartsAt, "Starts", "datetime-local", "", 0),
	}}
	checkIn := views.OrgFormSection{Title: "Check-in", SelectsFirst: true,
		Selects: []views.OrgSelect{choice(palaro.FieldCheckInBy, "Who checks in",
			[][2]string{{palaro.CheckInByCaptain, "The captain, for the team"}, {palaro.CheckInByPlayers, "Every player"}})},
		Fields: []views.FormField{
			field(palaro.FieldCheckInOpens, "Check-in opens, minutes before the start", "number", "Such as 60.", 4),
			field(palaro.FieldCheckInCloses, "Check-in closes, minutes before the start", "number", "Such as 15.", 4),
		}}
	rules := views.OrgFormSection{Title: "Rules and links", Fields: []views.FormField{
		field(palaro.FieldRules, "Rules", "textarea", "Captains and players accept them.", 20000),
		field(palaro.FieldBracketURL, "Bracket link (optional)", "url", "https, on start.gg or challonge.com.", 500),
		field(palaro.FieldStreamURL, "Stream link (optional)", "url", "https, on Twitch, YouTube or Facebook Gaming.", 500),
	}}
	rules.Fields[0].Required = true
	return views.OrgForm{Action: action, Submit: submit, Error: formError(err), Sections: []views.OrgFormSection{about, teams, dates, checkIn, rules}}
}

func (s *Server) renderTournamentForm(c *echo.Context, caller *palaro.Caller, ev *palaro.Event, heading, action, submit string,
	val map[string]string, isNew bool, err error) error {
	v := views.OrgFormView{Frame: orgFrame(c, caller, heading), Form: tournamentForm(action, submit, val, isNew, err)}
	v.Frame.Back = views.Link{Label: "Tournaments", Href: "/organizer/events/" + ev.Code + "/tournaments"}
	return render(c, statusOfForm(err), views.OrgFormPage(s.orgPage(c, heading), v))
}

// orgNewTournamentPage shows the form of a new tournament, set for a five-a-side tournament
// starting with the event (a week from today at its time when it starts within two days, or has
// started: a series), registration open from the next hour until the day before.
func (s *Server) orgNewTournamentPage(c *echo.Context, caller *palaro.Caller) error {
	ev, err := s.orgEvent(c, caller)
	if err != nil {
		return err
	}
	now := s.Now().In(palaro.Manila)
	start := ev.StartsAt.In(palaro.Manila)
	if start.Before(now.Add(48 * time.Hour)) {
		start = time.Date(now.Year(), now.Month(), now.Day()+7, start.Hour(), start.Minute(), 0, 0, palaro.Manila)
	}
	opens := time.Date(now.Year(), now.Month(), now.Day(), now.Hour()+1, 0, 0, 0, palaro.Manila)
	closes := start.Add(-24 * time.Hour)
	t := palaro.Tournament{Game: palaro.GameMLBB, MinPlayers: 5, MaxPlayers: 5, Substitutes: 1, MaxTeams: 16,
		RegistrationOpensAt: opens, RegistrationClosesAt: closes, RosterLocksAt: closes, StartsAt: start,
		CheckInOpens: 60, CheckInCloses: 15, CheckInBy: palaro.CheckInByCaptain}
	base := "/organizer/events/" + ev.Code + "/tournaments/new"
	return s.renderTournamentForm(c, caller, ev, "New tournament", base, "Create tournament", tournamentValues(t), true, nil)
}

// orgSaveTournament creates (…/tournaments/new) or changes (…/tournaments/:tournament/edit) a
// tournament from the console's form, through the API's validation and store method.
func (s *Server) orgSaveTournament(c *echo.Context, caller *palaro.Caller) error {
	ev, err := s.orgEvent(c, caller)
	if err != nil {
		return err
	}
	heading, action, submit := "New tournament", "/organizer/events/"+ev.Code+"/tournaments/new", "Create tournament"
	var id int64
	code := palaro.SuggestEventCode(c.FormValue(palaro.FieldTournamentName)) // the page script fills it as the name is typed; without it, here
	if len(code) > 60 {
		code = strings.TrimRight(code[:60], "-")
	}
	if c.Param("tournament") != "" {
		old, err := s.orgTournament(c, ev)
		if err != nil {
			return err
		}
		id, code, heading, submit = old.ID, old.Code, "Edit "+old.Name, "Save" // as the API: a blank code keeps the current one
		action = "/organizer/events/" + ev.Code + "/tournaments/" + old.Code + "/edit"
	}
	t, typed, err := readTournamentForm(c, code)
	if err == nil {
		t.ID = id
		if _, err = s.services.Tournaments.SaveTournament(c.Request().Context(), ev.Code, t, s.Now()); err == nil {
			s.eventsChanged()
			return c.Redirect(http.StatusSeeOther, "/organizer/events/"+ev.Code+"/tournaments?notice=saved")
		}
	}
	if _, ok := userFacing(err); !ok {
		return err
	}
	return s.renderTournamentForm(c, caller, ev, heading, action, submit, typed, id == 0, err)
}

// orgEditTournamentPage shows a tournament's settings in the form.
func (s *Server) orgEditTournamentPage(c *echo.Context, caller *palaro.Caller) error {
	ev, err := s.orgEvent(c, caller)
	if err != nil {
		return err
	}
	t, err := s.orgTournament(c, ev)
	if err != nil {
		return err
	}
	action := "/organizer/events/" + ev.Code + "/tournaments/" + t.Code + "/edit"
	return s.renderTournamentForm(c, caller, ev, "Edit "+t.Name, action, "Save", tournamentValues(*t), false, nil)
}
