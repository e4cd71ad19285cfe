package e2e

import (
	"testing"

	"palaro/internal/testdb"
)

// testDatabase returns the new database of a multi-server test: PostgreSQL in the PostgreSQL pass
// of go tool task test, else a SQLite file.
func testDatabase(t *testing.T) string {
	t.Helper()
	return testdb.URL(t)
}
