package store

import (
	"cmp"
	"context"
	crand "crypto/rand"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"strings"

	"palaro"
)

// ActivityService implements palaro.ActivityService on SQLite.
type ActivityService struct {
	db *DB
	// Rand returns the random source of one draw and card layout; tests fix it.
	Rand func() *rand.Rand
}

var _ palaro.ActivityService = (*ActivityService)(nil)

// NewActivityService returns the activity service, drawing with a cryptographically seeded source.
func NewActivityService(db *DB) *ActivityService {
	return &ActivityService{db: db, Rand: func() *rand.Rand {
		var seed [32]byte
		_, _ = crand.Read(seed[:])
		return rand.New(rand.NewChaCha8(seed))
	}}
}

// activityColumns reads an activity with its event's code and name.
const activityColumns = `a.id, a.event_id, e.code, e.name, a.code, a.kind, a.name, a.description, a.points,
	a.starts_at, a.ends_at, a.ticket_holders_only, a.win_percent, a.quiz
	FROM activities a JOIN events e ON e.id = a.event_id`

func scanActivity(r rowScanner) (*palaro.Activity, error) {
	var a palaro.Activity
	var starts, ends sql.NullString
	if err := r.Scan(&a.ID, &a.EventID, &a.EventCode, &a.EventName, &a.Code, &a.Kind, &a.Name, &a.Description, &a.Points,
		&starts, &ends, &a.TicketHoldersOnly, &a.WinPercent, &a.Quiz); err != nil {
		return nil, err
	}
	var err error
	if a.StartsAt, err = parseTime(starts); err != nil {
		return nil, err
	}
	a.EndsAt, err = parseTime(ends)
	return &a, err
}

// findActivity reads one activity of an event, with its prizes.
func findActivity(ctx context.Context, tx *sql.Tx, eventCode, activityCode string) (*palaro.Activity, error) {
	a, err := scanActivity(tx.QueryRowContext(ctx, `SELECT `+activityColumns+` WHERE e.code = ? AND a.code = ?`, eventCode, activityCode))
	if errors.Is(err, sql.ErrNoRows) {
		return nil, palaro.Errorf(palaro.ENOTFOUND, palaro.MsgScanUnknown)
	} else if err != nil {
		return nil, err
	}
	a.Prizes, err = listPrizes(ctx, tx, a.ID)
	return a, err
}

func listPrizes(ctx context.Context, tx *sql.Tx, activityID int64) ([]palaro.Prize, error) {
	rows, err := tx.QueryContext(ctx, `SELECT id, code, name, image_url, stock, awarded, claimable FROM prizes
		WHERE activity_id = ? ORDER BY position, id`, activityID)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := []palaro.Prize{}
	for rows.Next() {
		var p palaro.Prize
		if err := rows.Scan(&p.ID, &p.Code, &p.Name, &p.ImageURL, &p.Stock, &p.Awarded, &p.Claimable); err != nil {
			return nil, err
		}
		out = append(out, p)
	}
	return out, rows.Err()
}

// FindActivity returns one activity of an event with its prizes.
func (s *ActivityService) FindActivity(ctx context.Context, eventCode, activityCode string) (_ *palaro.Activity, err error) {
	defer wrapErr(&err, "store: FindActivity(%q)", eventCode)

	tx, err := s.db.beginRead(ctx)
	if err != nil {
		return nil, err
	}
	defer tx.Rollback()
	return findActivity(ctx, tx, eventCode, activityCode)
}

// ListActivities returns the activities of events that have not ended (of one event when
// eventCode is set), by event start and name.
func (s *ActivityService) ListActivities(ctx context.Context, eventCode string) (_ []palaro.Activity, err error) {
	defer wrapErr(&err, "store: ListActivities(%q)", eventCode)

	tx, err := s.db.beginRead(ctx)
	if err != nil {
		return nil, err
	}
	defer tx.Rollback()
	where, arg := `e.ends_at >= ? AND e.status != 'draft'`, any(formatTime(s.db.Now()))
	if eventCode != "" {
		where, arg = `e.code = ?`, eventCode
	}
	rows, err := tx.QueryContext(ctx, `SELECT `+activityColumns+` WHERE `+where+` ORDER BY e.starts_at, e.id, a.kind, a.name`, arg)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := []palaro.Activity{}
	for rows.Next() {
		a, err := scanActivity(rows)
		if err != nil {
			return nil, err
		}
		out = append(out, *a)
	}
	if err := rows.Err(); err != nil {
		return nil, err
	}
	rows.Close()
	for i := range out {
		if out[i].Prizes, err = listPrizes(ctx, tx, out[i].ID); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// Scan registers a visit once, in one write transaction: the draw of a scratch card and the
// prize it takes from the stock (a guarded `UPDATE … WHERE awarded < stock`) are committed with
// the visit, so the stored card is the one answered, every time after too.
func (s *ActivityService) Scan(ctx context.Context, req palaro.ScanRequest) (_ *palaro.ScanResult, err error) {
	defer wrapErr(&err, "store: Scan")

	return write(ctx, s.db, func(ctx context.Context, tx *sql.Tx) (*palaro.ScanResult, error) {
		a, err := findActivity(ctx, tx, req.EventCode, req.ActivityCode)
		if err != nil {
			return nil, err
		}
		var pid int64
		var mobile string
		var confirmed sql.NullString
		err = tx.QueryRowContext(ctx, `SELECT id, mobile_number, confirmed_at FROM participants WHERE public_id = ?`, req.ParticipantID).
			Scan(&pid, &mobile, &confirmed)
		if errors.Is(err, sql.ErrNoRows) {
			return nil, palaro.Errorf(palaro.ENOTFOUND, palaro.MsgParticipantGone)
		} else if err != nil {
			return nil, err
		}
		// Two scans of one participant at once: the second waits here, then finds the first's visit.
		if err := s.db.lockRow(ctx, tx, "participants", pid); err != nil {
			return nil, err
		}
		if res, err := storedVisit(ctx, tx, a, pid); err != nil || res != nil {
			return res, err
		}
		now := s.db.Now()
		if err := a.CheckWindow(now); err != nil {
			return nil, err
		}
		if a.HasPrizes() {
			// A prize goes only to a participant who proved their number, playing at the booth.
			if !confirmed.Valid {
				return nil, palaro.Errorf(palaro.EINVALID, palaro.MsgConfirmToWin)
			}
			if !req.AtBooth {
				return nil, palaro.Errorf(palaro.EINVALID, palaro.MsgBoothCodeNeeded)
			}
		}
		if a.TicketHoldersOnly {
			if ok, err := holdsTicket(ctx, tx, a.EventID, mobile, confirmed.Valid); err != nil {
				return nil, err
			} else if !ok {
				return nil, palaro.Errorf(palaro.EINVALID, palaro.MsgNotTicketHolder)
			}
		}
		var prizeID any
		remarks, card := "Visited", ""
		if a.Kind == palaro.ActivityScratch {
			rng := s.Rand()
			won := palaro.DrawPrize(rng, a.WinPercent, a.Prizes)
			if won >= 0 {
				res, err := tx.ExecContext(ctx, `UPDATE prizes SET awarded = awarded + 1 WHERE id = ? AND awarded < stock`, a.Prizes[won].ID)
				if err != nil {
					return nil, err
				}
				if n, _ := res.RowsAffected(); n == 1 {
					prizeID = a.Prizes[won].ID
				} else {
					won = -1
				}
			}
			c := scratchCard(a, palaro.ScratchLayout(rng, scratchPrizes(a), won), won)
			b, err := json.Marshal(c)
			if err != nil {
				return nil, err
			}
			card, remarks = string(b), palaro.ScratchRemarks("", false)
			if won >= 0 {
				remarks = palaro.ScratchRemarks(a.Prizes[won].Name, a.Prizes[won].Claimable)
			}
		}
		if a.Kind == palaro.ActivityQuiz {
			remarks = cmp.Or(req.Remarks, "Quiz played")
		}
		if _, err := tx.ExecContext(ctx, `INSERT INTO activity_visits (activity_id, participant_id, points, remarks, prize_id, scratch, created_at)
		VALUES (?, ?, ?, ?, ?, ?, ?)`, a.ID, pid, a.Points, remarks, prizeID, card, formatTime(now)); err != nil {
			return nil, err
		}
		res, err := storedVisit(ctx, tx, a, pid)
		if err != nil {
			return nil, err
		}
		res.Repeat = false
		res.Message = palaro.ScanMessage(a, res.Points, false)
		return res, nil
	})
}

// scratchPrizes are an activity's prizes as the card shows them.
func scratchPrizes(a *palaro.Activity) []palaro.ScratchPrize {
	out := make([]palaro.ScratchPrize, len(a.Prizes))
	for i, p := range a.Prizes {
		out[i] = palaro.ScratchPrize{Code: p.Code, Name: p.Name, ImageURL: p.ImageURL}
	}
	return out
}

// scratchCard is the card stored with a scratch visit.
func scratchCard(a *palaro.Activity, cells []palaro.ScratchCell, won int) palaro.ScratchCard {
	c := palaro.ScratchCard{RedirectURL: "/activities", Prizes: scratchPrizes(a), Cells: cells}
	if won >= 0 {
		p := a.Prizes[won]
		c.PrizeWon = &palaro.PrizeWon{Code: p.Code, Name: p.Name, Claimable: p.Claimable}
	}
	return c
}

// storedVisit returns the stored result of a participant's visit, or nil when there is none.
func storedVisit(ctx context.Context, tx *sql.Tx, a *palaro.Activity, pid int64) (*palaro.ScanResult, error) {
	var points int
	var card string
	err := tx.QueryRowContext(ctx, `SELECT points, scratch FROM activity_visits WHERE activity_id = ? AND participant_id = ?`,
		a.ID, pid).Scan(&points, &card)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, nil
	} else if err != nil {
		return nil, err
	}
	res := &palaro.ScanResult{Points: points, Repeat: true, Activity: a, Message: palaro.ScanMessage(a, points, true)}
	if card != "" {
		res.Scratch = &palaro.ScratchCard{}
		if err := json.Unmarshal([]byte(card), res.Scratch); err != nil {
			return nil, fmt.Errorf("stored scratch card: %w", err)
		}
	}
	err = tx.QueryRowContext(ctx, `SELECT COALESCE(SUM(points), 0) FROM activity_visits WHERE participant_id = ?`, pid).Scan(&res.TotalPoints)
	return res, err
}

// holdsTicket reports whether the account with the participant's mobile number holds a ticket
// (paid, not cancelled) to the event. The number links the two only when both confirmed it.
func holdsTicket(ctx context.Context, tx *sql.Tx, eventID int64, mobile string, confirmed bool) (bool, error) {
	if !confirmed {
		return false, nil
	}
	var n int
	err := tx.QueryRowContext(ctx, `SELECT COUNT(*) FROM tickets t JOIN orders o ON o.id = t.order_id
		JOIN users u ON lower(u.email) = lower(t.email)
		WHERE t.event_id = ? AND u.mobile_number = ? AND u.mobile_confirmed_at IS NOT NULL AND o.status = 'paid'
		AND t.status != 'cancelled'`, eventID, mobile).Scan(&n)
	return n > 0, err
}

// ParticipantLog returns a participant's visits, newest first, and their total points.
func (s *ActivityService) ParticipantLog(ctx context.Context, participantID string) (_ []palaro.Visit, _ int, err error) {
	defer wrapErr(&err, "store: ParticipantLog")

	tx, err := s.db.beginRead(ctx)
	if err != nil {
		return nil, 0, err
	}
	defer tx.Rollback()
	rows, err := tx.QueryContext(ctx, `SELECT v.created_at, e.code, e.name, a.code, a.name, a.kind, v.points, v.remarks,
		COALESCE(p.name, ''), COALESCE(p.claimable, 0), v.claimed_at,
		CASE WHEN v.scratch != '' AND v.revealed_at IS NULL THEN 1 ELSE 0 END
		FROM activity_visits v JOIN participants pt ON pt.id = v.participant_id
		JOIN activities a ON a.id = v.activity_id JOIN events e ON e.id = a.event_id
		LEFT JOIN prizes p ON p.id = v.prize_id
		WHERE pt.public_id = ? ORDER BY v.created_at DESC, v.id DESC`, participantID)
	if err != nil {
		return nil, 0, err
	}
	defer rows.Close()
	var out []palaro.Visit
	total := 0
	for rows.Next() {
		var v palaro.Visit
		var at, claimed sql.NullString
		if err := rows.Scan(&at, &v.EventCode, &v.EventName, &v.ActivityCode, &v.ActivityName, &v.Kind, &v.Points, &v.Remarks,
			&v.PrizeName, &v.Claimable, &claimed, &v.CardPending); err != nil {
			return nil, 0, err
		}
		if v.At, err = parseTime(at); err != nil {
			return nil, 0, err
		}
		if v.ClaimedAt, err = parseTime(claimed); err != nil {
			return nil, 0, err
		}
		total += v.Points
		out = append(out, v)
	}
	return out, total, rows.Err()
}

// ConfirmedParticipant returns the confirmed participant of a proven mobile number, adopting
// this browser's own unconfirmed registration of it, or creating one, when there is none.
func (s *ActivityService) ConfirmedParticipant(ctx context.Context, req palaro.ParticipantSignUp, adoptPublicID string) (_ *palaro.Participant, err error) {
	defer wrapErr(&err, "store: ConfirmedParticipant")

	tx, err := s.db.beginRead(ctx)
	if err != nil {
		return nil, err
	}
	p, err := findParticipant(ctx, tx, `mobile_number = ? AND confirmed_at IS NOT NULL`, req.MobileNumber)
	tx.Rollback()
	if palaro.ErrorCode(err) != palaro.ENOTFOUND {
		return p, err
	}
	return write(ctx, s.db, func(ctx context.Context, wtx *sql.Tx) (*palaro.Participant, error) {
		now := s.db.Now()
		if adoptPublicID != "" {
			own, err := findParticipant(ctx, wtx, `public_id = ? AND mobile_number = ?`, adoptPublicID, req.MobileNumber)
			if err == nil {
				return confirmParticipant(ctx, wtx, own, now)
			} else if palaro.ErrorCode(err) != palaro.ENOTFOUND {
				return nil, err
			}
		}
		first, last := strings.TrimSpace(req.FirstName), strings.TrimSpace(req.LastName)
		if first == "" {
			first = "Palaro"
		}
		if _, err := wtx.ExecContext(ctx, `INSERT INTO participants (public_id, first_name, last_name, mobile_number, created_at, confirmed_at)
		VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (mobile_number) WHERE confirmed_at IS NOT NULL DO NOTHING`, newPublicID(), first, last,
			req.MobileNumber, formatTime(now), formatTime(now)); err != nil {
			return nil, err
		}
		return findParticipant(ctx, wtx, `mobile_number = ? AND confirmed_at IS NOT NULL`, req.MobileNumber)
	})
}

// Leaderboard ranks participants by points (RANK(): ties share a rank), overall or for one event.
func (s *ActivityService) Leaderboard(ctx context.Context, eventCode, participantID string, limit int) (_ *palaro.Leaderboard, err error) {
	defer wrapErr(&err, "store: Leaderboard(%q)", eventCode)

	tx, err := s.db.beginRead(ctx)
	if err != nil {
		return nil, err
	}
	defer tx.Rollback()
	filter, args := "", []any{}
	if eventCode != "" {
		var id int64
		if err := tx.QueryRowContext(ctx, `SELECT id FROM events WHERE code = ?`, eventCode).Scan(&id); errors.Is(err, sql.ErrNoRows) {
			return nil, palaro.Errorf(palaro.ENOTFOUND, "Unknown event.")
		} else if err != nil {
			return nil, err
		}
		filter, args = ` AND a.event_id = ?`, append(args, id)
	}
	ranked := `WITH totals AS (SELECT v.participant_id, SUM(v.points) AS points, MAX(v.created_at) AS last
		FROM activity_visits v JOIN activities a ON a.id = v.activity_id WHERE 1 = 1` + filter + `
		GROUP BY v.participant_id HAVING SUM(v.points) > 0),
		ranked AS (SELECT RANK() OVER (ORDER BY t.points DESC) AS rnk, p.public_id, p.first_name, p.last_name, t.points, t.last
		FROM totals t JOIN participants p ON p.id = t.participant_id)`
	read := func(rows *sql.Rows) ([]palaro.LeaderboardRow, error) {
		defer rows.Close()
		var out []palaro.LeaderboardRow
		for rows.Next() {
			var r palaro.LeaderboardRow
			var first, last string
			if err := rows.Scan(&r.Rank, &r.ParticipantID, &first, &last, &r.Points); err != nil {
				return nil, err
			}
			r.Name = leaderboardName(first, last)
			out = append(out, r)
		}
		return out, rows.Err()
	}
	rows, err := tx.QueryContext(ctx, ranked+` SELECT rnk, public_id, first_name, last_name, points FROM ranked
		ORDER BY rnk, last, public_id LIMIT ?`, append(args, limit)...)
	if err != nil {
		return nil, err
	}
	lb := &palaro.Leaderboard{}
	if lb.Rows, err = read(rows); err != nil {
		return nil, err
	}
	if participantID != "" {
		rows, err := tx.QueryContext(ctx, ranked+` SELECT rnk, public_id, first_name, last_name, points FROM ranked
			WHERE public_id = ?`, append(args, participantID)...)
		if err != nil {
			return nil, err
		}
		own, err := read(rows)
		if err != nil {
			return nil, err
		}
		if len(own) == 1 {
			lb.Own = &own[0]
		}
	}
	return lb, nil
}

// leaderboardName shows a participant as first name and last initial: "Andrea S.".
func leaderboardName(first, last string) string {
	if r := []rune(strings.TrimSpace(last)); len(r) > 0 {
		return strings.TrimSpace(first) + " " + string(r[0]) + "."
	}
	return strings.TrimSpace(first)
}

// visitOfCodes is the visit of a participant (public id) to an activity (event and activity code).
const visitOfCodes = `participant_id = (SELECT id FROM participants WHERE public_id = ?)
	AND activity_id = (SELECT a.id FROM activities a JOIN events e ON e.id = a.event_id WHERE e.code = ? AND a.code = ?)`

// PendingCard returns the stored card of a visit whose card was not finished scratching.
func (s *ActivityService) PendingCard(ctx context.Context, participantID, eventCode, activityCode string) (_ *palaro.ScratchCard, err error) {
	defer wrapErr(&err, "store: PendingCard")

	var card string
	err = s.db.read.QueryRowContext(ctx, `SELECT scratch FROM activity_visits WHERE `+visitOfCodes+` AND scratch != '' AND revealed_at IS NULL`,
		participantID, eventCode, activityCode).Scan(&card)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, palaro.Errorf(palaro.ENOTFOUND, "No card to scratch here.")
	} else if err != nil {
		return nil, err
	}
	out := &palaro.ScratchCard{}
	if err := json.Unmarshal([]byte(card), out); err != nil {
		return nil, fmt.Errorf("stored scratch card: %w", err)
	}
	return out, nil
}

// MarkCardRevealed records the end of the game of a visit's card (the first time only).
func (s *ActivityService) MarkCardRevealed(ctx context.Context, participantID, eventCode, activityCode string) (err error) {
	defer wrapErr(&err, "store: MarkCardRevealed")

	return s.db.inWrite(ctx, func(ctx context.Context, tx *sql.Tx) error {
		_, err := tx.ExecContext(ctx, `UPDATE activity_visits SET revealed_at = ? WHERE `+visitOfCodes+`
			AND scratch != '' AND revealed_at IS NULL`,
			formatTime(s.db.Now()), participantID, eventCode, activityCode)
		return err
	})
}
