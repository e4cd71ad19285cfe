package store

import (
	"context"
	"crypto/sha256"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"palaro"
)

// Rewrite the golden dump of the demo data after a deliberate change to it:
// go test ./store -run TestSeedDemo_Golden -update-seed
var updateSeed = flag.Bool("update-seed", false, "rewrite store/testdata/demo_seed.golden from a fresh demo seed")

// demoGoldenNow is the fixed clock of the golden dump: Wednesday 18 March 2026, 10:00 in Manila.
var demoGoldenNow = time.Date(2026, 3, 18, 10, 0, 0, 0, palaro.Manila)

// dumpVolatile are the columns left out of a dump: random ids, ticket codes, password hashes and
// generated secrets, and the times the database itself sets from the wall clock (column defaults).
// They differ on every run; every other column is a function of the demo data and the seed's clock.
var dumpVolatile = map[string][]string{
	"app_secrets":  {"value", "created_at"},
	"events":       {"created_at", "updated_at"},
	"gate_changes": {"xid"}, // PostgreSQL's: the writing transaction's id
	"invoices":     {"public_id"},
	"orders":       {"public_id"},
	"organizers":   {"created_at"},
	"participants": {"public_id"},
	"promo_codes":  {"created_at"},
	"tickets":      {"public_id", "code"},
	"users":        {"password_hash"},
}

// dumpRowsInFull is the most rows a table of a dump lists one by one: a larger one (the bulk orders,
// tickets and seats the loader generates) is written as its row count and the SHA-256 of its
// rows, so that the golden file stays small enough to read.
const dumpRowsInFull = 500

// dumpDB writes every table of db as canonical text, the same on both engines: tables by name,
// columns by name, each row on one line as col=value, rows sorted (a table of more than
// dumpRowsInFull rows as their count and digest); the dumpVolatile columns are left out.
func dumpDB(t *testing.T, db *DB) string {
	t.Helper()
	ctx := context.Background()
	tables, err := db.tableNames(ctx)
	require.NoError(t, err)
	var b strings.Builder
	for _, table := range tables {
		cols, err := db.columnNames(ctx, table)
		require.NoError(t, err)
		cols = slices.DeleteFunc(cols, func(c string) bool { return slices.Contains(dumpVolatile[table], c) })
		slices.Sort(cols)
		rows, err := db.read.QueryContext(ctx, `SELECT `+strings.Join(cols, ", ")+` FROM `+table)
		require.NoError(t, err)
		var lines []string
		for rows.Next() {
			vals := make([]any, len(cols))
			ptrs := make([]any, len(cols))
			for i := range vals {
				ptrs[i] = &vals[i]
			}
			require.NoError(t, rows.Scan(ptrs...))
			fields := make([]string, len(cols))
			for i, c := range cols {
				fields[i] = c + "=" + dumpValue(vals[i])
			}
			lines = append(lines, strings.Join(fields, " "))
		}
		require.NoError(t, rows.Err())
		rows.Close()
		slices.Sort(lines)
		if len(lines) > dumpRowsInFull {
			sum := sha256.Sum256([]byte(strings.Join(lines, "\n")))
			fmt.Fprintf(&b, "## %s (%d rows, sha256 %x)\n", table, len(lines), sum)
			continue
		}
		fmt.Fprintf(&b, "## %s (%d rows)\n", table, len(lines))
		for _, l := range lines {
			b.WriteString(l)
			b.WriteByte('\n')
		}
	}
	return b.String()
}

// dumpValue writes one value of a dumped row the same way whichever driver scanned it.
func dumpValue(v any) string {
	switch v := v.(type) {
	case nil:
		return "NULL"
	case []byte:
		return strconv.Quote(string(v))
	case string:
		return strconv.Quote(v)
	case int64:
		return strconv.FormatInt(v, 10)
	case int32:
		return strconv.FormatInt(int64(v), 10)
	case float64:
		return strconv.FormatFloat(v, 'g', -1, 64)
	case bool:
		if v {
			return "1"
		}
		return "0"
	case time.Time:
		return formatTime(v)
	default:
		return fmt.Sprintf("%T(%v)", v, v)
	}
}

// TestSeedDemo_Golden proves that the demo data loads into the same database as the golden dump,
// on both engines: every table, row by row, at a fixed clock (the random ids and codes aside).
func TestSeedDemo_Golden(t *testing.T) {
	db := openTestDB(t)
	require.NoError(t, db.SeedDemo(context.Background(), demoGoldenNow))
	got := dumpDB(t, db)
	hashes, err := queryStrings(context.Background(), db.read, `SELECT password_hash FROM users`)
	require.NoError(t, err)
	for _, h := range hashes { // the one column left out that decides whether the demo accounts work
		require.True(t, palaro.CheckPassword(h, DemoOrganizerPassword), "every demo account has the demo password")
	}
	file := filepath.Join("testdata", "demo_seed.golden")
	if *updateSeed {
		require.NoError(t, os.MkdirAll("testdata", 0o755))
		require.NoError(t, os.WriteFile(file, []byte(got), 0o644))
		return
	}
	want, err := os.ReadFile(file)
	require.NoError(t, err, "run go test ./store -run TestSeedDemo_Golden -update-seed")
	if string(want) != got {
		t.Fatalf("the demo seed differs from %s (rerun with -update-seed only for a deliberate change): %s",
			file, firstDifference(string(want), got))
	}
}

// TestSeedOffset: the relative times of the demo files, calendar units and durations.
func TestSeedOffset(t *testing.T) {
	base := time.Date(2024, 1, 31, 10, 30, 0, 0, palaro.Manila)
	for offset, want := range map[string]time.Time{
		"-1d":  time.Date(2024, 1, 30, 10, 30, 0, 0, palaro.Manila),
		"7d":   time.Date(2024, 2, 7, 10, 30, 0, 0, palaro.Manila),
		"-1mo": time.Date(2023, 12, 31, 10, 30, 0, 0, palaro.Manila),
		"1y":   time.Date(2025, 1, 31, 10, 30, 0, 0, palaro.Manila),
		"-2h":  time.Date(2024, 1, 31, 8, 30, 0, 0, palaro.Manila),
		"90m":  time.Date(2024, 1, 31, 12, 0, 0, 0, palaro.Manila),
	} {
		got, err := seedOffset(base, offset)
		require.NoError(t, err, offset)
		require.True(t, want.Equal(got), "%s: %v", offset, got)
	}
	for _, bad := range []string{"", "d", "1w", "tomorrow"} {
		_, err := seedOffset(base, bad)
		require.Error(t, err, bad)
	}
}
