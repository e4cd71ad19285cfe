package main

import (
	"context"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"
	"time"

	"palaro"
	"palaro/store"
)

// listReports prints the problem reports, newest first.
func listReports(ctx context.Context, db *store.DB, w io.Writer) error {
	reports, err := store.NewAccountService(db, nil, nil).ListReports(ctx)
	if err != nil {
		return err
	}
	if len(reports) == 0 {
		_, err := fmt.Fprintln(w, "No reports.")
		return err
	}
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "REFERENCE\tSENT (MANILA)\tE-MAIL\tNAME\tSUBJECT\tMESSAGE")
	for _, r := range reports {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\n", termSafe(r.Reference), r.CreatedAt.In(palaro.Manila).Format(time.DateTime),
			oneLine(r.Email, 40), oneLine(r.Name, 30), oneLine(r.Subject, 40), oneLine(r.Message, 80))
	}
	return tw.Flush()
}

// oneLine flattens s to one line of at most n characters (line breaks and tabs become spaces),
// with any other control or bidirectional character escaped by termSafe.
func oneLine(s string, n int) string {
	s = strings.NewReplacer("\r\n", " ", "\n", " ", "\r", " ", "\t", " ").Replace(s)
	if r := []rune(s); len(r) > n {
		s = string(r[:n-1]) + "…"
	}
	return termSafe(s)
}
