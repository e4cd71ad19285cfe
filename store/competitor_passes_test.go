package store

import (
	"context"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"palaro"
	"palaro/internal/testdb"
	"palaro/notify"
)

// passPlayers invites and joins the players named to team before its roster locks, and returns
// their tokens by e-mail.
func (f *teamsFixture) passPlayers(t *testing.T, team *palaro.Team, emails ...string) map[string]string {
	t.Helper()
	before := teamsNow.Add(-2 * time.Hour)
	tokens := map[string]string{}
	for _, email := range emails {
		tokens[email] = f.invite(t, team, email, before)
		_, err := f.svc.JoinTeam(context.Background(), tokens[email], palaro.PlayerJoin{InGameName: "IGN " + email,
			GameAccount: "12345678 (1234)", AcceptRules: true}, before)
		require.NoError(t, err)
	}
	return tokens
}

// passCount counts the competitor passes of the fixture's tournament and their tickets not cancelled.
func (f *teamsFixture) passCount(t *testing.T) (passes, valid int) {
	t.Helper()
	require.NoError(t, f.db.read.QueryRow(`SELECT count(*), coalesce(sum(CASE WHEN k.status != 'cancelled' THEN 1 ELSE 0 END), 0)
		FROM competitor_passes cp JOIN tickets k ON k.id = cp.ticket_id`).Scan(&passes, &valid))
	var tickets int
	require.NoError(t, f.db.read.QueryRow(`SELECT count(*) FROM tickets k JOIN ticket_types tt ON tt.id = k.ticket_type_id
		WHERE tt.competitor_pass = 1`).Scan(&tickets))
	require.Equal(t, passes, tickets, "each pass ticket is recorded as one player's pass")
	return passes, valid
}

func TestCompetitorPasses_Flow(t *testing.T) {
	ctx := context.Background()
	f := newTeamsFixture(t, testdb.URL(t), 2, 3, palaro.CheckInByCaptain)
	at := teamsNow.Add(-3 * time.Hour)
	a, b, c := f.register(t, 0, at), f.register(t, 1, at), f.register(t, 2, at)
	require.Equal(t, palaro.TeamWaitlisted, c.Status)
	ta := f.passPlayers(t, a, "a1@x.ph", "a2@x.ph")
	tb := f.passPlayers(t, b, "b1@x.ph")
	tc := f.passPlayers(t, c, "c1@x.ph")
	require.NoError(t, f.svc.InvitePlayer(ctx, b.PublicID, b.CaptainID, "b2@x.ph", teamsNow.Add(-2*time.Hour))) // invited, never joined

	locks := f.t.RosterLocksAt
	issued, _, err := f.svc.IssueCompetitorPasses(ctx, locks.Add(-time.Second))
	require.NoError(t, err)
	require.Zero(t, issued, "no pass before the roster locks")

	issued, voided, err := f.svc.IssueCompetitorPasses(ctx, locks)
	require.NoError(t, err)
	require.Equal(t, [2]int{3, 0}, [2]int{issued, voided}, "the joined players of the 2 placed teams")
	issued, _, err = f.svc.IssueCompetitorPasses(ctx, locks.Add(time.Minute))
	require.NoError(t, err)
	require.Zero(t, issued, "issuing again gives nothing more")
	passes, valid := f.passCount(t)
	require.Equal(t, [2]int{3, 3}, [2]int{passes, valid})

	pass, err := f.svc.CompetitorPass(ctx, ta["a1@x.ph"])
	require.NoError(t, err)
	require.NotNil(t, pass)
	codes := func(team *palaro.Team) (out []string) {
		got, err := f.svc.FindTeam(ctx, team.PublicID)
		require.NoError(t, err)
		for _, p := range got.Players {
			out = append(out, p.PassCode)
		}
		return out
	}
	require.Contains(t, codes(a), pass.Code, "the team's players carry their pass codes (the API's passCode)")
	require.Equal(t, []string{""}, codes(c))
	none, err := f.svc.CompetitorPass(ctx, tc["c1@x.ph"])
	require.NoError(t, err)
	require.Nil(t, none, "a waiting team's player has no pass")
	var mails int
	require.NoError(t, f.db.read.QueryRow(`SELECT count(*) FROM outbox WHERE kind = ? AND recipient = 'a1@x.ph' AND body_text LIKE ?`,
		palaro.MessageCompetitorPass, "%"+palaro.TicketPath(pass.TicketPublicID)+"%").Scan(&mails))
	require.Equal(t, 1, mails, "the player is e-mailed their pass's link once")

	// the pass is the player's ticket: in their name, for the event, admitted once, named for the gate
	var holder, orderStatus string
	var total int64
	require.NoError(t, f.db.read.QueryRow(`SELECT k.holder_name, o.status, o.total FROM tickets k JOIN orders o ON o.id = k.order_id
		WHERE k.code = ?`, pass.Code).Scan(&holder, &orderStatus, &total))
	require.Equal(t, []any{"IGN a1@x.ph", palaro.OrderPaid, int64(0)}, []any{holder, orderStatus, total})
	gate := NewCheckInService(f.db)
	first, err := gate.CheckIn(ctx, palaro.CheckInRequest{EventID: f.t.EventID, Code: pass.Code, Gate: "Players"})
	require.NoError(t, err)
	require.Equal(t, palaro.CheckInOK, first.Outcome)
	require.Equal(t, "Competitor pass · Team 0", first.Ticket.TicketType)
	again, err := gate.CheckIn(ctx, palaro.CheckInRequest{EventID: f.t.EventID, Code: pass.Code, Gate: "Players"})
	require.NoError(t, err)
	require.Equal(t, palaro.CheckInAlready, again.Outcome)

	// not a sale: the spectators' sales report leaves the passes out
	report, err := NewOrganizerService(f.db, nil).SalesReport(ctx, f.t.EventID)
	require.NoError(t, err)
	require.Zero(t, report.Issued)
	for _, l := range report.ByType {
		require.NotContains(t, l.Label, "Competitor")
	}
	require.Empty(t, report.BySource)

	// disqualified: team 0's passes void at once, the gate refuses them and its list's delta says so;
	// the waiting team moves up and its player gets a pass in the same unit
	list, err := gate.GateChanges(ctx, f.t.EventID, "", -1)
	require.NoError(t, err)
	require.Len(t, list.Tickets, 3)
	require.NoError(t, f.svc.SetTeamStatus(ctx, "cup", a.PublicID, palaro.TeamDisqualified, nil, locks.Add(2*time.Minute)))
	scan, err := gate.CheckIn(ctx, palaro.CheckInRequest{EventID: f.t.EventID, Code: pass.Code, Gate: "Players"})
	require.NoError(t, err)
	require.Equal(t, palaro.CheckInCancelled, scan.Outcome)
	delta, err := gate.GateChanges(ctx, f.t.EventID, "", list.Version)
	require.NoError(t, err)
	status := map[string]string{}
	for _, k := range delta.Tickets {
		status[k.Code] = k.Status
	}
	require.Equal(t, palaro.TicketCancelled, status[pass.Code], "the gate list drops the voided pass")
	gone, err := f.svc.CompetitorPass(ctx, ta["a1@x.ph"])
	require.NoError(t, err)
	require.Nil(t, gone)
	require.Equal(t, []string{"", ""}, codes(a), "a voided pass's code is no longer the player's")
	moved, err := f.svc.CompetitorPass(ctx, tc["c1@x.ph"])
	require.NoError(t, err)
	require.NotNil(t, moved, "the team moved up has its pass")
	require.Equal(t, palaro.CheckInOK, checkInOutcome(t, gate, f.t.EventID, moved.Code))
	kept, err := f.svc.CompetitorPass(ctx, tb["b1@x.ph"])
	require.NoError(t, err)
	require.NotNil(t, kept)
	passes, valid = f.passCount(t)
	require.Equal(t, [2]int{4, 2}, [2]int{passes, valid})

	// the organizer gives team 0 a place again (team 1 refused): its passes are valid again, as
	// they were (the one used stays used), and no second pass is issued
	require.NoError(t, f.svc.SetTeamStatus(ctx, "cup", b.PublicID, palaro.TeamRefused, nil, locks.Add(3*time.Minute)))
	require.NoError(t, f.svc.SetTeamStatus(ctx, "cup", a.PublicID, palaro.TeamRegistered, nil, locks.Add(4*time.Minute)))
	passes, valid = f.passCount(t)
	require.Equal(t, [2]int{4, 3}, [2]int{passes, valid}, "team 0's 2 back, team 1's voided")
	require.Equal(t, palaro.CheckInAlready, checkInOutcome(t, gate, f.t.EventID, pass.Code))
	back := codes(a)
	require.Contains(t, back, pass.Code)
	require.NotContains(t, back, "", "both players have their pass back")

	// the organizer removes a player holding a pass: the removal goes through, the pass is void at
	// the gate and in its list's delta, and the sync never gives it back
	a2, err := f.svc.CompetitorPass(ctx, ta["a2@x.ph"])
	require.NoError(t, err)
	require.NotNil(t, a2)
	list, err = gate.GateChanges(ctx, f.t.EventID, "", -1)
	require.NoError(t, err)
	_, err = f.svc.RemovePlayer(ctx, "cup", a.PublicID, "a2@x.ph", "Smurf account", "owner@x.ph", locks.Add(5*time.Minute))
	require.NoError(t, err)
	require.Equal(t, palaro.CheckInCancelled, checkInOutcome(t, gate, f.t.EventID, a2.Code))
	delta, err = gate.GateChanges(ctx, f.t.EventID, "", list.Version)
	require.NoError(t, err)
	status = map[string]string{}
	for _, k := range delta.Tickets {
		status[k.Code] = k.Status
	}
	require.Equal(t, palaro.TicketCancelled, status[a2.Code], "the gate list drops the removed player's pass")
	issued, _, err = f.svc.IssueCompetitorPasses(ctx, locks.Add(6*time.Minute))
	require.NoError(t, err)
	require.Zero(t, issued)
	require.Equal(t, palaro.CheckInCancelled, checkInOutcome(t, gate, f.t.EventID, a2.Code), "still void after the next sync")
}

func checkInOutcome(t *testing.T, gate *CheckInService, eventID int64, code string) string {
	t.Helper()
	r, err := gate.CheckIn(context.Background(), palaro.CheckInRequest{EventID: eventID, Code: code, Gate: "Players"})
	require.NoError(t, err)
	return r.Outcome
}

// TestCompetitorPasses_SeriesDate: a tournament of a series is played on one of its dates, the
// pass is a day ticket of that date (the one falling on the tournament's day in Manila: its start,
// at midnight, is on the 30th there while it is still the 29th in UTC).
func TestCompetitorPasses_SeriesDate(t *testing.T) {
	ctx := context.Background()
	f := newTeamsFixture(t, testdb.URL(t), 2, 1, palaro.CheckInByCaptain)
	var eventID int64
	require.NoError(t, f.db.read.QueryRow(`SELECT id FROM events WHERE code = 'cup'`).Scan(&eventID))
	for i, day := range []int{29, 30, 31} {
		starts := time.Date(2026, 5, day, 0, 0, 0, 0, palaro.Manila)
		_, err := f.db.write.Exec(`INSERT INTO event_dates (event_id, slug, starts_at, ends_at, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?)`,
			eventID, starts.Format(time.DateOnly), formatTime(starts), formatTime(starts.Add(6*time.Hour)), formatTime(teamsNow), formatTime(teamsNow))
		require.NoError(t, err, i)
	}
	a := f.register(t, 0, teamsNow.Add(-3*time.Hour))
	tokens := f.passPlayers(t, a, "p@x.ph")
	_, _, err := f.svc.IssueCompetitorPasses(ctx, f.t.RosterLocksAt)
	require.NoError(t, err)
	pass, err := f.svc.CompetitorPass(ctx, tokens["p@x.ph"])
	require.NoError(t, err)
	require.NotNil(t, pass)
	var slug string
	require.NoError(t, f.db.read.QueryRow(`SELECT d.slug FROM tickets k JOIN event_dates d ON d.id = k.date_id WHERE k.code = ?`, pass.Code).Scan(&slug))
	require.Equal(t, "2026-05-30", slug)
}

// TestCompetitorPasses_Concurrent runs the issuing from two stores on one database (two servers)
// many times at once: each joined player has one pass, and one ticket.
func TestCompetitorPasses_Concurrent(t *testing.T) {
	url := testdb.URL(t)
	f := newTeamsFixture(t, url, 4, 4, palaro.CheckInByCaptain)
	for i := range 4 {
		team := f.register(t, i, teamsNow.Add(-3*time.Hour))
		f.passPlayers(t, team, "p1-"+strings.ToLower(team.Tag)+"@x.ph", "p2-"+strings.ToLower(team.Tag)+"@x.ph")
	}
	other, err := Open(url)
	require.NoError(t, err)
	t.Cleanup(func() { other.Close() })
	services := []*TournamentService{f.svc, NewTournamentService(other, notify.NewComposer("https://palaro.test", "help@palaro.test"))}
	var wg sync.WaitGroup
	var mu sync.Mutex
	total := 0
	errs := make(chan error, 8)
	for i := range 8 {
		wg.Go(func() {
			issued, _, err := services[i%2].IssueCompetitorPasses(context.Background(), f.t.RosterLocksAt)
			mu.Lock()
			total += issued
			mu.Unlock()
			errs <- err
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		require.NoError(t, err)
	}
	require.Equal(t, 8, total, "8 players, one pass each, whichever run issued it")
	passes, valid := f.passCount(t)
	require.Equal(t, [2]int{8, 8}, [2]int{passes, valid})
	var players int
	require.NoError(t, f.db.read.QueryRow(`SELECT count(DISTINCT player_id) FROM competitor_passes`).Scan(&players))
	require.Equal(t, 8, players)
}

// TestTournament_StartsOnSeriesDate: on a series a tournament must start on the Manila day of
// one of its dates not cancelled (its competitor passes are that date's day tickets): another day
// is refused naming startsAt and the dates; a start at midnight in Manila (still the day before
// in UTC) is on the date of its Manila day.
func TestTournament_StartsOnSeriesDate(t *testing.T) {
	ctx := context.Background()
	f := newTeamsFixture(t, testdb.URL(t), 2, 1, palaro.CheckInByCaptain) // starts 30 May, 00:00 Manila
	var eventID int64
	require.NoError(t, f.db.read.QueryRow(`SELECT id FROM events WHERE code = 'cup'`).Scan(&eventID))
	addDate := func(day int, status string) {
		starts := time.Date(2026, 5, day, 19, 0, 0, 0, palaro.Manila)
		_, err := f.db.write.Exec(`INSERT INTO event_dates (event_id, slug, starts_at, ends_at, status, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?)`,
			eventID, starts.Format(time.DateOnly), formatTime(starts), formatTime(starts.Add(4*time.Hour)), status, formatTime(teamsNow), formatTime(teamsNow))
		require.NoError(t, err)
	}
	addDate(29, palaro.DateScheduled)
	addDate(30, palaro.DateCancelled)
	addDate(31, palaro.DateScheduled)
	_, err := f.svc.SaveTournament(ctx, "cup", *f.t, teamsNow)
	require.Equal(t, palaro.EINVALID, palaro.ErrorCode(err), err)
	require.Equal(t, "On a series the tournament starts on one of its dates (Manila time): Fri 29 May, Sun 31 May.", fieldOf(err, palaro.FieldStartsAt),
		"the 30th's date is cancelled; 29 May 16:00 UTC is the 30th in Manila")
	created := *f.t
	created.ID, created.Code = 0, "cup-late"
	_, err = f.svc.SaveTournament(ctx, "cup", created, teamsNow)
	require.Equal(t, "On a series the tournament starts on one of its dates (Manila time): Fri 29 May, Sun 31 May.", fieldOf(err, palaro.FieldStartsAt), "creating too")

	_, err = f.db.write.Exec(`UPDATE event_dates SET status = ? WHERE slug = '2026-05-30'`, palaro.DateScheduled)
	require.NoError(t, err)
	_, err = f.svc.SaveTournament(ctx, "cup", *f.t, teamsNow)
	require.NoError(t, err, "midnight of the 30th in Manila is on the 30th's date")
}

// TestCompetitorPasses_Exports: the attendees export lists each competitor pass, its type naming
// it a competitor pass of its team (as the gate does); the orders export leaves the passes' orders
// out, as the sales report does: they are not sales.
func TestCompetitorPasses_Exports(t *testing.T) {
	ctx := context.Background()
	f := newTeamsFixture(t, testdb.URL(t), 2, 1, palaro.CheckInByCaptain)
	a := f.register(t, 0, teamsNow.Add(-3*time.Hour))
	f.passPlayers(t, a, "a1@x.ph", "a2@x.ph")
	issued, _, err := f.svc.IssueCompetitorPasses(ctx, f.t.RosterLocksAt)
	require.NoError(t, err)
	require.Equal(t, 2, issued)
	org := NewOrganizerService(f.db, nil)
	var types, holders []string
	require.NoError(t, org.EachAttendee(ctx, f.t.EventID, 0, func(at *palaro.Attendee) error {
		types, holders = append(types, at.TypeName), append(holders, at.HolderName)
		require.Zero(t, at.UnitPrice)
		return nil
	}))
	require.Equal(t, []string{"Competitor pass · Team 0", "Competitor pass · Team 0"}, types)
	require.Equal(t, []string{"IGN a1@x.ph", "IGN a2@x.ph"}, holders)
	orders := 0
	require.NoError(t, org.EachOrder(ctx, f.t.EventID, 0, func(*palaro.Order) error { orders++; return nil }))
	require.Zero(t, orders, "a competitor pass is not a sale")
}
