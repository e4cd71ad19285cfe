package main

import (
	"os"
	"path/filepath"
	"testing"
)

// testDatabase returns the database of a multi-server test: the PostgreSQL cluster's when
// PALARO_TEST_POSTGRES names one (go tool task test starts a throwaway one), else a SQLite file.
func testDatabase(t *testing.T) string {
	t.Helper()
	if dsn := os.Getenv("PALARO_TEST_POSTGRES"); dsn != "" {
		return dsn
	}
	return filepath.Join(t.TempDir(), "palaro.db")
}
