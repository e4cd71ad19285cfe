package palaro

import (
	"context"
	"net/url"
	"regexp"
	"slices"
	"strings"
	"time"
	"unicode/utf8"
)

// Games a tournament can be played in: each names how its players' game accounts are written.
const (
	GameMLBB     = "mlbb"     // Mobile Legends: Bang Bang: user id and server, "12345678 (1234)"
	GameValorant = "valorant" // Riot ID, "name#tag"
	GameLoL      = "lol"      // League of Legends and Wild Rift: Riot ID
	GameDota2    = "dota2"    // Steam id (SteamID64 or a Steam account id)
	GameCS2      = "cs2"      // Steam id
	GameOther    = "other"    // any account name
)

// Games lists the games in the order forms offer them, with their names.
var Games = []struct{ Code, Name string }{
	{GameMLBB, "Mobile Legends: Bang Bang"}, {GameValorant, "VALORANT"}, {GameLoL, "League of Legends / Wild Rift"},
	{GameDota2, "Dota 2"}, {GameCS2, "Counter-Strike 2"}, {GameOther, "Other game"},
}

// GameName returns the name of a game code ("" for an unknown code).
func GameName(code string) string {
	for _, g := range Games {
		if g.Code == code {
			return g.Name
		}
	}
	return ""
}

// Who checks a team in (Tournament.CheckInBy).
const (
	CheckInByCaptain = "captain"
	CheckInByPlayers = "players"
)

// MaxEntryFee is the highest entry fee a tournament may ask (₱100,000).
const MaxEntryFee Money = 100_000_00

// Tournament is a competition of teams held at an event; brackets stay on the bracket sites.
type Tournament struct {
	ID        int64
	EventID   int64
	EventCode string
	Code      string
	Name      string
	Game      string
	Format    string
	// MinPlayers and MaxPlayers bound a team's starting players; Substitutes more may join.
	MinPlayers, MaxPlayers, Substitutes int
	MaxTeams                            int
	EntryFee                            Money
	Rules                               string
	RegistrationOpensAt                 time.Time
	RegistrationClosesAt                time.Time
	// RosterLocksAt is when players can no longer join or leave without the organizer.
	RosterLocksAt time.Time
	StartsAt      time.Time
	// CheckInOpens and CheckInCloses are minutes before StartsAt.
	CheckInOpens, CheckInCloses int
	CheckInBy                   string
	BracketURL, StreamURL       string
	// CheckInDone is set once the teams that missed check-in were dropped.
	CheckInDone bool
	// Registered and Waitlisted count the teams with a place and those waiting (when read with them).
	Registered, Waitlisted int
}

// RosterSize is the most players a team may have: starters and substitutes.
func (t Tournament) RosterSize() int { return t.MaxPlayers + t.Substitutes }

// CheckInWindow returns when check-in opens and closes.
func (t Tournament) CheckInWindow() (opens, closes time.Time) {
	return t.StartsAt.Add(-time.Duration(t.CheckInOpens) * time.Minute), t.StartsAt.Add(-time.Duration(t.CheckInCloses) * time.Minute)
}

// CheckInOpen reports whether check-in is open at now.
func (t Tournament) CheckInOpen(now time.Time) bool {
	opens, closes := t.CheckInWindow()
	return !t.CheckInDone && !now.Before(opens) && now.Before(closes)
}

// RegistrationOpen reports whether teams may register at now.
func (t Tournament) RegistrationOpen(now time.Time) bool {
	return !now.Before(t.RegistrationOpensAt) && now.Before(t.RegistrationClosesAt)
}

// RosterLocked reports whether the roster is locked at now.
func (t Tournament) RosterLocked(now time.Time) bool { return !now.Before(t.RosterLocksAt) }

// Tournament form and API field names.
const (
	FieldTournamentCode   = "code"
	FieldTournamentName   = "name"
	FieldGame             = "game"
	FieldFormat           = "format"
	FieldMinPlayers       = "minPlayers"
	FieldMaxPlayers       = "maxPlayers"
	FieldSubstitutes      = "substitutes"
	FieldMaxTeams         = "maxTeams"
	FieldEntryFee         = "entryFee"
	FieldRules            = "rules"
	FieldRegistrationOpen = "registrationOpensAt"
	FieldRegistrationEnd  = "registrationClosesAt"
	FieldRosterLocksAt    = "rosterLocksAt"
	FieldCheckInOpens     = "checkInOpens"
	FieldCheckInCloses    = "checkInCloses"
	FieldCheckInBy        = "checkInBy"
	FieldBracketURL       = "bracketUrl"
	FieldStreamURL        = "streamUrl"
)

var tournamentCodePattern = regexp.MustCompile(`^[a-z0-9](?:[a-z0-9-]{0,58}[a-z0-9])?$`)

// BracketHosts are the sites a tournament's bracket link may point to.
var BracketHosts = []string{"start.gg", "challonge.com"}

// StreamHosts are the sites a tournament's stream link may point to.
var StreamHosts = []string{"twitch.tv", "youtube.com", "youtu.be", "facebook.com", "fb.gg"}

// CheckLinkHost returns the https URL s cleaned, "" for a blank one, or a message when it is not
// an https address on one of hosts (or a subdomain of one).
func CheckLinkHost(s string, hosts []string) (string, string) {
	s = strings.TrimSpace(s)
	if s == "" {
		return "", ""
	}
	msg := "Enter an https address on " + strings.Join(hosts, ", ") + "."
	u, err := url.Parse(s)
	if err != nil || u.Scheme != "https" || u.User != nil || u.Port() != "" || len(s) > 500 {
		return "", msg
	}
	host := strings.ToLower(u.Hostname())
	for _, h := range hosts {
		if host == h || strings.HasSuffix(host, "."+h) {
			return u.String(), ""
		}
	}
	return "", msg
}

// Validate checks a tournament (its text trimmed by the caller); EINVALID names each bad field.
func (t *Tournament) Validate() error {
	f := map[string]string{}
	t.Code = strings.ToLower(strings.TrimSpace(t.Code))
	t.Name, t.Format, t.Rules = strings.TrimSpace(t.Name), strings.TrimSpace(t.Format), strings.TrimSpace(t.Rules)
	if !tournamentCodePattern.MatchString(t.Code) {
		f[FieldTournamentCode] = "Code: 1 to 60 lower-case letters, digits and hyphens."
	}
	if t.Name == "" || utf8.RuneCountInString(t.Name) > 120 {
		f[FieldTournamentName] = "Name is required (at most 120 characters)."
	}
	if GameName(t.Game) == "" {
		f[FieldGame] = "Choose a game."
	}
	if utf8.RuneCountInString(t.Format) > 200 {
		f[FieldFormat] = "Format: at most 200 characters."
	}
	if t.MinPlayers < 1 || t.MinPlayers > 20 {
		f[FieldMinPlayers] = "Minimum players: 1 to 20."
	}
	if t.MaxPlayers < t.MinPlayers || t.MaxPlayers > 20 {
		f[FieldMaxPlayers] = "Maximum players: from the minimum to 20."
	}
	if t.Substitutes < 0 || t.Substitutes > 10 {
		f[FieldSubstitutes] = "Substitutes: 0 to 10."
	}
	if t.MaxTeams < 2 || t.MaxTeams > 1024 {
		f[FieldMaxTeams] = "Maximum teams: 2 to 1024."
	}
	if t.EntryFee < 0 {
		f[FieldEntryFee] = "Entry fee cannot be negative."
	} else if t.EntryFee > MaxEntryFee {
		f[FieldEntryFee] = "Entry fee: at most " + MaxEntryFee.String() + "."
	}
	if t.Rules == "" || utf8.RuneCountInString(t.Rules) > 20000 {
		f[FieldRules] = "Rules are required (at most 20000 characters): captains and players accept them."
	}
	if t.RegistrationOpensAt.IsZero() {
		f[FieldRegistrationOpen] = "Registration opening is required."
	}
	if t.StartsAt.IsZero() {
		f[FieldStartsAt] = "Start is required."
	}
	if !t.RegistrationClosesAt.After(t.RegistrationOpensAt) {
		f[FieldRegistrationEnd] = "Registration must close after it opens."
	} else if t.RegistrationClosesAt.After(t.StartsAt) {
		f[FieldRegistrationEnd] = "Registration must close before the tournament starts."
	}
	if t.RosterLocksAt.IsZero() || t.RosterLocksAt.After(t.StartsAt) {
		f[FieldRosterLocksAt] = "The roster must lock before the tournament starts."
	}
	if t.CheckInOpens < 1 || t.CheckInOpens > 24*60 {
		f[FieldCheckInOpens] = "Check-in opens 1 to 1440 minutes before the start."
	}
	if t.CheckInCloses < 0 || t.CheckInCloses >= t.CheckInOpens {
		f[FieldCheckInCloses] = "Check-in closes fewer minutes before the start than it opens."
	}
	if t.CheckInBy == "" {
		t.CheckInBy = CheckInByCaptain
	}
	if !slices.Contains([]string{CheckInByCaptain, CheckInByPlayers}, t.CheckInBy) {
		f[FieldCheckInBy] = "Check-in is by the captain or by every player."
	}
	var msg string
	if t.BracketURL, msg = CheckLinkHost(t.BracketURL, BracketHosts); msg != "" {
		f[FieldBracketURL] = "Bracket: " + msg
	}
	if t.StreamURL, msg = CheckLinkHost(t.StreamURL, StreamHosts); msg != "" {
		f[FieldStreamURL] = "Stream: " + msg
	}
	return fieldsError(f)
}

// TournamentService keeps tournaments, their teams and players.
type TournamentService interface {
	// SaveTournament creates a tournament of the event (t.ID zero) or changes one of its own.
	// Returns EINVALID with fields, ENOTFOUND and ECONFLICT for a code in use.
	SaveTournament(ctx context.Context, eventCode string, t Tournament, now time.Time) (*Tournament, error)
	// ListTournaments returns an event's tournaments with their team counts (ENOTFOUND never).
	ListTournaments(ctx context.Context, eventCode string) ([]Tournament, error)
	// FindTournament returns a tournament by code, with its team counts. Returns ENOTFOUND.
	FindTournament(ctx context.Context, code string) (*Tournament, error)
	// RegisterTeam registers a captain's team: a place while fewer than MaxTeams teams have one,
	// else the next place on the waiting list. Returns EINVALID, ENOTFOUND, ECONFLICT (closed,
	// name or tag taken).
	RegisterTeam(ctx context.Context, req TeamRegistration, now time.Time) (*Team, error)
	// ListTeams returns a tournament's teams in entry order, with their players.
	ListTeams(ctx context.Context, tournamentID int64) ([]Team, error)
	// FindTeam returns a team by its public id with its players and tournament. Returns ENOTFOUND.
	FindTeam(ctx context.Context, publicID string) (*Team, error)
	// TeamLogo returns a team's logo and its content type. Returns ENOTFOUND.
	TeamLogo(ctx context.Context, publicID string) ([]byte, string, error)
	// InvitePlayer e-mails an invitation to a team's roster; only its captain, before the roster
	// locks, while the roster has room. Returns EINVALID, EFORBIDDEN, ECONFLICT.
	InvitePlayer(ctx context.Context, teamPublicID string, captainID int64, email string, now time.Time) error
	// FindPlayer returns the player of an invite token, with their team. Returns ENOTFOUND.
	FindPlayer(ctx context.Context, token string) (*TeamPlayer, *Team, error)
	// JoinTeam records a player's details from their invite token. Returns EINVALID, ENOTFOUND,
	// ECONFLICT (roster locked).
	JoinTeam(ctx context.Context, token string, j PlayerJoin, now time.Time) (*TeamPlayer, error)
	// CheckInCaptain checks the captain's team in during the window. Returns EFORBIDDEN, ECONFLICT.
	CheckInCaptain(ctx context.Context, teamPublicID string, captainID int64, now time.Time) error
	// CheckInPlayer checks a player in by their token during the window; the team is checked in
	// when MinPlayers of its players have. Returns ENOTFOUND, ECONFLICT.
	CheckInPlayer(ctx context.Context, token string, now time.Time) error
	// CloseCheckIns drops, for every tournament whose check-in closed by now, the registered
	// teams that did not check in, moves checked-in waiting teams up in entry order into the
	// places freed, and e-mails everyone concerned, once per tournament. It returns how many
	// teams were dropped and moved up.
	CloseCheckIns(ctx context.Context, now time.Time) (dropped, movedUp int, err error)
	// RefundStandbys refunds, once per tournament that started by now, the entry fees of the
	// waiting teams that checked in as standbys and never got a place; it returns how many such
	// teams there were.
	RefundStandbys(ctx context.Context, now time.Time) (standbys int, err error)
	// RemovePlayer takes a player (by e-mail) off a team of the event for reason: their
	// invitation link stops working, the player and the captain are e-mailed (a team left short
	// of its minimum is told what it needs), the removal is audited by actor. It returns the team
	// as it is after. Returns EINVALID (no player or reason), ENOTFOUND.
	RemovePlayer(ctx context.Context, eventCode, teamPublicID, email, reason, actor string, now time.Time) (*Team, error)
	// SetTeamStatus lets the organizer approve (a place), refuse or disqualify a team (status ""
	// keeps it), or set its seed (nil keeps it, 0 clears it); a freed place goes to the first
	// waiting team. The team and the teams moved up are e-mailed. Returns ENOTFOUND, EINVALID,
	// ECONFLICT (no free place).
	SetTeamStatus(ctx context.Context, eventCode, teamPublicID, status string, seed *int, now time.Time) error
	// IssueCompetitorPasses gives, once each tournament's roster is locked, every joined player of
	// a team holding a place a competitor pass (a free ticket for the tournament's date, e-mailed
	// to them), and voids the passes of teams that are out. It returns how many it issued and voided.
	IssueCompetitorPasses(ctx context.Context, now time.Time) (issued, voided int, err error)
	// CompetitorPass returns the competitor pass of the player of an invite token, nil when none.
	CompetitorPass(ctx context.Context, token string) (*CompetitorPass, error)
}
