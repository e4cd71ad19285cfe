package e2e

import (
	"encoding/json"
	"html"
	"net/http"
	"net/url"
	"regexp"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/require"

	"palaro"
	"palaro/store"
)

// fieldErrorOf returns the error a console form shows under its field name ("" when none).
func fieldErrorOf(page, name string) string {
	m := regexp.MustCompile(`id="f-` + regexp.QuoteMeta(name) + `-error">([^<]*)</p>`).FindStringSubmatch(page)
	if m == nil {
		return ""
	}
	return html.UnescapeString(m[1])
}

// inputValueOf returns the value an input of the page has ("" when none).
func inputValueOf(page, name string) string {
	m := regexp.MustCompile(`<input id="f-` + regexp.QuoteMeta(name) + `" name="` + regexp.QuoteMeta(name) + `" type="[^"]*" value="([^"]*)"`).FindStringSubmatch(page)
	if m == nil {
		return ""
	}
	return html.UnescapeString(m[1])
}

// TestTournamentConsole_BadInput: the console's tournament form over HTTP refuses bad input with
// a message under each bad field (what could not be read and what the domain's validation
// refuses, at once) and shows everything as typed; creates nothing; on the demo cup's edit form a
// maximum below its 12 teams with a place is refused by field, as the API refuses it, and a
// good change is saved.
func TestTournamentConsole_BadInput(t *testing.T) {
	a := startApp(t)
	org := signedIn(t, a, store.DemoOrganizerEmail)
	const base = "/organizer/events/" + demoLeague + "/tournaments"
	status, page := org.get(base + "/new")
	require.Equal(t, http.StatusOK, status)
	require.Equal(t, "60", inputValueOf(page, palaro.FieldCheckInOpens), "the new form is filled with usual settings")

	bad := url.Values{palaro.FieldTournamentName: {"Kidlat Cup"}, palaro.FieldGame: {palaro.GameValorant},
		palaro.FieldFormat: {"Double elimination"}, palaro.FieldMinPlayers: {"five"}, palaro.FieldMaxPlayers: {"5"},
		palaro.FieldSubstitutes: {"1"}, palaro.FieldMaxTeams: {"1"}, palaro.FieldEntryFee: {"lots"},
		palaro.FieldRegistrationOpen: {"tomorrow"}, palaro.FieldRegistrationEnd: {"2026-03-01T18:00"},
		palaro.FieldRosterLocksAt: {"2026-03-02T18:00"}, palaro.FieldStartsAt: {"2026-03-07T13:00"},
		palaro.FieldCheckInOpens: {"60"}, palaro.FieldCheckInCloses: {"90"}, palaro.FieldCheckInBy: {palaro.CheckInByPlayers},
		palaro.FieldRules: {"Be on time & play fair."}, palaro.FieldBracketURL: {"http://start.gg/kidlat"},
		palaro.FieldStreamURL: {"https://www.twitch.tv/kidlat"}}
	status, page = org.post(base+"/new", bad)
	require.Equal(t, http.StatusUnprocessableEntity, status, page)
	for field, msg := range map[string]string{
		palaro.FieldMinPlayers:       "Minimum players is a whole number.",
		palaro.FieldEntryFee:         "Entry fee is an amount in pesos, such as 450 or 1,250.50.",
		palaro.FieldRegistrationOpen: "Registration opening is a date and time such as 2026-12-31T18:00.",
		palaro.FieldMaxTeams:         "Maximum teams: 2 to 1024.",
		palaro.FieldCheckInCloses:    "Check-in closes fewer minutes before the start than it opens.",
		palaro.FieldBracketURL:       "Bracket: Enter an https address on start.gg, challonge.com.",
	} {
		require.Equal(t, msg, fieldErrorOf(page, field), field)
	}
	require.Empty(t, fieldErrorOf(page, palaro.FieldStreamURL), "a good field has no error")
	require.Empty(t, fieldErrorOf(page, palaro.FieldTournamentCode), "a blank code is made from the name")
	for field, typed := range map[string]string{palaro.FieldTournamentName: "Kidlat Cup", palaro.FieldMinPlayers: "five",
		palaro.FieldEntryFee: "lots", palaro.FieldRegistrationOpen: "tomorrow", palaro.FieldMaxTeams: "1",
		palaro.FieldCheckInCloses: "90", palaro.FieldBracketURL: "http://start.gg/kidlat", palaro.FieldTournamentCode: "kidlat-cup",
		palaro.FieldStartsAt: "2026-03-07T13:00"} {
		require.Equal(t, typed, inputValueOf(page, field), "%s keeps what was typed", field)
	}
	require.Contains(t, page, ">Be on time &amp; play fair.</textarea>")
	require.Regexp(t, `<option value="valorant" selected>`, page)
	require.Regexp(t, `<option value="players" selected>`, page)
	_, err := a.Tournaments().FindTournament(t.Context(), "kidlat-cup")
	require.Equal(t, palaro.ENOTFOUND, palaro.ErrorCode(err), "nothing is created")

	// the demo cup: 12 teams have a place
	edit := base + "/palaro-league-mlbb-cup/edit"
	status, page = org.get(edit)
	require.Equal(t, http.StatusOK, status)
	form := url.Values{}
	for _, f := range []string{palaro.FieldTournamentName, palaro.FieldTournamentCode, palaro.FieldFormat, palaro.FieldMinPlayers,
		palaro.FieldMaxPlayers, palaro.FieldSubstitutes, palaro.FieldMaxTeams, palaro.FieldEntryFee, palaro.FieldRegistrationOpen,
		palaro.FieldRegistrationEnd, palaro.FieldRosterLocksAt, palaro.FieldStartsAt, palaro.FieldCheckInOpens,
		palaro.FieldCheckInCloses, palaro.FieldBracketURL, palaro.FieldStreamURL} {
		form.Set(f, inputValueOf(page, f))
	}
	require.Equal(t, "12", form.Get(palaro.FieldMaxTeams))
	form.Set(palaro.FieldGame, palaro.GameMLBB)
	form.Set(palaro.FieldCheckInBy, palaro.CheckInByCaptain)
	form.Set(palaro.FieldRules, "Play fair.")
	form.Set(palaro.FieldMaxTeams, "8")
	form.Set(palaro.FieldFormat, "Swiss, then top 8")
	status, page = org.post(edit, form)
	require.Equal(t, http.StatusUnprocessableEntity, status, page)
	require.Equal(t, "Maximum teams cannot go below the 12 teams with a place.", fieldErrorOf(page, palaro.FieldMaxTeams))
	require.Equal(t, "8", inputValueOf(page, palaro.FieldMaxTeams))
	require.Equal(t, "Swiss, then top 8", inputValueOf(page, palaro.FieldFormat), "the other changes stay on the form")
	got, err := a.Tournaments().FindTournament(t.Context(), "palaro-league-mlbb-cup")
	require.NoError(t, err)
	require.Equal(t, 12, got.MaxTeams)
	require.NotEqual(t, "Swiss, then top 8", got.Format, "nothing is saved")

	// the API refuses the same change with the same message
	status, body := org.get("/v1/organizer/events/" + demoLeague + "/tournaments")
	require.Equal(t, http.StatusOK, status, body)
	var list struct{ Tournaments []map[string]any }
	require.NoError(t, json.Unmarshal([]byte(body), &list))
	require.NotEmpty(t, list.Tournaments)
	cup := list.Tournaments[0]
	cup["maxTeams"] = 8
	for _, k := range []string{"registered", "waitlisted", "checkInDone"} {
		delete(cup, k)
	}
	patch, err := json.Marshal(cup)
	require.NoError(t, err)
	status, body = org.send(http.MethodPatch, "/v1/organizer/events/"+demoLeague+"/tournaments/palaro-league-mlbb-cup", "application/json", string(patch), "")
	require.Equal(t, http.StatusBadRequest, status, body)
	require.Contains(t, body, "Maximum teams cannot go below the 12 teams with a place.")

	form.Set(palaro.FieldMaxTeams, "16")
	status, page = org.post(edit, form)
	require.Equal(t, http.StatusSeeOther, status, page)
	got, err = a.Tournaments().FindTournament(t.Context(), "palaro-league-mlbb-cup")
	require.NoError(t, err)
	require.Equal(t, [2]any{16, "Swiss, then top 8"}, [2]any{got.MaxTeams, got.Format})
}

// TestTournamentConsole_Browser is the demo organizer on a 390 px phone: from the demo league's
// Tournaments page they create a tournament with the console's form (a bracket link on http
// refused under its field first, what was typed kept), edit it, and find it on the public teams
// page with its settings.
func TestTournamentConsole_Browser(t *testing.T) {
	a := startApp(t)
	b := newBrowser(t)
	base := a.URL + "/organizer/events/" + demoLeague + "/tournaments"
	var text, code string
	require.NoError(t, chromedp.Run(b, chromedp.EmulateViewport(390, 844, chromedp.EmulateScale(2), chromedp.EmulateMobile),
		signInAs(a.URL, store.DemoOrganizerEmail),
		chromedp.Navigate(base), chromedp.WaitVisible(`a[href$="/tournaments/new"]`, chromedp.ByQuery)))
	screenshot(t, b, "tournament-console-list")
	require.NoError(t, chromedp.Run(b, clickAndLoad(`a[href$="/tournaments/new"]`, chromedp.ByQuery),
		chromedp.WaitVisible("#f-name", chromedp.ByQuery)))
	screenshot(t, b, "tournament-console-new")
	assertTouchTargets(t, b)
	require.NoError(t, chromedp.Run(b, typeInto("f-name", "Palaro League VALORANT Open"),
		chromedp.Value("#f-code", &code, chromedp.ByQuery),
		chromedp.SetValue("#f-game", palaro.GameValorant, chromedp.ByQuery),
		typeInto("f-format", "Single elimination, best of 3"),
		typeInto("f-maxTeams", "8"),
		chromedp.SetValue("#f-registrationClosesAt", "2026-03-26T18:00", chromedp.ByQuery),
		chromedp.SetValue("#f-rosterLocksAt", "2026-03-27T18:00", chromedp.ByQuery),
		chromedp.SetValue("#f-startsAt", "2026-03-28T13:00", chromedp.ByQuery),
		chromedp.SetValue("#f-checkInBy", palaro.CheckInByPlayers, chromedp.ByQuery),
		typeInto("f-rules", "Be on time. Play fair. No smurfing."),
		typeInto("f-bracketUrl", "http://start.gg/palaro-valorant-open"),
		typeInto("f-streamUrl", "https://www.twitch.tv/palaro"),
		submitIn("form.org-form")))
	require.Equal(t, "palaro-league-valorant-open", code, "the code follows the name")
	require.Equal(t, "Bracket: Enter an https address on start.gg, challonge.com.", fieldError(b, t, "f-bracketUrl"))
	var kept string
	require.NoError(t, chromedp.Run(b, chromedp.Value("#f-rules", &kept, chromedp.ByQuery),
		chromedp.ScrollIntoView("#f-bracketUrl", chromedp.ByQuery)))
	require.Equal(t, "Be on time. Play fair. No smurfing.", kept)
	screenshot(t, b, "tournament-console-new-error")
	require.NoError(t, chromedp.Run(b, typeInto("f-bracketUrl", "https://start.gg/palaro-valorant-open"),
		submitIn("form.org-form"), chromedp.Text("main", &text, chromedp.ByQuery)))
	require.Contains(t, text, "Saved.")
	require.Contains(t, text, "Palaro League VALORANT Open")
	require.Contains(t, text, "VALORANT · 8 places: 0 taken, 0 waiting")

	edit := `a[href$="/tournaments/palaro-league-valorant-open/edit"]`
	require.NoError(t, chromedp.Run(b, chromedp.ScrollIntoView(edit, chromedp.ByQuery), clickAndLoad(edit, chromedp.ByQuery),
		chromedp.WaitVisible("#f-maxTeams", chromedp.ByQuery)))
	var starts string
	require.NoError(t, chromedp.Run(b, chromedp.Value("#f-startsAt", &starts, chromedp.ByQuery)))
	require.Equal(t, "2026-03-28T13:00", starts, "Manila time, as typed")
	screenshot(t, b, "tournament-console-edit")
	require.NoError(t, chromedp.Run(b, typeInto("f-maxTeams", "12"), typeInto("f-format", "Double elimination, best of 3"),
		submitIn("form.org-form"), chromedp.Text("main", &text, chromedp.ByQuery)))
	require.Contains(t, text, "VALORANT · 12 places: 0 taken, 0 waiting")

	require.NoError(t, chromedp.Run(b, chromedp.Navigate(a.URL+"/e/"+demoLeague+"/teams"),
		chromedp.WaitVisible(`a[href="https://start.gg/palaro-valorant-open"]`, chromedp.ByQuery),
		chromedp.Text("main", &text, chromedp.ByQuery)))
	require.Contains(t, text, "Palaro League VALORANT Open")
	require.Contains(t, text, "Double elimination, best of 3")
	require.NoError(t, chromedp.Run(b, chromedp.ScrollIntoView(`a[href="https://start.gg/palaro-valorant-open"]`, chromedp.ByQuery)))
	screenshot(t, b, "tournament-console-public")
}
