package store

import (
	"context"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"palaro"
)

// anotherServer opens the database of db a second time, as another app server would.
func anotherServer(t *testing.T, db *DB) *DB {
	t.Helper()
	other, err := Open(db.path)
	require.NoError(t, err)
	t.Cleanup(func() { other.Close() })
	other.Now = db.Now
	return other
}

// TestTryLease: one holder at a time; the holder renews; another takes over only once the lease
// has run out, and the old holder is then refused.
func TestTryLease(t *testing.T) {
	db := openTestDB(t)
	other := anotherServer(t, db)
	ctx := context.Background()
	now := fixtureNow.UTC()
	try := func(db *DB, holder string) bool {
		t.Helper()
		held, err := db.TryLease(ctx, "settle", holder, now, 90*time.Second)
		require.NoError(t, err)
		return held
	}
	require.True(t, try(db, "a"), "a free lease is taken")
	require.False(t, try(other, "b"), "a lease held by another is refused")
	now = now.Add(60 * time.Second)
	require.True(t, try(db, "a"), "the holder renews")
	now = now.Add(89 * time.Second)
	require.False(t, try(other, "b"), "renewed: still a's for one more second")
	now = now.Add(time.Second)
	require.True(t, try(other, "b"), "run out: b takes it over")
	require.False(t, try(db, "a"), "a (back from the dead) is refused")
	held, err := db.TryLease(ctx, "another-job", "a", now, time.Minute)
	require.NoError(t, err)
	require.True(t, held, "each job has its own lease")
}

// TestOutbox_ClaimDue_SeveralServers: two servers drain one outbox with four workers each: every
// message is claimed exactly once. A message whose claimant died (its lease ran out, unsent) is
// claimed again by the other server.
func TestOutbox_ClaimDue_SeveralServers(t *testing.T) {
	f := newPurchaseFixture(t)
	ctx := context.Background()
	before, err := f.outbox.ListOutbox(ctx, palaro.OutboxFilter{Status: palaro.MessagePending, Limit: 1000})
	require.NoError(t, err)
	const n = 120
	for i := range n {
		require.NoError(t, f.outbox.Enqueue(ctx, palaro.Message{Kind: "test", To: fmt.Sprintf("m%d@x.ph", i), Subject: "s", Text: "t"}, f.now))
	}
	servers := []*OutboxService{f.outbox, NewOutboxService(anotherServer(t, f.db))}
	var mu sync.Mutex
	claims := map[int64]int{}
	var wg sync.WaitGroup
	for _, s := range servers {
		for range 4 {
			wg.Go(func() {
				for {
					msgs, err := s.ClaimDue(ctx, f.now, 7, time.Minute)
					if err != nil {
						t.Error(err)
						return
					}
					if len(msgs) == 0 {
						return
					}
					mu.Lock()
					for _, m := range msgs {
						claims[m.ID]++
					}
					mu.Unlock()
				}
			})
		}
	}
	wg.Wait()
	require.Len(t, claims, n+len(before), "every pending message claimed")
	for id, c := range claims {
		require.Equal(t, 1, c, "message %d claimed by one worker only", id)
	}

	// Every message is now claimed for a minute: nothing is due for either server.
	msgs, err := servers[1].ClaimDue(ctx, f.now.Add(59*time.Second), 500, time.Minute)
	require.NoError(t, err)
	require.Empty(t, msgs, "claimed messages are not claimed again while their lease runs")
	// The claimant died without marking them: once the lease has run out, they are claimed again.
	msgs, err = servers[1].ClaimDue(ctx, f.now.Add(time.Minute), 500, time.Minute)
	require.NoError(t, err)
	require.Len(t, msgs, n+len(before), "a dead server's messages are retried")
	require.Equal(t, 2, msgs[0].Attempts)
}

// TestExpireHolds_SeveralServers: two servers release the same expired holds at the same time:
// each order is released once, the held count comes back to zero (not below) and the released
// tickets can be sold again.
func TestExpireHolds_SeveralServers(t *testing.T) {
	f := newPurchaseFixture(t)
	ctx := context.Background()
	code := f.addTicketType(t, "held", 20000, 40, 2)
	for i := range 20 {
		o, err := f.purchases.CreateOrder(ctx, freeRequest(code, 2, fmt.Sprintf("p%d@x.ph", i)), f.now)
		require.NoError(t, err)
		require.Equal(t, palaro.OrderPending, o.Status)
	}
	_, held, _ := f.counts(t, code)
	require.Equal(t, 40, held)
	other := NewPurchaseService(anotherServer(t, f.db), nil, 15*time.Minute)
	later := f.now.Add(16 * time.Minute)
	var released [2]int
	var wg sync.WaitGroup
	for i, s := range []*PurchaseService{f.purchases, other} {
		wg.Go(func() {
			n, err := s.ExpireHolds(ctx, later)
			if err != nil {
				t.Error(err)
			}
			released[i] = n
		})
	}
	wg.Wait()
	require.Equal(t, 20, released[0]+released[1], "each order released once: %v", released)
	sold, held, capacity := f.counts(t, code)
	require.Equal(t, [3]int{0, 0, 40}, [3]int{sold, held, capacity})
	require.Equal(t, 20, f.countRows(t, `SELECT count(*) FROM orders WHERE status = 'expired' AND ticket_type_id =
		(SELECT id FROM ticket_types WHERE code = ?)`, code))
}

// TestAppSecret_ServersStartingTogether: servers that start together on a new database each ask for
// the session key at once; every one gets the same key (the first stored).
func TestAppSecret_ServersStartingTogether(t *testing.T) {
	db := openTestDB(t)
	servers := []*DB{db, anotherServer(t, db), anotherServer(t, db), anotherServer(t, db)}
	keys := make([][]byte, len(servers))
	var wg sync.WaitGroup
	for i, s := range servers {
		wg.Go(func() {
			k, err := s.AppSecret(context.Background(), "session-key", 64)
			if err != nil {
				t.Error(err)
			}
			keys[i] = k
		})
	}
	wg.Wait()
	for i := range keys {
		require.Len(t, keys[i], 64)
		require.Equal(t, keys[0], keys[i], "server %d", i)
	}
}

// TestRebind_LockMarkers: PostgreSQL gets the row-lock clauses the markers stand for, placeholders
// numbered; a comment that is not a marker stays a comment.
func TestRebind_LockMarkers(t *testing.T) {
	require.Equal(t, `SELECT id FROM outbox WHERE a = $1 LIMIT $2 FOR UPDATE SKIP LOCKED`,
		rebind(`SELECT id FROM outbox WHERE a = ? LIMIT ?`+forUpdateSkipLocked))
	require.Equal(t, `SELECT id FROM orders WHERE id = $1 FOR UPDATE`, rebind(`SELECT id FROM orders WHERE id = ?`+forUpdate))
	require.Equal(t, `SELECT 1 /* FOR UPDATE SKIP LOCKED? */`, rebind(`SELECT 1 /* FOR UPDATE SKIP LOCKED? */`))
}
