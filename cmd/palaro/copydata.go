package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"text/tabwriter"

	"palaro/internal/app"
	"palaro/store"
)

// runCopyData copies every table of the database --from (a SQLite file or a postgres:// URL) into
// the database --to, which must be new or empty: the way a venue moves from SQLite to PostgreSQL
// (and back). Both are migrated first; the source is read in one snapshot; the counts of every
// table are checked and printed.
func runCopyData(ctx context.Context, w io.Writer, args []string) error {
	fs := flag.NewFlagSet("copy-data", flag.ContinueOnError)
	fs.SetOutput(w)
	from := fs.String("from", "", "the database to copy: a SQLite file or a postgres:// URL")
	to := fs.String("to", "", "the new, empty database to copy into: a SQLite file or a postgres:// URL")
	if err := fs.Parse(args); err != nil {
		return err
	}
	switch {
	case *from == "" || *to == "" || fs.NArg() > 0:
		return errors.New("copy-data: give --from DATABASE --to DATABASE (a SQLite file or a postgres:// URL each)")
	case *from == *to:
		return errors.New("copy-data: --from and --to are the same database")
	}
	if !store.IsPostgresURL(*from) {
		if _, err := os.Stat(*from); err != nil {
			return fmt.Errorf("copy-data: the source %s: %w", *from, err)
		}
	}
	src, err := app.OpenDB(ctx, app.Config{DBPath: *from})
	if err != nil {
		return fmt.Errorf("copy-data: the source: %w", err)
	}
	defer src.Close()
	dst, err := app.OpenDB(ctx, app.Config{DBPath: *to})
	if err != nil {
		return fmt.Errorf("copy-data: the target: %w", err)
	}
	defer dst.Close()
	report, err := store.CopyData(ctx, src, dst)
	if err != nil {
		return fmt.Errorf("copy-data: %w", err)
	}
	var rows int64
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "  table\tsource\ttarget")
	for _, t := range report {
		fmt.Fprintf(tw, "  %s\t%d\t%d\n", t.Name, t.Source, t.Target)
		rows += t.Target
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	fmt.Fprintf(w, "Copied %d tables, %d rows, from %s to %s; every count matches.\n", len(report), rows,
		termSafe(store.DisplayName(*from)), termSafe(store.DisplayName(*to)))
	return nil
}
