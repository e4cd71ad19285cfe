package store

import (
	"context"
	"database/sql"
	"fmt"
	"path/filepath"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"palaro"
	"palaro/queue"
)

// queueFixture is a queue manager over a database file that a test can close and open again.
type queueFixture struct {
	path    string
	db      *DB
	manager *queue.Manager
	event   *palaro.Event
}

func openQueueFixture(t *testing.T, path string) *queueFixture {
	t.Helper()
	db, err := Open(path)
	require.NoError(t, err)
	require.NoError(t, db.Migrate(context.Background()))
	f := &queueFixture{path: path, db: db, manager: queue.NewManager(NewQueueStore(db))}
	f.manager.Seed = func() uint64 { return 42 }
	require.NoError(t, f.manager.Load(context.Background()))
	if ev, err := NewEventService(db).FindEventByCode(context.Background(), "next-monday"); err == nil {
		f.event = ev
	}
	return f
}

// clients counts the network addresses nextClient gave.
var clients atomic.Int64

// nextClient is a network address no place has come from yet.
func nextClient() string { return fmt.Sprintf("client-%d", clients.Add(1)) }

func newQueueFixture(t *testing.T) *queueFixture {
	t.Helper()
	path := filepath.Join(t.TempDir(), "palaro.db")
	f := openQueueFixture(t, path)
	seedFixtures(t, f.db)
	f.db.Close()
	f = openQueueFixture(t, path)
	t.Cleanup(func() { f.db.Close() })
	return f
}

func TestQueue_DrawOrderAndRestart(t *testing.T) {
	f := newQueueFixture(t)
	ctx := context.Background()
	opens := fixtureNow.Add(time.Hour).UTC()
	require.NoError(t, f.manager.Configure(ctx, f.event, "org@example.ph", &palaro.QueueSettings{OpensAt: opens, AdmitPerMinute: 60}, fixtureNow))

	// 40 browsers arrive before the opening, some hours, some seconds early.
	var early []int64
	for i := range 40 {
		id, err := f.manager.Join(ctx, f.event.ID, 0, nextClient(), fixtureNow.Add(time.Duration(i)*time.Minute))
		require.NoError(t, err)
		early = append(early, id)
	}
	st, err := f.manager.Status(ctx, f.event.ID, early[0], fixtureNow.Add(30*time.Minute))
	require.NoError(t, err)
	require.Nil(t, st.Position, "no place before the opening")
	require.Equal(t, 30*60, st.EstimatedWaitSeconds)
	stats, _ := f.manager.Stats(f.event.ID, fixtureNow)
	require.Equal(t, 40, stats.Waiting)

	// At the opening, the places are the seeded draw of the arrivals.
	want := palaro.DrawPlaces(42, 40)
	for i, id := range early {
		st, err := f.manager.Status(ctx, f.event.ID, id, opens)
		require.NoError(t, err)
		require.NotNil(t, st.Position)
		require.Equal(t, want[i], *st.Position, "arrival %d", i)
	}
	// Later arrivals join at the end, in order.
	var late []int64
	for i := range 5 {
		id, err := f.manager.Join(ctx, f.event.ID, 0, nextClient(), opens.Add(time.Duration(i+1)*time.Second))
		require.NoError(t, err)
		late = append(late, id)
		st, err := f.manager.Status(ctx, f.event.ID, id, opens.Add(time.Duration(i+1)*time.Second))
		require.NoError(t, err)
		require.Equal(t, 41+i, *st.Position)
	}

	// Place 1 is admitted at the opening; its admission is recorded once.
	first := early[indexOf(want, 1)]
	st, err = f.manager.Status(ctx, f.event.ID, first, opens.Add(10*time.Second))
	require.NoError(t, err)
	require.True(t, st.Admitted)
	require.Equal(t, opens, st.AdmittedAt, "the admission began at the first view after the turn (in the loop above)")
	ninth := early[indexOf(want, 9)] // its turn: 8 seconds after the opening
	st, err = f.manager.Status(ctx, f.event.ID, ninth, opens.Add(7*time.Second))
	require.NoError(t, err)
	require.False(t, st.Admitted)
	require.Zero(t, st.AdmittedAt)
	st, err = f.manager.Status(ctx, f.event.ID, ninth, opens.Add(12*time.Second))
	require.NoError(t, err)
	require.Equal(t, opens.Add(12*time.Second), st.AdmittedAt)
	st, err = f.manager.Status(ctx, f.event.ID, ninth, opens.Add(20*time.Second))
	require.NoError(t, err)
	require.Equal(t, opens.Add(12*time.Second), st.AdmittedAt, "recorded once")

	// A restart: places, admissions and e-mail ties come back from the database.
	before := map[int64]palaro.QueueStatus{}
	at := opens.Add(15 * time.Second)
	for _, id := range append(early, late...) {
		st, err := f.manager.Status(ctx, f.event.ID, id, at)
		require.NoError(t, err)
		before[id] = st
	}
	require.NoError(t, f.db.Close())
	g := openQueueFixture(t, f.path)
	defer g.db.Close()
	for id, st := range before {
		after, err := g.manager.Status(ctx, f.event.ID, id, at)
		require.NoError(t, err)
		require.Equal(t, *st.Position, *after.Position)
		require.Equal(t, st.Admitted, after.Admitted)
		require.Equal(t, st.EstimatedWaitSeconds, after.EstimatedWaitSeconds)
		require.Equal(t, st.AdmittedAt, after.AdmittedAt)
	}
}

func TestQueue_RateChangeAndOff(t *testing.T) {
	f := newQueueFixture(t)
	ctx := context.Background()
	opens := fixtureNow.UTC()
	require.NoError(t, f.manager.Configure(ctx, f.event, "org@example.ph", &palaro.QueueSettings{OpensAt: opens, AdmitPerMinute: 6}, fixtureNow))
	for range 100 {
		_, err := f.manager.Join(ctx, f.event.ID, 0, nextClient(), opens)
		require.NoError(t, err)
	}
	require.NoError(t, f.manager.Sync(ctx, opens)) // the draw: everyone came at the opening
	stats, _ := f.manager.Stats(f.event.ID, opens.Add(time.Minute))
	require.Equal(t, 7, stats.Admitted, "the first at the opening, then 6 in the minute")

	// The opening cannot move any more; the rate can.
	err := f.manager.Configure(ctx, f.event, "org@example.ph", &palaro.QueueSettings{OpensAt: opens.Add(time.Hour), AdmitPerMinute: 6}, opens.Add(time.Minute))
	require.Equal(t, palaro.EINVALID, palaro.ErrorCode(err))
	require.NoError(t, f.manager.Configure(ctx, f.event, "org@example.ph", &palaro.QueueSettings{OpensAt: opens, AdmitPerMinute: 60}, opens.Add(time.Minute)))
	stats, _ = f.manager.Stats(f.event.ID, opens.Add(time.Minute))
	require.Equal(t, 7, stats.Admitted, "admissions already made stay")
	stats, _ = f.manager.Stats(f.event.ID, opens.Add(2*time.Minute))
	require.InDelta(t, 67, stats.Admitted, 1, "60 a minute from the change")

	// Another server's copy follows the database.
	other := queue.NewManager(NewQueueStore(f.db))
	require.NoError(t, other.Load(ctx))
	id, err := other.Join(ctx, f.event.ID, 0, nextClient(), opens.Add(2*time.Minute))
	require.NoError(t, err)
	require.NoError(t, f.manager.Sync(ctx, opens.Add(2*time.Minute)))
	st, err := f.manager.Status(ctx, f.event.ID, id, opens.Add(2*time.Minute))
	require.NoError(t, err)
	require.Equal(t, 101, *st.Position)

	require.NoError(t, f.manager.Configure(ctx, f.event, "org@example.ph", nil, opens.Add(3*time.Minute)))
	require.Nil(t, f.manager.Settings(f.event.ID))
	require.False(t, f.manager.Active())
	var places int
	require.NoError(t, f.db.read.QueryRow(`SELECT COUNT(*) FROM queue_places`).Scan(&places))
	require.Zero(t, places)
	audit, err := NewOrganizerService(f.db, nil).ListAudit(ctx, f.event.ID, 10)
	require.NoError(t, err)
	require.Equal(t, "queue off", audit[0].Action)
	require.Equal(t, "queue changed", audit[1].Action)
}

func indexOf(s []int, v int) int {
	for i, x := range s {
		if x == v {
			return i
		}
	}
	return -1
}

// TestQueue_JoinsRacingTheDraw: browsers join from many goroutines at the opening while the draw
// runs; every one ends with its own place, the places are 1..n, those who came after the opening
// follow the drawn ones, and this server's memory agrees with a copy loaded afresh from the
// database (as another server's would be).
func TestQueue_JoinsRacingTheDraw(t *testing.T) {
	f := newQueueFixture(t)
	ctx := context.Background()
	opens := fixtureNow.UTC().Add(time.Minute)
	require.NoError(t, f.manager.Configure(ctx, f.event, "org@example.ph", &palaro.QueueSettings{OpensAt: opens, AdmitPerMinute: 120}, fixtureNow))
	const early, racing = 100, 200
	ids := make(chan int64, early+racing)
	isEarly := map[int64]bool{}
	for range early {
		id, err := f.manager.Join(ctx, f.event.ID, 0, nextClient(), fixtureNow)
		require.NoError(t, err)
		ids <- id
		isEarly[id] = true
	}
	var wg sync.WaitGroup
	for i := range racing {
		wg.Go(func() {
			id, err := f.manager.Join(ctx, f.event.ID, 0, nextClient(), opens.Add(time.Duration(i%3)*time.Second))
			if err == nil {
				ids <- id
			}
		})
		if i == racing/2 {
			wg.Go(func() { require.NoError(t, f.manager.Sync(ctx, opens)) }) // the draw, mid-rush
		}
	}
	wg.Wait()
	close(ids)
	require.NoError(t, f.manager.Sync(ctx, opens))
	fresh := queue.NewManager(NewQueueStore(f.db))
	require.NoError(t, fresh.Load(ctx))
	seen := map[int]bool{}
	at := opens.Add(time.Minute)
	for id := range ids {
		mine, err := f.manager.Status(ctx, f.event.ID, id, at)
		require.NoError(t, err)
		require.NotNil(t, mine.Position, "place %d", id)
		theirs, err := fresh.Status(ctx, f.event.ID, id, at)
		require.NoError(t, err)
		require.Equal(t, *theirs.Position, *mine.Position)
		require.Equal(t, theirs.EstimatedWaitSeconds, mine.EstimatedWaitSeconds)
		require.False(t, seen[*mine.Position], "place %d given twice", *mine.Position)
		require.Equal(t, isEarly[id], *mine.Position <= early, "only the early arrivals are in the draw; the rest join after them")
		seen[*mine.Position] = true
	}
	require.Len(t, seen, early+racing)
	for p := 1; p <= early+racing; p++ {
		require.True(t, seen[p], "place %d missing", p)
	}
}

// TestQueue_EmailTiedByTheOrder: the address a purchase names is tied to its queue place by the
// order's own transaction, so a purchase that fails ties nothing; once tied, another place cannot
// buy with it, nor the place for another address, while the order lives; a lapsed order frees it.
// Runs on PostgreSQL too (scripts/pgtest.sh).
func TestQueue_EmailTiedByTheOrder(t *testing.T) {
	f := newPurchaseFixture(t)
	ctx := context.Background()
	code := f.addTicketType(t, "queued", 10000, 100, 2)
	ev, err := NewEventService(f.db).FindEventByCode(ctx, "tekken-tuesdays-cubao")
	require.NoError(t, err)
	m := queue.NewManager(NewQueueStore(f.db))
	require.NoError(t, m.Load(ctx))
	require.NoError(t, m.Configure(ctx, ev, "org@example.ph", &palaro.QueueSettings{OpensAt: f.now.Add(-time.Hour), AdmitPerMinute: 60}, f.now))
	first, err := m.Join(ctx, ev.ID, 0, "198.51.100.1", f.now)
	require.NoError(t, err)
	second, err := m.Join(ctx, ev.ID, 0, "198.51.100.2", f.now)
	require.NoError(t, err)
	buy := func(place int64, email string, quantity int) error {
		req := freeRequest(code, quantity, email)
		req.QueuePlace, req.SessionKey = place, fmt.Sprint("browser-", place)
		_, err := f.purchases.CreateOrder(ctx, req, f.now)
		return err
	}
	tied := func(place int64) string {
		var email sql.NullString
		require.NoError(t, f.db.read.QueryRow(`SELECT email FROM queue_places WHERE id = ?`, place).Scan(&email))
		return email.String
	}

	t.Run("ErrInvalid purchase ties nothing", func(t *testing.T) {
		require.Equal(t, palaro.EINVALID, palaro.ErrorCode(buy(first, "ana@example.ph", 5)), "above the per-buyer maximum")
		require.Equal(t, palaro.EINVALID, palaro.ErrorCode(buy(first, "ana@example", 1)), "a mistyped address")
		require.Empty(t, tied(first))
	})
	t.Run("OK another place buys with the address", func(t *testing.T) {
		require.NoError(t, buy(second, " Ana@Example.PH", 1))
		require.Equal(t, "ana@example.ph", tied(second))
		require.NoError(t, buy(second, "ana@example.ph", 2), "the same place and address again (its order replaced)")
	})
	t.Run("ErrConflict while the order lives", func(t *testing.T) {
		err := buy(first, "ana@example.ph", 1)
		require.Equal(t, palaro.ECONFLICT, palaro.ErrorCode(err))
		require.Equal(t, palaro.QueueEmailTakenMessage, palaro.ErrorMessage(err))
		err = buy(second, "ben@example.ph", 1)
		require.Equal(t, palaro.ECONFLICT, palaro.ErrorCode(err))
		require.Equal(t, palaro.QueuePlaceTakenMessage, palaro.ErrorMessage(err))
		require.Empty(t, tied(first))
		require.Zero(t, f.countRows(t, `SELECT COUNT(*) FROM orders WHERE email = 'ben@example.ph'`), "the refused order is not kept")
	})
	t.Run("OK a lapsed order frees the address", func(t *testing.T) {
		_, err := f.purchases.ExpireHolds(ctx, f.now.Add(time.Hour))
		require.NoError(t, err)
		req := freeRequest(code, 1, "ana@example.ph")
		req.QueuePlace = first
		_, err = f.purchases.CreateOrder(ctx, req, f.now.Add(time.Hour))
		require.NoError(t, err)
		require.Equal(t, "ana@example.ph", tied(first))
		require.Empty(t, tied(second))
	})
}

// TestQueue_PlacesPerAddress: one network address takes at most palaro.QueuePlacesPerAddress
// places of a queue, however many join at once (the count is taken under the queue row's lock, on
// PostgreSQL too); another address still joins.
func TestQueue_PlacesPerAddress(t *testing.T) {
	f := newPurchaseFixture(t)
	ctx := context.Background()
	ev, err := NewEventService(f.db).FindEventByCode(ctx, "tekken-tuesdays-cubao")
	require.NoError(t, err)
	m := queue.NewManager(NewQueueStore(f.db))
	require.NoError(t, m.Load(ctx))
	require.NoError(t, m.Configure(ctx, ev, "org@example.ph", &palaro.QueueSettings{OpensAt: f.now.Add(time.Hour), AdmitPerMinute: 60}, f.now))
	var wg sync.WaitGroup
	var joined, refused atomic.Int64
	for range palaro.QueuePlacesPerAddress + 30 {
		wg.Go(func() {
			_, err := m.Join(ctx, ev.ID, 0, "203.0.113.7", f.now)
			switch palaro.ErrorCode(err) {
			case "":
				joined.Add(1)
			case palaro.ETOOMANY:
				refused.Add(1)
			default:
				t.Error(err)
			}
		})
	}
	wg.Wait()
	require.Equal(t, int64(palaro.QueuePlacesPerAddress), joined.Load())
	require.Equal(t, int64(30), refused.Load())
	_, err = m.Join(ctx, ev.ID, 0, "203.0.113.7", f.now)
	require.Equal(t, palaro.QueueAddressFullMessage, palaro.ErrorMessage(err))
	_, err = m.Join(ctx, ev.ID, 0, "203.0.113.8", f.now)
	require.NoError(t, err)
	require.Equal(t, palaro.QueuePlacesPerAddress+1, f.countRows(t, `SELECT COUNT(*) FROM queue_places`))
}

// TestQueue_PerDate: a place in a series' queue is for the date the visitor came for (0: the
// passes), through the draw, a restart and another server's copy; a waiting place moves to
// another date keeping its place in line, an admitted one cannot; the figures split by date.
// Joins race on PostgreSQL too (scripts/pgtest.sh).
func TestQueue_PerDate(t *testing.T) {
	f := newSeriesFixture(t)
	ctx := context.Background()
	day := f.addTicketType(t, "day", 50000, 30, 4)
	dates := f.weekly(t, 3, map[string]int{day: 10})
	ev, err := NewEventService(f.db).FindEventByCode(ctx, "tekken-tuesdays-cubao")
	require.NoError(t, err)
	m := queue.NewManager(NewQueueStore(f.db))
	m.Seed = func() uint64 { return 7 }
	require.NoError(t, m.Load(ctx))
	opens := f.now.Add(time.Hour)
	require.NoError(t, m.Configure(ctx, ev, "org@example.ph", &palaro.QueueSettings{OpensAt: opens, AdmitPerMinute: 60}, f.now))

	t.Run("ErrNotFound a date of another event", func(t *testing.T) {
		_, err := m.Join(ctx, ev.ID, 999999, nextClient(), f.now)
		require.Equal(t, palaro.ENOTFOUND, palaro.ErrorCode(err))
		require.Equal(t, palaro.MsgDateUnknown, palaro.ErrorMessage(err))
	})

	// 4 early arrivals for the third date, then 30 joins at once after the opening, a third for each
	// date and some for the passes.
	dateOf := map[int64]int64{}
	for range 4 {
		id, err := m.Join(ctx, ev.ID, dates[2].ID, nextClient(), f.now)
		require.NoError(t, err)
		dateOf[id] = dates[2].ID
	}
	st, _ := m.Stats(ev.ID, f.now)
	require.Equal(t, map[int64]palaro.QueueCount{dates[2].ID: {Waiting: 4}, 0: {}}, st.Dates, "before the draw")
	var mu sync.Mutex
	var wg sync.WaitGroup
	for i := range 30 {
		wg.Go(func() {
			want := int64(0)
			if i%4 != 3 {
				want = dates[i%3].ID
			}
			id, err := m.Join(ctx, ev.ID, want, nextClient(), opens.Add(time.Second))
			if err != nil {
				t.Error(err)
				return
			}
			mu.Lock()
			dateOf[id] = want
			mu.Unlock()
		})
	}
	wg.Wait()
	require.Len(t, dateOf, 34)
	stored := map[int64]int64{}
	rows, err := f.db.read.Query(`SELECT id, COALESCE(date_id, 0) FROM queue_places`)
	require.NoError(t, err)
	for rows.Next() {
		var id, d int64
		require.NoError(t, rows.Scan(&id, &d))
		stored[id] = d
	}
	require.NoError(t, rows.Close())
	require.Equal(t, dateOf, stored, "each place keeps the date it joined for")
	require.Equal(t, 34, f.countRows(t, `SELECT COUNT(DISTINCT place) FROM queue_places WHERE place BETWEEN 1 AND 34`), "one line: places 1..34 once each")

	fresh := queue.NewManager(NewQueueStore(f.db)) // another server, or a restart
	require.NoError(t, fresh.Load(ctx))
	for id, want := range dateOf {
		a, err := m.Status(ctx, ev.ID, id, opens.Add(time.Second))
		require.NoError(t, err)
		b, err := fresh.Status(ctx, ev.ID, id, opens.Add(time.Second))
		require.NoError(t, err)
		require.Equal(t, want, a.DateID)
		require.Equal(t, want, b.DateID)
	}

	// At 60 a minute, 10 are admitted 9 s after the opening; the figures split by date.
	at := opens.Add(9 * time.Second)
	st, _ = m.Stats(ev.ID, at)
	require.Equal(t, 10, st.Admitted)
	var sum palaro.QueueCount
	for d, n := range st.Dates {
		require.True(t, d == 0 || d == dates[0].ID || d == dates[1].ID || d == dates[2].ID, "date %d", d)
		sum.Waiting += n.Waiting
		sum.Admitted += n.Admitted
	}
	require.Equal(t, palaro.QueueCount{Waiting: 24, Admitted: 10}, sum)
	require.GreaterOrEqual(t, st.Dates[dates[2].ID].Waiting+st.Dates[dates[2].ID].Admitted, 4+8)

	// The last in line moves from its date to the first: its place and wait stay.
	var last int64
	for id := range dateOf {
		s, err := m.Status(ctx, ev.ID, id, at)
		require.NoError(t, err)
		if *s.Position == 34 {
			last = id
		}
	}
	before, err := m.Status(ctx, ev.ID, last, at)
	require.NoError(t, err)
	require.NoError(t, m.Move(ctx, ev.ID, last, dates[0].ID))
	after, err := m.Status(ctx, ev.ID, last, at)
	require.NoError(t, err)
	require.Equal(t, dates[0].ID, after.DateID)
	require.Equal(t, *before.Position, *after.Position)
	require.Equal(t, before.EstimatedWaitSeconds, after.EstimatedWaitSeconds)
	require.NoError(t, fresh.Sync(ctx, at), "the other server loads the moved version")
	other, err := fresh.Status(ctx, ev.ID, last, at)
	require.NoError(t, err)
	require.Equal(t, dates[0].ID, other.DateID)

	t.Run("ErrConflict an admitted place does not move", func(t *testing.T) {
		var first int64
		for id := range dateOf {
			if s, _ := m.Status(ctx, ev.ID, id, at); *s.Position == 1 {
				first = id
			}
		}
		s, err := m.Status(ctx, ev.ID, first, at) // its admission is recorded
		require.NoError(t, err)
		require.True(t, s.Admitted)
		err = m.Move(ctx, ev.ID, first, dates[1].ID)
		require.Equal(t, palaro.ECONFLICT, palaro.ErrorCode(err))
		require.Equal(t, palaro.QueueMoveAdmittedMessage, palaro.ErrorMessage(err))
		s, err = m.Status(ctx, ev.ID, first, at)
		require.NoError(t, err)
		require.Equal(t, dateOf[first], s.DateID)
	})
	t.Run("ErrNotFound a place not in the queue", func(t *testing.T) {
		require.Equal(t, palaro.ENOTFOUND, palaro.ErrorCode(m.Move(ctx, ev.ID, 999999, dates[1].ID)))
	})
}
