package store

import (
	"context"
	"path/filepath"
	"sync"
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
		id, err := f.manager.Join(ctx, f.event.ID, fixtureNow.Add(time.Duration(i)*time.Minute))
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
		id, err := f.manager.Join(ctx, f.event.ID, opens.Add(time.Duration(i+1)*time.Second))
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

	// One e-mail address, one place.
	require.NoError(t, f.manager.ClaimEmail(ctx, f.event.ID, first, "Ana@Example.PH "))
	require.NoError(t, f.manager.ClaimEmail(ctx, f.event.ID, first, "ana@example.ph"))
	second := early[indexOf(want, 2)]
	err = f.manager.ClaimEmail(ctx, f.event.ID, second, "ana@example.ph")
	require.Equal(t, palaro.ECONFLICT, palaro.ErrorCode(err))
	require.Equal(t, "This e-mail address already bought with another place in this queue.", palaro.ErrorMessage(err))

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
	err = g.manager.ClaimEmail(ctx, f.event.ID, second, "ana@example.ph")
	require.Equal(t, palaro.ECONFLICT, palaro.ErrorCode(err))
}

func TestQueue_RateChangeAndOff(t *testing.T) {
	f := newQueueFixture(t)
	ctx := context.Background()
	opens := fixtureNow.UTC()
	require.NoError(t, f.manager.Configure(ctx, f.event, "org@example.ph", &palaro.QueueSettings{OpensAt: opens, AdmitPerMinute: 6}, fixtureNow))
	for range 100 {
		_, err := f.manager.Join(ctx, f.event.ID, opens)
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
	id, err := other.Join(ctx, f.event.ID, opens.Add(2*time.Minute))
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
		id, err := f.manager.Join(ctx, f.event.ID, fixtureNow)
		require.NoError(t, err)
		ids <- id
		isEarly[id] = true
	}
	var wg sync.WaitGroup
	for i := range racing {
		wg.Go(func() {
			id, err := f.manager.Join(ctx, f.event.ID, opens.Add(time.Duration(i%3)*time.Second))
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
