package e2e

import (
	"encoding/json"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/require"

	"palaro"
	"palaro/store"
)

const demoCupTeams = "/v1/organizer/events/palaro-league-season-1/tournaments/palaro-league-mlbb-cup/teams"

// demoCupTeam returns the demo cup's team at index i: its id and its players' e-mails.
func demoCupTeam(t *testing.T, org *httpVisitor, i int) (string, []string) {
	t.Helper()
	var out struct {
		Teams []struct {
			ID      string
			Players []struct{ Email string }
		}
	}
	status, body := org.get(demoCupTeams)
	require.Equal(t, http.StatusOK, status, body)
	require.NoError(t, json.Unmarshal([]byte(body), &out))
	var emails []string
	for _, p := range out.Teams[i].Players {
		emails = append(emails, p.Email)
	}
	return out.Teams[i].ID, emails
}

// TestTournamentsAPI_RemovePlayer removes players through the API and the console: bad input is
// a 400 (API) or the page again with the message (console) naming what is wrong; a removal
// answers the team and what it still needs, the player's invite link stops working and the
// player is e-mailed.
func TestTournamentsAPI_RemovePlayer(t *testing.T) {
	a := startApp(t)
	org := signedIn(t, a, store.DemoOrganizerEmail)
	team, players := demoCupTeam(t, org, 0)
	require.Len(t, players, 5)
	path := func(email string) string { return demoCupTeams + "/" + team + "/players/" + url.PathEscape(email) }

	status, _ := org.get("/team/join/demo:" + players[0])
	require.Equal(t, http.StatusOK, status, "the invite link works before")
	for _, bad := range []struct {
		path, body string
		status     int
		says       string
	}{
		{path(players[0]), `{}`, http.StatusBadRequest, `"reason"`},
		{path(players[0]), `{"reason":"` + strings.Repeat("x", 301) + `"}`, http.StatusBadRequest, "at most 300"},
		{path(players[0]), `{"reason":"Smurf","why":"?"}`, http.StatusBadRequest, "why"},
		{path(players[0]), `not json`, http.StatusBadRequest, ""},
		{path("nobody@example.ph"), `{"reason":"Smurf"}`, http.StatusNotFound, "not on the roster"},
		{strings.Replace(path(players[0]), "palaro-league-season-1", demoOwnedEvent, 1), `{"reason":"Smurf"}`, http.StatusNotFound, ""},
		{demoCupTeams + "/no-such-team/players/" + url.PathEscape(players[0]), `{"reason":"Smurf"}`, http.StatusNotFound, ""},
	} {
		status, body := org.send(http.MethodDelete, bad.path, "application/json", bad.body, "")
		require.Equal(t, bad.status, status, "%s %s: %s", bad.path, bad.body, body)
		require.Contains(t, body, bad.says)
	}

	status, body := org.send(http.MethodDelete, path(players[0]), "application/json", `{"reason":"Smurf account"}`, "")
	require.Equal(t, http.StatusOK, status, body)
	var out struct {
		Team          struct{ Players []struct{ Email string } }
		PlayersNeeded int
	}
	require.NoError(t, json.Unmarshal([]byte(body), &out))
	require.Len(t, out.Team.Players, 4)
	require.Equal(t, 1, out.PlayersNeeded, "the demo cup wants 5 players")
	status, _ = org.get("/team/join/demo:" + players[0])
	require.Equal(t, http.StatusNotFound, status, "the removed player's link no longer works")
	require.Equal(t, palaro.MessagePlayerRemoved, lastOutboxKind(t, a, players[0]))

	// the console: a missing reason or player shows the page again with the message
	console := "/organizer/events/palaro-league-season-1/tournaments/palaro-league-mlbb-cup/teams/" + team + "/players/remove"
	status, body = org.post(console, url.Values{"email": {players[1]}})
	require.Equal(t, http.StatusUnprocessableEntity, status)
	require.Contains(t, body, "Give a reason")
	status, body = org.post(console, url.Values{"reason": {"No-show"}})
	require.Equal(t, http.StatusUnprocessableEntity, status)
	require.Contains(t, body, "Choose the player to remove")
	status, body = org.post(console, url.Values{"email": {players[1]}, "reason": {"No-show"}})
	require.Equal(t, http.StatusSeeOther, status, body)
	status, body = org.get("/organizer/events/palaro-league-season-1/tournaments?notice=removed")
	require.Equal(t, http.StatusOK, status)
	require.Contains(t, body, "The player is removed")
	require.Contains(t, body, "Needs 2 more players to check in (minimum 5).")
	require.Equal(t, palaro.MessagePlayerRemoved, lastOutboxKind(t, a, players[1]))
}

// TestTeams_RemovePlayerBrowser is an organizer on a 390 px phone removing a player from the
// console's Tournaments page.
func TestTeams_RemovePlayerBrowser(t *testing.T) {
	a := startApp(t)
	org := signedIn(t, a, store.DemoOrganizerEmail)
	team, players := demoCupTeam(t, org, 1)
	b := newBrowser(t)
	var text string
	require.NoError(t, chromedp.Run(b, chromedp.EmulateViewport(390, 844, chromedp.EmulateScale(2), chromedp.EmulateMobile),
		signInAs(a.URL, store.DemoOrganizerEmail),
		chromedp.Navigate(a.URL+"/organizer/events/palaro-league-season-1/tournaments"),
		chromedp.ScrollIntoView("#player-"+team, chromedp.ByQuery)))
	screenshot(t, b, "team-remove-player-form")
	require.NoError(t, chromedp.Run(b,
		chromedp.SetValue("#player-"+team, players[2], chromedp.ByQuery),
		chromedp.SendKeys("#reason-"+team, "Plays for another team", chromedp.ByQuery),
		submitIn("#team-"+team+" form:last-of-type")))
	waitPath(t, b, "/organizer/events/palaro-league-season-1/tournaments")
	require.NoError(t, chromedp.Run(b, chromedp.ScrollIntoView("#team-"+team, chromedp.ByQuery),
		chromedp.Text("main", &text, chromedp.ByQuery)))
	require.Contains(t, text, "The player is removed")
	require.Contains(t, text, "Needs 1 more player to check in (minimum 5).")
	screenshot(t, b, "team-remove-player-done")
	_, after := demoCupTeam(t, org, 1)
	require.NotContains(t, after, players[2])

	// a team checked in, short of players once check-in closed, keeps its place: the page warns the organizer
	at := a.Now().UTC().Format("2006-01-02T15:04:05Z")
	_, err := a.DB().Writer().Exec(`UPDATE teams SET checked_in_at = ? WHERE public_id = ?`, at, team)
	require.NoError(t, err)
	_, err = a.DB().Writer().Exec(`UPDATE tournaments SET checkin_done_at = ? WHERE code = 'palaro-league-mlbb-cup'`, at)
	require.NoError(t, err)
	require.NoError(t, chromedp.Run(b, chromedp.Reload(), chromedp.ScrollIntoView("#team-"+team, chromedp.ByQuery),
		chromedp.Text("#team-"+team, &text, chromedp.ByQuery)))
	require.Contains(t, text, "Checked in but 1 player short of the minimum 5: it keeps its place unless you disqualify it")
	screenshot(t, b, "team-short-after-check-in")
}
