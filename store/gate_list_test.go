package store

import (
	"context"
	"fmt"
	"sort"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"palaro"
	"palaro/internal/testdb"
)

// issueTickets issues n paid tickets of the fixture's event in bulk (IssueGateTickets) and returns their codes.
func issueTickets(t *testing.T, f *gateFixture, typeCode string, n int) []string {
	t.Helper()
	codes, err := f.db.IssueGateTickets(context.Background(), "tekken-tuesdays-cubao", typeCode, n, f.now)
	require.NoError(t, err)
	return codes
}

// requireDelta checks delta d, asked for with the version of list prev, and returns the whole
// list read after it (of the series date f.date, when set). Applied to prev (the voided codes out, each ticket put in its place) d gives
// that whole list, and it carries every ticket of want. On SQLite it carries nothing else; a
// PostgreSQL delta may repeat tickets that changed while an older transaction anywhere in the
// cluster was still open (gateAfter: other test packages share the cluster), so there only the
// whole-list equality says the repeats are the tickets as they are.
func requireDelta(t *testing.T, f *gateFixture, prev []palaro.GateTicket, d *palaro.GateChanges, want ...string) []palaro.GateTicket {
	t.Helper()
	require.True(t, d.Delta)
	now, err := f.gate.GateChanges(context.Background(), f.eventID, f.date, -1)
	require.NoError(t, err)
	list := map[string]palaro.GateTicket{}
	for _, tk := range prev {
		list[tk.Code] = tk
	}
	for _, code := range d.Voided {
		delete(list, code)
	}
	var got []string
	for _, tk := range d.Tickets {
		list[tk.Code] = tk
		got = append(got, tk.Code)
	}
	applied := make([]palaro.GateTicket, 0, len(list))
	for _, tk := range list {
		applied = append(applied, tk)
	}
	sort.Slice(applied, func(i, j int) bool { return applied[i].Code < applied[j].Code })
	whole := append([]palaro.GateTicket{}, now.Tickets...)
	sort.Slice(whole, func(i, j int) bool { return whole[i].Code < whole[j].Code })
	require.Equal(t, whole, applied, "the list and its delta make the whole list")
	if testdb.Postgres() {
		require.Subset(t, got, want, "every changed ticket is in the delta")
	} else {
		require.ElementsMatch(t, want, got, "only what changed")
	}
	return now.Tickets
}

// TestCheckInService_SixtyGates: 60 gates scan at once, each a third of 120 tickets, so every ticket
// is scanned at 20 gates: each is let in exactly once, the others hear "already checked in", and
// one check-in is recorded per ticket. On both engines (PALARO_TEST_POSTGRES).
func TestCheckInService_SixtyGates(t *testing.T) {
	const gates, tickets = 60, 120
	f := newGateFixture(t, 1)
	codes := issueTickets(t, f, "stadium", tickets)
	var admitted [tickets]atomic.Int64
	var already atomic.Int64
	storm(gates, func(g int) int {
		for k := range tickets {
			i := (k + g*7) % tickets // each gate starts elsewhere
			if (i+g)%3 != 0 {
				continue
			}
			res, err := f.gate.CheckIn(context.Background(), palaro.CheckInRequest{EventID: f.eventID, Code: codes[i],
				Gate: fmt.Sprintf("Gate %d", g), Actor: "gate@palaro.ph"})
			if err != nil {
				t.Error(err)
				return 0
			}
			switch res.Outcome {
			case palaro.CheckInOK:
				admitted[i].Add(1)
			case palaro.CheckInAlready:
				already.Add(1)
			default:
				t.Errorf("ticket %s: %s", codes[i], res.Outcome)
			}
		}
		return 0
	})
	for i := range admitted {
		require.Equal(t, int64(1), admitted[i].Load(), "ticket %s is let in once", codes[i])
	}
	require.Equal(t, int64(gates*tickets/3-tickets), already.Load(), "every other scan hears it is in already")
	require.Equal(t, tickets, f.countRows(t, `SELECT COUNT(*) FROM check_ins c JOIN tickets t ON t.id = c.ticket_id
		WHERE t.code LIKE 'STAD%' AND c.outcome = 'checked_in'`), "one check-in recorded per ticket")
	require.Equal(t, tickets, f.countRows(t, `SELECT COUNT(*) FROM tickets WHERE code LIKE 'STAD%' AND status = 'checked_in'`))
}

// TestGateChanges_OutOfOrderCommit: on PostgreSQL a transaction that drew an earlier gate_changes
// id can commit after one that drew a later id. A list read between the two commits must not
// hand out a version past the uncommitted change: the next delta carries it. (Before, the version
// was the largest id seen, and this change was missed by every delta.) SQLite has one writer at a
// time, so its ids are taken in commit order and this cannot happen there.
func TestGateChanges_OutOfOrderCommit(t *testing.T) {
	if !testdb.Postgres() {
		t.Skip("PostgreSQL only: SQLite commits one writer at a time")
	}
	ctx := context.Background()
	f := newGateFixture(t, 1)
	codes := issueTickets(t, f, "order", 2)
	slow, err := f.db.write.BeginTx(ctx, nil)
	require.NoError(t, err)
	defer slow.Rollback()
	_, err = slow.ExecContext(ctx, `UPDATE tickets SET holder_name = 'Slow Writer' WHERE code = ?`, codes[0])
	require.NoError(t, err)
	var slowID int64
	require.NoError(t, slow.QueryRowContext(ctx, `SELECT MAX(id) FROM gate_changes`).Scan(&slowID))

	other, err := Open(f.db.path) // another app server on the same database
	require.NoError(t, err)
	defer other.Close()
	_, err = other.write.ExecContext(ctx, `UPDATE tickets SET holder_name = 'Fast Writer' WHERE code = ?`, codes[1])
	require.NoError(t, err)
	var fastID int64
	require.NoError(t, other.read.QueryRowContext(ctx, `SELECT MAX(id) FROM gate_changes`).Scan(&fastID))
	require.Greater(t, fastID, slowID, "the condition: the later id commits first")

	list, err := f.gate.GateChanges(ctx, f.eventID, "", -1)
	require.NoError(t, err)
	require.NoError(t, slow.Commit())

	d, err := f.gate.GateChanges(ctx, f.eventID, "", list.Version)
	require.NoError(t, err)
	require.True(t, d.Delta)
	var got []string
	for _, tk := range d.Tickets {
		got = append(got, tk.Code+" "+tk.HolderName)
	}
	require.Contains(t, got, codes[0]+" Slow Writer", "the change committed late is in the delta")
	current := requireDelta(t, f, list.Tickets, d, codes[0])
	next, err := f.gate.GateChanges(ctx, f.eventID, "", d.Version)
	require.NoError(t, err)
	// what it repeats depends on the transactions open in the whole cluster (other packages' tests)
	requireDelta(t, f, current, next)
}

// TestGateChanges_NewTicketsAndPruning: a ticket issued paid (a free order) comes in the delta;
// pruning deletes the changes older than what it keeps, and a phone whose version is older than
// that gets the whole list while a phone within it still gets an exact delta. Both engines.
func TestGateChanges_NewTicketsAndPruning(t *testing.T) {
	ctx := context.Background()
	f := newGateFixture(t, 2)
	old, err := f.gate.GateChanges(ctx, f.eventID, "", -1)
	require.NoError(t, err)
	code := f.addTicketType(t, "gate-new", 0, 5, 1)
	o, err := f.purchases.CreateOrder(ctx, freeRequest(code, 1, "new@x.ph"), f.now)
	require.NoError(t, err)
	d, err := f.gate.GateChanges(ctx, f.eventID, "", old.Version)
	require.NoError(t, err)
	requireDelta(t, f, old.Tickets, d, o.Tickets[0].Code)

	now := f.now
	n, err := f.db.PruneGateChanges(ctx, now, GateChangesKept)
	require.NoError(t, err)
	require.Zero(t, n, "nothing is old enough yet")
	mid, err := f.gate.GateChanges(ctx, f.eventID, "", -1) // a phone that synced at the first mark
	require.NoError(t, err)
	scanAfter := f.countRows(t, `SELECT COALESCE(MAX(id), 0) FROM gate_changes`)
	require.Equal(t, palaro.CheckInOK, f.scan(t, f.codes[0], "North").Outcome)

	before := f.countRows(t, `SELECT COUNT(*) FROM gate_changes`)
	n, err = f.db.PruneGateChanges(ctx, now.Add(GateChangesKept+time.Minute), GateChangesKept)
	require.NoError(t, err)
	if old.Version < mid.Version {
		require.Positive(t, n, "the changes before the first mark are deleted")
	} else { // PostgreSQL, where an open transaction anywhere in the cluster held the first mark back: nothing is before it
		require.True(t, testdb.Postgres())
	}
	require.Equal(t, before-int(n), f.countRows(t, `SELECT COUNT(*) FROM gate_changes`))
	require.Equal(t, 1, f.countRows(t, `SELECT COUNT(*) FROM gate_changes c JOIN tickets t ON t.id = c.ticket_id WHERE t.code = ?
		AND c.id > ?`, f.codes[0], scanAfter), "the check-in after the first mark is kept")
	if !testdb.Postgres() { // there the first mark's version may be held back by an older transaction: older changes stay too
		require.Equal(t, 1, f.countRows(t, `SELECT COUNT(*) FROM gate_changes c JOIN tickets t ON t.id = c.ticket_id WHERE t.code = ?`, f.codes[0]),
			"and the ticket's older changes are gone")
	}

	behind, err := f.gate.GateChanges(ctx, f.eventID, "", old.Version)
	require.NoError(t, err)
	if old.Version < mid.Version {
		require.False(t, behind.Delta, "a phone behind the pruned changes gets the whole list")
		require.Len(t, behind.Tickets, len(old.Tickets)+1)
	} else { // PostgreSQL, where an older open transaction kept the version from growing: nothing after it was pruned
		require.True(t, testdb.Postgres())
		requireDelta(t, f, old.Tickets, behind, o.Tickets[0].Code, f.codes[0])
	}

	within, err := f.gate.GateChanges(ctx, f.eventID, "", mid.Version)
	require.NoError(t, err)
	require.True(t, within.Delta, "a phone within the kept changes still gets a delta")
	requireDelta(t, f, mid.Tickets, within, f.codes[0])
	for _, tk := range within.Tickets {
		if tk.Code == f.codes[0] {
			require.Equal(t, palaro.TicketCheckedIn, tk.Status)
		}
	}

	// versions keep growing after a prune: a change after it is after every version handed out
	require.Equal(t, palaro.CheckInOK, f.scan(t, f.codes[1], "North").Outcome)
	after, err := f.gate.GateChanges(ctx, f.eventID, "", within.Version)
	require.NoError(t, err)
	require.True(t, after.Delta)
	var got []string
	for _, tk := range after.Tickets {
		got = append(got, tk.Code)
	}
	require.Contains(t, got, f.codes[1])
}
