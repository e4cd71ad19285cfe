package store

import (
	"os"
	"path/filepath"
	"testing"
)

// postgresEnv holds the URL of the PostgreSQL cluster the tests may use (go tool task test starts
// a throwaway one).
const postgresEnv = "PALARO_TEST_POSTGRES"

// testPostgresDSN returns the PostgreSQL cluster's URL for a test of PostgreSQL-only behaviour;
// without one the test is skipped (it runs in the PostgreSQL pass of go tool task test).
func testPostgresDSN(t *testing.T) string {
	t.Helper()
	dsn := os.Getenv(postgresEnv)
	if dsn == "" {
		t.Skip("PostgreSQL only: runs in the PostgreSQL pass of go tool task test (" + postgresEnv + ")")
	}
	return dsn
}

// testDatabaseURL returns the database a test copies into: the PostgreSQL cluster's when there is
// one, else a new SQLite file.
func testDatabaseURL(t *testing.T) string {
	t.Helper()
	if dsn := os.Getenv(postgresEnv); dsn != "" {
		return dsn
	}
	return filepath.Join(t.TempDir(), "copy.db")
}
