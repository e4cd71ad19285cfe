package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"strings"
	"time"

	"palaro"
)

// competitorPassType returns the id of tournament t's competitor-pass ticket type, created the
// first time: hidden like the entry-fee type (tournament_id set), free, never sold.
func competitorPassType(ctx context.Context, tx *sql.Tx, t *palaro.Tournament) (int64, error) {
	var id int64
	err := tx.QueryRowContext(ctx, `SELECT id FROM ticket_types WHERE tournament_id = ? AND competitor_pass = 1`, t.ID).Scan(&id)
	if !errors.Is(err, sql.ErrNoRows) {
		return id, err
	}
	return insertID(ctx, tx, `INSERT INTO ticket_types (event_id, code, name, price, max_purchasable, capacity, tournament_id, competitor_pass)
		VALUES (?, ?, ?, 0, 1, ?, ?, 1)`, t.EventID, "players-"+newPublicID(), "Competitor pass", entryCapacity, t.ID)
}

// passDate returns the date of series event eventID the tournament starting at starts is played
// on (the first date of that day in Manila), or nil for an event of one date or a day without one.
func passDate(ctx context.Context, tx *sql.Tx, eventID int64, starts time.Time) (*palaro.EventDate, error) {
	dates, err := eventDates(ctx, tx, eventID)
	if err != nil {
		return nil, err
	}
	return dateOnDay(dates, starts), nil
}

// dateOnDay returns the first of dates falling on the Manila day of starts, or nil.
func dateOnDay(dates []palaro.EventDate, starts time.Time) *palaro.EventDate {
	day := palaro.ManilaDay(starts)
	for i := range dates {
		if palaro.ManilaDay(dates[i].StartsAt) == day {
			return &dates[i]
		}
	}
	return nil
}

// startsOnSeriesDate refuses, naming startsAt and the dates, a tournament of series event
// eventID starting on a day without a date of the series (not cancelled): its competitor passes
// are day tickets of the date it is played on, and a pass of no date would be refused at the gate
// of every date. An event of one date takes any start.
func startsOnSeriesDate(ctx context.Context, tx *sql.Tx, eventID int64, starts time.Time) error {
	dates, err := eventDates(ctx, tx, eventID)
	if err != nil || len(dates) == 0 {
		return err
	}
	var on []palaro.EventDate
	var labels []string
	for _, d := range dates {
		if d.Status != palaro.DateCancelled {
			on = append(on, d)
			labels = append(labels, palaro.GateDateLabel(d))
		}
	}
	if dateOnDay(on, starts) != nil {
		return nil
	}
	msg := "On a series the tournament starts on one of its dates (Manila time): " + strings.Join(labels, ", ") + "."
	if len(labels) == 0 {
		msg = "Every date of this series is cancelled: add a date first."
	}
	return &palaro.Error{Code: palaro.EINVALID, Message: "Please correct the highlighted fields.", Fields: map[string]string{palaro.FieldStartsAt: msg}}
}

// newPass is a joined player of a placed team who has no competitor pass yet.
type newPass struct {
	playerID, teamID int64
	email, name      string
	team, tag        string
}

// syncCompetitorPasses keeps tournament t's competitor passes in step with its teams, inside the
// caller's unit, and returns how many it issued and voided. Once the roster is locked, each joined
// player of a team holding a place (registered) gets one pass: a free ticket in their name, of a
// paid order of 0, for the tournament's date; a pass of a team that is out (dropped, refused,
// disqualified) is voided (cancelled: the gate refuses it and its list drops it), and given back
// if the organizer gives the team a place again. The tournament's row is locked first, so two runs
// at once issue one pass per player (competitor_passes' key on the player is the backstop). The
// players are e-mailed their pass when composer is given.
func syncCompetitorPasses(ctx context.Context, tx *sql.Tx, t *palaro.Tournament, composer palaro.TeamComposer, now time.Time) (issued, voided int, err error) {
	var locked int64
	if err := tx.QueryRowContext(ctx, `SELECT id FROM tournaments WHERE id = ?`+forUpdate, t.ID).Scan(&locked); err != nil {
		return 0, 0, err
	}
	res, err := tx.ExecContext(ctx, `UPDATE tickets SET status = 'cancelled' WHERE status IN ('valid', 'checked_in') AND id IN
		(SELECT cp.ticket_id FROM competitor_passes cp JOIN teams m ON m.id = cp.team_id WHERE m.tournament_id = ? AND m.status != 'registered')`, t.ID)
	if err != nil {
		return 0, 0, err
	}
	n, _ := res.RowsAffected()
	voided = int(n)
	// a team given its place back: its passes are valid again (checked in or not, as they were)
	if _, err := tx.ExecContext(ctx, `UPDATE tickets SET status = CASE WHEN checked_in_at IS NULL THEN 'valid' ELSE 'checked_in' END
		WHERE status = 'cancelled' AND id IN (SELECT cp.ticket_id FROM competitor_passes cp JOIN teams m ON m.id = cp.team_id
		WHERE m.tournament_id = ? AND m.status = 'registered')`, t.ID); err != nil {
		return 0, voided, err
	}
	if !t.RosterLocked(now) {
		return 0, voided, nil
	}
	due, err := queryRows(ctx, tx, `SELECT p.id, m.id, p.email, p.in_game_name, m.name, m.tag FROM team_players p JOIN teams m ON m.id = p.team_id
		WHERE m.tournament_id = ? AND m.status = 'registered' AND p.joined_at IS NOT NULL
		AND NOT EXISTS (SELECT 1 FROM competitor_passes cp WHERE cp.player_id = p.id) ORDER BY m.entry, p.id`,
		[]any{t.ID}, func(r rowScanner) (p newPass, err error) {
			err = r.Scan(&p.playerID, &p.teamID, &p.email, &p.name, &p.team, &p.tag)
			return
		})
	if err != nil || len(due) == 0 {
		return 0, voided, err
	}
	typeID, err := competitorPassType(ctx, tx, t)
	if err != nil {
		return 0, voided, err
	}
	date, err := passDate(ctx, tx, t.EventID, t.StartsAt)
	if err != nil {
		return 0, voided, err
	}
	var evName string
	if composer != nil {
		if evName, err = eventName(ctx, tx, t.EventID); err != nil {
			return 0, voided, err
		}
	}
	for _, p := range due {
		pass, err := issueCompetitorPass(ctx, tx, t, typeID, date, p, now)
		if err != nil {
			return issued, voided, err
		}
		issued++
		if composer != nil {
			team := &palaro.Team{ID: p.teamID, Name: p.team, Tag: p.tag, TournamentID: t.ID, Tournament: t}
			if err := enqueue(ctx, tx, composer.CompetitorPass(t, team, evName, p.email, *pass), "", now); err != nil {
				return issued, voided, err
			}
		}
	}
	_, err = tx.ExecContext(ctx, `UPDATE ticket_types SET sold = sold + ? WHERE id = ?`, issued, typeID)
	return issued, voided, err
}

// voidPlayerPass voids, inside tx, the competitor pass of the player of team teamID with the
// e-mail address email (a player removed): its ticket is cancelled (the gate refuses it, its list's
// delta carries it) and its record goes with the player's row.
func voidPlayerPass(ctx context.Context, tx *sql.Tx, teamID int64, email string) error {
	player := `SELECT id FROM team_players WHERE team_id = ? AND lower(email) = lower(?)`
	if _, err := tx.ExecContext(ctx, `UPDATE tickets SET status = 'cancelled' WHERE status IN ('valid', 'checked_in') AND id IN
		(SELECT ticket_id FROM competitor_passes WHERE player_id IN (`+player+`))`, teamID, email); err != nil {
		return err
	}
	_, err := tx.ExecContext(ctx, `DELETE FROM competitor_passes WHERE player_id IN (`+player+`)`, teamID, email)
	return err
}

// issueCompetitorPass writes player p's pass: a paid order of 0 (no payment, no invoice) and its
// ticket in the player's name, and returns it.
func issueCompetitorPass(ctx context.Context, tx *sql.Tx, t *palaro.Tournament, typeID int64, date *palaro.EventDate, p newPass, now time.Time) (*palaro.CompetitorPass, error) {
	buyer, _ := json.Marshal(palaro.Buyer{FullName: p.name})
	var dateID any
	if date != nil {
		dateID = date.ID
	}
	orderID, err := insertID(ctx, tx, `INSERT INTO orders (public_id, kind, event_id, ticket_type_id, quantity, email, buyer,
		source, unit_price, total, status, paid_at, created_at, date_id) VALUES (?, 'tickets', ?, ?, 1, ?, ?, 'competitor', 0, 0, 'paid', ?, ?, ?)`,
		newPublicID(), t.EventID, typeID, p.email, string(buyer), formatTime(now), formatTime(now), dateID)
	if err != nil {
		return nil, err
	}
	ticket := palaro.Ticket{OrderID: orderID, EventID: t.EventID, HolderName: p.name, Email: p.email, Status: palaro.TicketValid,
		CreatedAt: now, Date: date}
	if err := insertTicket(ctx, tx, &ticket, typeID); err != nil {
		return nil, err
	}
	_, err = tx.ExecContext(ctx, `INSERT INTO competitor_passes (player_id, team_id, ticket_id, created_at) VALUES (?, ?, ?, ?)`,
		p.playerID, p.teamID, ticket.ID, formatTime(now))
	return &palaro.CompetitorPass{TicketPublicID: ticket.PublicID, Code: ticket.Code}, err
}

// IssueCompetitorPasses brings the competitor passes of every tournament whose roster locked by
// now and that has not started more than a day ago in step with its teams (syncCompetitorPasses),
// each tournament in its own unit, and returns how many passes it issued and voided.
func (s *TournamentService) IssueCompetitorPasses(ctx context.Context, now time.Time) (issued, voided int, err error) {
	defer wrapErr(&err, "store: IssueCompetitorPasses")

	due, err := queryRows(ctx, s.db.read, `SELECT `+tournamentColumns+tournamentFrom+` WHERE t.roster_locks_at <= ? AND t.starts_at > ?
		ORDER BY t.id`, []any{formatTime(now), formatTime(now.Add(-24 * time.Hour))}, scanTournament)
	if err != nil {
		return 0, 0, err
	}
	for _, t := range due {
		err := s.db.inWrite(ctx, func(ctx context.Context, tx *sql.Tx) error {
			i, v, err := syncCompetitorPasses(ctx, tx, t, s.composer, now)
			issued, voided = issued+i, voided+v
			return err
		})
		if err != nil {
			return issued, voided, err
		}
	}
	return issued, voided, nil
}

// CompetitorPass returns the competitor pass of the player of an invite token, or nil when they
// have none (not issued yet, or voided).
func (s *TournamentService) CompetitorPass(ctx context.Context, token string) (_ *palaro.CompetitorPass, err error) {
	defer wrapErr(&err, "store: CompetitorPass")

	var pass palaro.CompetitorPass
	err = s.db.read.QueryRowContext(ctx, `SELECT t.public_id, t.code FROM competitor_passes cp JOIN tickets t ON t.id = cp.ticket_id
		JOIN team_players p ON p.id = cp.player_id WHERE p.token_hash = ? AND t.status != 'cancelled'`, hashToken(token)).
		Scan(&pass.TicketPublicID, &pass.Code)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, nil
	}
	return &pass, err
}
