package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"text/tabwriter"

	"palaro/store"
)

// runBackup copies the database at dbPath, which may be serving at the same time, to the file
// args names (which must not exist), checks the copy and prints its size and table counts. It opens the
// database without migrating it, so a backup taken before an upgrade is the old schema.
func runBackup(ctx context.Context, w io.Writer, dbPath string, args []string) error {
	if len(args) != 1 || args[0] == "" || args[0][0] == '-' {
		return errors.New("backup: give the one file to write, e.g. palaro backup backups/palaro-$(date +%F).db")
	}
	target := args[0]
	if store.IsPostgresURL(dbPath) {
		return fmt.Errorf("backup: PALARO_DB is a PostgreSQL database; back it up with pg_dump or the server's base backups")
	}
	if _, err := os.Stat(dbPath); err != nil {
		return fmt.Errorf("backup: the database %s: %w", dbPath, err)
	}
	db, err := store.Open(dbPath)
	if err != nil {
		return err
	}
	defer db.Close()
	info, err := db.Backup(ctx, target)
	if err != nil {
		return err
	}
	fmt.Fprintf(w, "Backed up %s to %s: %s (%d bytes), integrity_check ok.\n", termSafe(dbPath), termSafe(info.Path),
		humanBytes(info.Bytes), info.Bytes)
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	for _, tc := range info.Tables {
		fmt.Fprintf(tw, "  %s\t%d\n", tc.Table, tc.Rows)
	}
	return tw.Flush()
}

// humanBytes renders a size in B, KB, MB or GB (powers of 1024).
func humanBytes(n int64) string {
	const unit = 1024
	if n < unit {
		return fmt.Sprintf("%d B", n)
	}
	v, suffix := float64(n)/unit, "KB"
	for _, s := range []string{"MB", "GB", "TB"} {
		if v < unit {
			break
		}
		v, suffix = v/unit, s
	}
	return fmt.Sprintf("%.1f %s", v, suffix)
}
