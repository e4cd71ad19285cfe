package store

import (
	"cmp"
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"palaro"
	"palaro/internal/testdb"
)

// openTestDB opens and migrates a fresh SQLite file in the test's temporary directory.
func openTestDB(t *testing.T) *DB {
	t.Helper()
	db, err := Open(testdb.URL(t))
	require.NoError(t, err)
	t.Cleanup(func() { db.Close() })
	require.NoError(t, db.Migrate(context.Background()))
	return db
}

// fixture is an event inserted by insertFixture.
type fixture struct {
	code       string
	starts     time.Time
	hours      int
	venue      int64
	popularity int
	status     string
	tags       []string
}

// fixtureNow is Wednesday 4 March 2026, 10:00 in Manila.
var fixtureNow = time.Date(2026, 3, 4, 10, 0, 0, 0, palaro.Manila)

func at(month time.Month, day, hour int) time.Time {
	return time.Date(2026, month, day, hour, 0, 0, 0, palaro.Manila)
}

// seedFixtures inserts three venues far apart (Manila, Cebu, Davao), tags and the events of the
// list tests, relative to fixtureNow.
func seedFixtures(t *testing.T, db *DB) {
	t.Helper()
	ctx := context.Background()
	exec := func(q string, args ...any) {
		_, err := db.write.ExecContext(ctx, q, args...)
		require.NoError(t, err, q)
	}
	exec(`INSERT INTO organizers (id, name, email, url) VALUES (1, 'Org', 'org@example.ph', 'https://example.ph')`)
	exec(`INSERT INTO venues (id, name, address, city, region, latitude, longitude) VALUES
		(1, 'Arena', 'Seashell Lane', 'Pasay', 'Metro Manila', 14.53, 120.98),
		(2, 'Skyhall', 'SRP', 'Cebu City', 'Central Visayas', 10.28, 123.88),
		(3, 'SMX Davao', 'Lanang', 'Davao City', 'Davao Region', 7.10, 125.63)`)
	exec(`INSERT INTO tags (slug, name) VALUES ('valorant', 'Valorant'), ('concert', 'Concerts'), ('unused', 'Unused')`)
	for _, f := range []fixture{
		{code: "ongoing", starts: at(3, 4, 8), hours: 4, venue: 1, popularity: 20},
		{code: "today-late", starts: at(3, 4, 20), hours: 3, venue: 1, popularity: 10},
		{code: "this-saturday", starts: at(3, 7, 12), hours: 6, venue: 2, popularity: 50, tags: []string{"valorant"}},
		{code: "next-monday", starts: at(3, 9, 12), hours: 6, venue: 3, popularity: 90},
		{code: "later-month", starts: at(3, 25, 18), hours: 4, venue: 1, popularity: 30, status: palaro.EventPostponed, tags: []string{"concert"}},
		{code: "next-month", starts: at(4, 10, 13), hours: 5, venue: 2, popularity: 70, tags: []string{"valorant"}},
		{code: "past", starts: at(3, 1, 13), hours: 5, venue: 1, popularity: 99},
		{code: "draft-event", starts: at(3, 5, 13), hours: 5, venue: 1, popularity: 100, status: "draft", tags: []string{"valorant"}},
	} {
		id, err := insertID(ctx, db.write, `INSERT INTO events (code, name, starts_at, ends_at, status, popularity,
			venue_id, organizer_id) VALUES (?, ?, ?, ?, ?, ?, ?, 1)`,
			f.code, "Event "+f.code, formatTime(f.starts), formatTime(f.starts.Add(time.Duration(f.hours)*time.Hour)),
			cmp.Or(f.status, palaro.EventScheduled), f.popularity, f.venue)
		require.NoError(t, err)
		require.NoError(t, err)
		for _, tag := range f.tags {
			exec(`INSERT INTO event_tags (event_id, tag_slug) VALUES (?, ?)`, id, tag)
		}
		exec(`INSERT INTO ticket_types (event_id, code, name, price, discount, capacity, sold, position) VALUES
			(?, ?, 'Regular', 45000, 0, 100, 10, 1), (?, ?, 'VIP', 150000, 0.2, 20, 20, 0)`,
			id, f.code+"-regular", id, f.code+"-vip")
	}
	var id int64
	require.NoError(t, db.read.QueryRowContext(ctx, `SELECT id FROM events WHERE code = 'this-saturday'`).Scan(&id))
	exec(`INSERT INTO event_links (event_id, position, label, url) VALUES (?, 1, 'Stream', 'https://twitch.tv/x'), (?, 0, 'Discord', 'https://discord.gg/x')`, id, id)
	exec(`INSERT INTO add_ons (event_id, name, price, category) VALUES (?, 'Shirt', 50000, 'Merch'), (?, 'Parking', 0, 'Access')`, id, id)
}

// fixtureService returns the event service over a fresh database holding the fixtures.
func fixtureService(t *testing.T) (*EventService, context.Context) {
	t.Helper()
	db := openTestDB(t)
	seedFixtures(t, db)
	return NewEventService(db), context.Background()
}

func codes(events []*palaro.Event) []string {
	out := make([]string, len(events))
	for i, ev := range events {
		out[i] = ev.Code
	}
	return out
}

func TestEventService_ListEvents(t *testing.T) {
	svc, ctx := fixtureService(t)
	list := func(t *testing.T, f palaro.EventFilter) palaro.EventPage {
		t.Helper()
		if f.Now.IsZero() {
			f.Now = fixtureNow
		}
		page, err := svc.ListEvents(ctx, f)
		require.NoError(t, err)
		return page
	}

	t.Run("OK", func(t *testing.T) {
		page := list(t, palaro.EventFilter{})
		require.Equal(t, []string{"ongoing", "today-late", "this-saturday", "next-monday", "later-month", "next-month"}, codes(page.Events),
			"upcoming and ongoing public events by start; past and draft events left out")
		require.False(t, page.HasMore)
		ev := page.Events[2]
		require.Equal(t, "Skyhall", ev.Venue.Name)
		require.Equal(t, []palaro.Tag{{Slug: "valorant", Name: "Valorant"}}, ev.Tags)
		require.Len(t, ev.TicketTypes, 2, "ticket types are filled for the price on the card")
		require.Equal(t, "VIP", ev.TicketTypes[0].Name, "ticket types in their position order")
		require.True(t, ev.StartsAt.Equal(at(3, 7, 12)))
	})
	t.Run("Today", func(t *testing.T) {
		require.Equal(t, []string{"ongoing", "today-late"}, codes(list(t, palaro.EventFilter{When: palaro.WhenToday}).Events))
	})
	t.Run("Week", func(t *testing.T) {
		// The week ends before Sunday 8 March; Monday's event is next week.
		require.Equal(t, []string{"ongoing", "today-late", "this-saturday"}, codes(list(t, palaro.EventFilter{When: palaro.WhenWeek}).Events))
	})
	t.Run("Month", func(t *testing.T) {
		require.Equal(t, []string{"ongoing", "today-late", "this-saturday", "next-monday", "later-month"},
			codes(list(t, palaro.EventFilter{When: palaro.WhenMonth}).Events))
	})
	t.Run("Tag", func(t *testing.T) {
		require.Equal(t, []string{"this-saturday", "next-month"}, codes(list(t, palaro.EventFilter{Tag: "valorant"}).Events))
		require.Empty(t, list(t, palaro.EventFilter{Tag: "unused"}).Events)
		require.Equal(t, []string{"this-saturday"}, codes(list(t, palaro.EventFilter{Tag: "valorant", When: palaro.WhenWeek}).Events))
	})
	t.Run("AroundMe", func(t *testing.T) {
		davao := &palaro.GeoPoint{Latitude: 7.07, Longitude: 125.61}
		page := list(t, palaro.EventFilter{When: palaro.WhenAroundMe, Near: davao})
		require.Equal(t, []string{"next-monday", "this-saturday", "next-month", "ongoing", "today-late", "later-month"}, codes(page.Events),
			"Davao first, then Cebu, then Manila; by start within one venue")
		manila := &palaro.GeoPoint{Latitude: 14.55, Longitude: 121.0}
		require.Equal(t, "ongoing", list(t, palaro.EventFilter{Near: manila}).Events[0].Code)
	})
	t.Run("Popular", func(t *testing.T) {
		require.Equal(t, []string{"next-monday", "next-month", "this-saturday"}, codes(list(t, palaro.EventFilter{Popular: true, Limit: 3}).Events),
			"most popular first; the past event (99) and the draft (100) are left out")
	})
	t.Run("Pagination", func(t *testing.T) {
		first := list(t, palaro.EventFilter{Limit: 4})
		require.Equal(t, []string{"ongoing", "today-late", "this-saturday", "next-monday"}, codes(first.Events))
		require.True(t, first.HasMore)
		second := list(t, palaro.EventFilter{Limit: 4, Offset: 4})
		require.Equal(t, []string{"later-month", "next-month"}, codes(second.Events))
		require.False(t, second.HasMore)
		exact := list(t, palaro.EventFilter{Limit: 3, Offset: 3})
		require.Len(t, exact.Events, 3)
		require.False(t, exact.HasMore, "a page that ends exactly at the last event has no more")
	})
	t.Run("ErrInvalidFilter", func(t *testing.T) {
		_, err := svc.ListEvents(ctx, palaro.EventFilter{When: "tomorrow", Now: fixtureNow})
		require.Equal(t, palaro.EINVALID, palaro.ErrorCode(err))
	})
}

func TestEventService_FindEventByCode(t *testing.T) {
	svc, ctx := fixtureService(t)

	t.Run("OK", func(t *testing.T) {
		ev, err := svc.FindEventByCode(ctx, "this-saturday")
		require.NoError(t, err)
		require.Equal(t, "Event this-saturday", ev.Name)
		require.Equal(t, "Cebu City", ev.Venue.City)
		require.Equal(t, "Org", ev.Organizer.Name)
		require.Equal(t, []palaro.Link{{Label: "Discord", URL: "https://discord.gg/x"}, {Label: "Stream", URL: "https://twitch.tv/x"}}, ev.Links)
		require.Len(t, ev.AddOns, 2)
		require.Equal(t, "Access", ev.AddOns[0].Category, "add-ons by category")
		require.Len(t, ev.TicketTypes, 2)
		vip := ev.TicketTypes[0]
		require.Equal(t, "this-saturday-vip", vip.Code)
		require.Equal(t, palaro.Money(150000), vip.Price)
		require.InDelta(t, 0.2, vip.Discount, 1e-9)
		require.Equal(t, 0, vip.Available())
		require.Equal(t, []string{palaro.PaymentQR, palaro.PaymentCard}, vip.PaymentTypes)
		require.Empty(t, ev.RequiredFields)
	})
	t.Run("PastAndPostponed", func(t *testing.T) {
		// Past events keep their pages; postponed ones say so.
		ev, err := svc.FindEventByCode(ctx, "past")
		require.NoError(t, err)
		require.Equal(t, "past", ev.Code)
		ev, err = svc.FindEventByCode(ctx, "later-month")
		require.NoError(t, err)
		require.Equal(t, palaro.EventPostponed, ev.Status)
	})
	t.Run("ErrNotFound", func(t *testing.T) {
		for _, code := range []string{"draft-event", "no-such-event", "Bad_Code!", "../etc/passwd", "", "this-saturday' OR '1'='1"} {
			_, err := svc.FindEventByCode(ctx, code)
			require.Equal(t, palaro.ENOTFOUND, palaro.ErrorCode(err), "code %q", code)
		}
	})
}

func TestEventService_ListEventsBetween(t *testing.T) {
	svc, ctx := fixtureService(t)

	t.Run("OK", func(t *testing.T) {
		events, err := svc.ListEventsBetween(ctx, at(3, 1, 0), at(3, 8, 0))
		require.NoError(t, err)
		require.Equal(t, []string{"past", "ongoing", "today-late", "this-saturday"}, codes(events), "past events included, drafts not")
		require.Equal(t, "Valorant", events[3].Tags[0].Name)
	})
	t.Run("Overlap", func(t *testing.T) {
		// 'ongoing' runs 08:00–12:00 on 4 March: a window from 11:00 catches it, one from 12:00 does not.
		events, err := svc.ListEventsBetween(ctx, at(3, 4, 11), at(3, 4, 12))
		require.NoError(t, err)
		require.Equal(t, []string{"ongoing"}, codes(events))
		events, err = svc.ListEventsBetween(ctx, at(3, 4, 12), at(3, 4, 13))
		require.NoError(t, err)
		require.Empty(t, events)
	})
	t.Run("ErrInvalidRange", func(t *testing.T) {
		_, err := svc.ListEventsBetween(ctx, at(3, 8, 0), at(3, 1, 0))
		require.Equal(t, palaro.EINVALID, palaro.ErrorCode(err))
		_, err = svc.ListEventsBetween(ctx, at(3, 1, 0), at(3, 1, 0).AddDate(2, 0, 0))
		require.Equal(t, palaro.EINVALID, palaro.ErrorCode(err))
	})
}

func TestEventService_Tags(t *testing.T) {
	svc, ctx := fixtureService(t)

	t.Run("OK", func(t *testing.T) {
		tag, err := svc.FindTag(ctx, "valorant")
		require.NoError(t, err)
		require.Equal(t, "Valorant", tag.Name)
		tags, err := svc.ListTags(ctx)
		require.NoError(t, err)
		require.Equal(t, []palaro.Tag{{Slug: "concert", Name: "Concerts"}, {Slug: "valorant", Name: "Valorant"}}, tags,
			"only tags with public events")
	})
	t.Run("ErrNotFound", func(t *testing.T) {
		for _, slug := range []string{"no-such-tag", "Valorant", "a/b"} {
			_, err := svc.FindTag(ctx, slug)
			require.Equal(t, palaro.ENOTFOUND, palaro.ErrorCode(err), slug)
		}
	})
}

func TestDB_SeedDemo(t *testing.T) {
	ctx := context.Background()

	// The demo data is relative to the moment it is loaded: at any of these instants (a day, a week,
	// a month and a year turning over in Manila, some given in UTC) each date filter has events.
	for _, now := range []time.Time{
		fixtureNow,
		time.Date(2026, 3, 4, 23, 59, 0, 0, palaro.Manila),
		time.Date(2026, 3, 4, 16, 1, 0, 0, time.UTC), // 00:01 on Thursday 5 March in Manila
		time.Date(2026, 3, 7, 23, 59, 0, 0, palaro.Manila),
		time.Date(2026, 3, 31, 23, 59, 0, 0, palaro.Manila),
		time.Date(2026, 12, 31, 23, 59, 0, 0, palaro.Manila),
		time.Date(2026, 12, 31, 16, 1, 0, 0, time.UTC), // 00:01 on 1 January 2027 in Manila
	} {
		t.Run("OK "+now.Format(time.RFC3339), func(t *testing.T) {
			db := openTestDB(t)
			require.NoError(t, db.SeedDemo(ctx, now))
			svc := NewEventService(db)
			all, err := svc.ListEvents(ctx, palaro.EventFilter{Now: now, Limit: 100})
			require.NoError(t, err)
			require.GreaterOrEqual(t, len(all.Events), 28, "most demo events are upcoming")
			for _, when := range []string{palaro.WhenToday, palaro.WhenWeek, palaro.WhenMonth} {
				page, err := svc.ListEvents(ctx, palaro.EventFilter{When: when, Now: now})
				require.NoError(t, err)
				require.NotEmpty(t, page.Events, "demo data has events for %q", when)
			}
			var total, past, free, discounted int
			require.NoError(t, db.read.QueryRow(`SELECT COUNT(*), SUM(CASE WHEN ends_at < ? THEN 1 ELSE 0 END) FROM events`, formatTime(now)).Scan(&total, &past))
			require.NoError(t, db.read.QueryRow(`SELECT SUM(CASE WHEN price = 0 THEN 1 ELSE 0 END), SUM(CASE WHEN discount > 0 THEN 1 ELSE 0 END) FROM ticket_types`).Scan(&free, &discounted))
			require.GreaterOrEqual(t, total, 30)
			require.Positive(t, past, "a few past events")
			require.Positive(t, free, "free tickets")
			require.Positive(t, discounted, "discounted tickets")
		})
	}
	t.Run("ErrNotEmpty", func(t *testing.T) {
		db := openTestDB(t)
		seedFixtures(t, db)
		err := db.SeedDemo(ctx, fixtureNow)
		require.Equal(t, palaro.ECONFLICT, palaro.ErrorCode(err))
		var n int
		require.NoError(t, db.read.QueryRow(`SELECT COUNT(*) FROM events`).Scan(&n))
		require.Equal(t, 8, n, "nothing was added")
	})
}

// TestEventService_ListEvents_Instants runs the Today, This week and This month lists at the
// instants where a day, week, month or year turns over in Manila, some given in UTC (whose date is
// then the day before): each list holds the events that overlap its window, so an event that
// started yesterday evening and is still running is listed under Today.
func TestEventService_ListEvents_Instants(t *testing.T) {
	db := openTestDB(t)
	ctx := context.Background()
	_, err := db.write.ExecContext(ctx, `INSERT INTO organizers (id, name, email, url) VALUES (1, 'Org', 'org@example.ph', 'https://example.ph');
		INSERT INTO venues (id, name, address, city, region, latitude, longitude) VALUES (1, 'Arena', 'Seashell Lane', 'Pasay', 'Metro Manila', 14.53, 120.98)`)
	require.NoError(t, err)
	manila := func(y int, m time.Month, d, h, min int) time.Time {
		return time.Date(y, m, d, h, min, 0, 0, palaro.Manila)
	}
	for _, ev := range []struct {
		code       string
		starts, to time.Time
	}{
		{"wed-overnight", manila(2026, 3, 4, 22, 0), manila(2026, 3, 5, 4, 0)},
		{"wed-ends-2359", manila(2026, 3, 4, 20, 0), manila(2026, 3, 4, 23, 59)},
		{"thu-evening", manila(2026, 3, 5, 19, 0), manila(2026, 3, 5, 23, 0)},
		{"sat-late", manila(2026, 3, 7, 23, 0), manila(2026, 3, 8, 1, 0)},
		{"sun-morning", manila(2026, 3, 8, 10, 0), manila(2026, 3, 8, 14, 0)},
		{"mar31-night", manila(2026, 3, 31, 21, 0), manila(2026, 4, 1, 2, 0)},
		{"apr1-noon", manila(2026, 4, 1, 12, 0), manila(2026, 4, 1, 16, 0)},
		{"new-years-eve", manila(2026, 12, 31, 20, 0), manila(2027, 1, 1, 2, 0)},
		{"jan1-noon", manila(2027, 1, 1, 12, 0), manila(2027, 1, 1, 18, 0)},
		{"jan4", manila(2027, 1, 4, 10, 0), manila(2027, 1, 4, 12, 0)},
	} {
		_, err := db.write.ExecContext(ctx, `INSERT INTO events (code, name, starts_at, ends_at, status, venue_id, organizer_id)
			VALUES (?, ?, ?, ?, 'scheduled', 1, 1)`, ev.code, ev.code, formatTime(ev.starts), formatTime(ev.to))
		require.NoError(t, err)
	}
	svc := NewEventService(db)
	utc := func(y int, m time.Month, d, h, min int) time.Time { return time.Date(y, m, d, h, min, 0, 0, time.UTC) }
	for _, tc := range []struct {
		name               string
		now                time.Time
		today, week, month []string
	}{
		{"Wednesday 23:59", manila(2026, 3, 4, 23, 59),
			[]string{"wed-overnight"}, []string{"wed-overnight", "thu-evening", "sat-late"},
			[]string{"wed-overnight", "thu-evening", "sat-late", "sun-morning", "mar31-night"}},
		{"Thursday 00:01, as UTC", utc(2026, 3, 4, 16, 1),
			[]string{"wed-overnight", "thu-evening"}, []string{"wed-overnight", "thu-evening", "sat-late"},
			[]string{"wed-overnight", "thu-evening", "sat-late", "sun-morning", "mar31-night"}},
		{"Saturday 23:59", manila(2026, 3, 7, 23, 59),
			[]string{"sat-late"}, []string{"sat-late"}, []string{"sat-late", "sun-morning", "mar31-night"}},
		{"Sunday 00:01", manila(2026, 3, 8, 0, 1),
			[]string{"sat-late", "sun-morning"}, []string{"sat-late", "sun-morning"}, []string{"sat-late", "sun-morning", "mar31-night"}},
		{"last day of the month 23:59", manila(2026, 3, 31, 23, 59),
			[]string{"mar31-night"}, []string{"mar31-night", "apr1-noon"}, []string{"mar31-night"}},
		{"first of the month 00:01, as UTC", utc(2026, 3, 31, 16, 1),
			[]string{"mar31-night", "apr1-noon"}, []string{"mar31-night", "apr1-noon"}, []string{"mar31-night", "apr1-noon"}},
		{"31 December 23:59", manila(2026, 12, 31, 23, 59),
			[]string{"new-years-eve"}, []string{"new-years-eve", "jan1-noon"}, []string{"new-years-eve"}},
		{"1 January 00:01, as UTC on 31 December", utc(2026, 12, 31, 16, 1),
			[]string{"new-years-eve", "jan1-noon"}, []string{"new-years-eve", "jan1-noon"}, []string{"new-years-eve", "jan1-noon", "jan4"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			for when, want := range map[string][]string{palaro.WhenToday: tc.today, palaro.WhenWeek: tc.week, palaro.WhenMonth: tc.month} {
				page, err := svc.ListEvents(ctx, palaro.EventFilter{When: when, Now: tc.now})
				require.NoError(t, err)
				require.Equal(t, want, codes(page.Events), when)
			}
		})
	}
}
