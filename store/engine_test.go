package store

import (
	"testing"

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
