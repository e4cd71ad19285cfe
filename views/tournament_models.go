package views

import "github.com/a-h/templ"

// TeamsView is an event's public page of registered teams, /e/{code}/teams.
type TeamsView struct {
	EventName, EventHref string
	Tournaments          []TournamentView
}

// TournamentView is one tournament on the teams page.
type TournamentView struct {
	Code, Name, Game, Format string
	// Facts are short lines: team size, places, registration, check-in.
	Facts                 []string
	BracketURL, StreamURL string
	RegisterHref          string // "" when registration is closed
	Teams, Waiting        []TeamRow
	Out                   []TeamRow
}

// TeamRow is a team in a list.
type TeamRow struct {
	Seed, Name, Tag, Players, State string
	LogoSrc                         string
}

// TeamRegisterView is the captain's registration form of a tournament.
type TeamRegisterView struct {
	Tournament TournamentView
	Rules      string
	Action     string
	Error      string
	Fields     []FormField
	Accept     FormCheckbox
	LogoError  string
}

// TeamPageView is a team's page for its captain or a player: the roster, the invite form,
// check-in, or the join form.
type TeamPageView struct {
	Heading, Status, Notice, Error string
	Tournament                     TournamentView
	Rules                          string
	Players                        []TeamPlayerRow
	Invite                         *Form               // the captain's invite form, while the roster has room
	CheckIn                        *Form               // a check-in button, while check-in is open
	Pay                            *Form               // the pay button of a registration whose entry fee is unpaid
	OrderHref                      string              // the paid entry fee's order (its invoice), else empty
	Join                           *Form               // a player's join form
	Pass                           *CompetitorPassView // the player's competitor pass, once issued
	TeamsHref                      string
}

// CompetitorPassView is a player's competitor pass on their page: its QR code, code and ticket page.
type CompetitorPassView struct {
	Code, Href string
	QR         templ.Component
}

// TeamPlayerRow is a player on a team's page.
type TeamPlayerRow struct {
	Name, Account, Discord, State string
}

// OrgTournamentsView is the console's Tournaments page of an event: each tournament's teams with
// the organizer's decisions, and the exports.
type OrgTournamentsView struct {
	Frame       OrgFrame
	Error       string
	Tournaments []OrgTournament
	// NewHref is the new tournament form ("" for a member who may not create one).
	NewHref string
}

// OrgTournament is one tournament on the console page.
type OrgTournament struct {
	Name, Summary        string
	CSVHref, BracketHref string
	EditHref             string // "" for a member who may not change it
	Teams                []OrgTeamRow
}

// OrgTeamRow is a team on the console page, with its decision form.
type OrgTeamRow struct {
	Entry, Name, Status, Seed, CheckedIn, Players string
	Action                                        string
	ID                                            string // unique part of the form's element ids
	// Short says how many more joined players the team needs for the minimum, or is empty.
	Short string
	// Roster is the team's players (value: e-mail) for the removal form; Remove is its action,
	// empty when the team has no player.
	Roster []SelectOption
	Remove string
}
