package handlers

import (
	"net/http"
	"time"

	"github.com/labstack/echo/v5"

	"palaro"
)

// tournamentJSON is a tournament in the organizer API (its input and its answer).
type tournamentJSON struct {
	Code                 string       `json:"code"`
	Name                 string       `json:"name"`
	Game                 string       `json:"game"`
	Format               string       `json:"format"`
	MinPlayers           int          `json:"minPlayers"`
	MaxPlayers           int          `json:"maxPlayers"`
	Substitutes          int          `json:"substitutes"`
	MaxTeams             int          `json:"maxTeams"`
	EntryFee             palaro.Money `json:"entryFee"`
	Rules                string       `json:"rules"`
	RegistrationOpensAt  time.Time    `json:"registrationOpensAt"`
	RegistrationClosesAt time.Time    `json:"registrationClosesAt"`
	RosterLocksAt        time.Time    `json:"rosterLocksAt"`
	StartsAt             time.Time    `json:"startsAt"`
	CheckInOpens         int          `json:"checkInOpens"`
	CheckInCloses        int          `json:"checkInCloses"`
	CheckInBy            string       `json:"checkInBy"`
	BracketURL           string       `json:"bracketUrl"`
	StreamURL            string       `json:"streamUrl"`
	// answers only
	Registered  int  `json:"registered"`
	Waitlisted  int  `json:"waitlisted"`
	CheckInDone bool `json:"checkInDone"`
}

func tournamentOut(t *palaro.Tournament) tournamentJSON {
	return tournamentJSON{Code: t.Code, Name: t.Name, Game: t.Game, Format: t.Format, MinPlayers: t.MinPlayers, MaxPlayers: t.MaxPlayers,
		Substitutes: t.Substitutes, MaxTeams: t.MaxTeams, EntryFee: t.EntryFee, Rules: t.Rules, RegistrationOpensAt: t.RegistrationOpensAt.UTC(),
		RegistrationClosesAt: t.RegistrationClosesAt.UTC(), RosterLocksAt: t.RosterLocksAt.UTC(), StartsAt: t.StartsAt.UTC(),
		CheckInOpens: t.CheckInOpens, CheckInCloses: t.CheckInCloses, CheckInBy: t.CheckInBy, BracketURL: t.BracketURL, StreamURL: t.StreamURL,
		Registered: t.Registered, Waitlisted: t.Waitlisted, CheckInDone: t.CheckInDone}
}

func (j tournamentJSON) tournament() palaro.Tournament {
	return palaro.Tournament{Code: j.Code, Name: j.Name, Game: j.Game, Format: j.Format, MinPlayers: j.MinPlayers, MaxPlayers: j.MaxPlayers,
		Substitutes: j.Substitutes, MaxTeams: j.MaxTeams, EntryFee: j.EntryFee, Rules: j.Rules, RegistrationOpensAt: j.RegistrationOpensAt,
		RegistrationClosesAt: j.RegistrationClosesAt, RosterLocksAt: j.RosterLocksAt, StartsAt: j.StartsAt, CheckInOpens: j.CheckInOpens,
		CheckInCloses: j.CheckInCloses, CheckInBy: j.CheckInBy, BracketURL: j.BracketURL, StreamURL: j.StreamURL}
}

// apiOrgTournaments lists an event's tournaments: {"tournaments": [...]}.
func (s *Server) apiOrgTournaments(c *echo.Context, caller *palaro.Caller) error {
	ev, err := s.orgEvent(c, caller)
	if err != nil {
		return err
	}
	ts, err := s.services.Tournaments.ListTournaments(c.Request().Context(), ev.Code)
	if err != nil {
		return err
	}
	out := []tournamentJSON{}
	for i := range ts {
		out = append(out, tournamentOut(&ts[i]))
	}
	return c.JSON(http.StatusOK, map[string]any{"tournaments": out})
}

// apiOrgSaveTournament creates a tournament (POST) or replaces the settings of the one named in the
// path (PATCH: the whole tournament, as POST takes it; a missing code keeps the current one).
func (s *Server) apiOrgSaveTournament(c *echo.Context, caller *palaro.Caller) error {
	ev, err := s.orgEvent(c, caller)
	if err != nil {
		return err
	}
	var in tournamentJSON
	if err := decodeJSONStrict(c, &in); err != nil {
		return err
	}
	t := in.tournament()
	status := http.StatusCreated
	if code := c.Param("tournament"); code != "" {
		old, err := s.orgTournament(c, ev)
		if err != nil {
			return err
		}
		t.ID, status = old.ID, http.StatusOK
		if t.Code == "" {
			t.Code = code
		}
	}
	saved, err := s.services.Tournaments.SaveTournament(c.Request().Context(), ev.Code, t, s.Now())
	if err != nil {
		return err
	}
	s.eventsChanged()
	return c.JSON(status, tournamentOut(saved))
}

// orgTournament returns the tournament named in the path, when it is the event's.
func (s *Server) orgTournament(c *echo.Context, ev *palaro.Event) (*palaro.Tournament, error) {
	t, err := s.services.Tournaments.FindTournament(c.Request().Context(), c.Param("tournament"))
	if err != nil {
		return nil, err
	}
	if t.EventID != ev.ID {
		return nil, palaro.Errorf(palaro.ENOTFOUND, "Tournament not found.")
	}
	return t, nil
}

// orgTeams returns the tournament named in the path, when it is the caller's event's, with its
// teams in entry order.
func (s *Server) orgTeams(c *echo.Context, caller *palaro.Caller) (*palaro.Tournament, []palaro.Team, error) {
	ev, err := s.orgEvent(c, caller)
	if err != nil {
		return nil, nil, err
	}
	t, err := s.orgTournament(c, ev)
	if err != nil {
		return nil, nil, err
	}
	teams, err := s.services.Tournaments.ListTeams(c.Request().Context(), t.ID)
	return t, teams, err
}

// apiOrgTeams lists a tournament's teams in entry order with players and check-in state (for bots).
func (s *Server) apiOrgTeams(c *echo.Context, caller *palaro.Caller) error {
	t, teams, err := s.orgTeams(c, caller)
	if err != nil {
		return err
	}
	out := []palaro.TeamView{}
	for _, team := range teams {
		out = append(out, palaro.NewTeamView(team))
	}
	return c.JSON(http.StatusOK, map[string]any{"tournament": tournamentOut(t), "teams": out})
}

// apiOrgUpdateTeam approves, refuses or disqualifies a team or sets its seed: {"status", "seed"},
// either (a missing seed keeps the team's, 0 clears it).
func (s *Server) apiOrgUpdateTeam(c *echo.Context, caller *palaro.Caller) error {
	ev, err := s.orgEvent(c, caller)
	if err != nil {
		return err
	}
	var in struct {
		Status string `json:"status"`
		Seed   *int   `json:"seed"`
	}
	if err := decodeJSONStrict(c, &in); err != nil {
		return err
	}
	ctx := c.Request().Context()
	if err := s.services.Tournaments.SetTeamStatus(ctx, ev.Code, c.Param("team"), in.Status, in.Seed, s.Now()); err != nil {
		return err
	}
	s.eventsChanged()
	team, err := s.services.Tournaments.FindTeam(ctx, c.Param("team"))
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, palaro.NewTeamView(*team))
}

// apiOrgRemovePlayer takes a player off a team's roster: DELETE …/teams/{team}/players/{email}
// with {"reason"}; it answers the team as it is after and how many joined players it still needs
// for the tournament's minimum.
func (s *Server) apiOrgRemovePlayer(c *echo.Context, caller *palaro.Caller) error {
	ev, err := s.orgEvent(c, caller)
	if err != nil {
		return err
	}
	var in struct {
		Reason string `json:"reason"`
	}
	if err := decodeJSONStrict(c, &in); err != nil {
		return err
	}
	team, err := s.services.Tournaments.RemovePlayer(c.Request().Context(), ev.Code, c.Param("team"), c.Param("email"), in.Reason,
		caller.Actor(), s.Now())
	if err != nil {
		return err
	}
	s.eventsChanged()
	return c.JSON(http.StatusOK, map[string]any{"team": palaro.NewTeamView(*team), "playersNeeded": team.PlayersNeeded()})
}
