// Package testdb gives each test a database of its own: a SQLite file in the test's temporary
// folder, or, when PALARO_TEST_POSTGRES holds the URL of a PostgreSQL cluster (scripts/pgtest.sh
// starts a throwaway one), a new empty database in that cluster, dropped when the test ends.
package testdb

import (
	"context"
	"crypto/rand"
	"database/sql"
	"encoding/hex"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	_ "github.com/jackc/pgx/v5/stdlib" // the "pgx" driver, for the cluster's admin connection
)

// EnvVar names the environment variable that selects PostgreSQL for the tests.
const EnvVar = "PALARO_TEST_POSTGRES"

var (
	adminOnce sync.Once
	admin     *sql.DB
	adminErr  error
)

// Postgres reports whether the tests run on PostgreSQL.
func Postgres() bool { return os.Getenv(EnvVar) != "" }

// URL returns what PALARO_DB would hold for a fresh database of t's own: a file path in t's
// temporary folder, or the URL of a new PostgreSQL database.
func URL(t testing.TB) string {
	t.Helper()
	base := os.Getenv(EnvVar)
	if base == "" {
		return filepath.Join(t.TempDir(), "palaro.db")
	}
	if !strings.HasPrefix(base, "postgres://") && !strings.HasPrefix(base, "postgresql://") {
		t.Fatalf("%s must be a postgres:// URL (scripts/pgtest.sh sets it), not %q", EnvVar, base)
	}
	adminOnce.Do(func() {
		admin, adminErr = sql.Open("pgx", base)
		if adminErr == nil {
			admin.SetMaxOpenConns(4)
			adminErr = admin.Ping()
		}
	})
	if adminErr != nil {
		t.Fatalf("PostgreSQL at %s: %v", EnvVar, adminErr)
	}
	b := make([]byte, 8)
	rand.Read(b)
	name := "t_" + hex.EncodeToString(b)
	if _, err := admin.Exec(`CREATE DATABASE ` + name); err != nil {
		t.Fatalf("create test database: %v", err)
	}
	// Registered before the test's own cleanups, so it runs after them (after the store is closed).
	t.Cleanup(func() {
		if _, err := admin.ExecContext(context.Background(), `DROP DATABASE `+name+` WITH (FORCE)`); err != nil {
			t.Errorf("drop test database %s: %v", name, err)
		}
	})
	u, err := url.Parse(base)
	if err != nil {
		t.Fatalf("%s: %v", EnvVar, err)
	}
	u.Path = "/" + name
	return u.String()
}
