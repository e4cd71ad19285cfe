package store

import (
	"context"
	"fmt"
	"regexp"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"palaro"
	"palaro/internal/testdb"
)

// gateFixture is a demo database with free tickets of one event to scan.
type gateFixture struct {
	*purchaseFixture
	gate    *CheckInService
	eventID int64
	codes   []string
	// date is the series date whose gate list requireDelta reads ("" for a single-date event).
	date string
}

func newGateFixture(t *testing.T, tickets int) *gateFixture {
	t.Helper()
	f := &gateFixture{purchaseFixture: newPurchaseFixture(t)}
	f.gate = NewCheckInService(f.db)
	code := f.addTicketType(t, "gate-test", 0, 100, 1)
	for i := range tickets {
		o, err := f.purchases.CreateOrder(context.Background(), freeRequest(code, 1, fmt.Sprintf("fan%d@x.ph", i)), f.now)
		require.NoError(t, err)
		f.eventID = o.EventID
		f.codes = append(f.codes, o.Tickets[0].Code)
	}
	return f
}

func (f *gateFixture) scan(t *testing.T, code, gate string) *palaro.CheckInResult {
	t.Helper()
	res, err := f.gate.CheckIn(context.Background(), palaro.CheckInRequest{EventID: f.eventID, Code: code, Gate: gate, Actor: "gate@palaro.ph"})
	require.NoError(t, err)
	return res
}

func TestCheckInService_CheckIn(t *testing.T) {
	ctx := context.Background()
	f := newGateFixture(t, 3)
	t.Run("OK", func(t *testing.T) {
		res := f.scan(t, f.codes[0], "North")
		require.Equal(t, palaro.CheckInOK, res.Outcome)
		require.Equal(t, "Checked in", res.Message)
		require.Equal(t, "Test gate-test", res.Ticket.TicketType)
		require.Equal(t, "North", res.Ticket.Gate)
	})
	t.Run("ErrAlreadyCheckedIn", func(t *testing.T) {
		res := f.scan(t, f.codes[0], "South")
		require.Equal(t, palaro.CheckInAlready, res.Outcome)
		require.Equal(t, "Already checked in at 10:00 AM (North)", res.Message)
	})
	t.Run("ErrUnknown", func(t *testing.T) {
		require.Equal(t, palaro.CheckInUnknown, f.scan(t, "NOSUCHCODE", "North").Outcome)
	})
	t.Run("ErrOtherEvent", func(t *testing.T) {
		res, err := f.gate.CheckIn(ctx, palaro.CheckInRequest{EventID: f.eventID + 1, Code: f.codes[1]})
		require.NoError(t, err)
		require.Equal(t, palaro.CheckInWrongEvt, res.Outcome)
		require.Empty(t, res.Ticket.HolderName+res.Ticket.TicketType, "nothing about another event's ticket")
	})
	t.Run("ErrCancelled", func(t *testing.T) {
		_, err := f.db.write.Exec(`UPDATE tickets SET status = 'cancelled' WHERE code = ?`, f.codes[2])
		require.NoError(t, err)
		require.Equal(t, palaro.CheckInCancelled, f.scan(t, f.codes[2], "North").Outcome)
	})
	t.Run("OK undo", func(t *testing.T) {
		require.NoError(t, f.gate.UndoCheckIn(ctx, f.eventID, f.codes[0], "", "manager@palaro.ph", f.now))
		require.Equal(t, palaro.ErrorCode(f.gate.UndoCheckIn(ctx, f.eventID, f.codes[0], "", "manager@palaro.ph", f.now)), palaro.ECONFLICT)
		require.Equal(t, palaro.CheckInOK, f.scan(t, f.codes[0], "East").Outcome, "valid again after the undo")
		counts, err := f.gate.CheckInCounts(ctx, f.eventID, "")
		require.NoError(t, err)
		require.Equal(t, 1, counts.CheckedIn)
		require.Equal(t, []palaro.GateCount{{Name: "East", CheckedIn: 1}}, counts.ByGate)
	})
}

// TestCheckInService_Race: 20 gates scan one ticket at the same moment; exactly one lets it in.
func TestCheckInService_Race(t *testing.T) {
	f := newGateFixture(t, 1)
	for round := range 5 {
		if round > 0 {
			require.NoError(t, f.gate.UndoCheckIn(context.Background(), f.eventID, f.codes[0], "", "m", f.now))
		}
		var already atomic.Int64
		admitted := storm(20, func(i int) int {
			res := f.scan(t, f.codes[0], fmt.Sprintf("Gate %d", i))
			if res.Outcome == palaro.CheckInAlready {
				already.Add(1)
			}
			if res.Outcome == palaro.CheckInOK {
				return 1
			}
			return 0
		})
		require.Equal(t, int64(1), admitted, "round %d: exactly one gate wins", round)
		require.Equal(t, int64(19), already.Load())
	}
	require.Equal(t, 5, f.countRows(t, `SELECT COUNT(*) FROM check_ins c JOIN tickets t ON t.id = c.ticket_id
		WHERE t.code = ? AND c.outcome = 'checked_in'`, f.codes[0]), "one check-in per round")
}

// naiveCheckIn is the read-then-write path the store must NOT use: it reads the ticket's status,
// then writes it without a condition. ready is where every gate has read (the worst moment, made
// certain by a barrier). Kept only here, as the control.
func naiveCheckIn(ctx context.Context, db *DB, code string, ready *sync.WaitGroup) (bool, error) {
	var status string
	if err := db.read.QueryRowContext(ctx, `SELECT status FROM tickets WHERE code = ?`, code).Scan(&status); err != nil {
		return false, err
	}
	ready.Done()
	ready.Wait()
	if status != palaro.TicketValid {
		return false, nil
	}
	_, err := db.write.ExecContext(ctx, `UPDATE tickets SET status = 'checked_in' WHERE code = ?`, code)
	return err == nil, err
}

// TestNaiveCheckIn_AdmitsTwice is the control: without the conditional update, gates that read
// the ticket before any of them wrote all say "come in".
func TestNaiveCheckIn_AdmitsTwice(t *testing.T) {
	f := newGateFixture(t, 1)
	var ready sync.WaitGroup
	ready.Add(20)
	admitted := storm(20, func(int) int {
		ok, err := naiveCheckIn(context.Background(), f.db, f.codes[0], &ready)
		require.NoError(t, err)
		if ok {
			return 1
		}
		return 0
	})
	require.Greater(t, admitted, int64(1), "the naive path let one ticket in more than once")
}

func TestCheckInService_Sync(t *testing.T) {
	ctx := context.Background()
	f := newGateFixture(t, 2)
	offline := func(code, gate, id string) palaro.CheckInRequest {
		return palaro.CheckInRequest{EventID: f.eventID, Code: code, Gate: gate, ClientID: id, At: f.now.Add(-5 * time.Minute)}
	}
	t.Run("OK first phone's scans count", func(t *testing.T) {
		res, err := f.gate.SyncCheckIns(ctx, []palaro.CheckInRequest{offline(f.codes[0], "A", "a-1"), offline("FORGED0000", "A", "a-2")})
		require.NoError(t, err)
		require.Equal(t, palaro.CheckInOK, res[0].Outcome)
		require.Equal(t, f.now.Add(-5*time.Minute).UTC(), res[0].Ticket.CheckedInAt, "the phone's scan time is kept")
		require.Equal(t, palaro.CheckInUnknown, res[1].Outcome)
	})
	t.Run("ErrConflict second phone", func(t *testing.T) {
		res, err := f.gate.SyncCheckIns(ctx, []palaro.CheckInRequest{offline(f.codes[0], "B", "b-1")})
		require.NoError(t, err)
		require.Equal(t, palaro.CheckInConflict, res[0].Outcome)
		rows, err := f.gate.CheckInConflicts(ctx, f.eventID)
		require.NoError(t, err)
		require.Len(t, rows, 1)
		require.Equal(t, "A", rows[0].FirstGate)
		require.Equal(t, "B", rows[0].SecondGate)
	})
	t.Run("OK an online scan whose answer was lost, queued and synced, counts once", func(t *testing.T) {
		code := f.addTicketType(t, "gate-lost", 0, 5, 1)
		o, err := f.purchases.CreateOrder(ctx, freeRequest(code, 1, "lost@x.ph"), f.now)
		require.NoError(t, err)
		scan := palaro.CheckInRequest{EventID: f.eventID, Code: o.Tickets[0].Code, Gate: "C", ClientID: "c-1"}
		res, err := f.gate.CheckIn(ctx, scan)
		require.NoError(t, err)
		require.Equal(t, palaro.CheckInOK, res.Outcome)
		synced, err := f.gate.SyncCheckIns(ctx, []palaro.CheckInRequest{scan})
		require.NoError(t, err)
		require.Equal(t, palaro.CheckInOK, synced[0].Outcome, "not a conflict with itself")
	})
	t.Run("OK a sync sent twice counts once", func(t *testing.T) {
		for range 2 {
			res, err := f.gate.SyncCheckIns(ctx, []palaro.CheckInRequest{offline(f.codes[0], "A", "a-1"), offline(f.codes[1], "B", "b-2")})
			require.NoError(t, err)
			require.Equal(t, palaro.CheckInOK, res[0].Outcome)
			require.Equal(t, palaro.CheckInOK, res[1].Outcome)
		}
		counts, err := f.gate.CheckInCounts(ctx, f.eventID, "")
		require.NoError(t, err)
		require.Equal(t, 3, counts.CheckedIn, "two here and the lost answer's one")
		require.Equal(t, 1, counts.Conflicts)
	})
}

func TestCheckInService_SellAtDoor(t *testing.T) {
	ctx := context.Background()
	f := newGateFixture(t, 0)
	code := f.addTicketType(t, "door", 50000, 2, 1)
	var eventID int64
	require.NoError(t, f.db.read.QueryRow(`SELECT event_id FROM ticket_types WHERE code = 'door'`).Scan(&eventID))
	sale := palaro.DoorSale{EventID: eventID, TicketType: code, HolderName: "Walk In", PaymentMethod: palaro.PaymentCash,
		Gate: "Box office", Actor: "gate@palaro.ph", At: f.now}
	t.Run("OK", func(t *testing.T) {
		tk, err := f.gate.SellAtDoor(ctx, sale)
		require.NoError(t, err)
		require.Len(t, tk, 1)
		require.Equal(t, palaro.TicketCheckedIn, tk[0].Status)
		require.Equal(t, 1, f.countRows(t, `SELECT COUNT(*) FROM orders WHERE status = 'paid' AND payment_type = 'CASH' AND total = 50000`))
		require.Equal(t, 1, f.countRows(t, `SELECT COUNT(*) FROM invoices i JOIN orders o ON o.id = i.order_id
			WHERE o.payment_type = 'CASH' AND i.kind = 'invoice' AND i.serial = 1 AND i.total = 50000 AND i.buyer_name = 'Walk In'`),
			"a sale at the door gets its sales invoice in the same write")
	})
	t.Run("ErrSoldOut", func(t *testing.T) {
		sale.PaymentMethod = palaro.PaymentCardTerminal
		_, err := f.gate.SellAtDoor(ctx, sale)
		require.NoError(t, err)
		_, err = f.gate.SellAtDoor(ctx, sale)
		require.Equal(t, palaro.ECONFLICT, palaro.ErrorCode(err))
		sold, _, capacity := f.counts(t, code)
		require.Equal(t, capacity, sold)
	})
	t.Run("ErrInvalid", func(t *testing.T) {
		sale.PaymentMethod = "IOU"
		_, err := f.gate.SellAtDoor(ctx, sale)
		require.Equal(t, palaro.EINVALID, palaro.ErrorCode(err))
	})
	t.Run("ErrHolderNameCharacters", func(t *testing.T) {
		bad := sale
		bad.PaymentMethod, bad.HolderName = palaro.PaymentCash, "Walk\r\nIn\x1b[31m"
		_, err := f.gate.SellAtDoor(ctx, bad)
		require.Equal(t, palaro.EINVALID, palaro.ErrorCode(err))
		require.Equal(t, palaro.MsgNameInvalid, err.(*palaro.Error).Fields["holderName"])
	})
}

// TestCheckInService_GateChanges: after a whole list, a phone asks for what changed since its
// version and gets only the changed tickets and the codes a transfer replaced, so an online gate
// refuses a transferred ticket's old code within seconds.
func TestCheckInService_GateChanges(t *testing.T) {
	ctx := context.Background()
	f := newGateFixture(t, 3)
	whole, err := f.gate.GateChanges(ctx, f.eventID, "", -1)
	require.NoError(t, err)
	require.NotEmpty(t, whole.Tickets)
	require.False(t, whole.Delta)

	t.Run("OK nothing changed", func(t *testing.T) {
		d, err := f.gate.GateChanges(ctx, f.eventID, "", whole.Version)
		require.NoError(t, err)
		require.Equal(t, whole.Version, d.Since)
		requireDelta(t, f, whole.Tickets, d)
		if !testdb.Postgres() {
			require.Empty(t, d.Voided)
		}
	})
	t.Run("OK a transfer voids the old code, a check-in shows", func(t *testing.T) {
		tickets, err := f.purchases.ListTicketsByEmail(ctx, "fan0@x.ph")
		require.NoError(t, err)
		_, err = f.purchases.RequestEmailChange(ctx, tickets[0].PublicID, "friend@x.ph", true, f.now)
		require.NoError(t, err)
		msgs, err := f.outbox.ListOutbox(ctx, palaro.OutboxFilter{To: "friend@x.ph"})
		require.NoError(t, err)
		token := regexp.MustCompile(`/change-email/confirm/([a-z0-9]+)`).FindStringSubmatch(msgs[0].Text)[1]
		tr, err := f.purchases.ConfirmEmailChange(ctx, token, f.now)
		require.NoError(t, err)
		require.Equal(t, palaro.CheckInOK, f.scan(t, f.codes[1], "North").Outcome)

		d, err := f.gate.GateChanges(ctx, f.eventID, "", whole.Version)
		require.NoError(t, err)
		require.Equal(t, []string{f.codes[0]}, d.Voided)
		list := requireDelta(t, f, whole.Tickets, d, tr.Ticket.Code, f.codes[1])
		require.GreaterOrEqual(t, d.Version, whole.Version) // on PostgreSQL an older open transaction holds it back
		if !testdb.Postgres() {
			require.Greater(t, d.Version, whole.Version)
		}
		again, err := f.gate.GateChanges(ctx, f.eventID, "", d.Version)
		require.NoError(t, err)
		requireDelta(t, f, list, again) // nothing since the delta
	})
	t.Run("OK a refunded order's ticket reads cancelled", func(t *testing.T) {
		o, err := f.purchases.CreateOrder(ctx, freeRequest(f.addTicketType(t, "gate-refund", 0, 5, 1), 1, "refund@x.ph"), f.now)
		require.NoError(t, err)
		before, err := f.gate.GateChanges(ctx, f.eventID, "", -1)
		require.NoError(t, err)
		require.NoError(t, NewOrganizerService(f.db, nil).MarkRefunded(ctx, f.eventID, o.PublicID, "owner@x.ph"))
		d, err := f.gate.GateChanges(ctx, f.eventID, "", before.Version)
		require.NoError(t, err)
		requireDelta(t, f, before.Tickets, d, o.Tickets[0].Code)
		for _, tk := range d.Tickets {
			if tk.Code == o.Tickets[0].Code {
				require.Equal(t, palaro.TicketCancelled, tk.Status)
			}
		}
	})
	t.Run("OK a list taken before any change anywhere has version 0, and its changes come as a delta", func(t *testing.T) {
		fresh := newGateFixture(t, 1)
		_, err := fresh.db.write.Exec(`DELETE FROM gate_changes`)
		require.NoError(t, err)
		list, err := fresh.gate.GateChanges(ctx, fresh.eventID, "", -1)
		require.NoError(t, err)
		if !testdb.Postgres() { // PostgreSQL's version is a transaction id (gateVersionSQL)
			require.Zero(t, list.Version)
		}
		require.Equal(t, palaro.CheckInOK, fresh.scan(t, fresh.codes[0], "North").Outcome)
		d, err := fresh.gate.GateChanges(ctx, fresh.eventID, "", 0)
		require.NoError(t, err)
		require.True(t, d.Delta)
		require.Len(t, d.Tickets, 1, "only the checked-in ticket")
		require.Equal(t, fresh.codes[0], d.Tickets[0].Code)
	})
	t.Run("OK a version it never gave gets the whole list", func(t *testing.T) {
		d, err := f.gate.GateChanges(ctx, f.eventID, "", 1<<40)
		require.NoError(t, err)
		require.False(t, d.Delta)
		require.Len(t, d.Tickets, len(whole.Tickets)+1, "the whole list, with the refunded order's ticket")
	})
}

// TestCheckInService_SyncClampsTimes: an offline scan timed before the list's download (a phone
// whose clock reset to 2001) or after the server's clock is recorded at the nearest possible time
// and flagged, keeping what the phone said.
func TestCheckInService_SyncClampsTimes(t *testing.T) {
	ctx := context.Background()
	f := newGateFixture(t, 3)
	listAt := f.now.Add(-time.Hour)
	scan := func(code, id string, at time.Time) palaro.CheckInRequest {
		return palaro.CheckInRequest{EventID: f.eventID, Code: code, Gate: "A", ClientID: id, At: at, NotBefore: listAt}
	}
	res, err := f.gate.SyncCheckIns(ctx, []palaro.CheckInRequest{
		scan(f.codes[0], "p-1", time.Date(2001, 1, 1, 0, 0, 0, 0, time.UTC)),
		scan(f.codes[1], "p-2", f.now.Add(48*time.Hour)),
		scan(f.codes[2], "p-3", f.now.Add(-10*time.Minute)),
	})
	require.NoError(t, err)
	require.Equal(t, listAt.UTC(), res[0].Ticket.CheckedInAt, "not before the list's download")
	require.True(t, res[0].TimeCorrected)
	require.True(t, res[1].TimeCorrected)
	require.False(t, res[1].Ticket.CheckedInAt.After(f.now), "not after the server's clock")
	require.Equal(t, f.now.Add(-10*time.Minute).UTC(), res[2].Ticket.CheckedInAt, "control: a time in range is kept")
	require.False(t, res[2].TimeCorrected)
	require.Equal(t, 2, f.countRows(t, `SELECT count(*) FROM check_ins WHERE claimed_at IS NOT NULL`))
	require.Equal(t, 1, f.countRows(t, `SELECT count(*) FROM check_ins WHERE claimed_at = ?`, "2001-01-01T00:00:00Z"))
	require.Zero(t, f.countRows(t, `SELECT count(*) FROM check_ins WHERE client_id LIKE 'p-%' AND scanned_at < ?`, formatTime(listAt)))
	counts, err := f.gate.CheckInCounts(ctx, f.eventID, "")
	require.NoError(t, err)
	require.Equal(t, 2, counts.TimeCorrected, "the console flags them")
}

// TestCheckInService_SellAtDoorQuantity sells several tickets in one sale (one order, every ticket
// checked in), up to the per-buyer maximum and what is left.
func TestCheckInService_SellAtDoorQuantity(t *testing.T) {
	ctx := context.Background()
	f := newGateFixture(t, 0)
	code := f.addTicketType(t, "door-group", 25000, 4, 3)
	var eventID int64
	require.NoError(t, f.db.read.QueryRow(`SELECT event_id FROM ticket_types WHERE code = 'door-group'`).Scan(&eventID))
	sale := palaro.DoorSale{EventID: eventID, TicketType: code, Quantity: 3, HolderName: "Barkada", PaymentMethod: palaro.PaymentCash,
		Gate: "Box office", Actor: "gate@palaro.ph", At: f.now}
	t.Run("OK three in one sale", func(t *testing.T) {
		tks, err := f.gate.SellAtDoor(ctx, sale)
		require.NoError(t, err)
		require.Len(t, tks, 3)
		for _, tk := range tks {
			require.Equal(t, palaro.TicketCheckedIn, tk.Status)
		}
		require.Equal(t, 1, f.countRows(t, `SELECT COUNT(*) FROM orders WHERE ticket_type_id = (SELECT id FROM ticket_types WHERE code = 'door-group')
			AND quantity = 3 AND total = 75000 AND status = 'paid'`))
		sold, _, _ := f.counts(t, code)
		require.Equal(t, 3, sold)
	})
	t.Run("ErrInvalid above the per-buyer maximum", func(t *testing.T) {
		big := sale
		big.Quantity = 4
		_, err := f.gate.SellAtDoor(ctx, big)
		require.Equal(t, palaro.EINVALID, palaro.ErrorCode(err))
		require.Equal(t, "At most 3 tickets of Test door-group per sale.", palaro.ErrorMessage(err))
	})
	t.Run("ErrConflict more than are left", func(t *testing.T) {
		two := sale
		two.Quantity = 2
		_, err := f.gate.SellAtDoor(ctx, two)
		require.Equal(t, palaro.ECONFLICT, palaro.ErrorCode(err))
		require.Equal(t, "Only 1 ticket of Test door-group left.", palaro.ErrorMessage(err))
		sold, _, _ := f.counts(t, code)
		require.Equal(t, 3, sold, "nothing taken")
	})
}
