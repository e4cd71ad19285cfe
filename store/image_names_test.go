package store

import (
	"context"
	"io/fs"
	"regexp"
	"testing"

	"github.com/pressly/goose/v3"
	"github.com/pressly/goose/v3/lock"
	"github.com/stretchr/testify/require"

	"palaro/internal/testdb"
)

// TestMigration_ImageNames starts from the schema before migration 00860 with an uploaded cover
// (two widths) and prize picture at their sequential URLs, then migrates: each gets a random name,
// the event and the prize show the new URLs, the old ones find nothing, and both widths of the
// cover share the name. On both engines.
func TestMigration_ImageNames(t *testing.T) {
	ctx := context.Background()
	db, err := Open(testdb.URL(t))
	require.NoError(t, err)
	t.Cleanup(func() { db.Close() })
	conn, dir, dialect, opts := db.write, "migrations", goose.DialectSQLite3, []goose.ProviderOption{goose.WithAllowOutofOrder(true),
		goose.WithGoMigrations(sqliteGoMigrations...)}
	if db.postgres {
		plain, err := openPostgresPlain(db.path)
		require.NoError(t, err)
		t.Cleanup(func() { plain.Close() })
		locker, err := lock.NewPostgresSessionLocker()
		require.NoError(t, err)
		conn, dir, dialect, opts = plain, "migrations_postgres", goose.DialectPostgres, []goose.ProviderOption{goose.WithAllowOutofOrder(true),
			goose.WithSessionLocker(locker)}
	}
	sub, err := fs.Sub(migrationFiles, dir)
	require.NoError(t, err)
	p, err := goose.NewProvider(dialect, conn, sub, opts...)
	require.NoError(t, err)
	_, err = p.UpTo(ctx, 859)
	require.NoError(t, err)

	exec := func(q string, args ...any) {
		t.Helper()
		_, err := db.write.ExecContext(ctx, q, args...)
		require.NoError(t, err, q)
	}
	exec(`INSERT INTO organizers (id, name, email, url) VALUES (1, 'Org', 'org@x.ph', 'https://x.ph')`)
	exec(`INSERT INTO venues (id, name, address, city, region, latitude, longitude) VALUES (1, 'Hall', 'St', 'Pasay', 'NCR', 14.5, 121.0)`)
	exec(`INSERT INTO events (id, code, name, summary, description, starts_at, ends_at, image_url, status, popularity, venue_id,
		organizer_id, required_fields, survey_question, survey_answers) VALUES (1, 'draft-ev', 'Draft', '', '', '2026-05-01T10:00:00Z',
		'2026-05-01T12:00:00Z', '/event-images/3-800.jpg', 'draft', 0, 1, 1, '', '', '')`)
	exec(`INSERT INTO events (id, code, name, summary, description, starts_at, ends_at, image_url, status, popularity, venue_id,
		organizer_id, required_fields, survey_question, survey_answers) VALUES (2, 'other-ev', 'Other', '', '', '2026-05-01T10:00:00Z',
		'2026-05-01T12:00:00Z', 'img/events/moba.svg', 'scheduled', 0, 1, 1, '', '', '')`)
	for _, width := range []int{800, 400} {
		exec(`INSERT INTO event_images (version, width, event_id, content_type, data, created_at) VALUES (3, ?, 1, 'image/jpeg', ?, '2026-03-01T00:00:00Z')`,
			width, []byte{byte(width / 100)})
	}
	exec(`INSERT INTO prize_images (id, event_id, content_type, data, created_at) VALUES (7, 1, 'image/png', ?, '2026-03-01T00:00:00Z')`, []byte{7})
	exec(`INSERT INTO activities (id, event_id, code, kind, name, description, points, starts_at, ends_at, ticket_holders_only, win_percent,
		quiz, created_at) VALUES (1, 1, 'scratch', 'scratch', 'Scratch', '', 10, '2026-05-01T10:00:00Z', '2026-05-01T12:00:00Z', 0, 50, '', '2026-03-01T00:00:00Z')`)
	exec(`INSERT INTO prizes (activity_id, position, code, name, image_url, stock, claimable) VALUES (1, 0, 'mug', 'Mug', '/prize-images/7.png', 5, 1)`)
	exec(`INSERT INTO prizes (activity_id, position, code, name, image_url, stock, claimable) VALUES (1, 1, 'cap', 'Cap', 'img/prizes/cap.svg', 5, 1)`)

	require.NoError(t, db.Migrate(ctx))

	var cover, other, mug, cap string
	require.NoError(t, db.read.QueryRowContext(ctx, `SELECT image_url FROM events WHERE id = 1`).Scan(&cover))
	require.NoError(t, db.read.QueryRowContext(ctx, `SELECT image_url FROM events WHERE id = 2`).Scan(&other))
	require.NoError(t, db.read.QueryRowContext(ctx, `SELECT image_url FROM prizes WHERE code = 'mug'`).Scan(&mug))
	require.NoError(t, db.read.QueryRowContext(ctx, `SELECT image_url FROM prizes WHERE code = 'cap'`).Scan(&cap))
	m := regexp.MustCompile(`^/event-images/([0-9a-f]{32})-800\.jpg$`).FindStringSubmatch(cover)
	require.NotNil(t, m, cover)
	require.Equal(t, "img/events/moba.svg", other, "a built-in picture stays")
	pm := regexp.MustCompile(`^/prize-images/([0-9a-f]{32})\.png$`).FindStringSubmatch(mug)
	require.NotNil(t, pm, mug)
	require.Equal(t, "img/prizes/cap.svg", cap)

	o := NewOrganizerService(db, nil)
	for width, want := range map[int]byte{800: 8, 400: 4} {
		data, err := o.FindEventImage(ctx, m[1], width)
		require.NoError(t, err, "both widths under the cover's name")
		require.Equal(t, []byte{want}, data)
	}
	data, err := NewActivityService(db).FindPrizeImage(ctx, pm[1])
	require.NoError(t, err)
	require.Equal(t, []byte{7}, data)
	_, err = o.FindEventImage(ctx, "3", 800)
	require.Error(t, err, "the sequential name finds nothing")
	var names int
	require.NoError(t, db.read.QueryRowContext(ctx, `SELECT count(*) FROM event_images WHERE name IS NULL`).Scan(&names))
	require.Zero(t, names)
}
