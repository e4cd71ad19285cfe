package store

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"palaro"
	"palaro/internal/testdb"
	"palaro/notify"
)

// teamHook registers a webhook endpoint of the fixture's organization for every team event.
func (f *teamsFixture) teamHook(t *testing.T) *WebhookService {
	t.Helper()
	hooks := NewWebhookService(f.db, nil)
	var org int64
	require.NoError(t, f.db.read.QueryRow(`SELECT organizer_id FROM events WHERE code = 'cup'`).Scan(&org))
	_, err := hooks.CreateEndpoint(context.Background(), org, "https://bot.example.ph/palaro", palaro.WebhookEventTypes, "owner@x.ph", teamsNow)
	require.NoError(t, err)
	return hooks
}

// hookTypes lists the webhook deliveries queued so far: type, and the player's e-mail when there is one.
func (f *teamsFixture) hookTypes(t *testing.T) []string {
	t.Helper()
	got, err := queryStrings(context.Background(), f.db.read, `SELECT type || CASE WHEN note = '' THEN '' ELSE ' ' || note END
		FROM webhook_deliveries ORDER BY id`)
	require.NoError(t, err)
	return got
}

// TestTeams_RemovePlayer: the organizer removes a player with a reason; bad input is refused
// naming the field; the player's link stops working, the player and the captain are e-mailed
// (the captain told what the team now needs), the removal is audited and sent to webhooks with
// the player's e-mail, and the team left short of its minimum can no longer check in.
func TestTeams_RemovePlayer(t *testing.T) {
	ctx := context.Background()
	f := newTeamsFixture(t, testdb.URL(t), 2, 2, palaro.CheckInByCaptain)
	hooks := f.teamHook(t)
	before := teamsNow.Add(-2 * time.Hour)
	a := f.register(t, 0, before)
	tokens := map[string]string{}
	for _, email := range []string{"p1@x.ph", "p2@x.ph"} {
		tokens[email] = f.invite(t, a, email, before)
		_, err := f.svc.JoinTeam(ctx, tokens[email], palaro.PlayerJoin{InGameName: email, GameAccount: "12345678 (1234)", AcceptRules: true}, before)
		require.NoError(t, err)
	}
	_, err := f.svc.JoinTeam(ctx, tokens["p1@x.ph"], palaro.PlayerJoin{InGameName: "again", GameAccount: "12345678 (1234)", AcceptRules: true}, before)
	require.NoError(t, err, "changing one's details is not joining again")

	for _, bad := range []struct{ event, email, reason, field string }{
		{"cup", "", "Cheating", palaro.FieldPlayerEmail},
		{"cup", "p2@x.ph", "  ", palaro.FieldRemoveReason},
		{"cup", "p2@x.ph", strings.Repeat("x", 301), palaro.FieldRemoveReason},
	} {
		_, err := f.svc.RemovePlayer(ctx, bad.event, a.PublicID, bad.email, bad.reason, "owner@x.ph", teamsNow)
		require.Equal(t, palaro.EINVALID, palaro.ErrorCode(err), bad)
		var pe *palaro.Error
		require.ErrorAs(t, err, &pe)
		require.Contains(t, pe.Fields, bad.field)
	}
	_, err = f.svc.RemovePlayer(ctx, "cup", a.PublicID, "nobody@x.ph", "Cheating", "owner@x.ph", teamsNow)
	require.Equal(t, palaro.ENOTFOUND, palaro.ErrorCode(err), "not on the roster")
	_, err = f.svc.RemovePlayer(ctx, "other-event", a.PublicID, "p2@x.ph", "Cheating", "owner@x.ph", teamsNow)
	require.Equal(t, palaro.ENOTFOUND, palaro.ErrorCode(err), "another event's team")

	team, err := f.svc.RemovePlayer(ctx, "cup", a.PublicID, " P2@x.ph ", "Smurf account", "owner@x.ph", teamsNow)
	require.NoError(t, err)
	require.Len(t, team.Players, 1)
	require.Equal(t, 1, team.PlayersNeeded())

	_, _, err = f.svc.FindPlayer(ctx, tokens["p2@x.ph"])
	require.Equal(t, palaro.ENOTFOUND, palaro.ErrorCode(err), "the removed player's link no longer works")
	_, err = f.svc.JoinTeam(ctx, tokens["p2@x.ph"], palaro.PlayerJoin{InGameName: "x", GameAccount: "12345678 (1234)", AcceptRules: true}, before)
	require.Equal(t, palaro.ENOTFOUND, palaro.ErrorCode(err))
	_, err = f.svc.RemovePlayer(ctx, "cup", a.PublicID, "p2@x.ph", "Smurf account", "owner@x.ph", teamsNow)
	require.Equal(t, palaro.ENOTFOUND, palaro.ErrorCode(err), "removed once")

	var subject, body string
	require.NoError(t, f.db.read.QueryRow(`SELECT subject, body_text FROM outbox WHERE recipient = 'p2@x.ph' AND kind = ?`,
		palaro.MessagePlayerRemoved).Scan(&subject, &body))
	require.Equal(t, "You were removed from Team 0", subject)
	require.Contains(t, body, "Smurf account")
	require.NoError(t, f.db.read.QueryRow(`SELECT subject, body_text FROM outbox WHERE recipient = 'captain0@x.ph' AND kind = ?`,
		palaro.MessagePlayerRemoved).Scan(&subject, &body))
	require.Equal(t, "p2@x.ph was removed from Team 0", subject)
	require.Contains(t, body, "Smurf account")
	require.Contains(t, body, "1 player who joined; it needs 2 to check in: 1 more player")

	var action, detail string
	require.NoError(t, f.db.read.QueryRow(`SELECT action, detail FROM audit_log WHERE actor = 'owner@x.ph'`).Scan(&action, &detail))
	require.Equal(t, "player removed from a team", action)
	require.JSONEq(t, `{"team":"Team 0","tournament":"Cup MLBB","player":"p2@x.ph","reason":"Smurf account"}`, detail)

	require.Equal(t, palaro.ECONFLICT, palaro.ErrorCode(f.svc.CheckInCaptain(ctx, a.PublicID, a.CaptainID, teamsNow.Add(time.Minute))),
		"below its minimum, the team cannot check in")

	require.Equal(t, []string{palaro.WebhookTeamRegistered, palaro.WebhookPlayerJoined + " p1@x.ph", palaro.WebhookPlayerJoined + " p2@x.ph",
		palaro.WebhookPlayerRemoved + " p2@x.ph"}, f.hookTypes(t))
	sent, err := hooks.ClaimDeliveries(ctx, teamsNow, 10, time.Minute)
	require.NoError(t, err)
	require.Len(t, sent, 4)
	var removed struct {
		Type string                 `json:"type"`
		Data palaro.TeamWebhookView `json:"data"`
	}
	require.NoError(t, json.Unmarshal(sent[3].Body, &removed))
	require.Equal(t, palaro.WebhookPlayerRemoved, removed.Type)
	require.Equal(t, "cup", removed.Data.Event)
	require.Equal(t, "cup-mlbb", removed.Data.Tournament)
	require.Equal(t, "p2@x.ph", removed.Data.Player)
	require.Equal(t, a.PublicID, removed.Data.Team.ID)
	require.Len(t, removed.Data.Team.Players, 1)
}

// TestTeams_Webhooks: registrations, check-ins (a standby's too), the teams dropped and moved up
// when check-in closes and the organizer's decisions are queued for the endpoint in the unit of
// the change; a second click on check-in is not a second event.
func TestTeams_Webhooks(t *testing.T) {
	ctx := context.Background()
	f := newTeamsFixture(t, testdb.URL(t), 2, 4, palaro.CheckInByCaptain)
	f.teamHook(t)
	before := teamsNow.Add(-2 * time.Hour)
	var teams []*palaro.Team
	for i := range 4 {
		teams = append(teams, f.register(t, i, before))
	}
	a, b, c, d := teams[0], teams[1], teams[2], teams[3]
	for _, team := range []*palaro.Team{a, c} {
		for _, p := range []string{"p1", "p2"} {
			token := f.invite(t, team, p+"-"+strings.ToLower(team.Tag)+"@x.ph", before)
			_, err := f.svc.JoinTeam(ctx, token, palaro.PlayerJoin{InGameName: p, GameAccount: "12345678 (1234)", AcceptRules: true}, before)
			require.NoError(t, err)
		}
	}
	open := teamsNow.Add(time.Minute)
	require.NoError(t, f.svc.CheckInCaptain(ctx, a.PublicID, a.CaptainID, open))
	require.NoError(t, f.svc.CheckInCaptain(ctx, a.PublicID, a.CaptainID, open.Add(time.Minute)), "twice is fine")
	require.NoError(t, f.svc.CheckInCaptain(ctx, c.PublicID, c.CaptainID, open), "a standby")
	_, _, err := f.svc.CloseCheckIns(ctx, teamsNow.Add(15*time.Minute))
	require.NoError(t, err)
	require.NoError(t, f.svc.SetTeamStatus(ctx, "cup", d.PublicID, palaro.TeamRefused, nil, teamsNow.Add(16*time.Minute)))
	require.NoError(t, f.svc.SetTeamStatus(ctx, "cup", c.PublicID, palaro.TeamDisqualified, nil, teamsNow.Add(17*time.Minute)))
	require.NoError(t, f.svc.SetTeamStatus(ctx, "cup", b.PublicID, palaro.TeamRegistered, nil, teamsNow.Add(18*time.Minute)))

	types := f.hookTypes(t)
	require.Equal(t, []string{palaro.WebhookTeamRegistered, palaro.WebhookTeamRegistered, palaro.WebhookTeamRegistered, palaro.WebhookTeamRegistered},
		types[:4])
	require.Len(t, types, 4+4+2+2+3)
	require.Equal(t, []string{palaro.WebhookTeamCheckedIn, palaro.WebhookTeamCheckedIn, palaro.WebhookTeamDropped, palaro.WebhookTeamMovedUp,
		palaro.WebhookTeamRefused, palaro.WebhookTeamDisqualified, palaro.WebhookTeamApproved}, types[8:])
	var subjects []int64
	require.NoError(t, func() error {
		rows, err := f.db.read.Query(`SELECT subject_id FROM webhook_deliveries WHERE type IN (?, ?) ORDER BY id`,
			palaro.WebhookTeamDropped, palaro.WebhookTeamMovedUp)
		if err != nil {
			return err
		}
		defer rows.Close()
		for rows.Next() {
			var id int64
			if err := rows.Scan(&id); err != nil {
				return err
			}
			subjects = append(subjects, id)
		}
		return rows.Err()
	}())
	require.Equal(t, []int64{b.ID, c.ID}, subjects, "b dropped, the standby c moved up")
}

// TestTeams_RefundStandbys: when the tournament starts (not a nanosecond before), the fee of a
// paid standby that never got a place is refunded, once, also with two servers at once; the
// team that played and the team refunded when check-in closed are not refunded again.
func TestTeams_RefundStandbys(t *testing.T) {
	ctx := context.Background()
	url := testdb.URL(t)
	f := newTeamsFixture(t, url, 2, 4, palaro.CheckInByCaptain)
	purchases := f.withFee(t, f.db)
	f.svc.SetPayments(NewRefundService(f.db, notify.NewComposer("https://palaro.test", "help@palaro.test")), time.Minute)
	at := teamsNow.Add(-3 * time.Hour)
	var regs []*palaro.Team
	for i := range 4 {
		regs = append(regs, f.register(t, i, at))
		payEntry(t, purchases, regs[i])
	}
	for _, i := range []int{0, 1, 2} { // 0 and 1 have places, 2 stands by, 3 waits without standing by
		for _, p := range []string{"p1", "p2"} {
			token := f.invite(t, regs[i], p+"-"+strings.ToLower(regs[i].Tag)+"@x.ph", at)
			_, err := f.svc.JoinTeam(ctx, token, palaro.PlayerJoin{InGameName: p, GameAccount: "12345678 (1234)", AcceptRules: true}, at)
			require.NoError(t, err)
		}
		require.NoError(t, f.svc.CheckInCaptain(ctx, regs[i].PublicID, f.captain[i], teamsNow))
	}
	start := f.t.StartsAt
	_, _, err := f.svc.CloseCheckIns(ctx, start.Add(-15*time.Minute))
	require.NoError(t, err)
	refunded := func() map[string]bool {
		ids, err := queryStrings(ctx, f.db.read, `SELECT o.public_id FROM refunds r JOIN orders o ON o.id = r.order_id`)
		require.NoError(t, err)
		out := map[string]bool{}
		for _, id := range ids {
			require.False(t, out[id], "refunded twice: %s", id)
			out[id] = true
		}
		return out
	}
	require.Equal(t, map[string]bool{regs[3].OrderPublicID: true}, refunded(), "the team that did not stand by, when check-in closed")

	n, err := f.svc.RefundStandbys(ctx, start.Add(-time.Nanosecond))
	require.NoError(t, err)
	require.Zero(t, n, "not before the start")
	require.Len(t, refunded(), 1)

	other, err := Open(url)
	require.NoError(t, err)
	t.Cleanup(func() { other.Close() })
	both := []*TournamentService{f.svc, NewTournamentService(other, notify.NewComposer("https://palaro.test", "help@palaro.test"))}
	both[1].SetPayments(NewRefundService(other, nil), time.Minute)
	var wg sync.WaitGroup
	counts := make(chan int, 4)
	for i := range 4 {
		wg.Go(func() {
			n, err := both[i%2].RefundStandbys(ctx, start)
			require.NoError(t, err)
			counts <- n
		})
	}
	wg.Wait()
	close(counts)
	total := 0
	for n := range counts {
		total += n
	}
	require.Equal(t, 1, total, "one standby, refunded by one server")
	require.Equal(t, map[string]bool{regs[2].OrderPublicID: true, regs[3].OrderPublicID: true}, refunded())
	require.Equal(t, []string{palaro.TeamRegistered, palaro.TeamRegistered, palaro.TeamWaitlisted},
		[]string{f.status(t, regs[0]), f.status(t, regs[1]), f.status(t, regs[2])})
}

// captainMail returns the body of the last e-mail of kind to team's captain.
func (f *teamsFixture) captainMail(t *testing.T, team *palaro.Team, kind string) string {
	t.Helper()
	var body string
	require.NoError(t, f.db.read.QueryRow(`SELECT body_text FROM outbox WHERE recipient = ? AND kind = ? ORDER BY id DESC LIMIT 1`,
		team.CaptainEmail, kind).Scan(&body))
	return body
}

// TestTeams_RemovePlayerWithdrawsCheckIn: a checked-in team that a removal leaves below its
// minimum while check-in is open has its check-in withdrawn in the same write (the captain told
// to add a player and check in again; team.checked_in is sent again when it does), and drops out
// if it does not; after check-in closed it keeps its check-in and its place, the captain told the
// organizer decides. When every player checks in, the team is in again once enough have.
func TestTeams_RemovePlayerWithdrawsCheckIn(t *testing.T) {
	ctx := context.Background()
	closes := time.Date(2026, 5, 29, 23, 45, 0, 0, palaro.Manila) // the fixture's check-in: 23:00 to 23:45

	t.Run("OK captain: withdrawn while open, out at close", func(t *testing.T) {
		f := newTeamsFixture(t, testdb.URL(t), 2, 2, palaro.CheckInByCaptain)
		f.teamHook(t)
		a, b := f.register(t, 0, teamsNow.Add(-3*time.Hour)), f.register(t, 1, teamsNow.Add(-3*time.Hour))
		f.passPlayers(t, a, "a1@x.ph", "a2@x.ph")
		f.passPlayers(t, b, "b1@x.ph", "b2@x.ph")
		require.NoError(t, f.svc.CheckInCaptain(ctx, a.PublicID, a.CaptainID, teamsNow))
		require.NoError(t, f.svc.CheckInCaptain(ctx, b.PublicID, b.CaptainID, teamsNow))

		team, err := f.svc.RemovePlayer(ctx, "cup", a.PublicID, "a2@x.ph", "Smurf account", "owner@x.ph", teamsNow.Add(time.Minute))
		require.NoError(t, err)
		require.False(t, team.CheckedIn(), "the check-in is withdrawn in the removal's write")
		require.Equal(t, palaro.TeamRegistered, team.Status)
		body := f.captainMail(t, a, palaro.MessagePlayerRemoved)
		require.Contains(t, body, "The check-in of Team 0 is withdrawn: add a player and check in again before check-in closes (Fri, 29 May 2026, 11:45 PM)")
		require.Contains(t, body, "it needs 2 to check in: 1 more player")
		require.Equal(t, palaro.ECONFLICT, palaro.ErrorCode(f.svc.CheckInCaptain(ctx, a.PublicID, a.CaptainID, teamsNow.Add(2*time.Minute))))

		// a team that keeps its minimum keeps its check-in
		b.Tournament = f.t
		f.joinPlayersLate(t, b, "b3@x.ph")
		team, err = f.svc.RemovePlayer(ctx, "cup", b.PublicID, "b3@x.ph", "Wrong team", "owner@x.ph", teamsNow.Add(time.Minute))
		require.NoError(t, err)
		require.True(t, team.CheckedIn())
		require.NotContains(t, f.captainMail(t, b, palaro.MessagePlayerRemoved), "withdrawn")

		dropped, _, err := f.svc.CloseCheckIns(ctx, closes)
		require.NoError(t, err)
		require.Equal(t, 1, dropped)
		require.Equal(t, palaro.TeamDropped, f.status(t, a))
		require.Equal(t, palaro.TeamRegistered, f.status(t, b))
		hooks := f.hookTypes(t)
		require.Equal(t, []string{palaro.WebhookTeamCheckedIn, palaro.WebhookTeamCheckedIn, palaro.WebhookPlayerRemoved + " a2@x.ph",
			palaro.WebhookPlayerRemoved + " b3@x.ph", palaro.WebhookTeamDropped}, hooks[len(hooks)-5:])
	})

	t.Run("OK captain: after check-in closed the team keeps its check-in and place", func(t *testing.T) {
		f := newTeamsFixture(t, testdb.URL(t), 2, 3, palaro.CheckInByCaptain)
		var teams []*palaro.Team
		for i, p := range []string{"a", "c", "b"} {
			team := f.register(t, i, teamsNow.Add(-3*time.Hour))
			f.passPlayers(t, team, p+"1@x.ph", p+"2@x.ph")
			require.NoError(t, f.svc.CheckInCaptain(ctx, team.PublicID, team.CaptainID, teamsNow))
			teams = append(teams, team)
		}
		a, b := teams[0], teams[2] // b: a standby
		_, _, err := f.svc.CloseCheckIns(ctx, closes)
		require.NoError(t, err)

		team, err := f.svc.RemovePlayer(ctx, "cup", a.PublicID, "a2@x.ph", "Smurf account", "owner@x.ph", closes.Add(time.Minute))
		require.NoError(t, err)
		require.True(t, team.CheckedIn())
		require.Equal(t, palaro.TeamRegistered, team.Status)
		require.Equal(t, palaro.TeamWaitlisted, f.status(t, b), "no one moves up: the organizer decides")
		require.Contains(t, f.captainMail(t, a, palaro.MessagePlayerRemoved),
			"Check-in has closed: the team stays checked in and keeps its place; the organizer decides whether it plays.")

		// the organizer's decision is the existing one: disqualified, the standby moves up
		require.NoError(t, f.svc.SetTeamStatus(ctx, "cup", a.PublicID, palaro.TeamDisqualified, nil, closes.Add(2*time.Minute)))
		require.Equal(t, palaro.TeamRegistered, f.status(t, b))
	})

	t.Run("OK players: withdrawn, in again once enough checked in", func(t *testing.T) {
		f := newTeamsFixture(t, testdb.URL(t), 2, 1, palaro.CheckInByPlayers)
		f.teamHook(t)
		a := f.register(t, 0, teamsNow.Add(-3*time.Hour))
		tokens := f.passPlayers(t, a, "a1@x.ph", "a2@x.ph", "a3@x.ph")
		require.NoError(t, f.svc.CheckInPlayer(ctx, tokens["a1@x.ph"], teamsNow))
		require.NoError(t, f.svc.CheckInPlayer(ctx, tokens["a2@x.ph"], teamsNow))
		require.Equal(t, palaro.TeamRegistered, f.status(t, a))

		team, err := f.svc.RemovePlayer(ctx, "cup", a.PublicID, "a2@x.ph", "Smurf account", "owner@x.ph", teamsNow.Add(time.Minute))
		require.NoError(t, err)
		require.False(t, team.CheckedIn(), "1 player checked in of the 2 needed")
		require.Contains(t, f.captainMail(t, a, palaro.MessagePlayerRemoved), "is withdrawn: it needs 2 players checked in")
		require.NoError(t, f.svc.CheckInPlayer(ctx, tokens["a3@x.ph"], teamsNow.Add(2*time.Minute)))
		team, err = f.svc.FindTeam(ctx, a.PublicID)
		require.NoError(t, err)
		require.True(t, team.CheckedIn(), "checked in again")
		hooks := f.hookTypes(t)
		require.Equal(t, []string{palaro.WebhookTeamCheckedIn, palaro.WebhookPlayerRemoved + " a2@x.ph", palaro.WebhookTeamCheckedIn}, hooks[len(hooks)-3:])
	})
}

// joinPlayersLate adds a joined player to team after its roster locked, as only the organizer's
// data could (the fixture's roster locks before check-in opens).
func (f *teamsFixture) joinPlayersLate(t *testing.T, team *palaro.Team, email string) {
	t.Helper()
	_, err := f.db.write.Exec(`INSERT INTO team_players (team_id, email, token_hash, invited_at, joined_at) VALUES (?, ?, ?, ?, ?)`,
		team.ID, email, "late-"+email, formatTime(teamsNow), formatTime(teamsNow))
	require.NoError(t, err)
}

// TestTeams_RemovePlayerDuringCheckIn: captains check in while the organizer removes a player of
// each team at once, through two stores (two servers): no team ends checked in with fewer joined
// players than its minimum, whichever came first.
func TestTeams_RemovePlayerDuringCheckIn(t *testing.T) {
	const n = 8
	url := testdb.URL(t)
	f := newTeamsFixture(t, url, n, n, palaro.CheckInByCaptain)
	services := f.twoServers(t, url)
	var teams []*palaro.Team
	for i := range n {
		team := f.register(t, i, teamsNow.Add(-3*time.Hour))
		f.passPlayers(t, team, fmt.Sprintf("p1-%d@x.ph", i), fmt.Sprintf("p2-%d@x.ph", i))
		teams = append(teams, team)
	}
	var wg sync.WaitGroup
	for i, team := range teams {
		wg.Go(func() {
			err := services[i%2].CheckInCaptain(context.Background(), team.PublicID, team.CaptainID, teamsNow)
			if err != nil {
				require.Equal(t, palaro.ECONFLICT, palaro.ErrorCode(err), err)
			}
		})
		wg.Go(func() {
			_, err := services[(i+1)%2].RemovePlayer(context.Background(), "cup", team.PublicID, fmt.Sprintf("p2-%d@x.ph", i), "Smurf", "owner@x.ph", teamsNow)
			require.NoError(t, err)
		})
	}
	wg.Wait()
	got, err := f.svc.ListTeams(context.Background(), f.t.ID)
	require.NoError(t, err)
	for _, team := range got {
		require.Equal(t, 1, team.Joined())
		require.False(t, team.CheckedIn(), "%s checked in with 1 player", team.Name)
	}
}
