package main

import (
	"bytes"
	"context"
	"path/filepath"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/stretchr/testify/require"

	"palaro"
	"palaro/notify"
	"palaro/store"
)

// hostile is text a visitor can store through a purchase, a report or an e-mail: an ANSI colour
// escape, a right-to-left override, a C1 CSI, a bidi isolate and a byte that is not UTF-8.
const hostile = "evil\x1b[31m\u202egpj.exe\u009b2J\u2066\x7f\xff"

// requireTerminalSafe fails when out holds a control character other than line feeds (and the
// spaces tabwriter pads with), a bidirectional control or bytes that are not UTF-8.
func requireTerminalSafe(t *testing.T, out string) {
	t.Helper()
	require.True(t, utf8.ValidString(out), "output is not UTF-8: %q", out)
	for _, r := range out {
		require.False(t, r != '\n' && (isControl(r) || isBidiControl(r)), "raw %U in output: %q", r, out)
	}
}

func TestTermSafe(t *testing.T) {
	t.Run("OK", func(t *testing.T) {
		require.Equal(t, "Juan dela Cruz · ₱1,500 — 日本", termSafe("Juan dela Cruz · ₱1,500 — 日本"))
		require.Equal(t, `evil\x1b[31m\u202egpj.exe\x9b2J\u2066\x7f\xff`, termSafe(hostile))
		require.Equal(t, `a\x0ab\x09c\x0d\u200e\u200f\u061c\u2069\u202a`, termSafe("a\nb\tc\r\u200e\u200f\u061c\u2069\u202a"))
	})
}

// openDemoDB opens a fresh migrated database with the demo data seeded at now.
func openDemoDB(t *testing.T, now time.Time) *store.DB {
	t.Helper()
	return openDemoDBAt(t, filepath.Join(t.TempDir(), "palaro.db"), now)
}

// openDemoDBAt opens a fresh migrated database at path with the demo data seeded at now.
func openDemoDBAt(t *testing.T, path string, now time.Time) *store.DB {
	t.Helper()
	ctx := context.Background()
	db, err := store.Open(path)
	require.NoError(t, err)
	t.Cleanup(func() { db.Close() })
	require.NoError(t, db.Migrate(ctx))
	require.NoError(t, db.SeedDemo(ctx, now))
	return db
}

func TestOperator_EscapesWhatItPrints(t *testing.T) {
	ctx := context.Background()
	now := time.Date(2026, 11, 22, 9, 0, 0, 0, time.UTC)
	db := openDemoDB(t, now)
	db.Now = func() time.Time { return now }
	purchases := store.NewPurchaseService(db, nil, 15*time.Minute)
	outbox := store.NewOutboxService(db)

	t.Run("OK", func(t *testing.T) {
		email := "a" + hostile + "@x.ph"
		// Input rules refuse control characters now; rows stored before them may still hold some.
		o, err := purchases.CreateOrder(ctx, palaro.PurchaseRequest{TicketCode: "valorant-night-market-bgc-watch", Quantity: 1,
			Email: "op@x.ph", FullName: "Op", MobileNumber: "0917-000-0000"}, now)
		require.NoError(t, err)
		_, err = db.Writer().ExecContext(ctx, `UPDATE orders SET email = ? WHERE id = ?`, email, o.ID)
		require.NoError(t, err)
		require.NoError(t, outbox.Enqueue(ctx, palaro.Message{Kind: "test", To: email, Subject: "Hi " + hostile,
			Text: "line one " + hostile + "\nline two\t" + hostile}, now))
		r, err := store.NewAccountService(db, nil, nil).CreateReport(ctx, palaro.ProblemReport{Email: "r@x.ph",
			Name: "Reporter", Subject: "Subject", Message: "help"}, 0)
		require.NoError(t, err)
		_, err = db.Writer().ExecContext(ctx, `UPDATE problem_reports SET name = ?, subject = ?, message = ? WHERE id = ?`,
			hostile, hostile, "help "+hostile, r.ID)
		require.NoError(t, err)

		var out bytes.Buffer
		require.NoError(t, printOrders(ctx, &out, purchases, palaro.OrderFilter{}))
		require.Contains(t, out.String(), `\x1b[31m\u202e`)
		requireTerminalSafe(t, out.String())

		out.Reset()
		require.NoError(t, printOutbox(ctx, &out, outbox, palaro.OutboxFilter{}))
		require.Contains(t, out.String(), `Subject: Hi evil\x1b[31m\u202e`)
		require.Contains(t, out.String(), "    line two\\x09evil")
		requireTerminalSafe(t, out.String())

		out.Reset()
		require.NoError(t, listReports(ctx, db, &out))
		require.Contains(t, out.String(), `\u202e`)
		requireTerminalSafe(t, out.String())

		composer := notify.NewComposer("http://palaro.test", "")
		_, err = store.NewAccountService(db, nil, composer).SignUpOrganizer(ctx, palaro.OrganizerSignUp{Email: "org@x.ph",
			Username: "evilorg", Name: "Org Owner", Organization: "Org Placeholder", MobileNumber: "09171234999"})
		require.NoError(t, err)
		// The input rules refuse such names now; rows stored before them may still hold them.
		_, err = db.Writer().ExecContext(ctx, `UPDATE users SET first_name = ?, organization = ? WHERE email = 'org@x.ph'`,
			"Org "+hostile, "Org "+hostile)
		require.NoError(t, err)
		_, err = db.Writer().ExecContext(ctx, `UPDATE organizers SET name = ? WHERE name = 'Org Placeholder'`, "Org "+hostile)
		require.NoError(t, err)
		organizers := store.NewOrganizerService(db, composer)
		out.Reset()
		require.NoError(t, organizersCommand(ctx, &out, organizers, []string{"--pending"}))
		require.Contains(t, out.String(), `Org evil\x1b[31m\u202e`)
		requireTerminalSafe(t, out.String())
		out.Reset()
		require.NoError(t, organizersCommand(ctx, &out, organizers, []string{"approve", "org@x.ph"}))
		require.Contains(t, out.String(), "Approved Org evil")
		requireTerminalSafe(t, out.String())
		out.Reset()
		require.NoError(t, tokensCommand(ctx, &out, organizers, []string{"create", "--organizer", "org@x.ph"}))
		require.Contains(t, out.String(), "for Org evil")
		requireTerminalSafe(t, out.String())
	})
}
