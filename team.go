package palaro

import (
	"regexp"
	"strings"
	"time"
	"unicode/utf8"
)

// Team statuses: a place, the waiting list, out (missed check-in, refused, disqualified).
const (
	TeamRegistered   = "registered"
	TeamWaitlisted   = "waitlisted"
	TeamDropped      = "dropped"
	TeamRefused      = "refused"
	TeamDisqualified = "disqualified"
	// TeamUnpaid is a registration whose entry fee is not paid yet: it has no entry number, no
	// place and no team row; its order (Team.OrderPublicID) takes them when paid.
	TeamUnpaid = "unpaid"
)

// Team is a tournament's team: registered by its captain, its players joining by invitation.
type Team struct {
	ID           int64
	PublicID     string
	TournamentID int64
	Tournament   *Tournament
	Name, Tag    string
	CaptainID    int64
	CaptainEmail string
	// Entry is the team's registration order in its tournament (1, 2, …): the waiting list's order.
	Entry       int
	Status      string
	Seed        int // 0: not seeded
	HasLogo     bool
	CheckedInAt *time.Time
	CreatedAt   time.Time
	Players     []TeamPlayer
	// OrderPublicID is the entry fee's order (a tournament with a fee: unpaid, or paid by the
	// team), else empty.
	OrderPublicID string
}

// CheckedIn reports whether the team has checked in.
func (t Team) CheckedIn() bool { return t.CheckedInAt != nil }

// Out reports whether the team no longer plays (dropped, refused, disqualified).
func (t Team) Out() bool { return t.Status != TeamRegistered && t.Status != TeamWaitlisted }

// PlayersNeeded is how many more joined players the team needs for its tournament's minimum
// (the count check-in requires), 0 when it has them; t.Tournament must be set.
func (t Team) PlayersNeeded() int {
	return max(0, t.Tournament.MinPlayers-t.Joined())
}

// Joined counts the players who joined.
func (t Team) Joined() int {
	n := 0
	for _, p := range t.Players {
		if p.JoinedAt != nil {
			n++
		}
	}
	return n
}

// TeamPlayer is a player invited to a team; JoinedAt is set once they gave their details.
type TeamPlayer struct {
	ID          int64
	TeamID      int64
	Email       string
	InGameName  string
	GameAccount string
	Discord     string
	InvitedAt   time.Time
	JoinedAt    *time.Time
	CheckedInAt *time.Time
	// PassCode is the code of the player's competitor pass, "" while none is issued or once voided.
	PassCode string
}

// TeamRegistration is a captain's registration of a team.
type TeamRegistration struct {
	TournamentCode string
	CaptainID      int64
	Name, Tag      string
	AcceptRules    bool
	// Logo is the team's logo, checked and re-encoded by the caller (JPEG or PNG), or nil.
	Logo     []byte
	LogoType string
}

// PlayerJoin is what a player gives to join a team.
type PlayerJoin struct {
	InGameName, GameAccount, Discord string
	AcceptRules                      bool
}

// Team and player form and API field names.
const (
	FieldTeamName    = "teamName"
	FieldTeamTag     = "tag"
	FieldAcceptRules = "acceptRules"
	FieldInGameName  = "inGameName"
	FieldGameAccount = "gameAccount"
	FieldDiscord     = "discord"
	FieldPlayerEmail = "email"
	// FieldRemoveReason is the organizer's reason for removing a player.
	FieldRemoveReason = "reason"
)

var (
	teamTagPattern   = regexp.MustCompile(`^[A-Za-z0-9]{2,5}$`)
	mlbbPattern      = regexp.MustCompile(`^(\d{5,12})\s*\(\s*(\d{3,6})\s*\)$`)
	riotIDPattern    = regexp.MustCompile(`^([^#]{3,16})#([A-Za-z0-9]{3,5})$`)
	steamID64Pattern = regexp.MustCompile(`^7656119\d{10}$`)
	steamIDPattern   = regexp.MustCompile(`^\d{1,10}$`)
	discordPattern   = regexp.MustCompile(`^[a-z0-9_.]{2,32}$`)
)

// CheckTeamRegistration normalizes and checks a registration; EINVALID names each bad field.
func CheckTeamRegistration(r TeamRegistration) (TeamRegistration, error) {
	f := map[string]string{}
	r.Name, r.Tag = strings.Join(strings.Fields(r.Name), " "), strings.ToUpper(strings.TrimSpace(r.Tag))
	if r.Name == "" || utf8.RuneCountInString(r.Name) > 40 || !ValidText(TextLine, r.Name) {
		f[FieldTeamName] = "Team name is required: at most 40 characters."
	}
	if !teamTagPattern.MatchString(r.Tag) {
		f[FieldTeamTag] = "Tag: 2 to 5 letters or digits, such as BREN."
	}
	if !r.AcceptRules {
		f[FieldAcceptRules] = "Accept the tournament's rules to register."
	}
	return r, fieldsError(f)
}

// GameAccountHint tells a player how to write their game account for game.
func GameAccountHint(game string) string {
	switch game {
	case GameMLBB:
		return "Your MLBB user id and server, as in your profile: 12345678 (1234)."
	case GameValorant, GameLoL:
		return "Your Riot ID with its tagline: name#tag, such as Tenz#PH1."
	case GameDota2, GameCS2:
		return "Your Steam id: the 17 digits starting with 7656119, or your Dota/friend code."
	}
	return "Your account name in the game."
}

// CheckGameAccount returns a game account in its canonical form, or the message saying how to
// write it for game.
func CheckGameAccount(game, s string) (string, string) {
	s = strings.TrimSpace(s)
	if s == "" {
		return "", "Game account is required. " + GameAccountHint(game)
	}
	switch game {
	case GameMLBB:
		m := mlbbPattern.FindStringSubmatch(s)
		if m == nil {
			return "", "MLBB account: user id (5 to 12 digits) and server (3 to 6 digits) in brackets, such as 12345678 (1234)."
		}
		return m[1] + " (" + m[2] + ")", ""
	case GameValorant, GameLoL:
		m := riotIDPattern.FindStringSubmatch(s)
		if m == nil || strings.TrimSpace(m[1]) != m[1] {
			return "", "Riot ID: a name of 3 to 16 characters, #, and a tagline of 3 to 5 letters or digits, such as Tenz#PH1."
		}
		return s, ""
	case GameDota2, GameCS2:
		if !steamID64Pattern.MatchString(s) && !steamIDPattern.MatchString(s) {
			return "", "Steam id: the 17 digits starting with 7656119 (SteamID64), or your friend code (up to 10 digits)."
		}
		return s, ""
	}
	if utf8.RuneCountInString(s) > 64 || !ValidText(TextLine, s) {
		return "", "Game account: at most 64 characters."
	}
	return s, ""
}

// CheckPlayerJoin normalizes and checks a player's details for game; EINVALID names each bad field.
func CheckPlayerJoin(game string, j PlayerJoin) (PlayerJoin, error) {
	f := map[string]string{}
	j.InGameName = strings.TrimSpace(j.InGameName)
	if j.InGameName == "" || utf8.RuneCountInString(j.InGameName) > 32 || !ValidText(TextLine, j.InGameName) {
		f[FieldInGameName] = "In-game name is required: at most 32 characters."
	}
	var msg string
	if j.GameAccount, msg = CheckGameAccount(game, j.GameAccount); msg != "" {
		f[FieldGameAccount] = msg
	}
	j.Discord = strings.ToLower(strings.TrimPrefix(strings.TrimSpace(j.Discord), "@"))
	if j.Discord != "" && !discordPattern.MatchString(j.Discord) {
		f[FieldDiscord] = "Discord username: 2 to 32 lower-case letters, digits, _ or . (leave it empty if you have none)."
	}
	if !j.AcceptRules {
		f[FieldAcceptRules] = "Accept the tournament's rules to join."
	}
	return j, fieldsError(f)
}

// TeamJoinPath is the path of a player's invitation link (their own page).
func TeamJoinPath(token string) string { return "/team/join/" + token }

// TeamPath is the path of a team's captain page.
func TeamPath(publicID string) string { return "/team/" + publicID }

// TeamsPath is the path of an event's public page of registered teams.
func TeamsPath(eventCode string) string { return "/e/" + eventCode + "/teams" }

// Message kinds of tournaments.
const (
	MessageTeamRegistered = "team_registered"
	MessageTeamInvite     = "team_invite"
	MessageTeamDropped    = "team_dropped"
	MessageTeamMovedUp    = "team_moved_up"
	MessageTeamDecision   = "team_decision"
	MessageCompetitorPass = "competitor_pass"
	MessagePlayerRemoved  = "team_player_removed"
)

// CompetitorPass is a player's competitor pass: a free ticket of their tournament's hidden
// "Competitor pass" type, admitted at the gate (the players' entrance) like a ticket.
type CompetitorPass struct {
	TicketPublicID string // its ticket page is TicketPath(TicketPublicID)
	Code           string
}

// TeamComposer writes the e-mails of teams.
type TeamComposer interface {
	// TeamRegistered confirms a registration to the captain (a place or a place on the waiting list).
	TeamRegistered(t *Tournament, team *Team, eventName string) Message
	// TeamInvite invites a player to a team with the link carrying token.
	TeamInvite(t *Tournament, team *Team, eventName, to, token string) Message
	// TeamDropped tells a team's captain or player that the team missed check-in and is out.
	TeamDropped(t *Tournament, team *Team, eventName, to string) Message
	// TeamMovedUp tells a waiting team's captain or player that the team has a place now.
	TeamMovedUp(t *Tournament, team *Team, eventName, to string) Message
	// TeamDecision tells a team's captain or player the organizer's decision, its new Status: a
	// place (registered), refused or disqualified.
	TeamDecision(t *Tournament, team *Team, eventName, to string) Message
	// CompetitorPass sends a player of team their competitor pass (its ticket's link).
	CompetitorPass(t *Tournament, team *Team, eventName, to string, pass CompetitorPass) Message
	// PlayerRemoved tells a removed player, or their team's captain, that the organizer took
	// player off the team (team as it is after) for reason; a team left short of its minimum is
	// told what it needs, and, when withdrawn, that its check-in was withdrawn until it has them.
	PlayerRemoved(t *Tournament, team *Team, eventName, to, player, reason string, withdrawn bool) Message
}
