package store

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"palaro"
)

// cachedFixture returns a cached event service over the fixtures with a clock the test moves.
func cachedFixture(t *testing.T, ttl time.Duration) (*CachedEventService, *DB, *time.Time) {
	t.Helper()
	db := openTestDB(t)
	seedFixtures(t, db)
	clock := fixtureNow
	svc := NewCachedEventService(NewEventService(db), ttl)
	svc.Now = func() time.Time { return clock }
	return svc, db, &clock
}

func rename(t *testing.T, db *DB, code, name string) {
	t.Helper()
	_, err := db.write.Exec(`UPDATE events SET name = ? WHERE code = ?`, name, code)
	require.NoError(t, err)
}

func TestCachedEventService_FindEventByCode(t *testing.T) {
	ctx := context.Background()

	t.Run("OK", func(t *testing.T) {
		svc, db, clock := cachedFixture(t, 2*time.Second)
		ev, err := svc.FindEventByCode(ctx, "this-saturday")
		require.NoError(t, err)
		require.Equal(t, "Event this-saturday", ev.Name)

		rename(t, db, "this-saturday", "Renamed")
		ev, err = svc.FindEventByCode(ctx, "this-saturday")
		require.NoError(t, err)
		require.Equal(t, "Event this-saturday", ev.Name, "within the ttl the cached event is served")

		*clock = clock.Add(2 * time.Second)
		ev, err = svc.FindEventByCode(ctx, "this-saturday")
		require.NoError(t, err)
		require.Equal(t, "Renamed", ev.Name, "after the ttl the event is read again")
	})

	t.Run("ErrNotFoundIsNotCached", func(t *testing.T) {
		svc, db, _ := cachedFixture(t, time.Minute)
		_, err := svc.FindEventByCode(ctx, "brand-new")
		require.Equal(t, palaro.ENOTFOUND, palaro.ErrorCode(err))

		_, err = db.write.Exec(`UPDATE events SET code = 'brand-new' WHERE code = 'next-month'`)
		require.NoError(t, err)
		ev, err := svc.FindEventByCode(ctx, "brand-new")
		require.NoError(t, err)
		require.Equal(t, "brand-new", ev.Code)
	})

	t.Run("ZeroTTLDisables", func(t *testing.T) {
		svc, db, _ := cachedFixture(t, 0)
		_, err := svc.FindEventByCode(ctx, "this-saturday")
		require.NoError(t, err)
		rename(t, db, "this-saturday", "Renamed")
		ev, err := svc.FindEventByCode(ctx, "this-saturday")
		require.NoError(t, err)
		require.Equal(t, "Renamed", ev.Name)
	})
}

func TestCachedEventService_ListEvents(t *testing.T) {
	ctx := context.Background()
	svc, _, _ := cachedFixture(t, time.Minute)

	t.Run("OK", func(t *testing.T) {
		today, err := svc.ListEvents(ctx, palaro.EventFilter{When: palaro.WhenToday, Now: fixtureNow})
		require.NoError(t, err)
		week, err := svc.ListEvents(ctx, palaro.EventFilter{When: palaro.WhenWeek, Now: fixtureNow})
		require.NoError(t, err)
		require.Equal(t, []string{"ongoing", "today-late"}, codes(today.Events))
		require.Equal(t, []string{"ongoing", "today-late", "this-saturday"}, codes(week.Events), "each filter has its own entry")
		near, err := svc.ListEvents(ctx, palaro.EventFilter{When: palaro.WhenAroundMe, Near: &palaro.GeoPoint{Latitude: 7.1, Longitude: 125.6}, Now: fixtureNow})
		require.NoError(t, err)
		require.Equal(t, "next-monday", near.Events[0].Code, "a location has its own entry")
	})

	t.Run("ConcurrentReadersAgree", func(t *testing.T) {
		var wg sync.WaitGroup
		results := make([][]string, 40)
		for i := range results {
			wg.Add(1)
			go func() {
				defer wg.Done()
				page, err := svc.ListEvents(ctx, palaro.EventFilter{Popular: true, Now: fixtureNow, Limit: 3})
				if err == nil {
					results[i] = codes(page.Events)
				}
			}()
		}
		wg.Wait()
		for _, r := range results {
			require.Equal(t, []string{"next-monday", "next-month", "this-saturday"}, r)
		}
	})

	t.Run("ErrInvalid", func(t *testing.T) {
		_, err := svc.ListEvents(ctx, palaro.EventFilter{When: "yesterday", Now: fixtureNow})
		require.Equal(t, palaro.EINVALID, palaro.ErrorCode(err))
	})
}
