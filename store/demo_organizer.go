package store

import (
	"context"
	"database/sql"
	"time"

	"palaro"
)

// DemoOrganizerPassword is the password of the demo organizer accounts.
const DemoOrganizerPassword = "Organizer2026"

// Demo organizer accounts (demo mode only).
const (
	DemoOrganizerEmail = "organizer@palaro.ph" // owns every demo organization and so every demo event
	DemoGateEmail      = "gate@palaro.ph"      // gate member of every demo organization
	DemoRivalEmail     = "rival@palaro.ph"     // owns one small organization and event of its own
	DemoOperatorEmail  = "operator@palaro.ph"  // an operator: the /operator console (news, partner pages)
)

// demoRivalOrganization is the rival's organization, outside the demo events' organizers.
var demoRivalOrganization = palaro.Organizer{ID: 90, Name: "Rival Gaming Co.", Email: "hello@rival.ph", URL: "https://rival.ph"}

// seedDemoOrganizers adds the demo organizer accounts, their memberships and the rival's event.
func seedDemoOrganizers(ctx context.Context, tx *sql.Tx, today, now time.Time) error {
	hash, err := palaro.HashPassword(DemoOrganizerPassword)
	if err != nil {
		return err
	}
	at := formatTime(now)
	user := func(email, first, last, mobile string) (int64, error) {
		id, err := insertID(ctx, tx, `INSERT INTO users (email, password_hash, first_name, last_name, mobile_number, role,
			status, created_at, updated_at, activated_at) VALUES (?, ?, ?, ?, ?, 'organizer', 'active', ?, ?, ?)`,
			email, hash, first, last, mobile, at, at, at)
		if err != nil {
			return 0, err
		}
		return id, nil
	}
	member := func(orgID, userID int64, role string) error {
		_, err := tx.ExecContext(ctx, `INSERT INTO organizer_members (organizer_id, user_id, role, created_at) VALUES (?, ?, ?, ?)`,
			orgID, userID, role, at)
		return err
	}
	owner, err := user(DemoOrganizerEmail, "Olivia", "Organizer", "+639170000301")
	if err != nil {
		return err
	}
	gate, err := user(DemoGateEmail, "Gabriel", "Gate", "+639170000302")
	if err != nil {
		return err
	}
	rival, err := user(DemoRivalEmail, "Rina", "Rival", "+639170000303")
	if err != nil {
		return err
	}
	if _, err := tx.ExecContext(ctx, `INSERT INTO users (email, password_hash, first_name, last_name, mobile_number, role,
		status, created_at, updated_at, activated_at) VALUES (?, ?, 'Oscar', 'Operator', '+639170000304', 'user', 'active', ?, ?, ?)`,
		DemoOperatorEmail, hash, at, at, at); err != nil {
		return err
	}
	if _, err := tx.ExecContext(ctx, `INSERT INTO operators (user_id, granted_at) SELECT id, ? FROM users WHERE email = ?`,
		at, DemoOperatorEmail); err != nil {
		return err
	}
	for _, o := range demoOrganizers {
		if err := member(o.ID, owner, palaro.MemberOwner); err != nil {
			return err
		}
		if err := member(o.ID, gate, palaro.MemberGate); err != nil {
			return err
		}
	}
	r := demoRivalOrganization
	if _, err := tx.ExecContext(ctx, `INSERT INTO organizers (id, name, email, url, approved_at) VALUES (?, ?, ?, ?, ?)`,
		r.ID, r.Name, r.Email, r.URL, at); err != nil {
		return err
	}
	if err := member(r.ID, rival, palaro.MemberOwner); err != nil {
		return err
	}
	return insertDemoEvent(ctx, tx, demoEvent{code: "rival-retro-meetup", name: "Rival Retro Meetup", image: "lan",
		day: 64, hour: 15, hours: 4, venue: 5, organizer: r.ID, popularity: 5,
		summary:     "A small meetup of retro gamers.",
		description: "Bring your old consoles and play with other collectors.",
		tags:        []string{"lan-party"}, tickets: []demoTicket{{suffix: "entry", name: "Entry", price: 10000, max: 4, capacity: 40, sold: 3}}},
		today, now)
}
