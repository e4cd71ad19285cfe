package store

import (
	"testing"

	"palaro/internal/testdb"
)

// testPostgresDSN returns a new PostgreSQL database of the test's own for a test of
// PostgreSQL-only behaviour; without a cluster the test is skipped (it runs in the PostgreSQL pass
// of go tool task test).
func testPostgresDSN(t *testing.T) string {
	t.Helper()
	if !testdb.Postgres() {
		t.Skip("PostgreSQL only: runs in the PostgreSQL pass of go tool task test (" + testdb.EnvVar + ")")
	}
	return testdb.URL(t)
}

// testDatabaseURL returns the new database a test copies into: PostgreSQL in the PostgreSQL pass,
// else a SQLite file.
func testDatabaseURL(t *testing.T) string {
	t.Helper()
	return testdb.URL(t)
}
