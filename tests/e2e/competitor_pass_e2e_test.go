package e2e

import (
	"context"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/require"

	"palaro"
	"palaro/store"
)

// TestCompetitorPass_Browser is a player on a 390 px phone: their team holds a place and its
// roster is locked, so the issuing job gave them a competitor pass; their join link's page shows
// its QR code and code, and at the gate the pass is let in once, named "Competitor pass · team".
func TestCompetitorPass_Browser(t *testing.T) {
	a := startApp(t)
	ctx := context.Background()
	now := a.Now()
	svc := a.Tournaments()
	tour, err := svc.SaveTournament(ctx, demoOwnedEvent, palaro.Tournament{Code: "e2e-pass-cup", Name: "Pass Cup", Game: palaro.GameMLBB,
		Format: "Single elimination", MinPlayers: 1, MaxPlayers: 2, MaxTeams: 2, Rules: "Play fair.",
		RegistrationOpensAt: now.Add(-4 * time.Hour), RegistrationClosesAt: now.Add(-2 * time.Hour), RosterLocksAt: now.Add(-time.Hour),
		StartsAt: now.Add(3 * time.Hour), CheckInOpens: 60, CheckInCloses: 15}, now.Add(-5*time.Hour))
	require.NoError(t, err)
	before := now.Add(-3 * time.Hour) // registration open, roster not locked
	team, err := svc.RegisterTeam(ctx, palaro.TeamRegistration{TournamentCode: tour.Code, CaptainID: userID(t, a, store.DemoCaptainEmail),
		Name: "Kidlat Esports", Tag: "KDL", AcceptRules: true}, before)
	require.NoError(t, err)
	require.NoError(t, svc.InvitePlayer(ctx, team.PublicID, team.CaptainID, "p1@example.ph", before))
	link := outboxLink(t, a, "p1@example.ph", "/team/join/")
	token := link[strings.Index(link, "/team/join/")+len("/team/join/"):]
	_, err = svc.JoinTeam(ctx, token, palaro.PlayerJoin{InGameName: "Kidlat.One", GameAccount: "12345678 (1234)", AcceptRules: true}, before)
	require.NoError(t, err)
	issued, _, err := svc.IssueCompetitorPasses(ctx, now)
	require.NoError(t, err)
	require.Equal(t, 1, issued)
	pass, err := svc.CompetitorPass(ctx, token)
	require.NoError(t, err)
	require.NotNil(t, pass)

	b := newBrowser(t)
	var text string
	require.NoError(t, chromedp.Run(b, chromedp.EmulateViewport(390, 844, chromedp.EmulateScale(2), chromedp.EmulateMobile),
		chromedp.Navigate(link), chromedp.WaitVisible(".competitor-pass svg", chromedp.ByQuery),
		chromedp.Text(".competitor-pass", &text, chromedp.ByQuery)))
	require.Contains(t, text, "Your competitor pass")
	require.Contains(t, text, pass.Code)
	screenshot(t, b, "competitor-pass")
	assertTouchTargets(t, b)
	// its link opens the pass's ticket page
	require.NoError(t, chromedp.Run(b, chromedp.Click(".competitor-pass a.button", chromedp.ByQuery),
		chromedp.WaitVisible(".ticket-qr svg", chromedp.ByQuery), chromedp.Text("main", &text, chromedp.ByQuery)))
	require.Contains(t, text, "Competitor pass")
	require.Contains(t, text, "Kidlat.One")
	screenshot(t, b, "competitor-pass-ticket")

	// a demo player: once the demo tournament's roster locks, their link's page shows their pass
	demoCup, err := svc.FindTournament(ctx, "palaro-league-mlbb-cup")
	require.NoError(t, err)
	issued, _, err = svc.IssueCompetitorPasses(ctx, demoCup.RosterLocksAt)
	require.NoError(t, err)
	require.Positive(t, issued)
	require.NoError(t, chromedp.Run(b, chromedp.Navigate(a.URL+"/team/join/demo:bld1@players.palaro.ph"),
		chromedp.WaitVisible(".competitor-pass svg", chromedp.ByQuery), chromedp.Text(".competitor-pass", &text, chromedp.ByQuery)))
	require.Contains(t, text, "Your competitor pass")
	screenshot(t, b, "competitor-pass-demo")

	g := newBrowser(t)
	require.NoError(t, chromedp.Run(g, chromedp.EmulateViewport(390, 844, chromedp.EmulateScale(2), chromedp.EmulateMobile)))
	openGate(t, g, a, demoOwnedEvent)
	ok, answer := gateScan(t, g, pass.Code)
	require.True(t, ok, answer)
	require.Contains(t, answer, "Competitor pass · Kidlat Esports")
	screenshot(t, g, "competitor-pass-gate")
	ok, answer = gateScan(t, g, pass.Code)
	require.False(t, ok, "let in once: %s", answer)
}

// TestCompetitorPass_SeriesGate_Browser is the players' entrance of the demo league on a 390 px
// phone: once the demo cup's roster locks, a player's competitor pass is a day ticket of the
// tournament's match day; the gate on that date admits it, answering "Competitor pass · {team}",
// and refuses it a second time.
func TestCompetitorPass_SeriesGate_Browser(t *testing.T) {
	a := startApp(t)
	ctx := context.Background()
	svc := a.Tournaments()
	demoCup, err := svc.FindTournament(ctx, "palaro-league-mlbb-cup")
	require.NoError(t, err)
	issued, _, err := svc.IssueCompetitorPasses(ctx, demoCup.RosterLocksAt)
	require.NoError(t, err)
	require.Positive(t, issued)
	const token = "demo:bld1@players.palaro.ph"
	pass, err := svc.CompetitorPass(ctx, token)
	require.NoError(t, err)
	require.NotNil(t, pass)
	_, team, err := svc.FindPlayer(ctx, token)
	require.NoError(t, err)
	_, dates := leagueDates(t, a)
	var dateID int64
	require.NoError(t, a.DB().Reader().QueryRow(`SELECT date_id FROM tickets WHERE code = ?`, pass.Code).Scan(&dateID))
	i := slices.IndexFunc(dates, func(d palaro.EventDate) bool { return d.ID == dateID })
	require.GreaterOrEqual(t, i, 0, "the pass is for a match day")
	require.Equal(t, palaro.ManilaDay(demoCup.StartsAt), palaro.ManilaDay(dates[i].StartsAt), "the tournament's")

	g := newBrowser(t)
	require.NoError(t, chromedp.Run(g, chromedp.EmulateViewport(390, 844, chromedp.EmulateScale(2), chromedp.EmulateMobile)))
	openGate(t, g, a, demoLeague)
	pickGateDate(t, g, dates[i].Slug)
	ok, answer := gateScan(t, g, pass.Code)
	require.True(t, ok, answer)
	require.Contains(t, answer, "Competitor pass · "+team.Name)
	require.Contains(t, answer, palaro.GateDateLabel(dates[i]))
	screenshot(t, g, "competitor-pass-series-gate")
	ok, answer = gateScan(t, g, pass.Code)
	require.False(t, ok, "let in once: %s", answer)
	require.Contains(t, answer, "Already checked in")
	screenshot(t, g, "competitor-pass-series-gate-again")
}
