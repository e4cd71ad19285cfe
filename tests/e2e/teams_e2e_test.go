package e2e

import (
	"context"
	"encoding/json"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/require"

	"palaro"
	"palaro/store"
)

// userID returns the id of the demo account with e-mail email.
func userID(t *testing.T, a *testApp, email string) int64 {
	t.Helper()
	var id int64
	require.NoError(t, a.DB().Reader().QueryRow(`SELECT id FROM users WHERE email = ?`, email).Scan(&id))
	return id
}

// TestTeams_Browser is a captain on a 360 px phone: they register a team for a tournament whose
// check-in is open, invite two players who join from their e-mailed links (one mistyping their
// MLBB account first), and check the team in. Another team with a place never checks in: when
// check-in closes the job drops it and the first waiting team, which checked in, takes its
// place and is e-mailed; the public teams page shows the result.
func TestTeams_Browser(t *testing.T) {
	a := startApp(t)
	ctx := context.Background()
	now := a.Now()
	const event = "tekken-tuesdays-cubao"
	start := now.Add(30 * time.Minute) // check-in is open: from 60 to 15 minutes before the start
	svc := a.Tournaments()
	tour, err := svc.SaveTournament(ctx, event, palaro.Tournament{Code: "e2e-cup", Name: "Tekken Tag Cup", Game: palaro.GameMLBB,
		Format: "Single elimination", MinPlayers: 2, MaxPlayers: 2, MaxTeams: 2, Rules: "Be on time. Play fair.",
		RegistrationOpensAt: now.Add(-time.Hour), RegistrationClosesAt: now.Add(20 * time.Minute), RosterLocksAt: now.Add(25 * time.Minute),
		StartsAt: start, CheckInOpens: 60, CheckInCloses: 15, BracketURL: "https://challonge.com/e2ecup", StreamURL: "https://www.youtube.com/@palaro"}, now)
	require.NoError(t, err)
	// a team with a place that will not check in
	sleepy, err := svc.RegisterTeam(ctx, palaro.TeamRegistration{TournamentCode: tour.Code, CaptainID: userID(t, a, store.DemoGateEmail),
		Name: "Sleepy Heads", Tag: "ZZZ", AcceptRules: true}, now)
	require.NoError(t, err)
	require.Equal(t, palaro.TeamRegistered, sleepy.Status)

	b := newBrowser(t)
	var text string
	require.NoError(t, chromedp.Run(b, chromedp.EmulateViewport(360, 800, chromedp.EmulateScale(2), chromedp.EmulateMobile),
		signInAs(a.URL, store.DemoCaptainEmail),
		chromedp.Navigate(a.URL+"/tournament/e2e-cup/register"),
		chromedp.WaitVisible("#f-teamName", chromedp.ByQuery)))
	screenshot(t, b, "team-register")
	assertTouchTargets(t, b)
	require.NoError(t, chromedp.Run(b, typeInto("f-teamName", "Kidlat Esports"), typeInto("f-tag", "kdl"),
		chromedp.Click("#f-acceptRules", chromedp.ByQuery), submitIn(".team-register form"), chromedp.Text("main", &text, chromedp.ByQuery)))
	require.Contains(t, text, "Your team is registered")
	require.Contains(t, text, "Kidlat Esports [KDL]")
	require.Contains(t, text, "Kidlat Esports has a place.")

	for _, email := range []string{"p1@example.ph", "p2@example.ph"} {
		require.NoError(t, chromedp.Run(b, typeInto("f-email", email), submitIn("#invite-form"), chromedp.Text("main", &text, chromedp.ByQuery)))
		require.Contains(t, text, "Invitation sent.")
	}
	captainPage := waitPath(t, b, "/team/")

	// the waiting team: registered third, its players joined, and it checks in as a standby
	waiting, err := svc.RegisterTeam(ctx, palaro.TeamRegistration{TournamentCode: tour.Code, CaptainID: userID(t, a, store.DemoRivalEmail),
		Name: "Bench Warmers", Tag: "BNCH", AcceptRules: true}, a.Now())
	require.NoError(t, err)
	require.Equal(t, palaro.TeamWaitlisted, waiting.Status)
	for _, email := range []string{"w1@example.ph", "w2@example.ph"} {
		require.NoError(t, svc.InvitePlayer(ctx, waiting.PublicID, waiting.CaptainID, email, a.Now()))
		link := outboxLink(t, a, email, "/team/join/")
		_, err := svc.JoinTeam(ctx, link[strings.Index(link, "/team/join/")+len("/team/join/"):],
			palaro.PlayerJoin{InGameName: email, GameAccount: "87654321 (2001)", AcceptRules: true}, a.Now())
		require.NoError(t, err)
	}
	require.NoError(t, svc.CheckInCaptain(ctx, waiting.PublicID, waiting.CaptainID, a.Now()))

	// each player joins from the link in their e-mail
	for i, email := range []string{"p1@example.ph", "p2@example.ph"} {
		link := outboxLink(t, a, email, "/team/join/")
		require.NoError(t, chromedp.Run(b, chromedp.Navigate(link), chromedp.WaitVisible("#join-form", chromedp.ByQuery)))
		if i == 0 {
			screenshot(t, b, "team-join")
			assertTouchTargets(t, b)
			require.NoError(t, chromedp.Run(b, typeInto("f-inGameName", "Kidlat.One"), typeInto("f-gameAccount", "Kidlat#PH1"),
				chromedp.Click("#f-acceptRules", chromedp.ByQuery), submitIn("#join-form"), chromedp.Text("main", &text, chromedp.ByQuery)))
			require.Contains(t, text, "MLBB account: user id (5 to 12 digits) and server (3 to 6 digits) in brackets", "a Riot ID is not an MLBB account")
		} else {
			require.NoError(t, chromedp.Run(b, typeInto("f-inGameName", "Kidlat.Two")))
		}
		require.NoError(t, chromedp.Run(b, typeInto("f-gameAccount", "1234567"+string(rune('0'+i))+" (1234)"), typeInto("f-discord", "@kidlat_"+string(rune('a'+i))),
			chromedp.Evaluate(`document.getElementById('f-acceptRules').checked || document.getElementById('f-acceptRules').click()`, nil),
			submitIn("#join-form"), chromedp.Text("main", &text, chromedp.ByQuery)))
		require.Contains(t, text, "You joined the team.")
	}

	// the captain checks the team in
	require.NoError(t, chromedp.Run(b, chromedp.Navigate(captainPage), chromedp.WaitVisible("#checkin-form", chromedp.ByQuery),
		chromedp.Text("main", &text, chromedp.ByQuery)))
	require.Contains(t, text, "Kidlat.One")
	require.Contains(t, text, "12345670 (1234)")
	require.NoError(t, chromedp.Run(b, submitIn("#checkin-form"), chromedp.Text("main", &text, chromedp.ByQuery)))
	require.Contains(t, text, "Checked in.")
	require.Contains(t, text, "has a place and is checked in")

	// check-in closes: the job drops Sleepy Heads and Bench Warmers moves up, e-mailed
	a.SettleOnce(ctx, start.Add(-15*time.Minute))
	moved := outboxLink(t, a, store.DemoRivalEmail, "/e/"+event+"/teams")
	require.Contains(t, moved, "/e/"+event+"/teams")
	outboxLink(t, a, "w1@example.ph", "/e/"+event+"/teams") // its players are told too
	got, err := svc.FindTeam(ctx, sleepy.PublicID)
	require.NoError(t, err)
	require.Equal(t, palaro.TeamDropped, got.Status)

	require.NoError(t, chromedp.Run(b, chromedp.Navigate(a.URL+"/e/"+event+"/teams"), chromedp.WaitVisible(".team-list", chromedp.ByQuery),
		chromedp.Text("main", &text, chromedp.ByQuery)))
	teams, out, _ := strings.Cut(text, "Out")
	require.Contains(t, teams, "Kidlat Esports")
	require.Contains(t, teams, "Bench Warmers")
	require.Contains(t, out, "Sleepy Heads")
	require.NotContains(t, text, "Waiting list")
	screenshot(t, b, "teams-page")
	assertTouchTargets(t, b)
}

// TestTournamentsAPI_Teams is the organizer's side of the demo tournament over HTTP: the teams
// with their check-in state for a bot, a disqualification that moves the first waiting team up,
// the CSV and bracket exports, and a tournament refused for a stream on another site.
func TestTournamentsAPI_Teams(t *testing.T) {
	a := startApp(t)
	org := signedIn(t, a, store.DemoOrganizerEmail)
	const base = "/v1/organizer/events/palaro-league-season-1/tournaments"
	var out struct {
		Tournament struct {
			Registered, Waitlisted int
		}
		Teams []struct {
			ID, Name, Status string
			Entry            int
			CheckedInAt      *time.Time
			Players          []struct{ InGameName, GameAccount string }
		}
	}
	_, page := newVisitor(t, a).get("/e/palaro-league-season-1/teams")
	require.Contains(t, page, "5 players and up to 1 substitute", "the demo cup's one substitute, singular")
	status, body := org.get(base + "/palaro-league-mlbb-cup/teams")
	require.Equal(t, http.StatusOK, status, body)
	require.NoError(t, json.Unmarshal([]byte(body), &out))
	require.Equal(t, [2]int{12, 2}, [2]int{out.Tournament.Registered, out.Tournament.Waitlisted})
	require.Len(t, out.Teams, 14)
	require.Equal(t, palaro.TeamWaitlisted, out.Teams[12].Status)
	require.Len(t, out.Teams[0].Players, 5)
	require.Regexp(t, `^\d+ \(\d+\)$`, out.Teams[0].Players[0].GameAccount)

	status, body = org.send(http.MethodPatch, base+"/palaro-league-mlbb-cup/teams/"+out.Teams[0].ID, "application/json",
		`{"status":"disqualified"}`, "")
	require.Equal(t, http.StatusOK, status, body)
	require.Contains(t, body, `"status":"disqualified"`)
	status, body = org.get(base + "/palaro-league-mlbb-cup/teams")
	require.Equal(t, http.StatusOK, status)
	require.NoError(t, json.Unmarshal([]byte(body), &out))
	require.Equal(t, palaro.TeamRegistered, out.Teams[12].Status, "the first waiting team moved up")
	require.Equal(t, palaro.TeamWaitlisted, out.Teams[13].Status)
	status, body = org.send(http.MethodPatch, base+"/palaro-league-mlbb-cup/teams/"+out.Teams[0].ID, "application/json",
		`{"status":"registered"}`, "")
	require.Equal(t, http.StatusConflict, status, "no free place: %s", body)
	require.Equal(t, palaro.MessageTeamMovedUp, lastOutboxKind(t, a, store.DemoCaptainEmail))

	status, body = org.get("/organizer/events/palaro-league-season-1/tournaments/palaro-league-mlbb-cup/teams.csv")
	require.Equal(t, http.StatusOK, status)
	require.Contains(t, body, "entry,team,tag,status,seed")
	require.Equal(t, 1+14*5, strings.Count(body, "\r\n"), "one row per player")
	status, body = org.get("/organizer/events/palaro-league-season-1/tournaments/palaro-league-mlbb-cup/bracket.txt")
	require.Equal(t, http.StatusOK, status)
	lines := strings.Split(strings.TrimSpace(body), "\n")
	require.Len(t, lines, 12)
	require.Equal(t, out.Teams[1].Name+"\t1", lines[0])
	require.Equal(t, out.Teams[12].Name+"\t12", lines[11])

	status, body = org.send(http.MethodPost, base, "application/json", `{"code":"x-cup","name":"X Cup","game":"valorant","minPlayers":5,
		"maxPlayers":5,"maxTeams":8,"rules":"Fair.","registrationOpensAt":"2026-03-20T00:00:00Z","registrationClosesAt":"2026-04-01T00:00:00Z",
		"rosterLocksAt":"2026-04-02T00:00:00Z","startsAt":"2026-04-03T00:00:00Z","checkInOpens":60,"checkInCloses":15,
		"streamUrl":"https://twitch.example.com/x"}`, "")
	require.Equal(t, http.StatusBadRequest, status, body)
	require.Contains(t, body, palaro.FieldStreamURL)
}

// lastOutboxKind returns the kind of the newest message to address.
func lastOutboxKind(t *testing.T, a *testApp, to string) string {
	t.Helper()
	var kind string
	require.NoError(t, a.DB().Reader().QueryRow(`SELECT kind FROM outbox WHERE recipient = ? ORDER BY id DESC LIMIT 1`, to).Scan(&kind))
	return kind
}

// signInAs signs the demo account email in (the demo password), the cookie banner dismissed.
func signInAs(url, email string) chromedp.Action {
	return chromedp.Tasks{dismissCookies(url),
		chromedp.Navigate(url + "/sign-in"),
		chromedp.SendKeys("#f-email", email, chromedp.ByQuery),
		chromedp.SendKeys("#f-password", store.DemoOrganizerPassword, chromedp.ByQuery),
		submitAndLoad()}
}

// TestTeams_EntryFeeBrowser is a captain on a 390 px phone paying entry fees through the
// sandbox: a team registered with the form goes to the checkout and comes back with its place;
// a registration left unpaid has no place, its page says so, and its pay button takes the
// captain to the checkout again; once paid it takes the last place.
func TestTeams_EntryFeeBrowser(t *testing.T) {
	a := startApp(t)
	ctx := context.Background()
	now := a.Now()
	svc := a.Tournaments()
	tour, err := svc.SaveTournament(ctx, "tekken-tuesdays-cubao", palaro.Tournament{Code: "e2e-paid", Name: "Paid Cup", Game: palaro.GameMLBB,
		Format: "Single elimination", MinPlayers: 2, MaxPlayers: 2, MaxTeams: 2, EntryFee: 250_00, Rules: "Pay, then play.",
		RegistrationOpensAt: now.Add(-time.Hour), RegistrationClosesAt: now.Add(20 * time.Hour), RosterLocksAt: now.Add(21 * time.Hour),
		StartsAt: now.Add(24 * time.Hour), CheckInOpens: 60, CheckInCloses: 15}, now)
	require.NoError(t, err)
	captain := userID(t, a, store.DemoCaptainEmail)
	unpaid, err := svc.RegisterTeam(ctx, palaro.TeamRegistration{TournamentCode: tour.Code, CaptainID: captain,
		Name: "Later Payers", Tag: "LATE", AcceptRules: true}, now)
	require.NoError(t, err)
	require.Equal(t, palaro.TeamUnpaid, unpaid.Status)

	b := newBrowser(t)
	var text string
	require.NoError(t, chromedp.Run(b, chromedp.EmulateViewport(390, 844, chromedp.EmulateScale(2), chromedp.EmulateMobile),
		signInAs(a.URL, store.DemoCaptainEmail),
		chromedp.Navigate(a.URL+"/tournament/e2e-paid/register"),
		chromedp.WaitVisible("#f-teamName", chromedp.ByQuery),
		chromedp.Text("main", &text, chromedp.ByQuery)))
	require.Contains(t, text, "Entry fee ₱250.00")
	screenshot(t, b, "team-fee-register")
	require.NoError(t, chromedp.Run(b, typeInto("f-teamName", "Kidlat Esports"), typeInto("f-tag", "kdl"),
		chromedp.Click("#f-acceptRules", chromedp.ByQuery), submitIn(".team-register form")))
	waitPath(t, b, "/sandbox/")
	screenshot(t, b, "team-fee-checkout")
	require.NoError(t, chromedp.Run(b, chromedp.Click(`#wallet-pay`, chromedp.ByQuery))) // QR Ph, paid in the sandbox
	waitPath(t, b, "/team/")
	require.NoError(t, chromedp.Run(b, chromedp.Text("main", &text, chromedp.ByQuery)))
	require.Contains(t, text, "Your team is registered")
	require.Contains(t, text, "Kidlat Esports has a place.")
	screenshot(t, b, "team-fee-paid")
	// the paid team's page links its order, which links the fee's sales invoice
	require.NoError(t, chromedp.Run(b, clickAndLoad(`a[href^="/payment/success/"]`, chromedp.ByQuery),
		chromedp.Text("main", &text, chromedp.ByQuery)))
	require.Contains(t, text, "Sales invoice No.")
	require.Contains(t, text, "Entry fee paid")
	require.NotContains(t, text, "tickets")
	screenshot(t, b, "team-fee-order")

	// the unpaid registration: no place yet, and its pay button
	require.NoError(t, chromedp.Run(b, chromedp.Navigate(a.URL+palaro.TeamPath(unpaid.PublicID)), chromedp.WaitVisible("#pay-form", chromedp.ByQuery),
		chromedp.Text("main", &text, chromedp.ByQuery)))
	require.Contains(t, text, "Later Payers is not registered yet")
	require.Contains(t, text, "Pay the entry fee of ₱250.00")
	screenshot(t, b, "team-fee-unpaid")
	assertTouchTargets(t, b)
	got, err := svc.FindTournament(ctx, tour.Code)
	require.NoError(t, err)
	require.Equal(t, 1, got.Registered, "an unpaid registration takes no place")
	require.NoError(t, chromedp.Run(b, submitIn("#pay-form")))
	waitPath(t, b, "/sandbox/")
	require.NoError(t, chromedp.Run(b, chromedp.Click(`#wallet-pay`, chromedp.ByQuery)))
	waitPath(t, b, "/team/")
	require.NoError(t, chromedp.Run(b, chromedp.Text("main", &text, chromedp.ByQuery)))
	require.Contains(t, text, "Later Payers has a place.")
	got, err = svc.FindTournament(ctx, tour.Code)
	require.NoError(t, err)
	require.Equal(t, 2, got.Registered)
	// the organizer's console lists both paid teams
	o := newBrowser(t)
	require.NoError(t, chromedp.Run(o, chromedp.EmulateViewport(390, 844, chromedp.EmulateScale(2), chromedp.EmulateMobile),
		signInAs(a.URL, store.DemoOrganizerEmail),
		chromedp.Navigate(a.URL+"/organizer/events/tekken-tuesdays-cubao/tournaments"),
		chromedp.Text("main", &text, chromedp.ByQuery)))
	require.Contains(t, text, "Kidlat Esports")
	require.Contains(t, text, "Later Payers")
	require.Contains(t, text, "entry fee ₱250.00 (a team is listed once it paid)")
	screenshot(t, o, "team-fee-console")
}
