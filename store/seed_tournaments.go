package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"
	"time"

	"palaro"
)

// seedTournaments is tournaments.json: the demo tournaments and their teams.
type seedTournaments struct {
	Tournaments []seedTournament `json:"tournaments"`
}

// seedTournament is a demo tournament of Event. It starts when its event starts or, for a series,
// at the first of its dates that starts after the seed's time; its times are relative to that start. Its Teams register in order (the first MaxTeams get places, the rest
// wait), all captained by Captain, each with Players joined players.
type seedTournament struct {
	Event             string     `json:"event"`
	Code              string     `json:"code"`
	Name              string     `json:"name"`
	Game              string     `json:"game"`
	Format            string     `json:"format"`
	MinPlayers        int        `json:"minPlayers"`
	MaxPlayers        int        `json:"maxPlayers"`
	Substitutes       int        `json:"substitutes"`
	MaxTeams          int        `json:"maxTeams"`
	Rules             string     `json:"rules"`
	RegistrationOpens string     `json:"registrationOpens"`
	RegistrationClose string     `json:"registrationCloses"`
	RosterLocks       string     `json:"rosterLocks"`
	CheckInOpens      int        `json:"checkInOpens"`
	CheckInCloses     int        `json:"checkInCloses"`
	CheckInBy         string     `json:"checkInBy"`
	BracketURL        string     `json:"bracketUrl"`
	StreamURL         string     `json:"streamUrl"`
	Captain           string     `json:"captain"`
	Players           int        `json:"players"`
	Teams             []seedTeam `json:"teams"`
}

// seedTeam is a demo team.
type seedTeam struct {
	Name string `json:"name"`
	Tag  string `json:"tag"`
}

// insert adds the demo tournaments, their teams and players inside the seed's transaction. The
// players' invite tokens are derived from their addresses (demo data only: real ones are random).
func (s seedTournaments) insert(ctx context.Context, tx *sql.Tx, now time.Time) error {
	at := formatTime(now)
	for _, st := range s.Tournaments {
		var eventID int64
		var startsAt sql.NullString
		if err := tx.QueryRowContext(ctx, `SELECT id, starts_at FROM events WHERE code = ?`, st.Event).Scan(&eventID, &startsAt); err != nil {
			return fmt.Errorf("%s: event: %w", st.Code, err)
		}
		err := tx.QueryRowContext(ctx, `SELECT starts_at FROM event_dates WHERE event_id = ? AND starts_at > ?
			ORDER BY starts_at LIMIT 1`, eventID, at).Scan(&startsAt)
		if err != nil && !errors.Is(err, sql.ErrNoRows) {
			return fmt.Errorf("%s: dates: %w", st.Code, err)
		}
		start, err := parseTime(startsAt)
		if err != nil {
			return err
		}
		t := palaro.Tournament{Code: st.Code, Name: st.Name, Game: st.Game, Format: st.Format, MinPlayers: st.MinPlayers,
			MaxPlayers: st.MaxPlayers, Substitutes: st.Substitutes, MaxTeams: st.MaxTeams, Rules: st.Rules, StartsAt: start,
			CheckInOpens: st.CheckInOpens, CheckInCloses: st.CheckInCloses, CheckInBy: st.CheckInBy, BracketURL: st.BracketURL, StreamURL: st.StreamURL}
		for _, r := range []struct {
			offset string
			to     *time.Time
		}{{st.RegistrationOpens, &t.RegistrationOpensAt}, {st.RegistrationClose, &t.RegistrationClosesAt}, {st.RosterLocks, &t.RosterLocksAt}} {
			if *r.to, err = seedOffset(start, r.offset); err != nil {
				return err
			}
		}
		if err := t.Validate(); err != nil {
			return fmt.Errorf("%s: %w", st.Code, err)
		}
		var captainID int64
		if err := tx.QueryRowContext(ctx, `SELECT id FROM users WHERE email = ?`, st.Captain).Scan(&captainID); err != nil {
			return fmt.Errorf("%s: captain %s: %w", st.Code, st.Captain, err)
		}
		tournamentID, err := insertID(ctx, tx, `INSERT INTO tournaments (event_id, code, name, game, format, min_players, max_players,
			substitutes, max_teams, rules, registration_opens_at, registration_closes_at, roster_locks_at, starts_at, checkin_opens,
			checkin_closes, checkin_by, bracket_url, stream_url, entries, created_at, updated_at)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
			eventID, t.Code, t.Name, t.Game, t.Format, t.MinPlayers, t.MaxPlayers, t.Substitutes, t.MaxTeams, t.Rules,
			formatTime(t.RegistrationOpensAt), formatTime(t.RegistrationClosesAt), formatTime(t.RosterLocksAt), formatTime(t.StartsAt),
			t.CheckInOpens, t.CheckInCloses, t.CheckInBy, t.BracketURL, t.StreamURL, len(st.Teams), at, at)
		if err != nil {
			return err
		}
		for i, team := range st.Teams {
			status := palaro.TeamRegistered
			if i >= t.MaxTeams {
				status = palaro.TeamWaitlisted
			}
			teamID, err := insertID(ctx, tx, `INSERT INTO teams (tournament_id, public_id, name, tag, captain_id, entry, status,
				created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`, tournamentID, "demo"+strings.ToLower(team.Tag)+st.Code[:4],
				team.Name, team.Tag, captainID, i+1, status, at, at)
			if err != nil {
				return fmt.Errorf("%s: team %s: %w", st.Code, team.Name, err)
			}
			for n := 1; n <= st.Players; n++ {
				email := fmt.Sprintf("%s%d@players.palaro.ph", strings.ToLower(team.Tag), n)
				if _, err := tx.ExecContext(ctx, `INSERT INTO team_players (team_id, email, token_hash, in_game_name, game_account,
					discord, invited_at, joined_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)`, teamID, email, hashToken("demo:"+email),
					fmt.Sprintf("%s.%d", team.Tag, n), fmt.Sprintf("%d (%d)", 10000000+teamID*100+int64(n), 2000+n),
					fmt.Sprintf("%s_%d", strings.ToLower(team.Tag), n), at, at); err != nil {
					return err
				}
			}
		}
	}
	return nil
}
