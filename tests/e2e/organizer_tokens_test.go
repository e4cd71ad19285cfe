package e2e

import (
	"context"
	"database/sql"
	"fmt"
	"net/http"
	"net/url"
	"regexp"
	"testing"

	"github.com/stretchr/testify/require"

	"palaro/store"
)

// TestOrganizerTokens_FollowTheirCreator: a manager's API token works with its creator's current
// role, never more (a creator moved to the gate leaves a token that only checks in), and removing
// the member revokes it for good: orders and attendee CSVs answer 401, even if they come back.
func TestOrganizerTokens_FollowTheirCreator(t *testing.T) {
	a := startApp(t)
	ctx := context.Background()
	owner := signedIn(t, a, store.DemoOrganizerEmail)
	status, _ := owner.post("/organizer/team", url.Values{"email": {"mara@example.ph"}, "role": {"manager"}, "organization": {"2"}})
	require.Equal(t, http.StatusSeeOther, status)
	path := regexp.MustCompile(`/invitations/[^\s"<>]+`).FindString(outboxLink(t, a, "mara@example.ph", "/invitations/"))
	mara := newVisitor(t, a)
	signUpActive(t, a, mara, "mara@example.ph", "09351113333")
	mara.get(path)
	status, _ = mara.post(path, url.Values{})
	require.Equal(t, http.StatusSeeOther, status)
	mara.get("/organizer/tokens")
	status, body := mara.post("/organizer/tokens", url.Values{"name": {"ticket sync"}, "role": {"manager"}, "organization": {"2"}})
	require.Equal(t, http.StatusOK, status, body)
	tok := regexp.MustCompile(`plr_[A-Za-z0-9_-]+`).FindString(body)
	require.NotEmpty(t, tok)
	var maraID int64
	require.NoError(t, a.DB().Reader().QueryRowContext(ctx, `SELECT id FROM users WHERE email = 'mara@example.ph'`).Scan(&maraID))
	setRole := func(q string) {
		t.Helper()
		require.NoError(t, a.DB().Write(ctx, func(ctx context.Context, tx *sql.Tx) error {
			_, err := tx.ExecContext(ctx, q, maraID)
			return err
		}))
	}

	api := newVisitor(t, a)
	calls := func() (orders, csv, events int) {
		orders, _ = api.send(http.MethodGet, "/v1/organizer/events/"+demoOwnedEvent+"/orders", "", "", tok)
		csv, _ = api.send(http.MethodGet, "/organizer/events/"+demoOwnedEvent+"/attendees.csv", "", "", tok)
		events, _ = api.send(http.MethodGet, "/v1/organizer/events", "", "", tok)
		return
	}
	o, c, e := calls()
	require.Equal(t, [3]int{200, 200, 200}, [3]int{o, c, e}, "a manager's token reads orders and attendees")

	// A role change (none in the console yet: the database stands for it) narrows the token at once.
	setRole(`UPDATE organizer_members SET role = 'gate' WHERE organizer_id = 2 AND user_id = ?`)
	o, c, e = calls()
	require.Equal(t, [3]int{403, 403, 200}, [3]int{o, c, e}, "its creator now at the gate: the token no longer reads orders")
	setRole(`UPDATE organizer_members SET role = 'manager' WHERE organizer_id = 2 AND user_id = ?`)
	o, _, _ = calls()
	require.Equal(t, 200, o, "the token follows its creator's current role")

	_, body = owner.get("/organizer/team")
	remove := fmt.Sprintf("/organizer/team/2/members/%d/remove", maraID)
	require.Contains(t, body, remove)
	status, _ = owner.post(remove, url.Values{})
	require.Equal(t, http.StatusSeeOther, status)
	_, body = owner.get("/organizer/team?notice=removed")
	require.Contains(t, body, "The API tokens they created are revoked.")
	o, c, e = calls()
	require.Equal(t, [3]int{401, 401, 401}, [3]int{o, c, e}, "removing the member ends their token")
	_, body = owner.get("/organizer/tokens")
	require.True(t, regexp.MustCompile(`ticket sync</strong>[^<]*</p><p[^>]*>[^<]*by mara@example.ph[^<]*</p><p class="org-badge[^"]*">revoked`).MatchString(body), "the owner sees it revoked")

	setRole(`INSERT INTO organizer_members (organizer_id, user_id, role, created_at) VALUES (2, ?, 'manager', '2026-01-01T00:00:00Z')`)
	o, _, _ = calls()
	require.Equal(t, 401, o, "a member who comes back does not bring the old token back")
}
