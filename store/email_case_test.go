package store

import (
	"context"
	"io/fs"
	"testing"

	"github.com/pressly/goose/v3"
	"github.com/stretchr/testify/require"

	"palaro"
	"palaro/internal/testdb"
)

// TestMigration_EmailCase starts from the schema before migration 00220, stores addresses that
// differ only in case, and checks that the migration makes them consistent and that the database
// then refuses a second account for the same address in another case.
func TestMigration_EmailCase(t *testing.T) {
	sqliteOnly(t, "upgrades a SQLite schema from before migration 00220; the PostgreSQL baseline starts after it")
	ctx := context.Background()
	db, err := Open(testdb.URL(t))
	require.NoError(t, err)
	t.Cleanup(func() { db.Close() })
	sub, err := fs.Sub(migrationFiles, "migrations")
	require.NoError(t, err)
	p, err := goose.NewProvider(goose.DialectSQLite3, db.write, sub, goose.WithAllowOutofOrder(true))
	require.NoError(t, err)
	_, err = p.UpTo(ctx, 219)
	require.NoError(t, err)
	for _, row := range [][2]string{{"Alice@Example.com", "+639170000001"}, {"ALICE@example.COM", "+639170000002"},
		{"Bob@Example.PH", "+639170000003"}, {"carol@example.ph", "+639170000004"}} {
		_, err := db.write.ExecContext(ctx, `INSERT INTO users (email, mobile_number) VALUES (?, ?)`, row[0], row[1])
		require.NoError(t, err)
	}
	require.NoError(t, db.Migrate(ctx))

	var emails []string
	rows, err := db.read.QueryContext(ctx, `SELECT email FROM users ORDER BY id`)
	require.NoError(t, err)
	for rows.Next() {
		var e string
		require.NoError(t, rows.Scan(&e))
		emails = append(emails, e)
	}
	require.NoError(t, rows.Err())
	require.Equal(t, []string{"alice@example.com", "alice@example.com#duplicate-2", "bob@example.ph", "carol@example.ph"}, emails,
		"lower-cased; the younger twin is set aside")

	_, err = db.write.ExecContext(ctx, `INSERT INTO users (email, mobile_number) VALUES ('CAROL@example.ph', '+639170000005')`)
	require.Error(t, err, "the unique index on the lowered address refuses another case")
	require.True(t, isUniqueViolation(err))

	s := NewAccountService(db, []byte("0123456789abcdef0123456789abcdef"), nil)
	_, err = s.SignUp(ctx, palaro.SignUp{Email: "BOB@example.ph", Password: "secret123", RepeatPassword: "secret123",
		FirstName: "Bob", LastName: "Cruz", MobileNumber: "09170000006", AcceptTerms: true})
	require.Equal(t, palaro.ECONFLICT, palaro.ErrorCode(err), "signing up again in another case is a conflict")
}
