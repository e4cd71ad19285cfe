package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"palaro"
)

// TournamentService implements palaro.TournamentService: tournaments (this file) and their
// teams and players (teams.go).
type TournamentService struct {
	db       *DB
	composer palaro.TeamComposer
	refunds  *RefundService // refunds entry fees (SetPayments); one without e-mails when nil
	hold     time.Duration  // how long an unpaid registration's order holds (SetPayments)
}

var _ palaro.TournamentService = (*TournamentService)(nil)

// NewTournamentService returns the tournaments backed by db; composer writes their e-mails.
func NewTournamentService(db *DB, composer palaro.TeamComposer) *TournamentService {
	return &TournamentService{db: db, composer: composer}
}

// tournamentColumns are the columns scanTournament reads, from tournaments t joined to events e.
const tournamentColumns = `t.id, t.event_id, e.code, t.code, t.name, t.game, t.format, t.min_players, t.max_players,
	t.substitutes, t.max_teams, t.entry_fee, t.rules, t.registration_opens_at, t.registration_closes_at,
	t.roster_locks_at, t.starts_at, t.checkin_opens, t.checkin_closes, t.checkin_by, t.bracket_url, t.stream_url,
	t.checkin_done_at,
	(SELECT count(*) FROM teams x WHERE x.tournament_id = t.id AND x.status = 'registered'),
	(SELECT count(*) FROM teams x WHERE x.tournament_id = t.id AND x.status = 'waitlisted')`

// tournamentFrom is the FROM clause matching tournamentColumns.
const tournamentFrom = ` FROM tournaments t JOIN events e ON e.id = t.event_id`

func scanTournament(r rowScanner) (*palaro.Tournament, error) {
	var t palaro.Tournament
	var opens, closes, locks, starts, done sql.NullString
	if err := r.Scan(&t.ID, &t.EventID, &t.EventCode, &t.Code, &t.Name, &t.Game, &t.Format, &t.MinPlayers, &t.MaxPlayers,
		&t.Substitutes, &t.MaxTeams, &t.EntryFee, &t.Rules, &opens, &closes, &locks, &starts, &t.CheckInOpens,
		&t.CheckInCloses, &t.CheckInBy, &t.BracketURL, &t.StreamURL, &done, &t.Registered, &t.Waitlisted); err != nil {
		return nil, err
	}
	t.CheckInDone = done.Valid
	var err error
	for _, p := range []struct {
		s  sql.NullString
		to *time.Time
	}{{opens, &t.RegistrationOpensAt}, {closes, &t.RegistrationClosesAt}, {locks, &t.RosterLocksAt}, {starts, &t.StartsAt}} {
		if *p.to, err = parseTime(p.s); err != nil {
			return nil, err
		}
	}
	return &t, nil
}

// SaveTournament creates or changes a tournament of the event eventCode.
func (s *TournamentService) SaveTournament(ctx context.Context, eventCode string, t palaro.Tournament, now time.Time) (_ *palaro.Tournament, err error) {
	defer wrapErr(&err, "store: SaveTournament(%s/%s)", eventCode, t.Code)

	if err := t.Validate(); err != nil {
		return nil, err
	}
	err = s.db.inWrite(ctx, func(ctx context.Context, tx *sql.Tx) error {
		var eventID int64
		if err := tx.QueryRowContext(ctx, `SELECT id FROM events WHERE code = ?`, eventCode).Scan(&eventID); errors.Is(err, sql.ErrNoRows) {
			return palaro.Errorf(palaro.ENOTFOUND, "Event not found.")
		} else if err != nil {
			return err
		}
		if err := startsOnSeriesDate(ctx, tx, eventID, t.StartsAt); err != nil {
			return err
		}
		args := []any{t.Code, t.Name, t.Game, t.Format, t.MinPlayers, t.MaxPlayers, t.Substitutes, t.MaxTeams, t.EntryFee, t.Rules,
			formatTime(t.RegistrationOpensAt), formatTime(t.RegistrationClosesAt), formatTime(t.RosterLocksAt), formatTime(t.StartsAt),
			t.CheckInOpens, t.CheckInCloses, t.CheckInBy, t.BracketURL, t.StreamURL, formatTime(now)}
		if t.ID == 0 {
			err := tx.QueryRowContext(ctx, `INSERT INTO tournaments (code, name, game, format, min_players, max_players, substitutes,
				max_teams, entry_fee, rules, registration_opens_at, registration_closes_at, roster_locks_at, starts_at,
				checkin_opens, checkin_closes, checkin_by, bracket_url, stream_url, updated_at, event_id, created_at)
				VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id`,
				append(args, eventID, formatTime(now))...).Scan(&t.ID)
			if isUniqueViolation(err) {
				return &palaro.Error{Code: palaro.ECONFLICT, Message: "Another tournament has the code " + t.Code + ".",
					Fields: map[string]string{palaro.FieldTournamentCode: "This code is taken: choose another."}}
			} else if err != nil {
				return err
			}
			return saveEntryType(ctx, tx, eventID, t.ID, t)
		}
		if err := tournamentChangeAllowed(ctx, tx, t); err != nil {
			return err
		}
		// a changed start opens check-in again (checkin_done_at) when it moves later than now
		res, err := tx.ExecContext(ctx, `UPDATE tournaments SET code = ?, name = ?, game = ?, format = ?, min_players = ?,
			max_players = ?, substitutes = ?, max_teams = ?, entry_fee = ?, rules = ?, registration_opens_at = ?,
			registration_closes_at = ?, roster_locks_at = ?, starts_at = ?, checkin_opens = ?, checkin_closes = ?,
			checkin_by = ?, bracket_url = ?, stream_url = ?, updated_at = ? WHERE id = ? AND event_id = ?`,
			append(args, t.ID, eventID)...)
		if isUniqueViolation(err) {
			return &palaro.Error{Code: palaro.ECONFLICT, Message: "Another tournament has the code " + t.Code + ".",
				Fields: map[string]string{palaro.FieldTournamentCode: "This code is taken: choose another."}}
		} else if err != nil {
			return err
		}
		if n, _ := res.RowsAffected(); n == 0 {
			return palaro.Errorf(palaro.ENOTFOUND, "Tournament not found.")
		}
		if err := saveEntryType(ctx, tx, eventID, t.ID, t); err != nil {
			return err
		}
		return s.moveUpToMaxTeams(ctx, tx, t.ID, now)
	})
	if err != nil {
		return nil, err
	}
	return s.FindTournament(ctx, t.Code)
}

// moveUpToMaxTeams gives the places a change of tournament id left free (a higher maximum of
// teams) to its waiting teams, in the change's unit and under its row lock (its UPDATE ran
// first): in entry order, after check-in closed only those checked in as standbys, never one whose
// fee was refunded (promoteWaiting, as a decision or the close of check-in moves teams up); each
// announced (announceMovedUp) and given its players' competitor passes once the roster is locked.
func (s *TournamentService) moveUpToMaxTeams(ctx context.Context, tx *sql.Tx, id int64, now time.Time) error {
	t, err := findTournamentTx(ctx, tx, id)
	if err != nil {
		return err
	}
	up, err := promoteWaiting(ctx, tx, t, t.CheckInDone, now)
	if err != nil || len(up) == 0 {
		return err
	}
	name, err := eventName(ctx, tx, t.EventID)
	if err != nil {
		return err
	}
	if err := s.announceMovedUp(ctx, tx, t, name, up, now); err != nil {
		return err
	}
	_, _, err = syncCompetitorPasses(ctx, tx, t, s.composer, now)
	return err
}

// ListTournaments returns an event's tournaments by start.
func (s *TournamentService) ListTournaments(ctx context.Context, eventCode string) (_ []palaro.Tournament, err error) {
	defer wrapErr(&err, "store: ListTournaments(%s)", eventCode)

	ts, err := queryRows(ctx, s.db.read, `SELECT `+tournamentColumns+tournamentFrom+` WHERE e.code = ? ORDER BY t.starts_at, t.id`,
		[]any{eventCode}, scanTournament)
	if err != nil {
		return nil, err
	}
	out := make([]palaro.Tournament, len(ts))
	for i, t := range ts {
		out[i] = *t
	}
	return out, nil
}

// FindTournament returns a tournament by code.
func (s *TournamentService) FindTournament(ctx context.Context, code string) (_ *palaro.Tournament, err error) {
	defer wrapErr(&err, "store: FindTournament(%s)", code)

	t, err := scanTournament(s.db.read.QueryRowContext(ctx, `SELECT `+tournamentColumns+tournamentFrom+` WHERE t.code = ?`, code))
	if errors.Is(err, sql.ErrNoRows) {
		return nil, palaro.Errorf(palaro.ENOTFOUND, "Tournament not found.")
	}
	return t, err
}

// findTournamentTx reads a tournament by id inside tx.
func findTournamentTx(ctx context.Context, tx *sql.Tx, id int64) (*palaro.Tournament, error) {
	return scanTournament(tx.QueryRowContext(ctx, `SELECT `+tournamentColumns+tournamentFrom+` WHERE t.id = ?`, id))
}

// tournamentChangeAllowed refuses, by field, a change of tournament t that would lose what teams
// have: fewer places than the teams holding one, or another entry fee once one is paid or being paid.
func tournamentChangeAllowed(ctx context.Context, tx *sql.Tx, t palaro.Tournament) error {
	var placed int
	if err := tx.QueryRowContext(ctx, `SELECT count(*) FROM teams WHERE tournament_id = ? AND status = 'registered'`, t.ID).Scan(&placed); err != nil {
		return err
	}
	f := map[string]string{}
	if t.MaxTeams < placed {
		f[palaro.FieldMaxTeams] = fmt.Sprintf("Maximum teams cannot go below the %d teams with a place.", placed)
	}
	var fee palaro.Money
	var paying int
	err := tx.QueryRowContext(ctx, `SELECT price, sold + held FROM ticket_types WHERE tournament_id = ?`, t.ID).Scan(&fee, &paying)
	if err != nil && !errors.Is(err, sql.ErrNoRows) {
		return err
	}
	if paying > 0 && fee != t.EntryFee {
		f[palaro.FieldEntryFee] = "The entry fee cannot change once a team has paid it or is paying it."
	}
	if len(f) == 0 {
		return nil
	}
	return &palaro.Error{Code: palaro.EINVALID, Message: "Please correct the highlighted fields.", Fields: f}
}
