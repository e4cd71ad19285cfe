package views

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestPlural_ConsoleAndGateTexts renders counts of one in the console's check-in counts and queue
// figures (singular), and of two (plural).
func TestPlural_ConsoleAndGateTexts(t *testing.T) {
	var b bytes.Buffer
	require.NoError(t, CheckInCounts(CheckInCountsView{Conflicts: 1}).Render(context.Background(), &b))
	require.Contains(t, b.String(), ">1 conflict<")
	b.Reset()
	require.NoError(t, CheckInCounts(CheckInCountsView{Conflicts: 2}).Render(context.Background(), &b))
	require.Contains(t, b.String(), ">2 conflicts<")
	b.Reset()
	require.NoError(t, OrgQueueFigures(OrgQueueStats{Rate: 1}).Render(context.Background(), &b))
	require.Contains(t, b.String(), "1 visitor a minute")
	b.Reset()
	require.NoError(t, OrgQueueFigures(OrgQueueStats{Rate: 30}).Render(context.Background(), &b))
	require.Contains(t, b.String(), "30 visitors a minute")
}

// TestPlural_NoBracketedPlurals finds no "(s)" plural, such as "conflict(s)", in the texts of the
// views, handlers, store, e-mails and islands.
func TestPlural_NoBracketedPlurals(t *testing.T) {
	bracketed := regexp.MustCompile("(^|[ >'\"`{])[a-z][a-z-]{3,}\\((s|es)\\)([ .,:…<'\"`}]|$)")
	var found []string
	for _, glob := range []string{"*.templ", "../handlers/*.go", "../store/*.go", "../notify/*.go", "../*.go", "../islands/*.tsx",
		"../islands/components/*.ts*", "../islands/lib/*.ts", "../islands/page/*.ts"} {
		files, err := filepath.Glob(glob)
		require.NoError(t, err)
		for _, f := range files {
			if strings.HasSuffix(f, "_test.go") {
				continue
			}
			b, err := os.ReadFile(f)
			require.NoError(t, err)
			for i, line := range strings.Split(string(b), "\n") {
				if bracketed.MatchString(line) && !strings.Contains(line, "http(s)") {
					found = append(found, fmt.Sprintf("%s:%d: %s", f, i+1, strings.TrimSpace(line)))
				}
			}
		}
	}
	require.Empty(t, found)
}

// TestOrgOrders_TicketCodesSeparated lists an order's ticket codes apart, with commas, not run together.
func TestOrgOrders_TicketCodesSeparated(t *testing.T) {
	var b bytes.Buffer
	codes := []string{"AAAA1111", "BBBB2222", "CCCC3333"}
	require.NoError(t, orgTicketCodes(codes).Render(context.Background(), &b))
	require.Regexp(t, `Tickets:\s*<code>AAAA1111</code>, <code>BBBB2222</code>, <code>CCCC3333</code>`, b.String())
	b.Reset()
	require.NoError(t, orgTicketCodes(codes[:1]).Render(context.Background(), &b))
	require.Regexp(t, `Ticket:\s*<code>AAAA1111</code></p>`, b.String())
}
