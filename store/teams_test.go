package store

import (
	"context"
	"fmt"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"palaro"
	"palaro/internal/testdb"
	"palaro/notify"
)

// teamsNow is Friday 29 May 2026, 23:30 in Manila: the tournament starts at midnight, 31 May
// in Manila is a month's end away, and check-in runs 60 to 15 minutes before.
var teamsNow = time.Date(2026, 5, 29, 23, 30, 0, 0, palaro.Manila)

type teamsFixture struct {
	db      *DB
	svc     *TournamentService
	captain []int64
	t       *palaro.Tournament
}

// newTeamsFixture opens a database at url with an event, captains and a tournament of maxTeams
// teams, 2 to 3 players each, check-in by by, starting at midnight after teamsNow.
func newTeamsFixture(t *testing.T, url string, maxTeams, captains int, by string) *teamsFixture {
	t.Helper()
	db, err := Open(url)
	require.NoError(t, err)
	t.Cleanup(func() { db.Close() })
	ctx := context.Background()
	require.NoError(t, db.Migrate(ctx))
	f := &teamsFixture{db: db, svc: NewTournamentService(db, notify.NewComposer("https://palaro.test", "help@palaro.test"))}
	var org, venue int64
	require.NoError(t, db.write.QueryRow(`INSERT INTO organizers (name) VALUES ('Org') RETURNING id`).Scan(&org))
	require.NoError(t, db.write.QueryRow(`INSERT INTO venues (name, address, city, region, latitude, longitude)
		VALUES ('Arena', 'Lane', 'Pasay', 'Metro Manila', 14.5, 120.9) RETURNING id`).Scan(&venue))
	start := time.Date(2026, 5, 30, 0, 0, 0, 0, palaro.Manila)
	_, err = db.write.Exec(`INSERT INTO events (code, name, starts_at, ends_at, venue_id, organizer_id) VALUES ('cup', 'Cup', ?, ?, ?, ?)`,
		formatTime(start), formatTime(start.Add(6*time.Hour)), venue, org)
	require.NoError(t, err)
	for i := range captains {
		var id int64
		require.NoError(t, db.write.QueryRow(`INSERT INTO users (email, mobile_number) VALUES (?, ?) RETURNING id`,
			fmt.Sprintf("captain%d@x.ph", i), fmt.Sprintf("0917%07d", i)).Scan(&id))
		f.captain = append(f.captain, id)
	}
	f.t, err = f.svc.SaveTournament(ctx, "cup", palaro.Tournament{Code: "cup-mlbb", Name: "Cup MLBB", Game: palaro.GameMLBB,
		Format: "Single elimination, best of 3", MinPlayers: 2, MaxPlayers: 2, Substitutes: 1, MaxTeams: maxTeams,
		Rules: "Play fair.", RegistrationOpensAt: teamsNow.Add(-24 * time.Hour), RegistrationClosesAt: start.Add(-2 * time.Hour),
		RosterLocksAt: start.Add(-90 * time.Minute), StartsAt: start, CheckInOpens: 60, CheckInCloses: 15, CheckInBy: by}, teamsNow)
	require.NoError(t, err)
	return f
}

func (f *teamsFixture) register(t *testing.T, i int, at time.Time) *palaro.Team {
	t.Helper()
	team, err := f.svc.RegisterTeam(context.Background(), palaro.TeamRegistration{TournamentCode: f.t.Code, CaptainID: f.captain[i],
		Name: fmt.Sprintf("Team %d", i), Tag: fmt.Sprintf("T%d", i), AcceptRules: true}, at)
	require.NoError(t, err)
	return team
}

var inviteLink = regexp.MustCompile(`/team/join/([a-z2-7]+)`)

// invite invites email to team and returns the token its e-mail carries.
func (f *teamsFixture) invite(t *testing.T, team *palaro.Team, email string, at time.Time) string {
	t.Helper()
	require.NoError(t, f.svc.InvitePlayer(context.Background(), team.PublicID, team.CaptainID, email, at))
	var body string
	require.NoError(t, f.db.read.QueryRow(`SELECT body_text FROM outbox WHERE recipient = ? AND kind = ? ORDER BY id DESC LIMIT 1`,
		email, palaro.MessageTeamInvite).Scan(&body))
	m := inviteLink.FindStringSubmatch(body)
	require.NotNil(t, m, body)
	return m[1]
}

func (f *teamsFixture) status(t *testing.T, team *palaro.Team) string {
	t.Helper()
	got, err := f.svc.FindTeam(context.Background(), team.PublicID)
	require.NoError(t, err)
	return got.Status
}

func TestTournament_Validate(t *testing.T) {
	start := teamsNow.Add(48 * time.Hour)
	ok := palaro.Tournament{Code: "cup", Name: "Cup", Game: palaro.GameValorant, MinPlayers: 5, MaxPlayers: 5, MaxTeams: 8, Rules: "Fair.",
		RegistrationOpensAt: teamsNow, RegistrationClosesAt: start.Add(-time.Hour), RosterLocksAt: start.Add(-time.Hour), StartsAt: start,
		CheckInOpens: 60, CheckInCloses: 15, StreamURL: "https://www.twitch.tv/palaro", BracketURL: "https://www.start.gg/tournament/x"}
	t.Run("OK", func(t *testing.T) {
		v := ok
		require.NoError(t, v.Validate())
		require.Equal(t, palaro.CheckInByCaptain, v.CheckInBy)
	})
	t.Run("ErrFields", func(t *testing.T) {
		v := ok
		v.StreamURL, v.BracketURL, v.MaxPlayers, v.CheckInCloses, v.EntryFee = "https://evil.example/twitch.tv", "http://challonge.com/x", 4, 60, palaro.MaxEntryFee+1
		err := v.Validate()
		var pe *palaro.Error
		require.ErrorAs(t, err, &pe)
		for _, f := range []string{palaro.FieldStreamURL, palaro.FieldBracketURL, palaro.FieldMaxPlayers, palaro.FieldCheckInCloses, palaro.FieldEntryFee} {
			require.Contains(t, pe.Fields, f)
		}
	})
}

func TestCheckGameAccount(t *testing.T) {
	for _, c := range []struct{ game, in, want string }{
		{palaro.GameMLBB, "12345678(1234)", "12345678 (1234)"},
		{palaro.GameMLBB, "12345678 1234", ""},
		{palaro.GameValorant, "Tenz#PH1", "Tenz#PH1"},
		{palaro.GameValorant, "Tenz", ""},
		{palaro.GameLoL, "ab#toolongtag", ""},
		{palaro.GameDota2, "76561198000000000", "76561198000000000"},
		{palaro.GameCS2, "steam:abc", ""},
	} {
		got, msg := palaro.CheckGameAccount(c.game, c.in)
		require.Equal(t, c.want, got, c.in)
		require.Equal(t, c.want == "", msg != "", c.in)
	}
}

// TestTeams_Flow registers three teams for two places, invites and joins players, checks in the
// first and the waiting team, and closes check-in: the second team drops out, the waiting one
// moves up, and both are e-mailed.
func TestTeams_Flow(t *testing.T) {
	ctx := context.Background()
	f := newTeamsFixture(t, testdb.URL(t), 2, 3, palaro.CheckInByCaptain)
	a, b, c := f.register(t, 0, teamsNow.Add(-3*time.Hour)), f.register(t, 1, teamsNow.Add(-3*time.Hour)), f.register(t, 2, teamsNow.Add(-3*time.Hour))
	require.Equal(t, []string{palaro.TeamRegistered, palaro.TeamRegistered, palaro.TeamWaitlisted}, []string{a.Status, b.Status, c.Status})

	_, err := f.svc.RegisterTeam(ctx, palaro.TeamRegistration{TournamentCode: f.t.Code, CaptainID: f.captain[0], Name: "team 0", Tag: "X1", AcceptRules: true}, teamsNow.Add(-3*time.Hour))
	require.Equal(t, palaro.ECONFLICT, palaro.ErrorCode(err), "a name is taken whatever its case")

	before := teamsNow.Add(-2 * time.Hour) // before the roster locks
	tokens := map[string]string{}
	for _, team := range []*palaro.Team{a, c} {
		for _, p := range []string{"p1", "p2"} {
			email := p + "-" + strings.ToLower(team.Tag) + "@x.ph"
			tokens[email] = f.invite(t, team, email, before)
			_, err := f.svc.JoinTeam(ctx, tokens[email], palaro.PlayerJoin{InGameName: "IGN " + p, GameAccount: "12345678 (1234)", Discord: "@Player_" + p, AcceptRules: true}, before)
			require.NoError(t, err)
		}
	}
	_, err = f.svc.JoinTeam(ctx, tokens["p1-t0@x.ph"], palaro.PlayerJoin{InGameName: "x", GameAccount: "Tenz#PH1", AcceptRules: true}, before)
	require.Equal(t, palaro.EINVALID, palaro.ErrorCode(err), "an MLBB tournament wants an MLBB account")
	_, err = f.svc.JoinTeam(ctx, tokens["p1-t0@x.ph"], palaro.PlayerJoin{InGameName: "x", GameAccount: "12345678 (1234)", AcceptRules: true}, teamsNow)
	require.Equal(t, palaro.ECONFLICT, palaro.ErrorCode(err), "the roster is locked")
	require.NoError(t, f.svc.InvitePlayer(ctx, a.PublicID, a.CaptainID, "sub@x.ph", before))
	require.Equal(t, palaro.ECONFLICT, palaro.ErrorCode(f.svc.InvitePlayer(ctx, a.PublicID, a.CaptainID, "fourth@x.ph", before)), "2 players + 1 substitute")
	require.Equal(t, palaro.EFORBIDDEN, palaro.ErrorCode(f.svc.InvitePlayer(ctx, a.PublicID, b.CaptainID, "z@x.ph", before)))

	require.Equal(t, palaro.ECONFLICT, palaro.ErrorCode(f.svc.CheckInCaptain(ctx, a.PublicID, a.CaptainID, teamsNow.Add(-31*time.Minute))), "not open before 23:00")
	open := teamsNow.Add(time.Minute) // 23:31, 29 minutes before midnight
	require.NoError(t, f.svc.CheckInCaptain(ctx, a.PublicID, a.CaptainID, open))
	require.NoError(t, f.svc.CheckInCaptain(ctx, c.PublicID, c.CaptainID, open))
	require.Equal(t, palaro.ECONFLICT, palaro.ErrorCode(f.svc.CheckInCaptain(ctx, b.PublicID, b.CaptainID, open)), "no players joined")

	dropped, up, err := f.svc.CloseCheckIns(ctx, teamsNow.Add(14*time.Minute))
	require.NoError(t, err)
	require.Zero(t, dropped+up, "check-in is still open at 23:44")
	closed := teamsNow.Add(15 * time.Minute)
	dropped, up, err = f.svc.CloseCheckIns(ctx, closed)
	require.NoError(t, err)
	require.Equal(t, [2]int{1, 1}, [2]int{dropped, up})
	require.Equal(t, []string{palaro.TeamRegistered, palaro.TeamDropped, palaro.TeamRegistered}, []string{f.status(t, a), f.status(t, b), f.status(t, c)})
	dropped, up, err = f.svc.CloseCheckIns(ctx, closed.Add(time.Minute))
	require.NoError(t, err)
	require.Zero(t, dropped+up, "once per tournament")
	require.Equal(t, palaro.ECONFLICT, palaro.ErrorCode(f.svc.CheckInCaptain(ctx, b.PublicID, b.CaptainID, closed)))

	count := func(kind, to string) (n int) {
		require.NoError(t, f.db.read.QueryRow(`SELECT count(*) FROM outbox WHERE kind = ? AND recipient = ?`, kind, to).Scan(&n))
		return n
	}
	require.Equal(t, 1, count(palaro.MessageTeamDropped, "captain1@x.ph"))
	for _, to := range []string{"captain2@x.ph", "p1-t2@x.ph", "p2-t2@x.ph"} {
		require.Equal(t, 1, count(palaro.MessageTeamMovedUp, to), to)
	}
	require.Zero(t, count(palaro.MessageTeamMovedUp, "captain0@x.ph"))
}

func TestTeams_CheckInByPlayers(t *testing.T) {
	ctx := context.Background()
	f := newTeamsFixture(t, testdb.URL(t), 2, 1, palaro.CheckInByPlayers)
	a := f.register(t, 0, teamsNow.Add(-3*time.Hour))
	before := teamsNow.Add(-2 * time.Hour)
	var tokens []string
	for _, email := range []string{"p1@x.ph", "p2@x.ph"} {
		tok := f.invite(t, a, email, before)
		_, err := f.svc.JoinTeam(ctx, tok, palaro.PlayerJoin{InGameName: email, GameAccount: "12345678 (1234)", AcceptRules: true}, before)
		require.NoError(t, err)
		tokens = append(tokens, tok)
	}
	open := teamsNow.Add(time.Minute)
	require.Equal(t, palaro.ECONFLICT, palaro.ErrorCode(f.svc.CheckInCaptain(ctx, a.PublicID, a.CaptainID, open)))
	require.NoError(t, f.svc.CheckInPlayer(ctx, tokens[0], open))
	team, err := f.svc.FindTeam(ctx, a.PublicID)
	require.NoError(t, err)
	require.False(t, team.CheckedIn(), "one of two players")
	require.NoError(t, f.svc.CheckInPlayer(ctx, tokens[1], open))
	team, err = f.svc.FindTeam(ctx, a.PublicID)
	require.NoError(t, err)
	require.True(t, team.CheckedIn())
}

// TestTeams_ConcurrentRegistrations registers 24 teams at once through two stores on one
// database (two servers) for 8 places: entries 1..8 have places and 9..24 wait, in order.
func TestTeams_ConcurrentRegistrations(t *testing.T) {
	const n, places = 24, 8
	url := testdb.URL(t)
	f := newTeamsFixture(t, url, places, n, palaro.CheckInByCaptain)
	services := f.twoServers(t, url)
	var wg sync.WaitGroup
	errs := make(chan error, n)
	for i := range n {
		wg.Go(func() { errs <- f.registerOn(services[i%2], i) })
	}
	wg.Wait()
	f.requireEntries(t, errs, n, places)
	got, err := f.svc.FindTournament(context.Background(), f.t.Code)
	require.NoError(t, err)
	require.Equal(t, [2]int{places, n - places}, [2]int{got.Registered, got.Waitlisted})
}

// twoServers returns the fixture's store and a second one on the same database at url (two servers).
func (f *teamsFixture) twoServers(t *testing.T, url string) []*TournamentService {
	t.Helper()
	other, err := Open(url)
	require.NoError(t, err)
	t.Cleanup(func() { other.Close() })
	return []*TournamentService{f.svc, NewTournamentService(other, notify.NewComposer("https://palaro.test", "help@palaro.test"))}
}

// registerOn registers team i (its captain, name "Team i", tag "Ti") through svc three hours before teamsNow.
func (f *teamsFixture) registerOn(svc *TournamentService, i int) error {
	_, err := svc.RegisterTeam(context.Background(), palaro.TeamRegistration{TournamentCode: f.t.Code, CaptainID: f.captain[i],
		Name: fmt.Sprintf("Team %d", i), Tag: fmt.Sprintf("T%d", i), AcceptRules: true}, teamsNow.Add(-3*time.Hour))
	return err
}

// requireEntries checks n registrations made at once (their errors in errs, which it closes):
// none failed, the entries run 1..n without a gap, the first places have places and the rest wait.
func (f *teamsFixture) requireEntries(t *testing.T, errs chan error, n, places int) {
	t.Helper()
	close(errs)
	for err := range errs {
		require.NoError(t, err)
	}
	teams, err := f.svc.ListTeams(context.Background(), f.t.ID)
	require.NoError(t, err)
	require.Len(t, teams, n)
	for i, team := range teams {
		require.Equal(t, i+1, team.Entry, "entries run 1..n without a gap")
		want := palaro.TeamRegistered
		if i >= places {
			want = palaro.TeamWaitlisted
		}
		require.Equal(t, want, team.Status, "entry %d", team.Entry)
	}
}

// TestTeams_OrganizerDecisions seeds a team, disqualifies it (its seed kept: the status alone
// was sent) and approves a refused one: each decided team's captain and players are e-mailed
// the decision, and the waiting team that takes the freed place is told it moved up.
func TestTeams_OrganizerDecisions(t *testing.T) {
	ctx := context.Background()
	f := newTeamsFixture(t, testdb.URL(t), 2, 3, palaro.CheckInByCaptain)
	at := teamsNow.Add(-3 * time.Hour)
	a, b, c := f.register(t, 0, at), f.register(t, 1, at), f.register(t, 2, at)
	f.invite(t, a, "p1-a@x.ph", at)
	seed := 3
	require.NoError(t, f.svc.SetTeamStatus(ctx, "cup", a.PublicID, "", &seed, at))
	require.Equal(t, palaro.EINVALID, palaro.ErrorCode(f.svc.SetTeamStatus(ctx, "cup", a.PublicID, palaro.TeamWaitlisted, nil, at)))
	require.Equal(t, palaro.ENOTFOUND, palaro.ErrorCode(f.svc.SetTeamStatus(ctx, "other", a.PublicID, palaro.TeamRefused, nil, at)))

	require.NoError(t, f.svc.SetTeamStatus(ctx, "cup", a.PublicID, palaro.TeamDisqualified, nil, at))
	got, err := f.svc.FindTeam(ctx, a.PublicID)
	require.NoError(t, err)
	require.Equal(t, [2]any{palaro.TeamDisqualified, 3}, [2]any{got.Status, got.Seed}, "a status alone keeps the seed")
	require.Equal(t, palaro.TeamRegistered, f.status(t, c), "the waiting team takes the place")

	require.Equal(t, palaro.ECONFLICT, palaro.ErrorCode(f.svc.SetTeamStatus(ctx, "cup", a.PublicID, palaro.TeamRegistered, nil, at)),
		"b and c have both places")
	require.NoError(t, f.svc.SetTeamStatus(ctx, "cup", b.PublicID, palaro.TeamRefused, nil, at))
	require.NoError(t, f.svc.SetTeamStatus(ctx, "cup", a.PublicID, palaro.TeamRegistered, nil, at), "b's place is free")
	require.Equal(t, palaro.TeamRegistered, f.status(t, a))

	mails := func(to string) (kinds []string) {
		rows, err := f.db.read.Query(`SELECT kind, subject FROM outbox WHERE recipient = ? AND kind <> ? ORDER BY id`, to, palaro.MessageTeamRegistered)
		require.NoError(t, err)
		defer rows.Close()
		for rows.Next() {
			var kind, subject string
			require.NoError(t, rows.Scan(&kind, &subject))
			kinds = append(kinds, kind+": "+subject)
		}
		require.NoError(t, rows.Err())
		return kinds
	}
	require.Equal(t, []string{"team_decision: Team 0 is disqualified from Cup MLBB", "team_decision: Team 0 has a place in Cup MLBB"}, mails("captain0@x.ph"))
	require.Equal(t, []string{"team_invite: Join Team 0 in Cup MLBB", "team_decision: Team 0 is disqualified from Cup MLBB",
		"team_decision: Team 0 has a place in Cup MLBB"}, mails("p1-a@x.ph"), "invited players are told too")
	require.Equal(t, []string{"team_decision: The registration of Team 1 for Cup MLBB is refused"}, mails("captain1@x.ph"))
	require.Equal(t, []string{"team_moved_up: Team 2 has a place in Cup MLBB"}, mails("captain2@x.ph"))
}
