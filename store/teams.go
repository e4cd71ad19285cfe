package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"
	"unicode/utf8"

	"palaro"
)

// teamColumns are the columns scanTeam reads, from teams m joined to users u (the captain).
const teamColumns = `m.id, m.public_id, m.tournament_id, m.name, m.tag, m.captain_id, u.email, m.entry, m.status,
	COALESCE(m.seed, 0), m.logo_type IS NOT NULL, m.checked_in_at, m.created_at,
	COALESCE((SELECT o.public_id FROM orders o WHERE o.id = m.order_id), '')`

// teamFrom is the FROM clause matching teamColumns.
const teamFrom = ` FROM teams m JOIN users u ON u.id = m.captain_id`

func scanTeam(r rowScanner) (*palaro.Team, error) {
	var t palaro.Team
	var checked, created sql.NullString
	if err := r.Scan(&t.ID, &t.PublicID, &t.TournamentID, &t.Name, &t.Tag, &t.CaptainID, &t.CaptainEmail, &t.Entry, &t.Status,
		&t.Seed, &t.HasLogo, &checked, &created, &t.OrderPublicID); err != nil {
		return nil, err
	}
	var err error
	if t.CreatedAt, err = parseTime(created); err != nil {
		return nil, err
	}
	t.CheckedInAt, err = parseOptionalTime(checked)
	return &t, err
}

// parseOptionalTime reads a nullable timestamp as nil or a time.
func parseOptionalTime(s sql.NullString) (*time.Time, error) {
	if !s.Valid {
		return nil, nil
	}
	t, err := parseTime(s)
	return &t, err
}

// playerColumns are the columns scanPlayer reads from team_players.
const playerColumns = `id, team_id, email, in_game_name, game_account, discord, invited_at, joined_at, checked_in_at,
	coalesce((SELECT k.code FROM competitor_passes cp JOIN tickets k ON k.id = cp.ticket_id
		WHERE cp.player_id = team_players.id AND k.status != 'cancelled'), '')`

func scanPlayer(r rowScanner) (*palaro.TeamPlayer, error) {
	var p palaro.TeamPlayer
	var invited, joined, checked sql.NullString
	if err := r.Scan(&p.ID, &p.TeamID, &p.Email, &p.InGameName, &p.GameAccount, &p.Discord, &invited, &joined, &checked, &p.PassCode); err != nil {
		return nil, err
	}
	var err error
	if p.InvitedAt, err = parseTime(invited); err != nil {
		return nil, err
	}
	if p.JoinedAt, err = parseOptionalTime(joined); err != nil {
		return nil, err
	}
	p.CheckedInAt, err = parseOptionalTime(checked)
	return &p, err
}

// loadPlayers reads the players of teams (by id) into them, in invitation order.
func loadPlayers(ctx context.Context, q querier, teams []*palaro.Team) error {
	byID := map[int64]*palaro.Team{}
	for _, t := range teams {
		byID[t.ID] = t
	}
	if len(byID) == 0 {
		return nil
	}
	tournament := teams[0].TournamentID
	rows, err := q.QueryContext(ctx, `SELECT `+playerColumns+` FROM team_players WHERE team_id IN
		(SELECT id FROM teams WHERE tournament_id = ?) ORDER BY id`, tournament)
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
		p, err := scanPlayer(rows)
		if err != nil {
			return err
		}
		if t := byID[p.TeamID]; t != nil {
			t.Players = append(t.Players, *p)
		}
	}
	return rows.Err()
}

// listTeams reads a tournament's teams (all of them, or those with the given statuses) in entry order.
func listTeams(ctx context.Context, q querier, tournamentID int64, where string, args ...any) ([]*palaro.Team, error) {
	out, err := queryRows(ctx, q, `SELECT `+teamColumns+teamFrom+` WHERE m.tournament_id = ?`+where+` ORDER BY m.entry`,
		append([]any{tournamentID}, args...), scanTeam)
	if err != nil {
		return nil, err
	}
	return out, loadPlayers(ctx, q, out)
}

// ListTeams returns a tournament's teams in entry order, with their players.
func (s *TournamentService) ListTeams(ctx context.Context, tournamentID int64) (_ []palaro.Team, err error) {
	defer wrapErr(&err, "store: ListTeams(%d)", tournamentID)

	teams, err := listTeams(ctx, s.db.read, tournamentID, "")
	if err != nil {
		return nil, err
	}
	out := make([]palaro.Team, len(teams))
	for i, t := range teams {
		out[i] = *t
	}
	return out, nil
}

// findTeam reads a team by public id with its players and tournament; a registration whose fee
// is not paid yet is a team of status TeamUnpaid, without entry nor players.
func findTeam(ctx context.Context, q querier, publicID string) (*palaro.Team, error) {
	t, err := scanTeam(q.QueryRowContext(ctx, `SELECT `+teamColumns+teamFrom+` WHERE m.public_id = ?`, publicID))
	if errors.Is(err, sql.ErrNoRows) {
		return findUnpaidTeam(ctx, q, publicID)
	} else if err != nil {
		return nil, err
	}
	if t.Tournament, err = scanTournament(q.QueryRowContext(ctx, `SELECT `+tournamentColumns+tournamentFrom+` WHERE t.id = ?`, t.TournamentID)); err != nil {
		return nil, err
	}
	return t, loadPlayers(ctx, q, []*palaro.Team{t})
}

// FindTeam returns a team by its public id.
func (s *TournamentService) FindTeam(ctx context.Context, publicID string) (_ *palaro.Team, err error) {
	defer wrapErr(&err, "store: FindTeam")
	return findTeam(ctx, s.db.read, publicID)
}

// TeamLogo returns a team's logo.
func (s *TournamentService) TeamLogo(ctx context.Context, publicID string) (_ []byte, _ string, err error) {
	defer wrapErr(&err, "store: TeamLogo")

	var data []byte
	var typ sql.NullString
	err = s.db.read.QueryRowContext(ctx, `SELECT logo, logo_type FROM teams WHERE public_id = ?`, publicID).Scan(&data, &typ)
	if errors.Is(err, sql.ErrNoRows) || (err == nil && !typ.Valid) {
		return nil, "", palaro.Errorf(palaro.ENOTFOUND, "Logo not found.")
	}
	return data, typ.String, err
}

// eventName returns the name of the event with id, for e-mails.
func eventName(ctx context.Context, q querier, id int64) (string, error) {
	var name string
	err := q.QueryRowContext(ctx, `SELECT name FROM events WHERE id = ?`, id).Scan(&name)
	return name, err
}

// RegisterTeam registers a team (for a tournament with an entry fee, a registration waiting for
// its payment: registerUnpaid). The guarantee is takeEntry's: the first MaxTeams entries get
// places and the later ones wait, in entry order.
func (s *TournamentService) RegisterTeam(ctx context.Context, req palaro.TeamRegistration, now time.Time) (_ *palaro.Team, err error) {
	defer wrapErr(&err, "store: RegisterTeam(%s)", req.TournamentCode)

	if req, err = palaro.CheckTeamRegistration(req); err != nil {
		return nil, err
	}
	t, err := s.FindTournament(ctx, req.TournamentCode)
	if err != nil {
		return nil, err
	}
	if t.EntryFee > 0 {
		return s.registerUnpaid(ctx, t, req, now)
	}
	name, err := eventName(ctx, s.db.read, t.EventID)
	if err != nil {
		return nil, err
	}
	publicID := newPublicID()
	return write(ctx, s.db, func(ctx context.Context, tx *sql.Tx) (*palaro.Team, error) {
		entry, status, err := takeEntry(ctx, tx, t.ID, ` AND registration_opens_at <= ? AND registration_closes_at > ?`,
			formatTime(now), formatTime(now))
		if errors.Is(err, sql.ErrNoRows) {
			return nil, palaro.Errorf(palaro.ECONFLICT, "Registration for %s is closed.", t.Name)
		} else if err != nil {
			return nil, err
		}
		if err := teamNameTaken(ctx, tx, t.ID, req); err != nil {
			return nil, err
		}
		var logoType any
		if req.Logo != nil {
			logoType = req.LogoType
		}
		id, err := insertTeam(ctx, tx, t.ID, publicID, req, entry, status, logoType, nil, now)
		if isUniqueViolation(err) { // a team of the same name or tag registered at the same time
			return nil, palaro.Errorf(palaro.ECONFLICT, "Another team has this name or tag.")
		} else if err != nil {
			return nil, err
		}
		if err := enqueueWebhookNote(ctx, tx, palaro.WebhookTeamRegistered, id, "", now); err != nil {
			return nil, err
		}
		team, err := findTeam(ctx, tx, publicID)
		if err != nil {
			return nil, err
		}
		return team, enqueue(ctx, tx, s.composer.TeamRegistered(team.Tournament, team, name), "", now)
	})
}

// takeEntry takes the next entry number of tournament id (cond, with args, may refuse it: no
// row) and says whether the team has a place: the UPDATE locks the tournament's row (PostgreSQL)
// or runs alone (SQLite's writer), so the count of teams with a place that follows it sees every
// earlier registration; the first MaxTeams entries get places and the later ones wait, in order.
func takeEntry(ctx context.Context, tx *sql.Tx, id int64, cond string, args ...any) (entry int, status string, err error) {
	var maxTeams, placed int
	if err := tx.QueryRowContext(ctx, `UPDATE tournaments SET entries = entries + 1 WHERE id = ?`+cond+` RETURNING entries, max_teams`,
		append([]any{id}, args...)...).Scan(&entry, &maxTeams); err != nil {
		return 0, "", err
	}
	if err := tx.QueryRowContext(ctx, `SELECT count(*) FROM teams WHERE tournament_id = ? AND status = 'registered'`, id).Scan(&placed); err != nil {
		return 0, "", err
	}
	if placed >= maxTeams {
		return entry, palaro.TeamWaitlisted, nil
	}
	return entry, palaro.TeamRegistered, nil
}

// insertTeam writes the row of a team registered with entry and status (orderID: its entry
// fee's order, nil for none) and returns its id.
func insertTeam(ctx context.Context, tx *sql.Tx, tournamentID int64, publicID string, req palaro.TeamRegistration, entry int, status string,
	logoType, orderID any, now time.Time) (int64, error) {
	return insertID(ctx, tx, `INSERT INTO teams (tournament_id, public_id, name, tag, captain_id, entry, status, logo_type, logo,
		order_id, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`, tournamentID, publicID, req.Name, req.Tag,
		req.CaptainID, entry, status, logoType, req.Logo, orderID, formatTime(now), formatTime(now))
}

// teamNameTaken says which of a registration's name and tag another team of the tournament has
// (nil when neither); the unique keys are the backstop.
func teamNameTaken(ctx context.Context, tx *sql.Tx, tournamentID int64, req palaro.TeamRegistration) error {
	var names, tags int
	if err := tx.QueryRowContext(ctx, `SELECT count(CASE WHEN lower(name) = lower(?) THEN 1 END), count(CASE WHEN lower(tag) = lower(?) THEN 1 END)
		FROM teams WHERE tournament_id = ?`, req.Name, req.Tag, tournamentID).Scan(&names, &tags); err != nil {
		return err
	}
	if names+tags == 0 {
		return nil
	}
	if names > 0 {
		return &palaro.Error{Code: palaro.ECONFLICT, Message: "Another team has this name.",
			Fields: map[string]string{palaro.FieldTeamName: "Another team in this tournament has this name."}}
	}
	return &palaro.Error{Code: palaro.ECONFLICT, Message: "Another team has this tag.",
		Fields: map[string]string{palaro.FieldTeamTag: "Another team in this tournament has this tag."}}
}

// InvitePlayer invites a player by e-mail. The team's row is locked first, so two invitations
// at once cannot both take the roster's last place.
func (s *TournamentService) InvitePlayer(ctx context.Context, teamPublicID string, captainID int64, email string, now time.Time) (err error) {
	defer wrapErr(&err, "store: InvitePlayer")

	email, err = palaro.CheckEmail(email)
	if err != nil {
		return &palaro.Error{Code: palaro.EINVALID, Message: palaro.ErrorMessage(err),
			Fields: map[string]string{palaro.FieldPlayerEmail: palaro.ErrorMessage(err)}}
	}
	token, hash := newToken()
	return s.db.inWrite(ctx, func(ctx context.Context, tx *sql.Tx) error {
		var id int64
		if err := tx.QueryRowContext(ctx, `SELECT id FROM teams WHERE public_id = ?`+forUpdate, teamPublicID).Scan(&id); errors.Is(err, sql.ErrNoRows) {
			return palaro.Errorf(palaro.ENOTFOUND, "Team not found.")
		} else if err != nil {
			return err
		}
		team, err := findTeam(ctx, tx, teamPublicID)
		if err != nil {
			return err
		}
		t := team.Tournament
		switch {
		case team.CaptainID != captainID:
			return palaro.Errorf(palaro.EFORBIDDEN, "Only the team's captain invites players.")
		case team.Out():
			return palaro.Errorf(palaro.ECONFLICT, "%s is out of the tournament.", team.Name)
		case t.RosterLocked(now):
			return palaro.Errorf(palaro.ECONFLICT, "The roster is locked: ask the organizer to change it.")
		case len(team.Players) >= t.RosterSize():
			return palaro.Errorf(palaro.ECONFLICT, "The roster is full: %d players at most (%d starting, %d substitutes).",
				t.RosterSize(), t.MaxPlayers, t.Substitutes)
		}
		_, err = tx.ExecContext(ctx, `INSERT INTO team_players (team_id, email, token_hash, invited_at) VALUES (?, ?, ?, ?)`,
			team.ID, email, hash, formatTime(now))
		if isUniqueViolation(err) {
			return &palaro.Error{Code: palaro.ECONFLICT, Message: email + " is invited already.",
				Fields: map[string]string{palaro.FieldPlayerEmail: "This player is invited already."}}
		} else if err != nil {
			return err
		}
		name, err := eventName(ctx, tx, t.EventID)
		if err != nil {
			return err
		}
		return enqueue(ctx, tx, s.composer.TeamInvite(t, team, name, email, token), "", now)
	})
}

// FindPlayer returns the player of an invite token and their team.
func (s *TournamentService) FindPlayer(ctx context.Context, token string) (_ *palaro.TeamPlayer, _ *palaro.Team, err error) {
	defer wrapErr(&err, "store: FindPlayer")
	return findPlayer(ctx, s.db.read, token)
}

func findPlayer(ctx context.Context, q querier, token string) (*palaro.TeamPlayer, *palaro.Team, error) {
	p, err := scanPlayer(q.QueryRowContext(ctx, `SELECT `+playerColumns+` FROM team_players WHERE token_hash = ?`, hashToken(token)))
	if errors.Is(err, sql.ErrNoRows) {
		return nil, nil, palaro.Errorf(palaro.ENOTFOUND, "This invitation link is not valid.")
	} else if err != nil {
		return nil, nil, err
	}
	var publicID string
	if err := q.QueryRowContext(ctx, `SELECT public_id FROM teams WHERE id = ?`, p.TeamID).Scan(&publicID); err != nil {
		return nil, nil, err
	}
	team, err := findTeam(ctx, q, publicID)
	return p, team, err
}

// JoinTeam records a player's details; the roster's lock is checked in the UPDATE itself.
func (s *TournamentService) JoinTeam(ctx context.Context, token string, j palaro.PlayerJoin, now time.Time) (_ *palaro.TeamPlayer, err error) {
	defer wrapErr(&err, "store: JoinTeam")

	_, team, err := s.FindPlayer(ctx, token)
	if err != nil {
		return nil, err
	}
	if j, err = palaro.CheckPlayerJoin(team.Tournament.Game, j); err != nil {
		return nil, err
	}
	if team.Out() {
		return nil, palaro.Errorf(palaro.ECONFLICT, "%s is out of the tournament.", team.Name)
	}
	return write(ctx, s.db, func(ctx context.Context, tx *sql.Tx) (*palaro.TeamPlayer, error) {
		// joined_at is set once (the row's lock orders two joins): only the first is the player's joining
		first, err := tx.ExecContext(ctx, `UPDATE team_players SET joined_at = ? WHERE token_hash = ? AND joined_at IS NULL
			AND (SELECT roster_locks_at FROM tournaments WHERE id = ?) > ?`, formatTime(now), hashToken(token), team.TournamentID, formatTime(now))
		if err != nil {
			return nil, err
		}
		res, err := tx.ExecContext(ctx, `UPDATE team_players SET in_game_name = ?, game_account = ?, discord = ?
			WHERE token_hash = ? AND (SELECT roster_locks_at FROM tournaments WHERE id = ?) > ?`,
			j.InGameName, j.GameAccount, j.Discord, hashToken(token), team.TournamentID, formatTime(now))
		if err != nil {
			return nil, err
		}
		if n, _ := res.RowsAffected(); n == 0 {
			return nil, palaro.Errorf(palaro.ECONFLICT, "The roster is locked: ask the organizer to change it.")
		}
		p, _, err := findPlayer(ctx, tx, token)
		if err != nil {
			return nil, err
		}
		if n, _ := first.RowsAffected(); n > 0 {
			err = enqueueWebhookNote(ctx, tx, palaro.WebhookPlayerJoined, team.ID, p.Email, now)
		}
		return p, err
	})
}

// checkInRefusal says why a team cannot check in at now, or nil.
func checkInRefusal(team *palaro.Team, by string, now time.Time) error {
	t := team.Tournament
	opens, closes := t.CheckInWindow()
	switch {
	case team.Out():
		return palaro.Errorf(palaro.ECONFLICT, "%s is out of the tournament.", team.Name)
	case t.CheckInBy != by && by == palaro.CheckInByCaptain:
		return palaro.Errorf(palaro.ECONFLICT, "In this tournament every player checks in from their own link.")
	case t.CheckInBy != by:
		return palaro.Errorf(palaro.ECONFLICT, "In this tournament the captain checks the team in.")
	case now.Before(opens):
		return palaro.Errorf(palaro.ECONFLICT, "Check-in opens at %s (Manila time).", opens.In(palaro.Manila).Format("Mon 2 Jan, 3:04 PM"))
	case t.CheckInDone || !now.Before(closes):
		return palaro.Errorf(palaro.ECONFLICT, "Check-in is closed.")
	}
	return nil
}

// lockTeam locks team id's row (PostgreSQL) before a check-in counts its players, so the count,
// read by the next statement, sees a player removal that committed while it waited (RemovePlayer
// locks the same row first); SQLite's writer runs the unit alone.
func lockTeam(ctx context.Context, tx *sql.Tx, id int64) error {
	var locked int64
	return tx.QueryRowContext(ctx, `SELECT id FROM teams WHERE id = ?`+forUpdate, id).Scan(&locked)
}

// CheckInCaptain checks a team in by its captain; the team needs MinPlayers joined players.
func (s *TournamentService) CheckInCaptain(ctx context.Context, teamPublicID string, captainID int64, now time.Time) (err error) {
	defer wrapErr(&err, "store: CheckInCaptain")

	team, err := s.FindTeam(ctx, teamPublicID)
	if err != nil {
		return err
	}
	if team.CaptainID != captainID {
		return palaro.Errorf(palaro.EFORBIDDEN, "Only the team's captain checks the team in.")
	}
	if err := checkInRefusal(team, palaro.CheckInByCaptain, now); err != nil {
		return err
	}
	t := team.Tournament
	return s.db.inWrite(ctx, func(ctx context.Context, tx *sql.Tx) error {
		if err := lockTeam(ctx, tx, team.ID); err != nil {
			return err
		}
		// checked_in_at IS NULL first: the team's check-in happens once (its row's lock orders two clicks)
		cond := ` AND status IN ('registered', 'waitlisted')
			AND (SELECT count(*) FROM team_players p WHERE p.team_id = teams.id AND p.joined_at IS NOT NULL) >= ?
			AND (SELECT checkin_done_at FROM tournaments WHERE id = ?) IS NULL`
		res, err := tx.ExecContext(ctx, `UPDATE teams SET checked_in_at = ?, updated_at = ? WHERE id = ? AND checked_in_at IS NULL`+cond,
			formatTime(now), formatTime(now), team.ID, t.MinPlayers, t.ID)
		if err != nil {
			return err
		}
		if n, _ := res.RowsAffected(); n > 0 {
			return enqueueWebhookNote(ctx, tx, palaro.WebhookTeamCheckedIn, team.ID, "", now)
		}
		var ok int // checked in already: still refused if it no longer has its players
		if err := tx.QueryRowContext(ctx, `SELECT count(*) FROM teams WHERE id = ?`+cond, team.ID, t.MinPlayers, t.ID).Scan(&ok); err != nil {
			return err
		}
		if ok == 0 {
			return palaro.Errorf(palaro.ECONFLICT, "%s needs %d players who joined to check in (it has %d).", team.Name, t.MinPlayers, team.Joined())
		}
		return nil
	})
}

// CheckInPlayer checks a player in; the team is checked in once MinPlayers players have.
func (s *TournamentService) CheckInPlayer(ctx context.Context, token string, now time.Time) (err error) {
	defer wrapErr(&err, "store: CheckInPlayer")

	p, team, err := s.FindPlayer(ctx, token)
	if err != nil {
		return err
	}
	if p.JoinedAt == nil {
		return palaro.Errorf(palaro.ECONFLICT, "Join the team first, then check in.")
	}
	if err := checkInRefusal(team, palaro.CheckInByPlayers, now); err != nil {
		return err
	}
	return s.db.inWrite(ctx, func(ctx context.Context, tx *sql.Tx) error {
		if err := lockTeam(ctx, tx, team.ID); err != nil {
			return err
		}
		at := formatTime(now)
		if _, err := tx.ExecContext(ctx, `UPDATE team_players SET checked_in_at = COALESCE(checked_in_at, ?) WHERE id = ?`, at, p.ID); err != nil {
			return err
		}
		res, err := tx.ExecContext(ctx, `UPDATE teams SET checked_in_at = ?, updated_at = ? WHERE id = ? AND checked_in_at IS NULL
			AND status IN ('registered', 'waitlisted')
			AND (SELECT count(*) FROM team_players p WHERE p.team_id = teams.id AND p.checked_in_at IS NOT NULL) >= ?
			AND (SELECT checkin_done_at FROM tournaments WHERE id = ?) IS NULL`, at, at, team.ID, team.Tournament.MinPlayers, team.TournamentID)
		if err != nil {
			return err
		}
		if n, _ := res.RowsAffected(); n > 0 { // this player's check-in made the team's
			return enqueueWebhookNote(ctx, tx, palaro.WebhookTeamCheckedIn, team.ID, "", now)
		}
		return nil
	})
}

// teamRecipients are the addresses told about a team: its captain and its invited players.
func teamRecipients(team *palaro.Team) []string {
	to := []string{team.CaptainEmail}
	for _, p := range team.Players {
		if p.Email != team.CaptainEmail {
			to = append(to, p.Email)
		}
	}
	return to
}

// mailTeams queues one e-mail per recipient of each team, composed by compose.
func mailTeams(ctx context.Context, tx *sql.Tx, teams []*palaro.Team, now time.Time, compose func(*palaro.Team, string) palaro.Message) error {
	for _, team := range teams {
		for _, to := range teamRecipients(team) {
			if err := enqueue(ctx, tx, compose(team, to), "", now); err != nil {
				return err
			}
		}
	}
	return nil
}

// promoteWaiting gives the places free in a tournament to its waiting teams in entry order
// (only those checked in, when checkedIn; never one whose entry fee was refunded: it paid its fee
// to be listed, and a refunded one would play without paying) and returns them; the caller holds
// the tournament's row lock (its UPDATE ran first in the unit) and announces them (announceMovedUp).
func promoteWaiting(ctx context.Context, tx *sql.Tx, t *palaro.Tournament, checkedIn bool, now time.Time) ([]*palaro.Team, error) {
	var placed int
	if err := tx.QueryRowContext(ctx, `SELECT count(*) FROM teams WHERE tournament_id = ? AND status = 'registered'`, t.ID).Scan(&placed); err != nil {
		return nil, err
	}
	if placed >= t.MaxTeams {
		return nil, nil
	}
	// a team whose entry fee was refunded (or is being refunded) never gets a place back (feeRefunded)
	where := ` AND m.status = 'waitlisted' AND (m.order_id IS NULL OR EXISTS (SELECT 1 FROM orders o WHERE o.id = m.order_id
		AND o.status = 'paid' AND NOT EXISTS (SELECT 1 FROM refunds r WHERE r.order_id = o.id AND r.status != 'failed')))`
	if checkedIn {
		where += ` AND m.checked_in_at IS NOT NULL`
	}
	waiting, err := listTeams(ctx, tx, t.ID, where)
	if err != nil {
		return nil, err
	}
	up := waiting[:min(len(waiting), t.MaxTeams-placed)]
	for _, team := range up {
		if _, err := tx.ExecContext(ctx, `UPDATE teams SET status = 'registered', updated_at = ? WHERE id = ?`, formatTime(now), team.ID); err != nil {
			return nil, err
		}
		team.Status = palaro.TeamRegistered
	}
	return up, nil
}

// announceMovedUp tells, inside the caller's unit, that teams up of tournament t (of the event
// named eventName) moved up from the waiting list: a team.moved_up webhook each, and an e-mail
// (team_moved_up) to each team's captain and players.
func (s *TournamentService) announceMovedUp(ctx context.Context, tx *sql.Tx, t *palaro.Tournament, eventName string, up []*palaro.Team, now time.Time) error {
	if err := enqueueTeamWebhooks(ctx, tx, palaro.WebhookTeamMovedUp, up, "", now); err != nil {
		return err
	}
	return mailTeams(ctx, tx, up, now, func(team *palaro.Team, to string) palaro.Message {
		return s.composer.TeamMovedUp(t, team, eventName, to)
	})
}

// CloseCheckIns ends the check-ins that closed by now: each tournament in one unit, once
// (checkin_done_at is set by the unit's first, conditional UPDATE).
func (s *TournamentService) CloseCheckIns(ctx context.Context, now time.Time) (dropped, movedUp int, err error) {
	defer wrapErr(&err, "store: CloseCheckIns")

	// check-in closes at most checkin_opens (≤ 1440) minutes before the start
	rows, err := s.db.read.QueryContext(ctx, `SELECT `+tournamentColumns+tournamentFrom+`
		WHERE t.checkin_done_at IS NULL AND t.starts_at <= ?`, formatTime(now.Add(24*time.Hour)))
	if err != nil {
		return 0, 0, err
	}
	var due []*palaro.Tournament
	for rows.Next() {
		t, err := scanTournament(rows)
		if err != nil {
			rows.Close()
			return 0, 0, err
		}
		if _, closes := t.CheckInWindow(); !now.Before(closes) {
			due = append(due, t)
		}
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return 0, 0, err
	}
	for _, t := range due {
		name, err := eventName(ctx, s.db.read, t.EventID)
		if err != nil {
			return dropped, movedUp, err
		}
		err = s.db.inWrite(ctx, func(ctx context.Context, tx *sql.Tx) error {
			res, err := tx.ExecContext(ctx, `UPDATE tournaments SET checkin_done_at = ? WHERE id = ? AND checkin_done_at IS NULL`, formatTime(now), t.ID)
			if err != nil {
				return err
			}
			if n, _ := res.RowsAffected(); n == 0 {
				return nil // another server closed it
			}
			out, err := listTeams(ctx, tx, t.ID, ` AND m.status = 'registered' AND m.checked_in_at IS NULL`)
			if err != nil {
				return err
			}
			for _, team := range out {
				if _, err := tx.ExecContext(ctx, `UPDATE teams SET status = 'dropped', updated_at = ? WHERE id = ?`, formatTime(now), team.ID); err != nil {
					return err
				}
			}
			up, err := promoteWaiting(ctx, tx, t, true, now)
			if err != nil {
				return err
			}
			dropped, movedUp = dropped+len(out), movedUp+len(up)
			if err := enqueueTeamWebhooks(ctx, tx, palaro.WebhookTeamDropped, out, "", now); err != nil {
				return err
			}
			if err := s.refundTeams(ctx, tx, out, "missed check-in", now); err != nil {
				return err
			}
			// waiting teams that did not check in as standbys can no longer get a place
			left, err := listTeams(ctx, tx, t.ID, ` AND m.status = 'waitlisted' AND m.checked_in_at IS NULL`)
			if err != nil {
				return err
			}
			if err := s.refundTeams(ctx, tx, left, "no place in the tournament", now); err != nil {
				return err
			}
			if err := mailTeams(ctx, tx, out, now, func(team *palaro.Team, to string) palaro.Message {
				return s.composer.TeamDropped(t, team, name, to)
			}); err != nil {
				return err
			}
			if err := s.announceMovedUp(ctx, tx, t, name, up, now); err != nil {
				return err
			}
			_, _, err = syncCompetitorPasses(ctx, tx, t, s.composer, now) // the dropped teams' passes void, the moved up's issued
			return err
		})
		if err != nil {
			return dropped, movedUp, err
		}
	}
	return dropped, movedUp, nil
}

// RefundStandbys refunds, for every tournament that started by now (its start instant
// included), the entry fees of the waiting teams that checked in as standbys and never got a
// place: each tournament once, in one unit (standbys_refunded_at is set by its first, conditional
// UPDATE, so two servers never both refund). It returns how many standby teams it went through.
func (s *TournamentService) RefundStandbys(ctx context.Context, now time.Time) (standbys int, err error) {
	defer wrapErr(&err, "store: RefundStandbys")

	due, err := queryRows(ctx, s.db.read, `SELECT id FROM tournaments WHERE standbys_refunded_at IS NULL AND starts_at <= ? ORDER BY id`,
		[]any{formatTime(now)}, func(r rowScanner) (id int64, err error) { return id, r.Scan(&id) })
	if err != nil {
		return 0, err
	}
	for _, id := range due {
		err := s.db.inWrite(ctx, func(ctx context.Context, tx *sql.Tx) error {
			res, err := tx.ExecContext(ctx, `UPDATE tournaments SET standbys_refunded_at = ? WHERE id = ? AND standbys_refunded_at IS NULL`,
				formatTime(now), id)
			if err != nil {
				return err
			}
			if n, _ := res.RowsAffected(); n == 0 {
				return nil // another server did it
			}
			left, err := listTeams(ctx, tx, id, ` AND m.status = 'waitlisted' AND m.checked_in_at IS NOT NULL`)
			if err != nil {
				return err
			}
			standbys += len(left)
			return s.refundTeams(ctx, tx, left, "standby without a place when the tournament started", now)
		})
		if err != nil {
			return standbys, err
		}
	}
	return standbys, nil
}

// SetTeamStatus applies an organizer's decision about a team of the event: the team's captain
// and players are e-mailed the decision, and the teams it moves up their place, in the same unit.
func (s *TournamentService) SetTeamStatus(ctx context.Context, eventCode, teamPublicID, status string, seed *int, now time.Time) (err error) {
	defer wrapErr(&err, "store: SetTeamStatus(%s)", eventCode)

	switch status {
	case "", palaro.TeamRegistered, palaro.TeamRefused, palaro.TeamDisqualified:
	default:
		return &palaro.Error{Code: palaro.EINVALID, Message: "Status: registered, refused or disqualified.",
			Fields: map[string]string{"status": "Status: registered, refused or disqualified."}}
	}
	if seed != nil && (*seed < 0 || *seed > 1024) {
		return &palaro.Error{Code: palaro.EINVALID, Message: "Seed: 1 to 1024, or 0 for none.", Fields: map[string]string{"seed": "Seed: 1 to 1024, or 0 for none."}}
	}
	found, err := s.FindTeam(ctx, teamPublicID)
	if err != nil {
		return err
	}
	t := found.Tournament
	if t.EventCode != eventCode || found.Status == palaro.TeamUnpaid {
		return palaro.Errorf(palaro.ENOTFOUND, "Team not found.")
	}
	name, err := eventName(ctx, s.db.read, t.EventID)
	if err != nil {
		return err
	}
	return s.db.inWrite(ctx, func(ctx context.Context, tx *sql.Tx) error {
		// the tournament's row first: the same lock order as a registration
		if _, err := tx.ExecContext(ctx, `UPDATE tournaments SET updated_at = ? WHERE id = ?`, formatTime(now), t.ID); err != nil {
			return err
		}
		team, err := findTeam(ctx, tx, teamPublicID) // its status under the lock
		if err != nil {
			return err
		}
		if seed != nil {
			var seedArg any
			if *seed > 0 {
				seedArg = *seed
			}
			if _, err := tx.ExecContext(ctx, `UPDATE teams SET seed = ?, updated_at = ? WHERE id = ?`, seedArg, formatTime(now), team.ID); err != nil {
				return err
			}
		}
		if status == "" || status == team.Status {
			return nil
		}
		var up []*palaro.Team
		if status == palaro.TeamRegistered {
			if err := feeRefunded(ctx, tx, team); err != nil {
				return err
			}
			res, err := tx.ExecContext(ctx, `UPDATE teams SET status = 'registered', updated_at = ? WHERE id = ?
				AND (SELECT count(*) FROM teams x WHERE x.tournament_id = ? AND x.status = 'registered') < ?`, formatTime(now), team.ID, t.ID, t.MaxTeams)
			if err != nil {
				return err
			}
			if n, _ := res.RowsAffected(); n == 0 {
				return palaro.Errorf(palaro.ECONFLICT, "%s has %d teams already: refuse or disqualify one first.", t.Name, t.MaxTeams)
			}
		} else {
			if _, err := tx.ExecContext(ctx, `UPDATE teams SET status = ?, updated_at = ? WHERE id = ?`, status, formatTime(now), team.ID); err != nil {
				return err
			}
			if up, err = promoteWaiting(ctx, tx, t, t.CheckInDone, now); err != nil {
				return err
			}
			if err := s.refundTeams(ctx, tx, []*palaro.Team{team}, status+" by the organizer", now); err != nil {
				return err
			}
		}
		team.Status = status
		if err := enqueueTeamWebhooks(ctx, tx, teamDecisionEvents[status], []*palaro.Team{team}, "", now); err != nil {
			return err
		}
		if err := mailTeams(ctx, tx, []*palaro.Team{team}, now, func(team *palaro.Team, to string) palaro.Message {
			return s.composer.TeamDecision(t, team, name, to)
		}); err != nil {
			return err
		}
		if err := s.announceMovedUp(ctx, tx, t, name, up, now); err != nil {
			return err
		}
		_, _, err = syncCompetitorPasses(ctx, tx, t, s.composer, now) // an out team's passes void at once
		return err
	})
}

// teamDecisionEvents are the webhook events of the organizer's decisions, by the team's new status.
var teamDecisionEvents = map[string]string{palaro.TeamRegistered: palaro.WebhookTeamApproved,
	palaro.TeamRefused: palaro.WebhookTeamRefused, palaro.TeamDisqualified: palaro.WebhookTeamDisqualified}

// maxRemoveReason is the longest reason an organizer gives for removing a player.
const maxRemoveReason = 300

// RemovePlayer takes a player (by e-mail) off a team of the event, for reason: the player's
// row goes, so their invitation link no longer opens the team (the captain may invite them
// again); a team checked in that falls below its minimum while check-in is open has its check-in
// withdrawn (withdrawShortCheckIn); the player and the captain are e-mailed, the removal is in the
// event's audit log and sent to webhooks (team.player_removed), all in one unit. The team is
// returned as it is after.
func (s *TournamentService) RemovePlayer(ctx context.Context, eventCode, teamPublicID, email, reason, actor string, now time.Time) (_ *palaro.Team, err error) {
	defer wrapErr(&err, "store: RemovePlayer(%s)", eventCode)

	email = strings.TrimSpace(email)
	reason = strings.TrimSpace(reason)
	switch {
	case email == "":
		return nil, &palaro.Error{Code: palaro.EINVALID, Message: "Choose the player to remove.",
			Fields: map[string]string{palaro.FieldPlayerEmail: "Choose the player to remove."}}
	case reason == "":
		return nil, &palaro.Error{Code: palaro.EINVALID, Message: "Give a reason: the player and the captain are told it.",
			Fields: map[string]string{palaro.FieldRemoveReason: "Give a reason: the player and the captain are told it."}}
	case utf8.RuneCountInString(reason) > maxRemoveReason:
		msg := fmt.Sprintf("Reason: at most %d characters.", maxRemoveReason)
		return nil, &palaro.Error{Code: palaro.EINVALID, Message: msg, Fields: map[string]string{palaro.FieldRemoveReason: msg}}
	}
	found, err := s.FindTeam(ctx, teamPublicID)
	if err != nil {
		return nil, err
	}
	t := found.Tournament
	if t.EventCode != eventCode || found.Status == palaro.TeamUnpaid {
		return nil, palaro.Errorf(palaro.ENOTFOUND, "Team not found.")
	}
	name, err := eventName(ctx, s.db.read, t.EventID)
	if err != nil {
		return nil, err
	}
	return write(ctx, s.db, func(ctx context.Context, tx *sql.Tx) (*palaro.Team, error) {
		// the team's row first, as an invitation locks it
		if _, err := tx.ExecContext(ctx, `UPDATE teams SET updated_at = ? WHERE id = ?`, formatTime(now), found.ID); err != nil {
			return nil, err
		}
		if err := voidPlayerPass(ctx, tx, found.ID, email); err != nil {
			return nil, err
		}
		var player string
		err := tx.QueryRowContext(ctx, `DELETE FROM team_players WHERE team_id = ? AND lower(email) = lower(?) RETURNING email`,
			found.ID, email).Scan(&player)
		if errors.Is(err, sql.ErrNoRows) {
			msg := email + " is not on the roster of " + found.Name + "."
			return nil, &palaro.Error{Code: palaro.ENOTFOUND, Message: msg, Fields: map[string]string{palaro.FieldPlayerEmail: msg}}
		} else if err != nil {
			return nil, err
		}
		withdrawn, err := withdrawShortCheckIn(ctx, tx, t, found.ID, now)
		if err != nil {
			return nil, err
		}
		team, err := findTeam(ctx, tx, teamPublicID)
		if err != nil {
			return nil, err
		}
		to := []string{player}
		if !strings.EqualFold(player, team.CaptainEmail) {
			to = append(to, team.CaptainEmail)
		}
		for _, addr := range to {
			if err := enqueue(ctx, tx, s.composer.PlayerRemoved(t, team, name, addr, player, reason, withdrawn), "", now); err != nil {
				return nil, err
			}
		}
		if err := enqueueWebhookNote(ctx, tx, palaro.WebhookPlayerRemoved, team.ID, player, now); err != nil {
			return nil, err
		}
		detail, err := json.Marshal(map[string]string{"team": team.Name, "tournament": t.Name, "player": player, "reason": reason})
		if err != nil {
			return nil, err
		}
		return team, auditOn(ctx, tx, t.EventID, actor, "player removed from a team", string(detail), now)
	})
}

// withdrawShortCheckIn withdraws, inside the caller's unit (the team's row locked), the check-in
// of team teamID of tournament t when it no longer has the players check-in requires (joined
// players, or checked-in players when every player checks in) and check-in is still open: the
// team checks in again once it has them. After check-in closed the team keeps its check-in and
// its place (the organizer decides: the console says it is short; disqualifying it moves the
// first waiting team up). It reports whether it withdrew the check-in.
func withdrawShortCheckIn(ctx context.Context, tx *sql.Tx, t *palaro.Tournament, teamID int64, now time.Time) (bool, error) {
	if _, closes := t.CheckInWindow(); !now.Before(closes) {
		return false, nil
	}
	counted := "joined_at"
	if t.CheckInBy == palaro.CheckInByPlayers {
		counted = "checked_in_at"
	}
	res, err := tx.ExecContext(ctx, `UPDATE teams SET checked_in_at = NULL, updated_at = ? WHERE id = ? AND checked_in_at IS NOT NULL
		AND (SELECT checkin_done_at FROM tournaments WHERE id = ?) IS NULL
		AND (SELECT count(*) FROM team_players p WHERE p.team_id = teams.id AND p.`+counted+` IS NOT NULL) < ?`,
		formatTime(now), teamID, t.ID, t.MinPlayers)
	if err != nil {
		return false, err
	}
	n, err := res.RowsAffected()
	return n > 0, err
}
