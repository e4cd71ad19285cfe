package store

import (
	"context"
	"fmt"
	"math/rand/v2"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"palaro"
)

// activityFixture is a demo database with the activity service and a way to add participants.
type activityFixture struct {
	*purchaseFixture
	acts *ActivityService
}

func newActivityFixture(t *testing.T) *activityFixture {
	t.Helper()
	f := &activityFixture{purchaseFixture: newPurchaseFixture(t)}
	f.acts = NewActivityService(f.db)
	return f
}

// addActivity adds an activity to the demo event dota-2-visayas-major, open around the fixture's now.
func (f *activityFixture) addActivity(t *testing.T, a palaro.Activity) {
	t.Helper()
	var eventID int64
	require.NoError(t, f.db.read.QueryRow(`SELECT id FROM events WHERE code = 'dota-2-visayas-major'`).Scan(&eventID))
	if a.StartsAt.IsZero() {
		a.StartsAt, a.EndsAt = f.now.Add(-time.Hour), f.now.Add(time.Hour)
	}
	tx, err := f.db.beginWrite(context.Background())
	require.NoError(t, err)
	defer tx.Rollback()
	_, err = insertActivity(context.Background(), tx, eventID, a, f.now)
	require.NoError(t, err)
	require.NoError(t, tx.Commit())
}

// testMobiles numbers the test participants' mobile numbers.
var testMobiles atomic.Int64

// addParticipants registers n participants who confirmed their numbers and returns their public ids.
func (f *activityFixture) addParticipants(t *testing.T, n int) []string {
	t.Helper()
	ids := make([]string, n)
	for i := range ids {
		ids[i] = newPublicID()
		_, err := f.db.write.Exec(`INSERT INTO participants (public_id, first_name, last_name, mobile_number, created_at, confirmed_at)
			VALUES (?, 'Test', 'Player', ?, ?, ?)`, ids[i], fmt.Sprintf("+63918%07d", testMobiles.Add(1)), formatTime(f.now), formatTime(f.now))
		require.NoError(t, err)
	}
	return ids
}

func (f *activityFixture) scan(code, pid string) (*palaro.ScanResult, error) {
	return f.acts.Scan(context.Background(), palaro.ScanRequest{ActivityCode: code, EventCode: "dota-2-visayas-major", ParticipantID: pid,
		AtBooth: true})
}

var testPrizes = []palaro.Prize{
	{Code: "cap", Name: "Cap", ImageURL: "/cap.svg", Stock: 10, Claimable: true},
	{Code: "pin", Name: "Pin", ImageURL: "/pin.svg", Stock: 0, Claimable: false},
	{Code: "pad", Name: "Pad", ImageURL: "/pad.svg", Stock: 0, Claimable: true},
}

func TestActivityService_Scan(t *testing.T) {
	f := newActivityFixture(t)
	f.addActivity(t, palaro.Activity{Code: "booth-t", Kind: palaro.ActivityBooth, Name: "Test booth", Points: 10})
	f.addActivity(t, palaro.Activity{Code: "later", Kind: palaro.ActivityBooth, Name: "Later booth", Points: 5,
		StartsAt: f.now.Add(time.Hour), EndsAt: f.now.Add(2 * time.Hour)})
	f.addActivity(t, palaro.Activity{Code: "over", Kind: palaro.ActivityBooth, Name: "Old booth", Points: 5,
		StartsAt: f.now.Add(-2 * time.Hour), EndsAt: f.now.Add(-time.Hour)})
	f.addActivity(t, palaro.Activity{Code: "holders", Kind: palaro.ActivityBooth, Name: "VIP booth", Points: 5, TicketHoldersOnly: true})
	pids := f.addParticipants(t, 2)
	t.Run("OK", func(t *testing.T) {
		res, err := f.scan("booth-t", pids[0])
		require.NoError(t, err)
		require.Equal(t, 10, res.Points)
		require.Equal(t, 10, res.TotalPoints)
		require.False(t, res.Repeat)
		require.Nil(t, res.Scratch)
		require.Equal(t, "Thanks for joining Test booth! You earned 10 points.", res.Message)
	})
	t.Run("OK repeat awards nothing more", func(t *testing.T) {
		res, err := f.scan("booth-t", pids[0])
		require.NoError(t, err)
		require.True(t, res.Repeat)
		require.Equal(t, 10, res.TotalPoints)
		require.Equal(t, 1, f.countRows(t, `SELECT COUNT(*) FROM activity_visits v JOIN participants p ON p.id = v.participant_id
			WHERE p.public_id = ?`, pids[0]))
	})
	t.Run("ErrNotFound", func(t *testing.T) {
		_, err := f.scan("nope", pids[0])
		require.Equal(t, palaro.ENOTFOUND, palaro.ErrorCode(err))
		_, err = f.scan("booth-t", "nobody")
		require.Equal(t, palaro.ENOTFOUND, palaro.ErrorCode(err))
	})
	t.Run("ErrWindow", func(t *testing.T) {
		_, err := f.scan("later", pids[0])
		require.Equal(t, palaro.EINVALID, palaro.ErrorCode(err))
		require.Contains(t, palaro.ErrorMessage(err), "Later booth opens on")
		_, err = f.scan("over", pids[0])
		require.Equal(t, "Old booth has ended.", palaro.ErrorMessage(err))
	})
	t.Run("ErrTicketHoldersOnly", func(t *testing.T) {
		_, err := f.scan("holders", pids[1])
		require.Equal(t, palaro.MsgNotTicketHolder, palaro.ErrorMessage(err))
	})
}

// TestActivityService_ScratchFixedRandom: with a fixed random source the stored card is the
// layout of that source, and every later answer is that stored card.
func TestActivityService_ScratchFixedRandom(t *testing.T) {
	f := newActivityFixture(t)
	f.acts.Rand = func() *rand.Rand { return rand.New(rand.NewPCG(42, 1)) }
	f.addActivity(t, palaro.Activity{Code: "card", Kind: palaro.ActivityScratch, Name: "Card", Points: 20, WinPercent: 100, Prizes: testPrizes})
	pid := f.addParticipants(t, 1)[0]
	res, err := f.scan("card", pid)
	require.NoError(t, err)
	rng := rand.New(rand.NewPCG(42, 1))
	require.Equal(t, 0, palaro.DrawPrize(rng, 100, testPrizes))
	want := palaro.ScratchLayout(rng, []palaro.ScratchPrize{{Code: "cap", Name: "Cap", ImageURL: "/cap.svg"},
		{Code: "pin", Name: "Pin", ImageURL: "/pin.svg"}, {Code: "pad", Name: "Pad", ImageURL: "/pad.svg"}}, 0)
	require.Equal(t, want, res.Scratch.Cells)
	require.Equal(t, &palaro.PrizeWon{Code: "cap", Name: "Cap", Claimable: true}, res.Scratch.PrizeWon)

	f.acts.Rand = func() *rand.Rand { return rand.New(rand.NewPCG(7, 7)) } // a different source changes nothing stored
	again, err := f.scan("card", pid)
	require.NoError(t, err)
	require.Equal(t, res.Scratch, again.Scratch)
	require.Equal(t, 20, again.TotalPoints)
	require.Equal(t, 1, f.countRows(t, `SELECT awarded FROM prizes WHERE code = 'cap'`))
}

// TestActivityService_PrizeStockRace: 300 participants scratch at once against a stock of 10 with
// every card set to win: exactly 10 win, and the stock counts 10 awarded.
func TestActivityService_PrizeStockRace(t *testing.T) {
	f := newActivityFixture(t)
	f.addActivity(t, palaro.Activity{Code: "rush", Kind: palaro.ActivityScratch, Name: "Rush", Points: 1, WinPercent: 100,
		Prizes: testPrizes[:1]})
	pids := f.addParticipants(t, 300)
	var lost atomic.Int64
	won := storm(300, func(i int) int {
		res, err := f.scan("rush", pids[i])
		if err != nil {
			t.Errorf("participant %d: %v", i, err)
			return 0
		}
		if res.Scratch.PrizeWon != nil {
			return 1
		}
		lost.Add(1)
		return 0
	})
	require.Equal(t, int64(10), won, "never more prizes than the stock, and all of it given")
	require.Equal(t, int64(290), lost.Load())
	require.Equal(t, 10, f.countRows(t, `SELECT awarded FROM prizes WHERE code = 'cap' AND activity_id = (SELECT id FROM activities WHERE code = 'rush')`))
	require.Equal(t, 10, f.countRows(t, `SELECT COUNT(*) FROM activity_visits WHERE prize_id IS NOT NULL`))
	require.Equal(t, 300, f.countRows(t, `SELECT COUNT(*) FROM activity_visits v JOIN activities a ON a.id = v.activity_id WHERE a.code = 'rush'`))
}

// naiveDraw is the read-then-write path the store must NOT use: it reads the stock on a reader,
// waits until every player has read (the worst moment, made certain by a barrier), then tells
// the player they won and writes the award without a guard. Kept only here, as the control.
func naiveDraw(ctx context.Context, db *DB, ready *sync.WaitGroup) (bool, error) {
	var left int
	if err := db.read.QueryRowContext(ctx, `SELECT stock - awarded FROM prizes WHERE code = 'cap'`).Scan(&left); err != nil {
		return false, err
	}
	ready.Done()
	ready.Wait()
	if left <= 0 {
		return false, nil
	}
	// The schema's CHECK (awarded <= stock) refuses some of these writes, after the player was told they won.
	_, _ = db.write.ExecContext(ctx, `UPDATE prizes SET awarded = awarded + 1 WHERE code = 'cap'`)
	return true, nil
}

// TestNaiveDraw_OverAwards is the control: without the guarded update inside the write
// transaction, players who read the stock before any of them wrote are all told they won.
func TestNaiveDraw_OverAwards(t *testing.T) {
	f := newActivityFixture(t)
	f.addActivity(t, palaro.Activity{Code: "rush", Kind: palaro.ActivityScratch, Name: "Rush", Points: 1, WinPercent: 100,
		Prizes: testPrizes[:1]})
	var ready sync.WaitGroup
	ready.Add(300)
	won := storm(300, func(int) int {
		ok, err := naiveDraw(context.Background(), f.db, &ready)
		require.NoError(t, err)
		if ok {
			return 1
		}
		return 0
	})
	require.Greater(t, won, int64(10), "the naive path promised more prizes than the stock")
}

func TestActivityService_Leaderboard(t *testing.T) {
	f := newActivityFixture(t)
	f.addActivity(t, palaro.Activity{Code: "b10", Kind: palaro.ActivityBooth, Name: "Ten", Points: 10})
	f.addActivity(t, palaro.Activity{Code: "b5", Kind: palaro.ActivityBooth, Name: "Five", Points: 5})
	pids := f.addParticipants(t, 3)
	for _, s := range []struct{ code, pid string }{{"b10", pids[0]}, {"b5", pids[0]}, {"b10", pids[1]}, {"b10", pids[2]}} {
		_, err := f.scan(s.code, s.pid)
		require.NoError(t, err)
	}
	ctx := context.Background()
	lb, err := f.acts.Leaderboard(ctx, "dota-2-visayas-major", pids[2], 2)
	require.NoError(t, err)
	require.Len(t, lb.Rows, 2)
	require.Equal(t, 1, lb.Rows[0].Rank)
	require.Equal(t, 15, lb.Rows[0].Points)
	require.Equal(t, "Test P.", lb.Rows[0].Name)
	require.Equal(t, 2, lb.Rows[1].Rank)
	require.NotNil(t, lb.Own, "own row shown even outside the top")
	require.Equal(t, 2, lb.Own.Rank, "ties share a rank")
	overall, err := f.acts.Leaderboard(ctx, "", "", 50)
	require.NoError(t, err)
	require.Greater(t, len(overall.Rows), 3, "demo participants are on the overall board")
	_, err = f.acts.Leaderboard(ctx, "no-such-event", "", 50)
	require.Equal(t, palaro.ENOTFOUND, palaro.ErrorCode(err))
}

// TestActivityService_PrizesNeedConfirmedParticipantAtBooth: a scratch card with prizes is played
// only by a participant who confirmed their number, at the booth (booth code or staff scan); a
// refusal stores nothing, and activities without prizes stay open to every participant.
func TestActivityService_PrizesNeedConfirmedParticipantAtBooth(t *testing.T) {
	f := newActivityFixture(t)
	ctx := context.Background()
	f.addActivity(t, palaro.Activity{Code: "card", Kind: palaro.ActivityScratch, Name: "Card", Points: 20, WinPercent: 100, Prizes: testPrizes})
	f.addActivity(t, palaro.Activity{Code: "booth-t", Kind: palaro.ActivityBooth, Name: "Test booth", Points: 10})
	unconfirmed := newPublicID()
	_, err := f.db.write.Exec(`INSERT INTO participants (public_id, first_name, last_name, mobile_number, created_at)
		VALUES (?, 'Typed', 'Number', '+639180000001', ?)`, unconfirmed, formatTime(f.now))
	require.NoError(t, err)
	confirmed := f.addParticipants(t, 1)[0]
	t.Run("ErrUnconfirmed", func(t *testing.T) {
		_, err := f.scan("card", unconfirmed)
		require.Equal(t, palaro.MsgConfirmToWin, palaro.ErrorMessage(err))
	})
	t.Run("ErrNotAtBooth", func(t *testing.T) {
		_, err := f.acts.Scan(ctx, palaro.ScanRequest{ActivityCode: "card", EventCode: "dota-2-visayas-major", ParticipantID: confirmed})
		require.Equal(t, palaro.MsgBoothCodeNeeded, palaro.ErrorMessage(err))
	})
	require.Zero(t, f.countRows(t, `SELECT COUNT(*) FROM activity_visits v JOIN activities a ON a.id = v.activity_id WHERE a.code = 'card'`), "a refusal stores nothing")
	require.Zero(t, f.countRows(t, `SELECT awarded FROM prizes WHERE code = 'cap'`))
	t.Run("OK", func(t *testing.T) {
		res, err := f.scan("card", confirmed)
		require.NoError(t, err)
		require.NotNil(t, res.Scratch.PrizeWon)
		_, err = f.acts.Scan(ctx, palaro.ScanRequest{ActivityCode: "booth-t", EventCode: "dota-2-visayas-major", ParticipantID: unconfirmed})
		require.NoError(t, err, "a booth without prizes needs neither")
	})
}
