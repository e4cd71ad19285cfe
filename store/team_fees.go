package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"strings"
	"time"

	"palaro"
)

// entryCapacity is the capacity of a tournament's entry-fee ticket type: the places are counted
// on the teams (max_teams), not on the type, whose sold count is the fees paid.
const entryCapacity = 1_000_000

// SetPayments gives the tournaments the refunds they start (a team with a paid fee refused,
// dropped or never placed) and how long an unpaid registration's order holds (DefaultHold if 0).
func (s *TournamentService) SetPayments(refunds *RefundService, hold time.Duration) {
	s.refunds, s.hold = refunds, hold
}

// saveEntryType keeps the entry-fee ticket type of tournament id in step with its fee: created
// when it first has one, renamed and repriced after (orders keep the price they were made at).
func saveEntryType(ctx context.Context, tx *sql.Tx, eventID, id int64, t palaro.Tournament) error {
	name := "Entry fee · " + t.Name
	res, err := tx.ExecContext(ctx, `UPDATE ticket_types SET name = ?, price = ? WHERE tournament_id = ? AND competitor_pass = 0`, name, t.EntryFee, id)
	if err != nil {
		return err
	}
	if n, _ := res.RowsAffected(); n > 0 || t.EntryFee == 0 {
		return nil
	}
	_, err = tx.ExecContext(ctx, `INSERT INTO ticket_types (event_id, code, name, price, max_purchasable, capacity, tournament_id)
		VALUES (?, ?, ?, ?, 1, ?, ?)`, eventID, "entry-"+newPublicID(), name, t.EntryFee, entryCapacity, id)
	return err
}

// registerUnpaid records a registration of a tournament with a fee: an order of its entry-fee
// ticket type (one held, like a ticket) and the team it will register once paid. It takes no
// entry number and no place: those go, in the order of payment, to paid registrations (placeTeam).
func (s *TournamentService) registerUnpaid(ctx context.Context, t *palaro.Tournament, req palaro.TeamRegistration, now time.Time) (*palaro.Team, error) {
	if !now.Before(t.RegistrationClosesAt) || now.Before(t.RegistrationOpensAt) {
		return nil, palaro.Errorf(palaro.ECONFLICT, "Registration for %s is closed.", t.Name)
	}
	var typeID int64
	if err := s.db.read.QueryRowContext(ctx, `SELECT id FROM ticket_types WHERE tournament_id = ? AND competitor_pass = 0`, t.ID).Scan(&typeID); err != nil {
		return nil, err
	}
	var email, first, last string
	if err := s.db.read.QueryRowContext(ctx, `SELECT email, first_name, last_name FROM users WHERE id = ?`, req.CaptainID).
		Scan(&email, &first, &last); errors.Is(err, sql.ErrNoRows) {
		return nil, palaro.Errorf(palaro.ENOTFOUND, "Account not found.")
	} else if err != nil {
		return nil, err
	}
	hold := s.hold
	if hold <= 0 {
		hold = DefaultHold
	}
	buyer, _ := json.Marshal(palaro.Buyer{FirstName: first, LastName: last, FullName: strings.TrimSpace(first + " " + last)})
	o := &palaro.Order{PublicID: newPublicID(), Kind: palaro.OrderKindTickets, EventID: t.EventID, TicketTypeID: typeID, Quantity: 1,
		Email: email, UserID: req.CaptainID, UnitPrice: t.EntryFee, Total: t.EntryFee, Status: palaro.OrderPending,
		PaymentType: palaro.PaymentQR, HoldExpiresAt: now.Add(hold), CreatedAt: now}
	publicID := newPublicID()
	err := s.db.inWrite(ctx, func(ctx context.Context, tx *sql.Tx) error {
		if err := teamNameTaken(ctx, tx, t.ID, req); err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, `UPDATE ticket_types SET held = held + 1 WHERE id = ?`, typeID); err != nil {
			return err
		}
		var err error
		o.ID, err = insertID(ctx, tx, `INSERT INTO orders (public_id, kind, event_id, ticket_type_id, quantity, email, buyer,
			payment_type, unit_price, total, status, hold_expires_at, created_at, user_id) VALUES (?, ?, ?, ?, 1, ?, ?, ?, ?, ?, 'pending', ?, ?, ?)`,
			o.PublicID, o.Kind, o.EventID, typeID, o.Email, string(buyer), o.PaymentType, o.UnitPrice, o.Total,
			formatTime(o.HoldExpiresAt), formatTime(now), req.CaptainID)
		if err != nil {
			return err
		}
		var logoType any
		if req.Logo != nil {
			logoType = req.LogoType
		}
		_, err = tx.ExecContext(ctx, `INSERT INTO team_orders (order_id, tournament_id, public_id, name, tag, captain_id, logo_type, logo, created_at)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`, o.ID, t.ID, publicID, req.Name, req.Tag, req.CaptainID, logoType, req.Logo, formatTime(now))
		return err
	})
	if err != nil {
		return nil, err
	}
	return &palaro.Team{PublicID: publicID, TournamentID: t.ID, Tournament: t, Name: req.Name, Tag: req.Tag, CaptainID: req.CaptainID,
		CaptainEmail: email, Status: palaro.TeamUnpaid, CreatedAt: now, OrderPublicID: o.PublicID}, nil
}

// teamOrder is a registration waiting for its entry fee (a team_orders row).
type teamOrder struct {
	tournamentID, captainID int64
	publicID, name, tag     string
	logoType                sql.NullString
	logo                    []byte
	placed                  bool // its team is registered already
}

// teamOrderOf returns the registration order o pays for, or nil when o is not an entry fee.
func teamOrderOf(ctx context.Context, tx *sql.Tx, orderID int64) (*teamOrder, error) {
	var r teamOrder
	err := tx.QueryRowContext(ctx, `SELECT tournament_id, captain_id, public_id, name, tag, logo_type, logo, team_id IS NOT NULL
		FROM team_orders WHERE order_id = ?`, orderID).Scan(&r.tournamentID, &r.captainID, &r.publicID, &r.name, &r.tag,
		&r.logoType, &r.logo, &r.placed)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, nil
	}
	return &r, err
}

// entryRefused says why a paid registration cannot be registered (another team took its name or
// tag while it was unpaid): its payment is then refunded (the order is marked for refund).
func entryRefused(ctx context.Context, tx *sql.Tx, r *teamOrder) (bool, error) {
	err := teamNameTaken(ctx, tx, r.tournamentID, palaro.TeamRegistration{Name: r.name, Tag: r.tag})
	if palaro.ErrorCode(err) == palaro.ECONFLICT {
		return true, nil
	}
	return false, err
}

// refuseEntry settles the payment of a registration whose name or tag another team took while
// it was unpaid: its order is marked for refund and the refund started in the same write (the
// refund job pays it back through the gateway), the captain e-mailed that it is on its way.
func (s *PurchaseService) refuseEntry(ctx context.Context, tx *sql.Tx, o *palaro.Order, r *teamOrder, now time.Time) error {
	if err := s.settle(ctx, tx, o, palaro.OrderRefund, now); err != nil {
		return err
	}
	o.Status = palaro.OrderRefund
	composer, _ := s.composer.(palaro.RefundComposer)
	refunds := &RefundService{db: s.db, composer: composer}
	_, err := refunds.refundOrder(ctx, tx, o, nil, refundWhy{reason: palaro.RefundByOrganizer},
		"palaro ("+r.name+": another team took its name or tag before its entry fee was paid)", now)
	return err
}

// placeTeam registers the team of a paid registration, once: like RegisterTeam, takeEntry orders
// it against every other registration, so places go to the first paid entries and the waiting
// list is in the order of payment. The captain is e-mailed the result when composer is given.
func placeTeam(ctx context.Context, tx *sql.Tx, orderID int64, r *teamOrder, composer palaro.TeamComposer, now time.Time) error {
	if r.placed {
		return nil
	}
	entry, status, err := takeEntry(ctx, tx, r.tournamentID, "")
	if err != nil {
		return err
	}
	var logoType any
	if r.logoType.Valid {
		logoType = r.logoType.String
	}
	req := palaro.TeamRegistration{Name: r.name, Tag: r.tag, CaptainID: r.captainID, Logo: r.logo}
	id, err := insertTeam(ctx, tx, r.tournamentID, r.publicID, req, entry, status, logoType, orderID, now)
	if err != nil {
		return err
	}
	if _, err := tx.ExecContext(ctx, `UPDATE team_orders SET team_id = ?, logo = NULL WHERE order_id = ?`, id, orderID); err != nil {
		return err
	}
	if err := enqueueWebhookNote(ctx, tx, palaro.WebhookTeamRegistered, id, "", now); err != nil {
		return err
	}
	if composer == nil {
		return nil
	}
	team, err := findTeam(ctx, tx, r.publicID)
	if err != nil {
		return err
	}
	name, err := eventName(ctx, tx, team.Tournament.EventID)
	if err != nil {
		return err
	}
	return enqueue(ctx, tx, composer.TeamRegistered(team.Tournament, team, name), "", now)
}

// refundTeams starts the refund of the entry fee of each team that paid one (teams without a
// fee, or refunded already, are left as they are), inside the caller's unit: the refund job then
// pays it back through the order's gateway. The refund's reason is the organizer's (the
// tournament's decision); why is recorded in the audit line.
func (s *TournamentService) refundTeams(ctx context.Context, tx *sql.Tx, teams []*palaro.Team, why string, now time.Time) error {
	refunds := s.refunds
	if refunds == nil {
		refunds = &RefundService{db: s.db}
	}
	for _, team := range teams {
		var orderID sql.NullInt64
		if err := tx.QueryRowContext(ctx, `SELECT order_id FROM teams WHERE id = ?`, team.ID).Scan(&orderID); err != nil {
			return err
		}
		if !orderID.Valid {
			continue
		}
		o, err := loadOrder(ctx, tx, `o.id = ?`, orderID.Int64)
		if err != nil {
			return err
		}
		if o.Status != palaro.OrderPaid {
			continue // marked for refund or refunded already
		}
		if _, err := refunds.refundOrder(ctx, tx, o, nil, refundWhy{reason: palaro.RefundByOrganizer}, "palaro ("+team.Name+": "+why+")", now); err != nil {
			return err
		}
	}
	return nil
}

// feeRefunded refuses a place to a team whose entry fee was refunded (or is being refunded):
// given back its place, it would play without paying; its captain registers it again instead.
func feeRefunded(ctx context.Context, tx *sql.Tx, team *palaro.Team) error {
	var status string
	var refunds int
	err := tx.QueryRowContext(ctx, `SELECT o.status, (SELECT count(*) FROM refunds r WHERE r.order_id = o.id AND r.status != 'failed')
		FROM teams m JOIN orders o ON o.id = m.order_id WHERE m.id = ?`, team.ID).Scan(&status, &refunds)
	if errors.Is(err, sql.ErrNoRows) || err == nil && status == palaro.OrderPaid && refunds == 0 {
		return nil // no fee, or paid and kept
	} else if err != nil {
		return err
	}
	return palaro.Errorf(palaro.ECONFLICT, "The entry fee of %s was refunded: it cannot be given a place again; its captain can register the team again.", team.Name)
}

// findUnpaidTeam reads a registration waiting for its fee (its order unpaid, expired, or marked
// for refund) as a team of status TeamUnpaid.
func findUnpaidTeam(ctx context.Context, q querier, publicID string) (*palaro.Team, error) {
	t := palaro.Team{PublicID: publicID, Status: palaro.TeamUnpaid}
	var created sql.NullString
	err := q.QueryRowContext(ctx, `SELECT r.tournament_id, r.name, r.tag, r.captain_id, u.email, o.public_id, r.created_at
		FROM team_orders r JOIN orders o ON o.id = r.order_id JOIN users u ON u.id = r.captain_id
		WHERE r.public_id = ? AND r.team_id IS NULL`, publicID).
		Scan(&t.TournamentID, &t.Name, &t.Tag, &t.CaptainID, &t.CaptainEmail, &t.OrderPublicID, &created)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, palaro.Errorf(palaro.ENOTFOUND, "Team not found.")
	} else if err != nil {
		return nil, err
	}
	if t.CreatedAt, err = parseTime(created); err != nil {
		return nil, err
	}
	t.Tournament, err = scanTournament(q.QueryRowContext(ctx, `SELECT `+tournamentColumns+tournamentFrom+` WHERE t.id = ?`, t.TournamentID))
	return &t, err
}
