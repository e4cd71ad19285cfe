package store

import (
	"context"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"palaro"
	"palaro/internal/testdb"
	"palaro/notify"
)

const teamFee palaro.Money = 500_00

// withFee gives the fixture's tournament an entry fee and returns the purchases that take it.
func (f *teamsFixture) withFee(t *testing.T, db *DB) *PurchaseService {
	t.Helper()
	tour := *f.t
	tour.EntryFee = teamFee
	got, err := f.svc.SaveTournament(context.Background(), "cup", tour, teamsNow)
	require.NoError(t, err)
	f.t = got
	return NewPurchaseService(db, notify.NewComposer("https://palaro.test", "help@palaro.test"), time.Minute)
}

// payEntry pays a registration's entry-fee order through the sandbox's checkout.
func payEntry(t *testing.T, purchases *PurchaseService, team *palaro.Team) *palaro.Order {
	t.Helper()
	o, err := tryPayEntry(purchases, team)
	require.NoError(t, err)
	return o
}

// tryPayEntry is payEntry for any goroutine: it returns what went wrong.
func tryPayEntry(purchases *PurchaseService, team *palaro.Team) (*palaro.Order, error) {
	ctx := context.Background()
	o, err := purchases.FindOrderByPublicID(ctx, team.OrderPublicID)
	if err != nil {
		return nil, err
	}
	session := "cs_" + team.OrderPublicID
	if err := purchases.AttachCheckout(ctx, o.ID, "sandbox", palaro.CheckoutSession{ID: session, URL: "https://pay.test/" + session}); err != nil {
		return nil, err
	}
	return purchases.ConfirmPayment(ctx, "sandbox", false, paid("evt_"+team.OrderPublicID, session, teamFee))
}

// TestTeams_EntryFee: a registration with a fee takes no place until paid; places go in the
// order of payment, the waiting list after; an unpaid registration expires like a hold and frees
// nothing; the paid order has its invoice; a refused team's fee is refunded and the first
// waiting team takes its place.
func TestTeams_EntryFee(t *testing.T) {
	ctx := context.Background()
	f := newTeamsFixture(t, testdb.URL(t), 2, 4, palaro.CheckInByCaptain)
	purchases := f.withFee(t, f.db)
	f.svc.SetPayments(NewRefundService(f.db, nil), time.Minute)
	at := teamsNow.Add(-3 * time.Hour)
	var regs []*palaro.Team
	for i := range 4 {
		reg := f.register(t, i, at)
		require.Equal(t, palaro.TeamUnpaid, reg.Status)
		require.NotEmpty(t, reg.OrderPublicID)
		regs = append(regs, reg)
	}
	teams, err := f.svc.ListTeams(ctx, f.t.ID)
	require.NoError(t, err)
	require.Empty(t, teams, "no team before its fee is paid")

	// the fee is an order of the event like a ticket's, not listed for sale
	ev, err := NewEventService(f.db).FindEventByCode(ctx, "cup")
	require.NoError(t, err)
	require.Empty(t, ev.TicketTypes)
	o := payEntry(t, purchases, regs[3])
	require.Equal(t, palaro.OrderPaid, o.Status)
	require.Empty(t, o.Tickets, "an entry fee issues no ticket")
	payEntry(t, purchases, regs[1])
	payEntry(t, purchases, regs[2])
	var registered, confirmations int
	require.NoError(t, f.db.read.QueryRow(`SELECT count(CASE WHEN kind = ? THEN 1 END), count(CASE WHEN kind = ? THEN 1 END)
		FROM outbox WHERE recipient = 'captain3@x.ph'`, palaro.MessageTeamRegistered, palaro.MessageOrderConfirmation).Scan(&registered, &confirmations))
	require.Equal(t, [2]int{1, 0}, [2]int{registered, confirmations}, "the paid fee's e-mail is the team's registration, not a ticket's")
	var invoices int
	require.NoError(t, f.db.read.QueryRow(`SELECT count(*) FROM invoices WHERE order_id = ? AND kind = 'invoice' AND total = ?`,
		o.ID, teamFee).Scan(&invoices))
	require.Equal(t, 1, invoices)
	// the gate counts tickets: the fees paid are neither a ticket type there nor admissions expected
	counts, err := NewCheckInService(f.db).CheckInCounts(ctx, f.t.EventID, "")
	require.NoError(t, err)
	require.Empty(t, counts.ByType)
	require.Zero(t, counts.Sold)

	teams, err = f.svc.ListTeams(ctx, f.t.ID)
	require.NoError(t, err)
	got := []string{}
	for _, team := range teams {
		got = append(got, fmt.Sprintf("%d %s %s", team.Entry, team.Name, team.Status))
	}
	require.Equal(t, []string{"1 Team 3 registered", "2 Team 1 registered", "3 Team 2 waitlisted"}, got, "places in the order of payment")

	// the unpaid registration expires like a hold: its order, nothing else
	n, err := purchases.ExpireHolds(ctx, at.Add(2*time.Minute))
	require.NoError(t, err)
	require.Equal(t, 1, n)
	var held, sold int
	require.NoError(t, f.db.read.QueryRow(`SELECT held, sold FROM ticket_types WHERE tournament_id = ?`, f.t.ID).Scan(&held, &sold))
	require.Equal(t, [2]int{0, 3}, [2]int{held, sold})
	tour, err := f.svc.FindTournament(ctx, f.t.Code)
	require.NoError(t, err)
	require.Equal(t, [2]int{2, 1}, [2]int{tour.Registered, tour.Waitlisted})

	// refused: its fee is refunded whole, and the waiting team moves up
	require.NoError(t, f.svc.SetTeamStatus(ctx, "cup", regs[1].PublicID, palaro.TeamRefused, nil, teamsNow))
	require.Equal(t, palaro.TeamRegistered, f.status(t, regs[2]))
	var amount palaro.Money
	var status string
	require.NoError(t, f.db.read.QueryRow(`SELECT r.amount, r.status FROM refunds r JOIN orders o ON o.id = r.order_id
		WHERE o.public_id = ?`, regs[1].OrderPublicID).Scan(&amount, &status))
	require.Equal(t, teamFee, amount)
	require.Equal(t, palaro.RefundPending, status)
	// asked again (refused once more): nothing more is refunded
	require.NoError(t, f.svc.SetTeamStatus(ctx, "cup", regs[1].PublicID, palaro.TeamDisqualified, nil, teamsNow))
	var refunds int
	require.NoError(t, f.db.read.QueryRow(`SELECT count(*) FROM refunds`).Scan(&refunds))
	require.Equal(t, 1, refunds)
	// given a place again, it would play without paying: refused, with the reason
	err = f.svc.SetTeamStatus(ctx, "cup", regs[1].PublicID, palaro.TeamRegistered, nil, teamsNow)
	require.Equal(t, palaro.ECONFLICT, palaro.ErrorCode(err))
	require.Contains(t, palaro.ErrorMessage(err), "entry fee of Team 1 was refunded")
	require.Equal(t, palaro.TeamDisqualified, f.status(t, regs[1]))
}

// TestTeams_EntryFeeLatePaymentAndName: a payment after the hold expired still registers the
// team (a place is taken when paid); a paid registration whose name another team took while it
// was unpaid is not registered: its order is marked for refund, the refund started and the
// captain e-mailed.
func TestTeams_EntryFeeLatePaymentAndName(t *testing.T) {
	ctx := context.Background()
	f := newTeamsFixture(t, testdb.URL(t), 2, 2, palaro.CheckInByCaptain)
	purchases := f.withFee(t, f.db)
	at := teamsNow.Add(-3 * time.Hour)
	late := f.register(t, 0, at)
	_, err := purchases.ExpireHolds(ctx, at.Add(2*time.Minute))
	require.NoError(t, err)
	require.Equal(t, palaro.OrderPaid, payEntry(t, purchases, late).Status)
	require.Equal(t, palaro.TeamRegistered, f.status(t, late))

	first, err := f.svc.RegisterTeam(ctx, palaro.TeamRegistration{TournamentCode: f.t.Code, CaptainID: f.captain[1],
		Name: "Twins", Tag: "TW1", AcceptRules: true}, at)
	require.NoError(t, err)
	second, err := f.svc.RegisterTeam(ctx, palaro.TeamRegistration{TournamentCode: f.t.Code, CaptainID: f.captain[1],
		Name: "twins", Tag: "TW2", AcceptRules: true}, at)
	require.NoError(t, err, "unpaid registrations do not hold a name")
	payEntry(t, purchases, first)
	require.Equal(t, palaro.OrderRefund, payEntry(t, purchases, second).Status)
	got, err := f.svc.FindTeam(ctx, second.PublicID)
	require.NoError(t, err)
	require.Equal(t, palaro.TeamUnpaid, got.Status, "never registered")
	var amount palaro.Money
	var started int
	require.NoError(t, f.db.read.QueryRow(`SELECT r.amount FROM refunds r JOIN orders o ON o.id = r.order_id WHERE o.public_id = ?
		AND r.status = 'pending'`, second.OrderPublicID).Scan(&amount))
	require.Equal(t, teamFee, amount, "its refund is started at once")
	require.NoError(t, f.db.read.QueryRow(`SELECT count(*) FROM outbox WHERE recipient = 'captain1@x.ph' AND kind = ?`,
		palaro.MessageRefundStarted).Scan(&started))
	require.Equal(t, 1, started, "the captain is told")
	teams, err := f.svc.ListTeams(ctx, f.t.ID)
	require.NoError(t, err)
	require.Len(t, teams, 2)
}

// TestTeams_EntryFeeCheckInRefunds: when check-in closes, a paid team that missed it and a
// waiting team that did not stand by are refunded; the team that checked in is not.
func TestTeams_EntryFeeCheckInRefunds(t *testing.T) {
	ctx := context.Background()
	f := newTeamsFixture(t, testdb.URL(t), 2, 3, palaro.CheckInByCaptain)
	purchases := f.withFee(t, f.db)
	at := teamsNow.Add(-3 * time.Hour)
	var regs []*palaro.Team
	for i := range 3 {
		regs = append(regs, f.register(t, i, at))
		payEntry(t, purchases, regs[i])
	}
	for _, email := range []string{"p1@x.ph", "p2@x.ph"} {
		token := f.invite(t, regs[0], email, at)
		_, err := f.svc.JoinTeam(ctx, token, palaro.PlayerJoin{InGameName: email, GameAccount: "12345678 (1234)", AcceptRules: true}, at)
		require.NoError(t, err)
	}
	require.NoError(t, f.svc.CheckInCaptain(ctx, regs[0].PublicID, f.captain[0], teamsNow))
	dropped, _, err := f.svc.CloseCheckIns(ctx, teamsNow.Add(time.Hour))
	require.NoError(t, err)
	require.Equal(t, 1, dropped)
	rows, err := f.db.read.Query(`SELECT o.public_id FROM refunds r JOIN orders o ON o.id = r.order_id ORDER BY o.public_id`)
	require.NoError(t, err)
	defer rows.Close()
	refunded := map[string]bool{}
	for rows.Next() {
		var id string
		require.NoError(t, rows.Scan(&id))
		refunded[id] = true
	}
	require.Equal(t, map[string]bool{regs[1].OrderPublicID: true, regs[2].OrderPublicID: true}, refunded)
}

// TestTeams_ConcurrentPaidRegistrations pays 16 registrations at once through two stores: the
// entry numbers run 1..n in the order the payments committed, the first MaxTeams paid have
// places and the rest wait in order, on both engines.
func TestTeams_ConcurrentPaidRegistrations(t *testing.T) {
	const n, places = 16, 5
	url := testdb.URL(t)
	f := newTeamsFixture(t, url, places, n, palaro.CheckInByCaptain)
	purchases := f.withFee(t, f.db)
	other, err := Open(url)
	require.NoError(t, err)
	t.Cleanup(func() { other.Close() })
	both := []*PurchaseService{purchases, NewPurchaseService(other, notify.NewComposer("https://palaro.test", "help@palaro.test"), time.Minute)}
	regs := make([]*palaro.Team, n)
	for i := range n {
		regs[i] = f.register(t, i, teamsNow.Add(-3*time.Hour))
	}
	var wg sync.WaitGroup
	errs := make(chan error, n)
	for i := range n {
		wg.Go(func() {
			_, err := tryPayEntry(both[i%2], regs[i])
			errs <- err
		})
	}
	wg.Wait()
	f.requireEntries(t, errs, n, places)
	var held, sold int
	require.NoError(t, f.db.read.QueryRow(`SELECT held, sold FROM ticket_types WHERE tournament_id = ?`, f.t.ID).Scan(&held, &sold))
	require.Equal(t, [2]int{0, n}, [2]int{held, sold})
}

// TestTournament_ChangeKeepsTeams: a tournament's change is refused by field when it would take
// from teams what they have: fewer places than the teams holding one, or another entry fee once
// a team is paying it (held) or paid it; a change keeping both is saved.
func TestTournament_ChangeKeepsTeams(t *testing.T) {
	ctx := context.Background()
	at := teamsNow.Add(-3 * time.Hour)
	f := newTeamsFixture(t, testdb.URL(t), 3, 3, palaro.CheckInByCaptain)
	for i := range 3 {
		require.Equal(t, palaro.TeamRegistered, f.register(t, i, at).Status)
	}
	change := *f.t
	change.MaxTeams = 2
	_, err := f.svc.SaveTournament(ctx, "cup", change, at)
	require.Equal(t, palaro.EINVALID, palaro.ErrorCode(err), err)
	require.Equal(t, "Maximum teams cannot go below the 3 teams with a place.", fieldOf(err, palaro.FieldMaxTeams))
	change.MaxTeams, change.Name = 3, "Cup MLBB Open"
	got, err := f.svc.SaveTournament(ctx, "cup", change, at)
	require.NoError(t, err)
	require.Equal(t, "Cup MLBB Open", got.Name)
	require.Equal(t, 3, got.Registered)

	g := newTeamsFixture(t, testdb.URL(t), 2, 1, palaro.CheckInByCaptain)
	g.withFee(t, g.db) // no team pays yet: the fee may still change
	require.Equal(t, palaro.TeamUnpaid, g.register(t, 0, at).Status)
	change = *g.t
	change.EntryFee = teamFee + 100_00
	_, err = g.svc.SaveTournament(ctx, "cup", change, at)
	require.Equal(t, "The entry fee cannot change once a team has paid it or is paying it.", fieldOf(err, palaro.FieldEntryFee))
	change.EntryFee = 0
	_, err = g.svc.SaveTournament(ctx, "cup", change, at)
	require.Equal(t, "The entry fee cannot change once a team has paid it or is paying it.", fieldOf(err, palaro.FieldEntryFee), "nor become free")
	change.EntryFee, change.Format = teamFee, "Double elimination"
	got, err = g.svc.SaveTournament(ctx, "cup", change, at)
	require.NoError(t, err)
	require.Equal(t, "Double elimination", got.Format)
}

// fieldOf returns the message err gives for field ("" when none).
func fieldOf(err error, field string) string {
	if e, ok := err.(*palaro.Error); ok {
		return e.Fields[field]
	}
	return ""
}

// raiseMaxTeams saves f's tournament with max teams n at now.
func (f *teamsFixture) raiseMaxTeams(t *testing.T, svc *TournamentService, n int, now time.Time) *palaro.Tournament {
	t.Helper()
	change := *f.t
	change.MaxTeams = n
	got, err := svc.SaveTournament(context.Background(), "cup", change, now)
	require.NoError(t, err)
	return got
}

// TestTournament_RaiseMaxTeamsMovesUp: raising maxTeams moves waiting teams up in the same write,
// in entry order, each e-mailed and sent as team.moved_up; after check-in closed only the standbys
// (checked in) move up, and never a standby whose entry fee was refunded.
func TestTournament_RaiseMaxTeamsMovesUp(t *testing.T) {
	ctx := context.Background()
	at := teamsNow.Add(-3 * time.Hour)

	t.Run("OK free tournament", func(t *testing.T) {
		f := newTeamsFixture(t, testdb.URL(t), 2, 5, palaro.CheckInByCaptain)
		f.teamHook(t)
		var teams []*palaro.Team
		for i := range 5 {
			teams = append(teams, f.register(t, i, at))
		}
		got := f.raiseMaxTeams(t, f.svc, 4, at.Add(time.Minute))
		require.Equal(t, [2]int{4, 1}, [2]int{got.Registered, got.Waitlisted})
		for i, want := range []string{palaro.TeamRegistered, palaro.TeamRegistered, palaro.TeamRegistered, palaro.TeamRegistered, palaro.TeamWaitlisted} {
			require.Equal(t, want, f.status(t, teams[i]), teams[i].Name)
		}
		movedUp, err := queryStrings(ctx, f.db.read, `SELECT recipient FROM outbox WHERE kind = ? ORDER BY id`, palaro.MessageTeamMovedUp)
		require.NoError(t, err)
		require.Equal(t, []string{"captain2@x.ph", "captain3@x.ph"}, movedUp, "in waiting order")
		hooks := f.hookTypes(t)
		require.Equal(t, []string{palaro.WebhookTeamMovedUp, palaro.WebhookTeamMovedUp}, hooks[len(hooks)-2:])
		f.raiseMaxTeams(t, f.svc, 4, at.Add(2*time.Minute)) // saved again: nothing more to move
		require.Len(t, f.hookTypes(t), len(hooks))
	})

	t.Run("OK after check-in: standbys only, never a refunded fee", func(t *testing.T) {
		f := newTeamsFixture(t, testdb.URL(t), 2, 4, palaro.CheckInByCaptain)
		purchases := f.withFee(t, f.db)
		var teams []*palaro.Team
		for i := range 4 {
			teams = append(teams, f.register(t, i, at))
			payEntry(t, purchases, teams[i])
		}
		for i, team := range teams[:3] { // the 4th never checks in
			f.passPlayers(t, team, fmt.Sprintf("p1-%d@x.ph", i), fmt.Sprintf("p2-%d@x.ph", i))
			require.NoError(t, f.svc.CheckInCaptain(ctx, team.PublicID, team.CaptainID, teamsNow))
		}
		start := f.t.StartsAt
		_, _, err := f.svc.CloseCheckIns(ctx, start.Add(-15*time.Minute))
		require.NoError(t, err)
		f.raiseMaxTeams(t, f.svc, 4, start.Add(-10*time.Minute))
		require.Equal(t, palaro.TeamRegistered, f.status(t, teams[2]), "the standby moves up")
		require.Equal(t, palaro.TeamWaitlisted, f.status(t, teams[3]), "not checked in: no place after check-in closed")

		g := newTeamsFixture(t, testdb.URL(t), 2, 3, palaro.CheckInByCaptain)
		purchases = g.withFee(t, g.db)
		teams = nil
		for i := range 3 {
			teams = append(teams, g.register(t, i, at))
			payEntry(t, purchases, teams[i])
			g.passPlayers(t, teams[i], fmt.Sprintf("p1-%d@x.ph", i), fmt.Sprintf("p2-%d@x.ph", i))
			require.NoError(t, g.svc.CheckInCaptain(ctx, teams[i].PublicID, teams[i].CaptainID, teamsNow))
		}
		_, _, err = g.svc.CloseCheckIns(ctx, start.Add(-15*time.Minute))
		require.NoError(t, err)
		n, err := g.svc.RefundStandbys(ctx, start)
		require.NoError(t, err)
		require.Equal(t, 1, n)
		got := g.raiseMaxTeams(t, g.svc, 3, start.Add(time.Minute))
		require.Equal(t, 2, got.Registered)
		require.Equal(t, palaro.TeamWaitlisted, g.status(t, teams[2]), "its fee was refunded: it would play without paying")
	})
}

// TestTournament_RaiseMaxTeamsWhileRegistering raises maxTeams while teams register, through two
// stores (two servers): the places always go to the first entries, the rest wait in order.
func TestTournament_RaiseMaxTeamsWhileRegistering(t *testing.T) {
	const n, places = 16, 6
	url := testdb.URL(t)
	f := newTeamsFixture(t, url, 2, n, palaro.CheckInByCaptain)
	services := f.twoServers(t, url)
	var wg sync.WaitGroup
	errs := make(chan error, n)
	for i := range n {
		wg.Go(func() { errs <- f.registerOn(services[i%2], i) })
		if i == n/2 {
			wg.Go(func() { f.raiseMaxTeams(t, services[1], places, teamsNow.Add(-3*time.Hour)) })
		}
	}
	wg.Wait()
	f.requireEntries(t, errs, n, places)
}
