package store

import (
	"context"
	"testing"

	"github.com/stretchr/testify/require"

	"palaro"
	"palaro/internal/testdb"
)

// TestMigration_TokenCreator starts before migration 00811 and checks that existing tokens are
// tied to their creators' accounts, that a token whose creator left the organization (or cannot be
// found) is revoked, that the operator's stay, and that a live token then acts with no more than
// its creator's role, on either engine.
func TestMigration_TokenCreator(t *testing.T) {
	ctx := context.Background()
	db, err := Open(testdb.URL(t))
	require.NoError(t, err)
	t.Cleanup(func() { db.Close() })
	migrateUpTo(t, db, 810)
	for _, q := range []string{
		`INSERT INTO organizers (id, name) VALUES (1, 'Kalaro Events')`,
		`INSERT INTO users (id, email, mobile_number) VALUES (1, 'manager@example.ph', '+639170000001')`,
		`INSERT INTO users (id, email, mobile_number) VALUES (2, 'left@example.ph', '+639170000002')`,
		`INSERT INTO users (id, email, mobile_number) VALUES (3, 'gate@example.ph', '+639170000003')`,
		`INSERT INTO organizer_members (organizer_id, user_id, role, created_at) VALUES (1, 1, 'manager', '2026-01-01T00:00:00Z')`,
		`INSERT INTO organizer_members (organizer_id, user_id, role, created_at) VALUES (1, 3, 'gate', '2026-01-01T00:00:00Z')`,
	} {
		_, err := db.write.ExecContext(ctx, q)
		require.NoError(t, err, q)
	}
	for _, tok := range [][3]string{
		{"plr_manager", "manager", "Manager@Example.ph"},
		{"plr_left", "manager", "left@example.ph"},
		{"plr_unknown", "manager", "gone@example.ph"},
		{"plr_operator", "manager", "operator"},
		{"plr_gate", "manager", "gate@example.ph"}, // a manager token of someone now at the gate
	} {
		_, err := db.write.ExecContext(ctx, `INSERT INTO api_tokens (token_hash, organizer_id, role, name, created_by, created_at)
			VALUES (?, 1, ?, ?, ?, '2026-01-01T00:00:00Z')`, tokenHash(tok[0]), tok[1], tok[0], tok[2])
		require.NoError(t, err)
	}
	require.NoError(t, db.Migrate(ctx))

	svc := NewOrganizerService(db, nil)
	roles := map[string]string{}
	for _, secret := range []string{"plr_manager", "plr_left", "plr_unknown", "plr_operator", "plr_gate"} {
		c, err := svc.AuthenticateToken(ctx, secret)
		if err != nil {
			require.Equal(t, palaro.EUNAUTHORIZED, palaro.ErrorCode(err))
			roles[secret] = "refused"
			continue
		}
		roles[secret] = c.Memberships[0].Role
	}
	require.Equal(t, map[string]string{"plr_manager": "manager", "plr_left": "refused", "plr_unknown": "refused",
		"plr_operator": "manager", "plr_gate": "gate"}, roles)
	tokens, err := svc.ListTokens(ctx, []int64{1})
	require.NoError(t, err)
	revoked := map[string]bool{}
	for _, tk := range tokens {
		revoked[tk.Name] = !tk.RevokedAt.IsZero()
	}
	require.Equal(t, map[string]bool{"plr_manager": false, "plr_left": true, "plr_unknown": true, "plr_operator": false, "plr_gate": false}, revoked)

	require.NoError(t, svc.RemoveMember(ctx, 1, 1, "test"))
	_, err = svc.AuthenticateToken(ctx, "plr_manager")
	require.Equal(t, palaro.EUNAUTHORIZED, palaro.ErrorCode(err), "removing the member revokes their token")
}

// TestTokenRole: a token acts with its own role narrowed to its creator's.
func TestTokenRole(t *testing.T) {
	for _, c := range [][3]string{
		{"manager", "owner", "manager"}, {"manager", "manager", "manager"}, {"manager", "gate", "gate"},
		{"manager", "booth", "booth"}, {"gate", "owner", "gate"}, {"gate", "gate", "gate"}, {"gate", "booth", ""},
		{"manager", "", ""},
	} {
		require.Equal(t, c[2], palaro.TokenRole(c[0], c[1]), "%s token of a %s", c[0], c[1])
	}
}
