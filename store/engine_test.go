package store

import (
	"context"
	"testing"

	"github.com/stretchr/testify/require"

	"palaro"
	"palaro/internal/testdb"
)

// sqliteOnly skips a test of a SQLite mechanism (named by why) when the suite runs on PostgreSQL;
// the skip and its reason show in the test output.
func sqliteOnly(t *testing.T, why string) {
	t.Helper()
	if testdb.Postgres() {
		t.Skip("SQLite only: " + why)
	}
}

// TestCatalog_DroppedByOwnWrites proves that a write on this server to a table events are read
// from drops the event catalog at once, on both engines (SQLite's update hook; on PostgreSQL the
// writer pool's statements). Control: a write to another table keeps it.
func TestCatalog_DroppedByOwnWrites(t *testing.T) {
	db := openTestDB(t)
	loads := 0
	load := func() (*palaro.TicketType, *palaro.Event, error) {
		loads++
		return &palaro.TicketType{ID: 3}, &palaro.Event{ID: 7}, nil
	}
	read := func() {
		t.Helper()
		_, _, _, err := db.catalog.lookup("vip", db.Now(), load)
		require.NoError(t, err)
	}
	read()
	read()
	require.Equal(t, 1, loads, "the second read comes from memory")
	_, err := db.write.Exec(`INSERT INTO tags (slug, name) VALUES ('chess', 'Chess')`)
	require.NoError(t, err)
	read()
	require.Equal(t, 1, loads, "control: a new tag leaves the catalog")
	_, err = db.write.Exec(`INSERT INTO venues (name, address, city, region, latitude, longitude)
		VALUES ('Hall', 'Street 1', 'Pasig', 'NCR', 14.5, 121.0)`)
	require.NoError(t, err)
	read()
	require.Equal(t, 2, loads, "read again after a venue was added")
}

// TestSeedDemo_NewRowsGetFreshIDs proves that after the demo data (inserted with ids of its own)
// a new organizer, venue and event get ids of their own, on both engines (PostgreSQL's identity
// sequences are moved past the demo ids).
func TestSeedDemo_NewRowsGetFreshIDs(t *testing.T) {
	f := newPurchaseFixture(t)
	ctx := context.Background()
	for _, insert := range []string{`INSERT INTO organizers (name) VALUES ('New Org')`,
		`INSERT INTO venues (name, address, city, region, latitude, longitude) VALUES ('New Hall', 'St', 'Cebu', 'VII', 10.3, 123.9)`} {
		id, err := insertID(ctx, f.db.write, insert)
		require.NoError(t, err, insert)
		require.Positive(t, id)
	}
}
