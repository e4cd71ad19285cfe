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

// migrateUpTo runs the migrations of db's engine up to version (as Migrate does, without the rest).
func migrateUpTo(t *testing.T, db *DB, version int64) {
	t.Helper()
	ctx := context.Background()
	conn, dir, dialect, opts := db.write, "migrations", goose.DialectSQLite3, []goose.ProviderOption{goose.WithAllowOutofOrder(true),
		goose.WithGoMigrations(sqliteGoMigrations...)}
	if db.postgres {
		plain, err := openPostgresPlain(db.path)
		require.NoError(t, err)
		t.Cleanup(func() { plain.Close() })
		conn, dir, dialect, opts = plain, "migrations_postgres", goose.DialectPostgres, []goose.ProviderOption{goose.WithAllowOutofOrder(true)}
	}
	sub, err := fs.Sub(migrationFiles, dir)
	require.NoError(t, err)
	p, err := goose.NewProvider(dialect, conn, sub, opts...)
	require.NoError(t, err)
	_, err = p.UpTo(ctx, version)
	require.NoError(t, err)
}

// TestMigration_NewsOrganization starts before migration 00810, when an article's owner was the
// author's name, and checks that each article goes to the one approved organization of that name
// that could have written it, and that the operator's articles (and any whose name is ambiguous
// or whose organization came later) stay the operator's, on either engine.
func TestMigration_NewsOrganization(t *testing.T) {
	ctx := context.Background()
	db, err := Open(testdb.URL(t))
	require.NoError(t, err)
	t.Cleanup(func() { db.Close() })
	migrateUpTo(t, db, 809)
	for _, q := range []string{
		`INSERT INTO organizers (id, name, status, created_at, approved_at) VALUES (1, 'Kalaro Events', 'approved', '2026-01-01T00:00:00Z', '2026-01-02T00:00:00Z')`,
		`INSERT INTO organizers (id, name, status, created_at, approved_at) VALUES (2, 'Twin Co.', 'approved', '2026-01-01T00:00:00Z', '2026-01-02T00:00:00Z')`,
		`INSERT INTO organizers (id, name, status, created_at, approved_at) VALUES (3, 'Twin Co.', 'approved', '2026-01-01T00:00:00Z', '2026-01-02T00:00:00Z')`,
		// registered under the operator's author name after its articles were published
		`INSERT INTO organizers (id, name, status, created_at, approved_at) VALUES (4, 'Palaro team', 'approved', '2026-06-01T00:00:00Z', '2026-06-02T00:00:00Z')`,
		`INSERT INTO organizers (id, name, status, created_at) VALUES (5, 'Pending Co.', 'pending', '2026-01-01T00:00:00Z')`,
	} {
		_, err := db.write.ExecContext(ctx, q)
		require.NoError(t, err, q)
	}
	for _, a := range [][3]string{
		{"kalaro-news", "Kalaro Events", "2026-03-01T00:00:00Z"},
		{"twin-news", "Twin Co.", "2026-03-01T00:00:00Z"},
		{"operator-news", "Palaro team", "2026-03-01T00:00:00Z"},
		{"pending-news", "Pending Co.", "2026-03-01T00:00:00Z"},
		{"nobody-news", "Palaro", "2026-03-01T00:00:00Z"},
	} {
		_, err := db.write.ExecContext(ctx, `INSERT INTO news_articles (slug, title, author, published_at, updated_at) VALUES (?, ?, ?, ?, ?)`,
			a[0], a[0], a[1], a[2], a[2])
		require.NoError(t, err)
	}
	require.NoError(t, db.Migrate(ctx))

	news := NewNewsService(db)
	owners := map[string]int64{}
	all, err := news.ArticlesBy(ctx, 0)
	require.NoError(t, err)
	for _, a := range all {
		owners[a.Slug] = a.OrganizationID
	}
	require.Equal(t, map[string]int64{"kalaro-news": 1, "twin-news": 0, "operator-news": 0, "pending-news": 0, "nobody-news": 0}, owners)

	_, err = news.SaveArticle(ctx, palaro.Article{Slug: "operator-news", Title: "Taken over", Author: "Palaro team", OrganizationID: 4})
	require.Equal(t, palaro.ECONFLICT, palaro.ErrorCode(err), "an organization cannot save over the operator's article")
	_, err = news.SaveArticle(ctx, palaro.Article{Slug: "kalaro-news", Title: "Taken over", Author: "Kalaro Events"})
	require.Equal(t, palaro.ECONFLICT, palaro.ErrorCode(err), "nor can a save without the owner's id")
	saved, err := news.SaveArticle(ctx, palaro.Article{Slug: "kalaro-news", Title: "Edited", Author: "Kalaro Events", OrganizationID: 1})
	require.NoError(t, err)
	require.Equal(t, "Edited", saved.Title)
	mine, err := news.ArticlesBy(ctx, 1)
	require.NoError(t, err)
	require.Len(t, mine, 1)
	require.Equal(t, "kalaro-news", mine[0].Slug)
}
