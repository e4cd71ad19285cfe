package store

import (
	"context"
	"database/sql"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"palaro"
)

// otherConnection opens a connection to the fixture's database without the writer pool's hooks:
// another process (SQLite) or another app server (PostgreSQL), whose changes the catalog cannot hear.
func otherConnection(t *testing.T, db *DB) *sql.DB {
	t.Helper()
	other, err := sql.Open("sqlite3", "file:"+db.path+"?_busy_timeout=10000")
	if db.postgres {
		other, err = openPostgres(db.path, nil)
	}
	require.NoError(t, err)
	t.Cleanup(func() { other.Close() })
	return other
}

// TestAuthenticateToken_KeptUntilChanged proves that a gate's API token is read once and then
// answered from memory (every scan of every gate is authenticated), and that a revocation through
// the store is refused from its commit on, on both engines. Control: a change made by another
// connection is not seen until the catalog's TTL, so the answers do come from memory.
func TestAuthenticateToken_KeptUntilChanged(t *testing.T) {
	f := newPurchaseFixture(t)
	ctx := context.Background()
	svc := NewOrganizerService(f.db, nil)
	var orgID int64
	require.NoError(t, f.db.read.QueryRow(`SELECT organizer_id FROM events WHERE code = 'tekken-tuesdays-cubao'`).Scan(&orgID))
	secret, tok, err := svc.CreateToken(ctx, orgID, palaro.MemberManager, "gate 1", "operator", 0)
	require.NoError(t, err)
	role := func() string {
		t.Helper()
		c, err := svc.AuthenticateToken(ctx, secret)
		if err != nil {
			require.Equal(t, palaro.EUNAUTHORIZED, palaro.ErrorCode(err), err)
			return "refused"
		}
		return c.Memberships[0].Role
	}
	require.Equal(t, palaro.MemberManager, role()) // records the token's use: a write, which drops the catalog
	require.Equal(t, palaro.MemberManager, role())

	_, err = otherConnection(t, f.db).Exec(`UPDATE api_tokens SET role = ? WHERE id = ?`, palaro.MemberGate, tok.ID)
	require.NoError(t, err)
	require.Equal(t, palaro.MemberManager, role(), "control: another connection's change is not seen from memory")
	now := f.now
	f.db.Now = func() time.Time { return now.Add(catalogTTL) }
	require.Equal(t, palaro.MemberGate, role(), "control: read again once the store's clock passed the TTL")

	require.NoError(t, svc.RevokeToken(ctx, []int64{orgID}, tok.ID))
	require.Equal(t, "refused", role(), "a revoked token is refused from the revocation's commit on")
}

// TestGateEvent_KeptUntilChanged proves that the gate's event lookup comes from memory and
// follows every change of the event made through the store at once, on both engines. Control: a
// change made by another connection is not seen from memory.
func TestGateEvent_KeptUntilChanged(t *testing.T) {
	f := newPurchaseFixture(t)
	ctx := context.Background()
	svc := NewOrganizerService(f.db, nil)
	startsAt := func() time.Time {
		t.Helper()
		ev, err := svc.GateEvent(ctx, "tekken-tuesdays-cubao")
		require.NoError(t, err)
		return ev.StartsAt
	}
	first := startsAt()
	later := first.Add(time.Hour).UTC()
	_, err := otherConnection(t, f.db).Exec(`UPDATE events SET starts_at = ? WHERE code = 'tekken-tuesdays-cubao'`, formatTime(later))
	require.NoError(t, err)
	require.Equal(t, first, startsAt(), "control: another connection's change is not seen from memory")

	evenLater := later.Add(time.Hour)
	require.NoError(t, f.db.inWrite(ctx, func(ctx context.Context, tx *sql.Tx) error {
		_, err := tx.ExecContext(ctx, `UPDATE events SET starts_at = ? WHERE code = 'tekken-tuesdays-cubao'`, formatTime(evenLater))
		return err
	}))
	require.True(t, evenLater.Equal(startsAt()), "a change through the store is seen at once")

	_, err = svc.GateEvent(ctx, "no-such-event")
	require.Equal(t, palaro.ENOTFOUND, palaro.ErrorCode(err))
}
