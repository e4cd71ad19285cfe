package notify

import (
	"strconv"

	"palaro"
)

var _ palaro.TeamComposer = Composer{}

// teamRows are the rows every team e-mail shows.
func teamRows(t *palaro.Tournament, team *palaro.Team, eventName string) [][2]string {
	return [][2]string{{"Event", eventName}, {"Tournament", t.Name}, {"Game", palaro.GameName(t.Game)},
		{"Team", team.Name + " [" + team.Tag + "]"},
		{"Starts", when(t.StartsAt)}}
}

// checkInLine says when check-in runs and who does it.
func checkInLine(t *palaro.Tournament) string {
	opens, closes := t.CheckInWindow()
	who := "The captain checks the team in"
	if t.CheckInBy == palaro.CheckInByPlayers {
		who = "Every player checks in from their own link"
	}
	return who + " between " + opens.In(palaro.Manila).Format("3:04 PM") + " and " + closes.In(palaro.Manila).Format("3:04 PM") +
		" (Manila time, " + opens.In(palaro.Manila).Format("Mon 2 Jan") + "). Teams that miss check-in drop out and the waiting teams move up."
}

// TeamRegistered confirms a team's registration to its captain.
func (c Composer) TeamRegistered(t *palaro.Tournament, team *palaro.Team, eventName string) palaro.Message {
	title, intro := "Your team is registered", team.Name+" has a place in "+t.Name+"."
	if team.Status == palaro.TeamWaitlisted {
		title, intro = "Your team is on the waiting list", t.Name+" is full: "+team.Name+
			" is on its waiting list, in order of registration (entry "+strconv.Itoa(team.Entry)+"). Teams that drop out are replaced in that order, and we e-mail you if yours moves up."
	}
	v := emailView{Support: c.Support, Title: title,
		Intro:  []string{intro, "Invite your players from your team's page: each gets a link to join with their game account.", checkInLine(t)},
		Rows:   teamRows(t, team, eventName),
		Button: emailLink{Label: "Open your team's page", URL: c.url(palaro.TeamPath(team.PublicID))}}
	return c.message(palaro.MessageTeamRegistered, team.CaptainEmail, title+": "+team.Name, v)
}

// TeamInvite invites a player to a team.
func (c Composer) TeamInvite(t *palaro.Tournament, team *palaro.Team, eventName, to, token string) palaro.Message {
	v := emailView{Support: c.Support, Title: "Join " + team.Name,
		Intro: []string{"You are invited to play for " + team.Name + " in " + t.Name + " at " + eventName + ".",
			"Open the link to join with your in-game name and game account and to accept the rules. " + palaro.GameAccountHint(t.Game),
			checkInLine(t)},
		Rows:   teamRows(t, team, eventName),
		Button: emailLink{Label: "Join the team", URL: c.url(palaro.TeamJoinPath(token))},
		Outro:  []string{"The link is yours (" + to + "): keep it, it is also where you check in. If you did not expect this, ignore it."}}
	return c.message(palaro.MessageTeamInvite, to, "Join "+team.Name+" in "+t.Name, v)
}

// TeamDropped tells a team that it missed check-in.
func (c Composer) TeamDropped(t *palaro.Tournament, team *palaro.Team, eventName, to string) palaro.Message {
	v := emailView{Support: c.Support, Title: team.Name + " missed check-in",
		Intro: []string{team.Name + " did not check in for " + t.Name + " before check-in closed, so it dropped out and its place went to the next team on the waiting list.",
			"If you think this is a mistake, contact the organizer."},
		Rows: teamRows(t, team, eventName)}
	return c.message(palaro.MessageTeamDropped, to, team.Name+" missed check-in for "+t.Name, v)
}

// TeamMovedUp tells a waiting team that it has a place.
func (c Composer) TeamMovedUp(t *palaro.Tournament, team *palaro.Team, eventName, to string) palaro.Message {
	v := emailView{Support: c.Support, Title: team.Name + " is in",
		Intro: []string{"A team dropped out of " + t.Name + " and " + team.Name + " moved up from the waiting list: it has a place now.",
			"Be at the players' entrance on time with your competitor pass."},
		Rows:   teamRows(t, team, eventName),
		Button: emailLink{Label: "See the teams", URL: c.url(palaro.TeamsPath(t.EventCode))}}
	return c.message(palaro.MessageTeamMovedUp, to, team.Name+" has a place in "+t.Name, v)
}

// TeamDecision tells a team the organizer's decision about it (its new status).
func (c Composer) TeamDecision(t *palaro.Tournament, team *palaro.Team, eventName, to string) palaro.Message {
	title, subject := team.Name+" is in", team.Name+" has a place in "+t.Name
	intro := "The organizer of " + t.Name + " gave " + team.Name + " a place."
	switch team.Status {
	case palaro.TeamRefused:
		title, subject = team.Name+" is refused", "The registration of "+team.Name+" for "+t.Name+" is refused"
		intro = "The organizer of " + t.Name + " refused the registration of " + team.Name + ": it will not play."
	case palaro.TeamDisqualified:
		title, subject = team.Name+" is disqualified", team.Name+" is disqualified from "+t.Name
		intro = "The organizer of " + t.Name + " disqualified " + team.Name + ": it no longer plays."
	}
	v := emailView{Support: c.Support, Title: title, Intro: []string{intro, "If you have a question about it, contact the organizer."},
		Rows: teamRows(t, team, eventName), Button: emailLink{Label: "See the teams", URL: c.url(palaro.TeamsPath(t.EventCode))}}
	return c.message(palaro.MessageTeamDecision, to, subject, v)
}

// CompetitorPass sends a player their competitor pass: the link to its ticket page (its QR).
func (c Composer) CompetitorPass(t *palaro.Tournament, team *palaro.Team, eventName, to string, pass palaro.CompetitorPass) palaro.Message {
	v := emailView{Support: c.Support, Title: "Your competitor pass",
		Intro: []string{"The roster of " + team.Name + " is locked: here is your competitor pass for " + t.Name + ".",
			"Show its QR code at the players' entrance; it is yours alone and lets you in once."},
		Rows:   append(teamRows(t, team, eventName), [2]string{"Pass code", pass.Code}),
		Button: emailLink{Label: "Open your competitor pass", URL: c.url(palaro.TicketPath(pass.TicketPublicID))}}
	return c.message(palaro.MessageCompetitorPass, to, "Your competitor pass for "+t.Name, v)
}

// PlayerRemoved tells a removed player, or their team's captain, that the organizer took the
// player off the team and why; the captain of a team left short of its minimum is told what it
// needs: when its check-in was withdrawn (withdrawn), to check in again once it has them; when it
// stays checked in after check-in closed, that the organizer decides.
func (c Composer) PlayerRemoved(t *palaro.Tournament, team *palaro.Team, eventName, to, player, reason string, withdrawn bool) palaro.Message {
	subject := player + " was removed from " + team.Name
	intro := []string{"The organizer of " + t.Name + " removed " + player + " from " + team.Name + ".", "Reason: " + reason}
	if to == player {
		subject = "You were removed from " + team.Name
		intro = []string{"The organizer of " + t.Name + " removed you from " + team.Name + ": your invitation link no longer opens the team.",
			"Reason: " + reason, "If you have a question about it, contact the organizer or your captain."}
	} else if need := team.PlayersNeeded(); (need > 0 || withdrawn) && !team.Out() {
		_, closes := t.CheckInWindow()
		switch {
		case withdrawn && t.CheckInBy == palaro.CheckInByPlayers:
			intro = append(intro, "The check-in of "+team.Name+" is withdrawn: it needs "+strconv.Itoa(t.MinPlayers)+
				" players checked in. It is checked in again once they have, before check-in closes ("+when(closes)+"); else it drops out.")
		case withdrawn:
			intro = append(intro, "The check-in of "+team.Name+" is withdrawn: add a player and check in again before check-in closes ("+
				when(closes)+"), or the team drops out.")
		case team.CheckedIn():
			intro = append(intro, team.Name+" now has "+palaro.Plural(team.Joined(), "player", "players")+" who joined, "+
				strconv.Itoa(need)+" short of "+strconv.Itoa(t.MinPlayers)+
				". Check-in has closed: the team stays checked in and keeps its place; the organizer decides whether it plays.")
		}
		if need > 0 && !team.CheckedIn() {
			intro = append(intro, team.Name+" now has "+palaro.Plural(team.Joined(), "player", "players")+" who joined; it needs "+
				strconv.Itoa(t.MinPlayers)+" to check in: "+palaro.Plural(need, "more player", "more players")+
				". Invite from your team's page until the roster locks ("+when(t.RosterLocksAt)+"); after that, ask the organizer.")
		}
	}
	v := emailView{Support: c.Support, Title: subject, Intro: intro, Rows: teamRows(t, team, eventName)}
	if to != player {
		v.Button = emailLink{Label: "Open your team's page", URL: c.url(palaro.TeamPath(team.PublicID))}
	}
	return c.message(palaro.MessagePlayerRemoved, to, subject, v)
}
