package store

import (
	"context"
	"fmt"
	"io/fs"
	"testing"

	"github.com/pressly/goose/v3"
	"github.com/stretchr/testify/require"

	"palaro"
)

// newDatedWaitlist is the waiting-list fixture whose event (tekken-tuesdays-cubao) is a series
// of n weekly dates, with a free day type of capacity places a date, each date sold out.
func newDatedWaitlist(t *testing.T, code string, capacity, n int) (*waitlistFixture, string, []palaro.EventDate, [][]*palaro.Order) {
	t.Helper()
	f := newWaitlistFixture(t)
	sf := &seriesFixture{purchaseFixture: f.purchaseFixture, series: NewSeriesService(f.db)}
	require.NoError(t, f.db.read.QueryRow(`SELECT id FROM events WHERE code = 'tekken-tuesdays-cubao'`).Scan(&sf.eventID))
	day := f.addTicketType(t, code, 0, capacity, 1)
	dates := sf.weekly(t, n, nil)
	sold := make([][]*palaro.Order, n)
	for i, d := range dates {
		for k := range capacity {
			o, err := f.purchases.CreateOrder(context.Background(), dated(day, d.Slug, 1, fmt.Sprintf("buyer%d-%d@x.ph", i, k)), f.clock)
			require.NoError(t, err)
			sold[i] = append(sold[i], o)
		}
	}
	return f, day, dates, sold
}

func (f *waitlistFixture) joinOn(t *testing.T, code, slug, email string) *palaro.WaitlistJoined {
	t.Helper()
	j, err := f.lists.Join(context.Background(), palaro.WaitlistJoin{TicketCode: code, Date: slug, Email: email, Quantity: 1}, f.clock)
	require.NoError(t, err)
	return j
}

// entryOn is the status of an address's entry for one date.
func (f *waitlistFixture) entryOn(t *testing.T, dateID int64, email string) string {
	t.Helper()
	var s string
	require.NoError(t, f.db.read.QueryRow(`SELECT status FROM waitlist_entries WHERE date_id = ? AND email = ?`, dateID, email).Scan(&s))
	return s
}

func TestWaitlist_PerDate(t *testing.T) {
	ctx := context.Background()
	f, day, dates, sold := newDatedWaitlist(t, "wl-dated", 1, 3)
	first, second := dates[0], dates[1]
	sf := &seriesFixture{purchaseFixture: f.purchaseFixture}

	t.Run("ErrNoDate", func(t *testing.T) {
		_, err := f.lists.Join(ctx, palaro.WaitlistJoin{TicketCode: day, Email: "w@x.ph", Quantity: 1}, f.clock)
		var e *palaro.Error
		require.ErrorAs(t, err, &e)
		require.Equal(t, palaro.MsgDateRequired, e.Fields[palaro.FieldDate], "a day ticket's list is a date's")
	})
	t.Run("ErrDateOnSale", func(t *testing.T) {
		o := sold[2][0]
		require.NoError(t, NewOrganizerService(f.db, nil).CancelTicket(ctx, o.EventID, o.Tickets[0].Code, "owner@x.ph"))
		_, err := f.lists.Join(ctx, palaro.WaitlistJoin{TicketCode: day, Date: dates[2].Slug, Email: "w@x.ph", Quantity: 1}, f.clock)
		require.Equal(t, palaro.ECONFLICT, palaro.ErrorCode(err))
		require.Contains(t, palaro.ErrorMessage(err), "can be bought now")
	})

	one := f.joinOn(t, day, first.Slug, "w1@x.ph")
	require.Equal(t, [2]any{first.ID, 1}, [2]any{one.Entry.DateID, one.Entry.Position})
	two := f.joinOn(t, day, second.Slug, "w2@x.ph")
	require.Equal(t, [2]any{second.Slug, 1}, [2]any{two.Entry.DateSlug, two.Entry.Position}, "each date has its own order")
	also := f.joinOn(t, day, second.Slug, "w1@x.ph")
	require.False(t, also.Updated, "one address may wait for two dates")
	require.Equal(t, 2, also.Entry.Position)
	var body string
	require.NoError(t, f.db.read.QueryRow(`SELECT body_text FROM outbox WHERE recipient = 'w2@x.ph' AND kind = ?`,
		palaro.MessageWaitlistJoined).Scan(&body))
	require.Contains(t, body, "Sat 16 Jan 2027", "the confirmation names the date")

	// a ticket of the second date is cancelled: its place goes to the second date's first entry only
	org := NewOrganizerService(f.db, nil)
	require.NoError(t, org.CancelTicket(ctx, sold[1][0].EventID, sold[1][0].Tickets[0].Code, "owner@x.ph"))
	require.Equal(t, palaro.WaitlistOffered, f.entryOn(t, second.ID, "w2@x.ph"))
	require.Equal(t, palaro.WaitlistWaiting, f.entryOn(t, first.ID, "w1@x.ph"), "the first date's list waits on")
	require.Equal(t, palaro.WaitlistWaiting, f.entryOn(t, second.ID, "w1@x.ph"))
	s, h, _ := sf.stock(t, second.ID, day)
	require.Equal(t, [2]int{0, 1}, [2]int{s, h}, "the offer holds the date's place")
	token := f.offerToken(t, "w2@x.ph")
	o, err := f.lists.FindOffer(ctx, token)
	require.NoError(t, err)
	require.Equal(t, second.Slug, o.DateSlug)
	require.NoError(t, f.db.read.QueryRow(`SELECT body_text FROM outbox WHERE recipient = 'w2@x.ph' AND kind = ?`,
		palaro.MessageWaitlistOffer).Scan(&body))
	require.Contains(t, body, "Sat 16 Jan 2027", "the offer names the date")

	// nobody else can buy the held place; the offer buys for its own date only
	_, err = f.purchases.CreateOrder(ctx, dated(day, second.Slug, 1, "rush@x.ph"), f.clock)
	require.Equal(t, palaro.ECONFLICT, palaro.ErrorCode(err))
	wrong := dated(day, first.Slug, 1, "w2@x.ph")
	wrong.Offer = token
	_, err = f.purchases.CreateOrder(ctx, wrong, f.clock)
	require.Equal(t, palaro.EINVALID, palaro.ErrorCode(err))
	require.Contains(t, palaro.ErrorMessage(err), "is for Sat 16 Jan 2027")

	// the offer ends unclaimed: it passes to the second date's next entry, not the first date's
	f.passOn(t, o.ExpiresAt)
	require.Equal(t, palaro.WaitlistPassed, f.entryOn(t, second.ID, "w2@x.ph"))
	require.Equal(t, palaro.WaitlistOffered, f.entryOn(t, second.ID, "w1@x.ph"))
	require.Equal(t, palaro.WaitlistWaiting, f.entryOn(t, first.ID, "w1@x.ph"))
	next, err := f.lists.FindOffer(ctx, f.offerToken(t, "w1@x.ph"))
	require.NoError(t, err)
	require.Equal(t, second.ID, next.DateID)

	claim := dated(day, second.Slug, 1, "w1@x.ph")
	claim.Offer = f.offerToken(t, "w1@x.ph")
	got, err := f.purchases.CreateOrder(ctx, claim, f.clock)
	require.NoError(t, err)
	require.Equal(t, second.ID, got.Date.ID)
	s, h, _ = sf.stock(t, second.ID, day)
	require.Equal(t, [2]int{1, 0}, [2]int{s, h}, "the claim's order took the place its offer held")
	require.Equal(t, palaro.WaitlistClaimed, f.entryOn(t, second.ID, "w1@x.ph"))

	board, err := f.lists.Board(ctx, first.EventID)
	require.NoError(t, err)
	var slugs []string
	for _, e := range board.Entries {
		slugs = append(slugs, e.DateSlug+" "+e.Email)
	}
	require.Equal(t, []string{first.Slug + " w1@x.ph", second.Slug + " w2@x.ph", second.Slug + " w1@x.ph"}, slugs,
		"the console's list is by date, then in order of joining")
}

// TestWaitlist_PerDateReturnsRush frees the second date's places while rush buyers and the job
// race for them: each goes to the second date's waiting entries in order, once, and never to an
// entry of the first date (which joined earlier).
func TestWaitlist_PerDateReturnsRush(t *testing.T) {
	ctx := context.Background()
	const places = 3
	f, day, dates, sold := newDatedWaitlist(t, "wl-dated-rush", places, 2)
	first, second := dates[0], dates[1]
	for i := range 4 {
		f.joinOn(t, day, first.Slug, fmt.Sprintf("one%d@x.ph", i))
	}
	for i := range 5 {
		f.joinOn(t, day, second.Slug, fmt.Sprintf("two%d@x.ph", i))
	}
	org := NewOrganizerService(f.db, nil)
	granted := storm(30, func(i int) int {
		switch {
		case i < places:
			o := sold[1][i]
			if err := org.CancelTicket(ctx, o.EventID, o.Tickets[0].Code, "owner@x.ph"); err != nil {
				t.Errorf("cancel %d: %v", i, err)
			}
		case i%5 == 0:
			if _, _, err := f.lists.Advance(ctx, f.clock); err != nil {
				t.Errorf("advance: %v", err)
			}
		default:
			o, err := f.purchases.CreateOrder(ctx, dated(day, second.Slug, 1, fmt.Sprintf("rush%d@x.ph", i)), f.clock)
			if err == nil {
				return o.Quantity
			}
			if palaro.ErrorCode(err) != palaro.ECONFLICT {
				t.Errorf("rush %d: %v", i, err)
			}
		}
		return 0
	})
	require.Zero(t, granted, "the freed places went to the waiting list, not to the rush")
	sf := &seriesFixture{purchaseFixture: f.purchaseFixture}
	s, h, c := sf.stock(t, second.ID, day)
	require.Equal(t, [3]int{0, places, places}, [3]int{s, h, c}, "the offers hold the date's places, never more")
	require.Equal(t, 0, f.countRows(t, `SELECT count(*) FROM waitlist_offers f JOIN waitlist_entries w ON w.id = f.entry_id
		WHERE w.date_id = ?`, first.ID), "no offer to an entry of the first date")
	require.Equal(t, places, f.countRows(t, `SELECT count(*) FROM waitlist_offers WHERE date_id = ? AND status = 'open'`, second.ID))
	require.Equal(t, places, f.countRows(t, `SELECT count(DISTINCT entry_id) FROM waitlist_offers WHERE date_id = ?`, second.ID),
		"each entry offered once")
	for i := range 5 {
		want := palaro.WaitlistWaiting
		if i < places {
			want = palaro.WaitlistOffered
		}
		require.Equal(t, want, f.entryOn(t, second.ID, fmt.Sprintf("two%d@x.ph", i)), "in list order")
	}
	s, h, _ = sf.stock(t, first.ID, day)
	require.Equal(t, [2]int{places, 0}, [2]int{s, h}, "the first date is untouched")
}

// TestWaitlist_DateCancelledOrPostponed: cancelling a date ends its waiting list (the open offer
// closed and its place given back, every entry passed, each person told by e-mail, nothing offered
// after); postponing one closes its open offer but keeps the entries in their places, offered
// again once the date is back on sale.
func TestWaitlist_DateCancelledOrPostponed(t *testing.T) {
	ctx := context.Background()
	f, day, dates, sold := newDatedWaitlist(t, "wl-dated-off", 1, 3)
	first, second := dates[0], dates[1]
	series, org := NewSeriesService(f.db), NewOrganizerService(f.db, nil)
	sf := &seriesFixture{purchaseFixture: f.purchaseFixture}
	setStatus := func(d palaro.EventDate, status string) {
		t.Helper()
		in := d.InputOf()
		in.Status = status
		_, err := series.UpdateDate(ctx, d.EventID, d.Slug, in, "owner@x.ph", f.clock)
		require.NoError(t, err)
	}
	offMail := func(email string) string {
		t.Helper()
		var body string
		require.NoError(t, f.db.read.QueryRow(`SELECT body_text FROM outbox WHERE recipient = ? AND kind = ? ORDER BY id DESC LIMIT 1`,
			email, palaro.MessageWaitlistDateOff).Scan(&body))
		return body
	}
	for _, d := range []palaro.EventDate{first, second} {
		f.joinOn(t, day, d.Slug, "a@x.ph")
		f.joinOn(t, day, d.Slug, "b@x.ph")
		o := sold[map[int64]int{first.ID: 0, second.ID: 1}[d.ID]][0]
		require.NoError(t, org.CancelTicket(ctx, o.EventID, o.Tickets[0].Code, "owner@x.ph"))
		require.Equal(t, palaro.WaitlistOffered, f.entryOn(t, d.ID, "a@x.ph"))
	}
	offer := f.offerToken(t, "a@x.ph")

	setStatus(first, palaro.DateCancelled)
	require.Equal(t, palaro.WaitlistPassed, f.entryOn(t, first.ID, "a@x.ph"))
	require.Equal(t, palaro.WaitlistPassed, f.entryOn(t, first.ID, "b@x.ph"), "a cancelled date's list ends")
	_, h, _ := sf.stock(t, first.ID, day)
	require.Zero(t, h, "the offer's place is given back")
	require.Contains(t, offMail("b@x.ph"), "Sat 9 Jan 2027 is cancelled")
	require.NotContains(t, offMail("b@x.ph"), "held for you")
	require.Equal(t, 1, f.countRows(t, `SELECT count(*) FROM outbox WHERE recipient = 'a@x.ph' AND kind = ?`, palaro.MessageWaitlistDateOff))
	require.Contains(t, offMail("a@x.ph"), "The 1 ticket held for you was released")
	require.Equal(t, palaro.WaitlistOffered, f.entryOn(t, second.ID, "a@x.ph"), "the other date's list is untouched")

	setStatus(second, palaro.DatePostponed)
	o, err := f.lists.FindOffer(ctx, offer)
	require.NoError(t, err)
	require.Equal(t, palaro.OfferExpired, o.Status, "the postponed date's offer is closed")
	require.Equal(t, palaro.WaitlistWaiting, f.entryOn(t, second.ID, "a@x.ph"), "it keeps its place")
	require.Contains(t, offMail("b@x.ph"), "Sat 16 Jan 2027 is postponed")
	require.Contains(t, offMail("a@x.ph"), "You keep your place")
	_, offered, err := f.lists.Advance(ctx, f.clock)
	require.NoError(t, err)
	require.Zero(t, offered, "nothing is offered for a cancelled or postponed date")

	setStatus(second, palaro.DateScheduled)
	_, offered, err = f.lists.Advance(ctx, f.clock)
	require.NoError(t, err)
	require.Equal(t, 1, offered, "back on sale, the postponed date's list is offered again, in order")
	require.Equal(t, palaro.WaitlistOffered, f.entryOn(t, second.ID, "a@x.ph"))
	require.Equal(t, palaro.WaitlistPassed, f.entryOn(t, first.ID, "a@x.ph"))
}

// TestWaitlist_DatesMigrationDown steps migration 01800 back down with an address waiting for two
// dates of one type, the second with an open offer: its first entry is kept, the other goes with
// its offer, and the old unique key (type, e-mail) holds again; no reference is left dangling.
func TestWaitlist_DatesMigrationDown(t *testing.T) {
	ctx := context.Background()
	f, day, dates, sold := newDatedWaitlist(t, "wl-down", 1, 2)
	first := f.joinOn(t, day, dates[0].Slug, "a@x.ph")
	f.joinOn(t, day, dates[1].Slug, "a@x.ph")
	o := sold[1][0]
	require.NoError(t, NewOrganizerService(f.db, nil).CancelTicket(ctx, o.EventID, o.Tickets[0].Code, "owner@x.ph"))
	require.Equal(t, 1, f.countRows(t, `SELECT count(*) FROM waitlist_offers`))

	conn, dir, dialect, opts := f.db.write, "migrations", goose.DialectSQLite3, []goose.ProviderOption{goose.WithAllowOutofOrder(true),
		goose.WithGoMigrations(sqliteGoMigrations...)}
	if f.db.postgres {
		plain, err := openPostgresPlain(f.db.path)
		require.NoError(t, err)
		defer plain.Close()
		conn, dir, dialect, opts = plain, "migrations_postgres", goose.DialectPostgres, opts[:1]
	}
	sub, err := fs.Sub(migrationFiles, dir)
	require.NoError(t, err)
	p, err := goose.NewProvider(dialect, conn, sub, opts...)
	require.NoError(t, err)
	// down to just before 01800, the migrations after it first (the test holds as others are added)
	res, err := p.DownTo(ctx, 1799)
	require.NoError(t, err)
	require.NotEmpty(t, res)
	require.Equal(t, int64(1800), res[len(res)-1].Source.Version)

	require.Equal(t, 1, f.countRows(t, `SELECT count(*) FROM waitlist_entries WHERE id = ?`, first.Entry.ID), "the first entry is kept")
	require.Equal(t, 1, f.countRows(t, `SELECT count(*) FROM waitlist_entries`))
	require.Zero(t, f.countRows(t, `SELECT count(*) FROM waitlist_offers`), "the other entry's offer went with it")
	_, err = f.db.write.Exec(`INSERT INTO waitlist_entries (event_id, ticket_type_id, email, quantity, status, joined_at, updated_at)
		SELECT event_id, ticket_type_id, email, 1, 'waiting', joined_at, updated_at FROM waitlist_entries`)
	require.Error(t, err, "one entry per type and e-mail again")
	if !f.db.postgres {
		require.Zero(t, f.countRows(t, `SELECT count(*) FROM pragma_foreign_key_check`))
	}
}
