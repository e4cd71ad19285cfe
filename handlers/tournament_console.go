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
			if need := team.PlayersNeeded(); need > 0 && !team.Out() {
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
