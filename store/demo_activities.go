package store

import (
	"context"
	"database/sql"
	"fmt"
	"time"

	"palaro"
)

// demoActivityEvents are the demo events with a booth, a scratch card and both quizzes.
var demoActivityEvents = []string{"mlbb-manila-showdown", "valorant-night-market-bgc", "tekken-tuesdays-cubao"}

// demoPrizes are the prizes of each demo scratch card: stocks 10, 50 and 200.
var demoPrizes = []palaro.Prize{
	{Code: "gaming-headset", Name: "Gaming headset", ImageURL: "img/prizes/headset.svg", Stock: 10, Claimable: true},
	{Code: "team-jersey", Name: "Team jersey", ImageURL: "img/prizes/jersey.svg", Stock: 50, Claimable: true},
	{Code: "sticker-pack", Name: "Sticker pack", ImageURL: "img/prizes/stickers.svg", Stock: 200, Claimable: true},
}

// demoActivities are the activities each demo event gets.
var demoActivities = []palaro.Activity{
	{Code: "booth", Kind: palaro.ActivityBooth, Name: "Partner booth", Points: 10,
		Description: "Scan this code with your phone's camera to check in at the booth and earn 10 points."},
	{Code: "scratch", Kind: palaro.ActivityScratch, Name: "Scratch & Win", Points: 20, WinPercent: 40,
		Description: "Scan this code with your phone's camera, then scratch the card: three in a row wins the prize."},
	{Code: "persona-quiz", Kind: palaro.ActivityQuiz, Name: "What kind of investor are you?", Points: 15, Quiz: palaro.QuizPersona,
		Description: "Take the investment persona quiz and earn 15 points."},
	{Code: "power-quiz", Kind: palaro.ActivityQuiz, Name: "Investment power quiz", Points: 30, Quiz: palaro.QuizPower,
		Description: "Answer ten questions on saving and investing and earn 30 points."},
}

// demoParticipantNames are the demo participants, who have points so the leaderboard is full.
var demoParticipantNames = [][2]string{{"Andrea", "Santos"}, {"Miguel", "Reyes"}, {"Bea", "Cruz"}, {"Paolo", "Garcia"},
	{"Kim", "Mendoza"}, {"Jomar", "Bautista"}, {"Trisha", "Villanueva"}, {"Carlo", "Ramos"}, {"Isabel", "Aquino"},
	{"Renz", "Navarro"}, {"Liza", "Fernandez"}, {"Joaquin", "dela Cruz"}, {"Nica", "Torres"}, {"Rafael", "Lim"},
	{"Camille", "Tan"}, {"Enzo", "Castillo"}, {"Pia", "Domingo"}, {"Marco", "Salazar"}, {"Sofia", "Gonzales"},
	{"Gab", "Pascual"}, {"Janelle", "Ocampo"}, {"Luis", "Manalo"}, {"Ria", "Soriano"}, {"Dan", "Velasco"}}

// insertActivity adds an activity and its prizes to an event; it returns the activity's id.
func insertActivity(ctx context.Context, tx *sql.Tx, eventID int64, a palaro.Activity, now time.Time) (int64, error) {
	id, err := insertID(ctx, tx, `INSERT INTO activities (event_id, code, kind, name, description, points, starts_at, ends_at,
		ticket_holders_only, win_percent, quiz, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
		eventID, a.Code, a.Kind, a.Name, a.Description, a.Points, formatTime(a.StartsAt), formatTime(a.EndsAt),
		a.TicketHoldersOnly, a.WinPercent, a.Quiz, formatTime(now))
	if err != nil {
		return 0, err
	}
	if err != nil {
		return 0, err
	}
	for i, p := range a.Prizes {
		if _, err := tx.ExecContext(ctx, `INSERT INTO prizes (activity_id, position, code, name, image_url, stock, claimable)
			VALUES (?, ?, ?, ?, ?, ?, ?)`, id, i, p.Code, p.Name, p.ImageURL, p.Stock, p.Claimable); err != nil {
			return 0, err
		}
	}
	return id, nil
}

// seedDemoActivities gives the demoActivityEvents their activities, open from a day before now
// until a week after the event, and the demo participants visits worth points.
func seedDemoActivities(ctx context.Context, tx *sql.Tx, now time.Time) error {
	var participants []int64
	for i, n := range demoParticipantNames {
		id, err := insertID(ctx, tx, `INSERT INTO participants (public_id, first_name, last_name, mobile_number, created_at)
			VALUES (?, ?, ?, ?, ?)`, newPublicID(), n[0], n[1], fmt.Sprintf("+63998765%04d", i), formatTime(now.Add(-72*time.Hour)))
		if err != nil {
			return err
		}
		participants = append(participants, id)
	}
	for e, code := range demoActivityEvents {
		var eventID int64
		var endsAt string
		if err := tx.QueryRowContext(ctx, `SELECT id, ends_at FROM events WHERE code = ?`, code).Scan(&eventID, &endsAt); err != nil {
			return fmt.Errorf("demo activities of %s: %w", code, err)
		}
		ends, _ := time.Parse(timeFormat, endsAt)
		for k, a := range demoActivities {
			a.StartsAt, a.EndsAt = now.Add(-24*time.Hour).Truncate(time.Hour), ends.Add(7*24*time.Hour)
			if a.Kind == palaro.ActivityScratch {
				a.Prizes = demoPrizes
			}
			id, err := insertActivity(ctx, tx, eventID, a, now)
			if err != nil {
				return fmt.Errorf("demo activity %s of %s: %w", a.Code, code, err)
			}
			if a.Kind == palaro.ActivityScratch {
				continue
			}
			// Participant i joins activity k of event e when (i+k+e) is not a multiple of 3 or 4:
			// a spread of totals with some ties.
			for i, pid := range participants {
				if (i*7+k*3+e)%5 == 0 || (i+k+e)%4 == 0 {
					continue
				}
				at := now.Add(-time.Duration(1+(i*13+k*5+e*7)%20) * time.Hour)
				if _, err := tx.ExecContext(ctx, `INSERT INTO activity_visits (activity_id, participant_id, points, remarks, created_at)
					VALUES (?, ?, ?, ?, ?)`, id, pid, a.Points, demoRemarks(a), formatTime(at)); err != nil {
					return err
				}
			}
		}
	}
	return nil
}

// demoRemarks is the remark of a demo visit.
func demoRemarks(a palaro.Activity) string {
	if a.Kind == palaro.ActivityQuiz {
		return "Quiz played"
	}
	return "Visited"
}
