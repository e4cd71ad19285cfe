package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"palaro"
)

// DefaultHold is how long a pending order holds its tickets when no hold time is configured.
const DefaultHold = 15 * time.Minute

// PurchaseService implements palaro.PurchaseService.
type PurchaseService struct {
	db       *DB
	composer palaro.Composer
	hold     time.Duration
}

// NewPurchaseService returns the purchase service backed by db. composer writes the e-mails
// that go to the outbox; hold is how long a pending order holds its tickets (DefaultHold if 0).
func NewPurchaseService(db *DB, composer palaro.Composer, hold time.Duration) *PurchaseService {
	if hold <= 0 {
		hold = DefaultHold
	}
	if composer != nil {
		db.composer = composer // the outbox composes order e-mails with it when it sends them
	}
	return &PurchaseService{db: db, composer: composer, hold: hold}
}

var _ palaro.PurchaseService = (*PurchaseService)(nil)

// Hold returns how long a pending order holds its tickets.
func (s *PurchaseService) Hold() time.Duration { return s.hold }

// FindPromoCode returns a usable promo code for an event.
func (s *PurchaseService) FindPromoCode(ctx context.Context, code string, eventID int64, now time.Time) (*palaro.PromoCode, error) {
	p, err := findPromo(ctx, s.db.read, code)
	if err != nil {
		return nil, err
	}
	if err := p.Check(eventID, now); err != nil {
		return nil, err
	}
	return p, nil
}

type queryRower interface {
	QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row
}

func findPromo(ctx context.Context, q queryRower, code string) (*palaro.PromoCode, error) {
	code = strings.TrimSpace(code)
	if code == "" || len(code) > 64 {
		return nil, palaro.Errorf(palaro.ENOTFOUND, "Promo code not found.")
	}
	var p palaro.PromoCode
	var eventID sql.NullInt64
	var from, until sql.NullString
	err := q.QueryRowContext(ctx, `SELECT id, code, event_id, kind, percent, amount, valid_from, valid_until,
		usage_limit, used, paused, retired FROM promo_codes WHERE lower(code) = lower(?)`, code).Scan(&p.ID, &p.Code, &eventID, &p.Kind,
		&p.Percent, &p.Amount, &from, &until, &p.UsageLimit, &p.Used, &p.Paused, &p.Retired)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, palaro.Errorf(palaro.ENOTFOUND, "Promo code not found.")
	} else if err != nil {
		return nil, err
	}
	p.EventID = eventID.Int64
	p.ValidFrom, _ = parseTime(from)
	p.ValidUntil, _ = parseTime(until)
	if p.TicketTypeIDs, err = promoTicketTypes(ctx, q, p.ID); err != nil {
		return nil, err
	}
	return &p, nil
}

// CreatePromoCode stores a new promo code (operator tools, demo data and tests).
func (s *PurchaseService) CreatePromoCode(ctx context.Context, p *palaro.PromoCode) error {
	return s.db.inWrite(ctx, func(ctx context.Context, tx *sql.Tx) error {
		return insertPromo(ctx, tx, p)
	})
}

func insertPromo(ctx context.Context, tx *sql.Tx, p *palaro.PromoCode) error {
	if p.Kind != palaro.PromoPercent && p.Kind != palaro.PromoFixed {
		return palaro.Errorf(palaro.EINVALID, "Unknown promo kind %q.", p.Kind)
	}
	var eventID any
	if p.EventID != 0 {
		eventID = p.EventID
	}
	id, err := insertID(ctx, tx, `INSERT INTO promo_codes (code, event_id, kind, percent, amount, valid_from,
		valid_until, usage_limit) VALUES (?, ?, ?, ?, ?, ?, ?, ?)`, p.Code, eventID, p.Kind, p.Percent, p.Amount,
		nullTime(p.ValidFrom), nullTime(p.ValidUntil), p.UsageLimit)
	if isUniqueViolation(err) {
		return palaro.Errorf(palaro.ECONFLICT, "Promo code %s already exists.", p.Code)
	} else if err != nil {
		return err
	}
	p.ID = id
	return nil
}

// CreateOrder validates, prices and stores a purchase. Capacity is taken with one conditional
// UPDATE and seats with inserts under a primary key, inside one BEGIN IMMEDIATE transaction, so
// concurrent buyers can never oversell nor share a seat.
func (s *PurchaseService) CreateOrder(ctx context.Context, req palaro.PurchaseRequest, now time.Time) (*palaro.Order, error) {
	tt, ev, err := purchaseTicketType(ctx, s.db, strings.TrimSpace(req.TicketCode))
	if err != nil {
		return nil, err
	}
	if req.EventCode != "" && strings.TrimSpace(req.EventCode) != ev.Code {
		return nil, palaro.Errorf(palaro.ENOTFOUND, "Ticket not found.")
	}
	req = palaro.NormalizePurchase(req, *tt)
	if verr := palaro.ValidatePurchase(req, *tt, ev); verr != nil {
		return nil, verr
	}
	if req.ExistingUser && slices.ContainsFunc(ev.RequiredFields, palaro.PersonalField) {
		known, err := knownBuyer(ctx, s.db.read, req.Email)
		if err != nil {
			return nil, err
		}
		req = palaro.WithBuyerDetails(req, known)
		if verr := palaro.ValidateExistingBuyer(req, *tt, ev); verr != nil {
			return nil, verr
		}
	}
	switch tt.SaleState(ev, now) { // sold out is decided by the capacity hold below, under the write lock
	case palaro.SaleNotStarted:
		return nil, palaro.Errorf(palaro.ECONFLICT, "Ticket sales for %s have not started yet.", tt.Name)
	case palaro.SaleEnded:
		return nil, palaro.Errorf(palaro.ECONFLICT, "Ticket sales for %s have ended.", tt.Name)
	}
	addOns, err := pickAddOnCounts(ev.AddOns, req.AddOnCounts(), req.Quantity)
	if err != nil {
		return nil, err
	}
	var promo *palaro.PromoCode
	if req.Source != "" {
		p, err := findPromo(ctx, s.db.read, req.Source)
		switch {
		case err == nil:
			if err := p.Check(ev.ID, now); err != nil {
				return nil, err
			}
			if !p.AppliesTo(tt.ID) {
				return nil, palaro.PromoNotForTicket(p.Code)
			}
			promo = p
		case palaro.ErrorCode(err) != palaro.ENOTFOUND:
			return nil, err
		} // an unknown source is a referral code: recorded, no discount
	}
	price := palaro.PriceOrder(*tt, req.Quantity, addOns, promo)
	if price.PromoDiscount == 0 {
		promo = nil // a code is used only by an order it discounts: on a free order it stays a source
	}
	if price.Total > 0 && req.PaymentType == "" {
		req.PaymentType = tt.PaymentTypes[0]
	}
	o := &palaro.Order{
		PublicID: newPublicID(), Kind: palaro.OrderKindTickets, EventID: ev.ID, TicketTypeID: tt.ID,
		Quantity: req.Quantity, Email: req.Email, Buyer: buyerOf(req), Seats: req.Seats, Source: req.Source,
		PaymentType: req.PaymentType, SessionKey: req.SessionKey, UserID: req.UserID, UnitPrice: price.UnitPrice, AddOnsTotal: price.AddOnsTotal,
		PromoDiscount: price.PromoDiscount, Total: price.Total, Status: palaro.OrderPending,
		HoldExpiresAt: now.Add(s.hold), CreatedAt: now, AddOns: addOns, Event: ev, TicketType: tt,
	}
	if promo != nil {
		o.PromoCode, o.PromoTicketsOnly = promo.Code, promo.TicketsOnly()
	}
	if o.Free() {
		o.Status, o.PaidAt, o.HoldExpiresAt, o.PaymentType = palaro.OrderPaid, now, time.Time{}, ""
	}

	if req.Offer == "" { // a waiting-list offer's tickets are held for it: not free, not sold out
		if err := s.soldOutAtOnce(ctx, tt, o); err != nil {
			return nil, err
		}
	}
	// one unit of the batching writer: all of it is applied, or none, before the answer leaves
	err = s.db.inWrite(ctx, func(ctx context.Context, tx *sql.Tx) error {
		// The per-buyer counts below are read, then acted on: other servers' orders of the type wait.
		if err := s.db.lockRow(ctx, tx, "ticket_types", tt.ID); err != nil {
			return err
		}
		if req.QueuePlace != 0 { // undone with the rest of the unit when the order fails below
			if err := claimQueueEmail(ctx, tx, ev.ID, req.QueuePlace, o.Email, now); err != nil {
				return err
			}
		}
		if err := limitPerBuyer(ctx, tx, tt, o, now); err != nil {
			return err
		}
		var promoID any
		if promo != nil {
			if err := usePromo(ctx, tx, promo); err != nil {
				return err
			}
			promoID = promo.ID
		}
		if req.Offer != "" {
			if err := claimOffer(ctx, tx, req.Offer, o, now); err != nil {
				return err // the offer's hold (and seats) are given back here and taken below
			}
		}
		if err := seatsFree(ctx, tx, tt.ID, o.Seats); err != nil {
			return err // a taken seat says so before 'sold out' does
		}
		if err := reserve(ctx, tx, tt, o.Quantity, o.Free()); err != nil {
			return err
		}
		if err := s.saveOrder(ctx, tx, o, promoID, now); err != nil {
			return err
		}
		return takeSeats(ctx, tx, tt.ID, o.ID, o.Seats)
	})
	if err != nil {
		return nil, err
	}
	return o, nil
}

// soldOutAtOnce answers a buyer of a sold-out ticket type without queuing for the writer, so a
// rush's sold-out buyers do not wait for the write lock: from the writer's count of tickets left
// (db.stock, exact as of its last commit) when it has one, else from the read snapshot the ticket
// type was just read from. The writer checks capacity again under the lock (reserve), so this can
// only refuse early, never oversell. It stands aside (nil) when the order might still fit there:
// when the buyer's own unpaid order of the type would be replaced (released first,
// limitPerBuyer) and for seat orders, whose taken seat is named before 'sold out' is.
func (s *PurchaseService) soldOutAtOnce(ctx context.Context, tt *palaro.TicketType, o *palaro.Order) error {
	left := tt.Capacity - tt.Sold - tt.Held
	if s.db.stock != nil {
		if n, ok := s.db.stock.remaining(tt.ID); ok {
			left = n
		}
	}
	if left >= o.Quantity || len(o.Seats) > 0 {
		return nil
	}
	if o.SessionKey != "" {
		var own int
		err := s.db.read.QueryRowContext(ctx, `SELECT count(*) FROM orders WHERE status = 'pending' AND kind = 'tickets'
			AND ticket_type_id = ? AND session_key = ?`, tt.ID, o.SessionKey).Scan(&own)
		if err != nil || own > 0 {
			return err
		}
	}
	return soldOut(tt.Name, max(left, 0))
}

// saveOrder inserts a new order with its add-ons and, when it is free, issues it at once.
func (s *PurchaseService) saveOrder(ctx context.Context, tx *sql.Tx, o *palaro.Order, promoID any, now time.Time) error {
	buyer, _ := json.Marshal(o.Buyer)
	seats, _ := json.Marshal(orEmpty(o.Seats))
	var ticketID, userID any
	if o.TicketID != 0 {
		ticketID = o.TicketID
	}
	if o.UserID != 0 {
		userID = o.UserID
	}
	var err error
	o.ID, err = insertID(ctx, tx, `INSERT INTO orders (public_id, kind, event_id, ticket_type_id, ticket_id, quantity,
		email, buyer, seats, source, promo_code_id, payment_type, unit_price, add_ons_total, promo_discount, total,
		status, hold_expires_at, paid_at, created_at, session_key, user_id) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?,
		?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
		o.PublicID, o.Kind, o.EventID, o.TicketTypeID, ticketID, o.Quantity, o.Email, string(buyer), string(seats),
		o.Source, promoID, o.PaymentType, o.UnitPrice, o.AddOnsTotal, o.PromoDiscount, o.Total, o.Status,
		nullTime(o.HoldExpiresAt), nullTime(o.PaidAt), formatTime(now), o.SessionKey, userID)
	if err != nil {
		return err
	}
	for _, a := range o.AddOns {
		if _, err := tx.ExecContext(ctx, `INSERT INTO order_add_ons (order_id, add_on_id, price, quantity)
			VALUES (?, ?, ?, ?)`, o.ID, a.ID, a.Price, a.Count()); err != nil {
			return err
		}
	}
	if o.Free() {
		return s.issue(ctx, tx, o, now)
	}
	return nil
}

// reserve takes quantity tickets of a ticket type: sold at once for a free order, held otherwise.
// The capacity check and the increment are one statement, inside the caller's write transaction.
func reserve(ctx context.Context, tx *sql.Tx, tt *palaro.TicketType, quantity int, sell bool) error {
	column := "held"
	if sell {
		column = "sold"
	}
	res, err := tx.ExecContext(ctx, `UPDATE ticket_types SET `+column+` = `+column+` + ?
		WHERE id = ? AND sold + held + ? <= capacity`, quantity, tt.ID, quantity)
	if err != nil {
		return err
	}
	if n, err := res.RowsAffected(); err != nil {
		return err
	} else if n == 1 {
		return nil
	}
	var left int
	if err := tx.QueryRowContext(ctx, `SELECT CASE WHEN capacity - sold - held > 0 THEN capacity - sold - held ELSE 0 END FROM ticket_types WHERE id = ?`,
		tt.ID).Scan(&left); err != nil {
		return err
	}
	return soldOut(tt.Name, left)
}

func soldOut(name string, left int) error {
	switch left {
	case 0:
		return palaro.Errorf(palaro.ECONFLICT, "Sorry, %s is sold out.", name)
	case 1:
		return palaro.Errorf(palaro.ECONFLICT, "Only 1 ticket left for %s.", name)
	}
	return palaro.Errorf(palaro.ECONFLICT, "Only %s left for %s.", palaro.Plural(left, "ticket", "tickets"), name)
}

// usePromo counts one use of a promo code, atomically against its usage limit and its being
// paused or retired (an organizer may stop it while the order is being placed).
func usePromo(ctx context.Context, tx *sql.Tx, p *palaro.PromoCode) error {
	res, err := tx.ExecContext(ctx, `UPDATE promo_codes SET used = used + 1
		WHERE id = ? AND paused = 0 AND retired = 0 AND (usage_limit = 0 OR used < usage_limit)`, p.ID)
	if err != nil {
		return err
	}
	if n, _ := res.RowsAffected(); n == 0 {
		var paused, retired bool
		if err := tx.QueryRowContext(ctx, `SELECT paused, retired FROM promo_codes WHERE id = ?`, p.ID).Scan(&paused, &retired); err != nil {
			return err
		}
		switch {
		case retired:
			return palaro.PromoRetired(p.Code)
		case paused:
			return palaro.PromoPaused(p.Code)
		}
		return palaro.PromoUsedUp(p.Code)
	}
	return nil
}

func buyerOf(req palaro.PurchaseRequest) palaro.Buyer {
	var age int
	fmt.Sscan(req.Age, &age)
	return palaro.Buyer{
		FirstName: req.FirstName, LastName: req.LastName, FullName: req.FullName, MobileNumber: req.MobileNumber,
		Gender: req.Gender, BirthDate: req.BirthDate, Age: age, CompanyName: req.CompanyName,
		Designation: req.Designation, EconomicClass: req.EconomicClass, SurveyAnswer: req.SurveyAnswer,
		ExistingUser: req.ExistingUser,
	}
}

// holderName is the name printed on a ticket.
func holderName(b palaro.Buyer) string {
	if b.FullName != "" {
		return b.FullName
	}
	return strings.TrimSpace(b.FirstName + " " + b.LastName)
}

// pickAddOns returns the event's add-ons with the given ids, each once.
func pickAddOns(available []palaro.AddOn, ids []int64) ([]palaro.AddOn, error) {
	var picked []palaro.AddOn
	for _, id := range ids {
		i := slices.IndexFunc(available, func(a palaro.AddOn) bool { return a.ID == id })
		if i < 0 {
			return nil, palaro.Errorf(palaro.EINVALID, "This add-on is not available.")
		}
		if !slices.ContainsFunc(picked, func(a palaro.AddOn) bool { return a.ID == id }) {
			a := available[i]
			a.Quantity = 1
			picked = append(picked, a)
		}
	}
	return picked, nil
}

// pickAddOnCounts returns the event's add-ons of a ticket order with their quantities, each at
// most the order's ticket quantity (one per ticket).
func pickAddOnCounts(available []palaro.AddOn, counts []palaro.AddOnQuantity, tickets int) ([]palaro.AddOn, error) {
	ids := make([]int64, 0, len(counts))
	for _, c := range counts {
		ids = append(ids, c.ID)
	}
	picked, err := pickAddOns(available, ids)
	if err != nil {
		return nil, err
	}
	for i, c := range counts {
		if err := palaro.CheckAddOnQuantity(picked[i], c.Quantity, tickets); err != nil {
			return nil, err
		}
		picked[i].Quantity = c.Quantity
	}
	return picked, nil
}

// limitPerBuyer enforces, inside the order's write transaction, the ticket type's per-buyer
// maximum across orders: the e-mail's (and the signed-in account's) paid and unpaid tickets of
// the type, and the session's
// unpaid ones, stay within it. The buyer's own unpaid order of the type (same session and
// e-mail) is replaced: released here, in the same transaction. A free order is issued at once
// and never held, so only the e-mail count applies to it as well as to a paid one.
func limitPerBuyer(ctx context.Context, tx *sql.Tx, tt *palaro.TicketType, o *palaro.Order, now time.Time) error {
	limit := max(tt.MaxPurchasable, 1)
	const live = `kind = 'tickets' AND ticket_type_id = ? AND (status = 'paid' OR (status = 'pending' AND hold_expires_at > ?))`
	// The session's unpaid orders of the type, read once: the e-mail's own are released (replaced),
	// the others' live tickets count against the session below.
	var held int
	var own string
	if o.SessionKey != "" {
		pending, err := sessionPending(ctx, tx, tt.ID, o.SessionKey)
		if err != nil {
			return err
		}
		var replaced []any
		at := formatTime(now)
		for _, p := range pending {
			switch {
			case p.email == o.Email:
				replaced = append(replaced, p.id)
			case p.holdUntil > at:
				held += p.quantity
				own = max(own, p.publicID)
			}
		}
		if len(replaced) > 0 {
			if _, err := releaseOrders(ctx, tx, `status = 'pending' AND id IN (`+placeholders(len(replaced))+`)`, replaced...); err != nil {
				return err
			}
		}
	}
	// The e-mail's orders, then the account's under other addresses: two index searches, where
	// one `email = ? OR user_id = ?` scans every order of the type (quadratic in a rush).
	who := []struct {
		cond string
		args []any
	}{{`email = ?`, []any{o.Email}}}
	if o.UserID != 0 {
		who = append(who, struct {
			cond string
			args []any
		}{`user_id = ? AND email != ?`, []any{o.UserID, o.Email}})
	}
	var paid, unpaid int
	var waitingUntil sql.NullString
	for _, w := range who {
		var p, u int
		var until sql.NullString
		if err := tx.QueryRowContext(ctx, `SELECT coalesce(sum(CASE WHEN status = 'paid' THEN quantity END), 0),
			coalesce(sum(CASE WHEN status = 'pending' THEN quantity END), 0),
			max(CASE WHEN status = 'pending' THEN hold_expires_at END)
			FROM orders WHERE `+live+` AND `+w.cond, append([]any{tt.ID, formatTime(now)}, w.args...)...).
			Scan(&p, &u, &until); err != nil {
			return err
		}
		paid, unpaid = paid+p, unpaid+u
		if until.Valid && until.String > waitingUntil.String {
			waitingUntil = until
		}
	}
	if paid+o.Quantity > limit {
		return palaro.Errorf(palaro.EINVALID, "%s", palaro.MaxTicketsMessage(limit))
	}
	if paid+unpaid+o.Quantity > limit {
		until, _ := parseTime(waitingUntil)
		return palaro.UnpaidOrderElsewhere(until.Sub(now))
	}
	if o.SessionKey != "" && held+o.Quantity > limit {
		return palaro.UnpaidOrderWaiting(palaro.OrderPath(own))
	}
	return nil
}

// pendingOrder is a session's unpaid ticket order, as limitPerBuyer weighs it.
type pendingOrder struct {
	id        int64
	publicID  string
	email     string
	quantity  int
	holdUntil string // hold_expires_at as stored
}

// sessionPending returns a session's unpaid orders of a ticket type (one index search).
func sessionPending(ctx context.Context, tx *sql.Tx, ticketTypeID int64, sessionKey string) ([]pendingOrder, error) {
	rows, err := tx.QueryContext(ctx, `SELECT id, public_id, email, quantity, coalesce(hold_expires_at, '') FROM orders
		WHERE status = 'pending' AND kind = 'tickets' AND ticket_type_id = ? AND session_key = ?`, ticketTypeID, sessionKey)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var pending []pendingOrder
	for rows.Next() {
		var p pendingOrder
		if err := rows.Scan(&p.id, &p.publicID, &p.email, &p.quantity, &p.holdUntil); err != nil {
			return nil, err
		}
		pending = append(pending, p)
	}
	return pending, rows.Err()
}

// knownBuyer returns the personal details known for an e-mail address: its earlier orders' (the
// newest first) completed by its account's.
func knownBuyer(ctx context.Context, q querier, email string) (palaro.Buyer, error) {
	var b palaro.Buyer
	rows, err := q.QueryContext(ctx, `SELECT buyer FROM orders WHERE email = ? AND kind = 'tickets'
		AND status IN ('paid', 'pending') ORDER BY id DESC LIMIT 20`, email)
	if err != nil {
		return b, err
	}
	defer rows.Close()
	for rows.Next() {
		var raw string
		var earlier palaro.Buyer
		if err := rows.Scan(&raw); err != nil {
			return b, err
		}
		if json.Unmarshal([]byte(raw), &earlier) == nil {
			b = palaro.MergeBuyers(b, earlier)
		}
	}
	if err := rows.Err(); err != nil {
		return b, err
	}
	var acc palaro.Buyer
	var age string
	err = q.QueryRowContext(ctx, `SELECT first_name, last_name, mobile_number, birth_date, age, company_name,
		designation FROM users WHERE email = ?`, email).Scan(&acc.FirstName, &acc.LastName, &acc.MobileNumber,
		&acc.BirthDate, &age, &acc.CompanyName, &acc.Designation)
	if errors.Is(err, sql.ErrNoRows) {
		return b, nil
	} else if err != nil {
		return b, err
	}
	acc.MobileNumber = accountMobile(acc.MobileNumber)
	fmt.Sscan(age, &acc.Age)
	return palaro.MergeBuyers(b, acc), nil
}

// issue turns a paid order into tickets (or, for an add-on order, adds the add-ons to its
// ticket) and queues its confirmation e-mail, once; the outbox composes the e-mail when it sends
// it, so the order is not read again here.
func (s *PurchaseService) issue(ctx context.Context, tx *sql.Tx, o *palaro.Order, now time.Time) error {
	if o.Kind == palaro.OrderKindTickets {
		tickets := newTickets(o, now)
		for i := range tickets {
			t := tickets[i]
			t.OrderID = o.ID
			if err := insertTicket(ctx, tx, &t, o.TicketTypeID); err != nil {
				return err
			}
			o.Tickets = append(o.Tickets, t)
		}
		// add-ons bought with the order: one per ticket, for the first tickets (DistributeAddOns)
		for i, addOns := range palaro.DistributeAddOns(len(o.Tickets), o.AddOns) {
			for _, a := range addOns {
				if _, err := tx.ExecContext(ctx, `INSERT INTO ticket_add_ons (ticket_id, add_on_id, order_id)
					VALUES (?, ?, ?) ON CONFLICT DO NOTHING`, o.Tickets[i].ID, a.ID, o.ID); err != nil {
					return err
				}
			}
		}
	} else if _, err := tx.ExecContext(ctx, `INSERT INTO ticket_add_ons (ticket_id, add_on_id, order_id)
		SELECT ?, add_on_id, order_id FROM order_add_ons WHERE order_id = ? ON CONFLICT DO NOTHING`,
		o.TicketID, o.ID); err != nil {
		return err
	}
	if s.composer == nil {
		return nil
	}
	return enqueueOrderMessage(ctx, tx, o, now)
}

// newTickets returns a ticket order's tickets as issued at now, with their public ids and codes
// drawn, not yet stored.
func newTickets(o *palaro.Order, now time.Time) []palaro.Ticket {
	tickets := make([]palaro.Ticket, o.Quantity)
	for i := range tickets {
		tickets[i] = palaro.Ticket{OrderID: o.ID, EventID: o.EventID, HolderName: holderName(o.Buyer), Email: o.Email,
			Status: palaro.TicketValid, CreatedAt: now, PublicID: newPublicID(), Code: newTicketCode()}
		if i < len(o.Seats) {
			tickets[i].Seat = o.Seats[i]
		}
	}
	return tickets
}

func insertTicket(ctx context.Context, tx *sql.Tx, t *palaro.Ticket, ticketTypeID int64) error {
	for attempt := 0; ; attempt++ {
		if attempt > 0 || t.PublicID == "" || t.Code == "" {
			t.PublicID, t.Code = newPublicID(), newTicketCode() // drawn here unless the caller drew them
		}
		id, err := insertID(ctx, tx, `INSERT INTO tickets (public_id, code, order_id, event_id, ticket_type_id,
			holder_name, email, seat, status, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING`,
			t.PublicID, t.Code, t.OrderID, t.EventID, ticketTypeID, t.HolderName, t.Email, t.Seat, t.Status,
			formatTime(t.CreatedAt))
		if errors.Is(err, sql.ErrNoRows) && attempt < 5 {
			continue // a code collision: draw again
		} else if err != nil {
			return err
		}
		t.ID = id
		return nil
	}
}

// AttachCheckout records the provider's checkout session of a pending order.
func (s *PurchaseService) AttachCheckout(ctx context.Context, orderID int64, provider string, session palaro.CheckoutSession) error {
	// a unit of the batching writer: a rush of paid orders attaches its checkouts in group commits
	return s.db.inWrite(ctx, func(ctx context.Context, tx *sql.Tx) error {
		res, err := tx.ExecContext(ctx, `UPDATE orders SET provider = ?, provider_ref = ?, checkout_url = ?
			WHERE id = ? AND status = 'pending'`, provider, session.ID, session.URL, orderID)
		if err != nil {
			return err
		}
		if n, _ := res.RowsAffected(); n == 0 {
			return palaro.Errorf(palaro.ECONFLICT, "This order is no longer waiting for payment.")
		}
		return nil
	})
}

// CancelOrder releases a pending order's hold at once; the waiting list gets first go at it.
func (s *PurchaseService) CancelOrder(ctx context.Context, orderID int64) error {
	return s.db.inWrite(ctx, func(ctx context.Context, tx *sql.Tx) error {
		if n, err := releaseOrders(ctx, tx, `id = ? AND status = 'pending'`, orderID); err != nil || n == 0 {
			return err
		}
		return s.db.ticketsReturned(ctx, tx, s.db.Now())
	})
}

// ExpireHolds releases the holds of pending orders whose hold ended at or before now.
func (s *PurchaseService) ExpireHolds(ctx context.Context, now time.Time) (int, error) {
	var n int
	err := s.db.inWrite(ctx, func(ctx context.Context, tx *sql.Tx) error {
		var err error
		if n, err = releaseOrders(ctx, tx, `status = 'pending' AND hold_expires_at <= ?`, formatTime(now)); err != nil || n == 0 {
			return err
		}
		return s.db.ticketsReturned(ctx, tx, now) // offered to the waiting lists before anyone else can buy them
	})
	return n, err
}

// releaseOrders marks the matching pending orders expired and gives back their held tickets,
// seats and promo code uses.
func releaseOrders(ctx context.Context, tx *sql.Tx, where string, args ...any) (int, error) {
	rows, err := tx.QueryContext(ctx, `SELECT id, ticket_type_id, quantity, promo_code_id FROM orders WHERE `+where, args...)
	if err != nil {
		return 0, err
	}
	type held struct {
		id, ticketType int64
		quantity       int
		promo          sql.NullInt64
	}
	var orders []held
	for rows.Next() {
		var h held
		if err := rows.Scan(&h.id, &h.ticketType, &h.quantity, &h.promo); err != nil {
			rows.Close()
			return 0, err
		}
		orders = append(orders, h)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return 0, err
	}
	released := 0
	for _, h := range orders {
		// Conditional: another server (or a payment) may have changed the order since the SELECT;
		// then its tickets are not this release's to give back.
		res, err := tx.ExecContext(ctx, `UPDATE orders SET status = 'expired' WHERE id = ? AND status = 'pending'`, h.id)
		if err != nil {
			return 0, err
		}
		if n, err := res.RowsAffected(); err != nil {
			return 0, err
		} else if n == 0 {
			continue
		}
		released++
		if _, err := tx.ExecContext(ctx, `UPDATE ticket_types SET held = held - ? WHERE id = ?`, h.quantity, h.ticketType); err != nil {
			return 0, err
		}
		if err := releaseSeats(ctx, tx, h.id); err != nil {
			return 0, err
		}
		if h.promo.Valid {
			if _, err := tx.ExecContext(ctx, `UPDATE promo_codes SET used = CASE WHEN used > 0 THEN used - 1 ELSE 0 END WHERE id = ?`, h.promo.Int64); err != nil {
				return 0, err
			}
		}
	}
	return released, nil
}

// PendingOrdersForReconciliation returns orders with a checkout that are pending (or expired
// within the last day) and older than minAge.
func (s *PurchaseService) PendingOrdersForReconciliation(ctx context.Context, now time.Time, minAge time.Duration) ([]*palaro.Order, error) {
	tx, err := s.db.beginRead(ctx)
	if err != nil {
		return nil, err
	}
	defer tx.Rollback()
	return loadOrders(ctx, tx, `o.provider_ref != '' AND o.created_at <= ? AND (o.status = 'pending'
		OR (o.status = 'expired' AND o.hold_expires_at > ?)) ORDER BY o.id LIMIT 200`,
		formatTime(now.Add(-minAge)), formatTime(now.Add(-24*time.Hour)))
}

// FindOrderByPublicID returns an order with its event, ticket type, tickets and add-ons.
func (s *PurchaseService) FindOrderByPublicID(ctx context.Context, publicID string) (*palaro.Order, error) {
	tx, err := s.db.beginRead(ctx)
	if err != nil {
		return nil, err
	}
	defer tx.Rollback()
	return loadOrder(ctx, tx, `o.public_id = ?`, publicID)
}

// ListOrders returns the most recent orders matching the filter.
func (s *PurchaseService) ListOrders(ctx context.Context, f palaro.OrderFilter) ([]*palaro.Order, error) {
	switch f.Status {
	case "", palaro.OrderPending, palaro.OrderPaid, palaro.OrderExpired, palaro.OrderRefund, palaro.OrderRefunded:
	default:
		return nil, palaro.Errorf(palaro.EINVALID, "Unknown order status %q.", f.Status)
	}
	if f.Limit <= 0 || f.Limit > 1000 {
		f.Limit = 100
	}
	tx, err := s.db.beginRead(ctx)
	if err != nil {
		return nil, err
	}
	defer tx.Rollback()
	return loadOrders(ctx, tx, `(? = '' OR o.status = ?) ORDER BY o.id DESC LIMIT ?`, f.Status, f.Status, f.Limit)
}

const orderColumns = `o.id, o.public_id, o.kind, o.event_id, o.ticket_type_id, o.ticket_id, o.quantity, o.email,
	o.buyer, o.seats, o.source, coalesce(p.code, ''), o.payment_type, o.unit_price, o.add_ons_total,
	o.promo_discount, o.total, o.status, o.provider, o.provider_ref, o.checkout_url, o.hold_expires_at,
	o.paid_at, o.created_at`

func scanOrder(r rowScanner) (*palaro.Order, error) {
	var o palaro.Order
	var ticketID sql.NullInt64
	var buyer, seats string
	var hold, paid, created sql.NullString
	err := r.Scan(&o.ID, &o.PublicID, &o.Kind, &o.EventID, &o.TicketTypeID, &ticketID, &o.Quantity, &o.Email,
		&buyer, &seats, &o.Source, &o.PromoCode, &o.PaymentType, &o.UnitPrice, &o.AddOnsTotal, &o.PromoDiscount,
		&o.Total, &o.Status, &o.Provider, &o.ProviderRef, &o.CheckoutURL, &hold, &paid, &created)
	if err != nil {
		return nil, err
	}
	o.TicketID = ticketID.Int64
	if err := json.Unmarshal([]byte(buyer), &o.Buyer); err != nil {
		return nil, fmt.Errorf("order %d buyer: %w", o.ID, err)
	}
	if err := json.Unmarshal([]byte(seats), &o.Seats); err != nil {
		return nil, fmt.Errorf("order %d seats: %w", o.ID, err)
	}
	o.HoldExpiresAt, _ = parseTime(hold)
	o.PaidAt, _ = parseTime(paid)
	o.CreatedAt, _ = parseTime(created)
	return &o, nil
}

// loadOrders returns the orders matching where (which may end in ORDER BY / LIMIT), with their
// event, ticket type, add-ons and tickets: a few queries for all of them, not a few per order.
func loadOrders(ctx context.Context, q querier, where string, args ...any) ([]*palaro.Order, error) {
	rows, err := q.QueryContext(ctx, `SELECT `+orderColumns+` FROM orders o
		LEFT JOIN promo_codes p ON p.id = o.promo_code_id WHERE `+where, args...)
	if err != nil {
		return nil, err
	}
	var orders []*palaro.Order
	for rows.Next() {
		o, err := scanOrder(rows)
		if err != nil {
			rows.Close()
			return nil, err
		}
		orders = append(orders, o)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, err
	}
	if len(orders) == 0 {
		return orders, nil
	}
	// the orders' add-ons and tickets, each in one query for all of them
	refs := newRefCache()
	ids, ticketOrders, addOnTickets := make([]any, len(orders)), []any{}, []any{}
	for i, o := range orders {
		if o.Event, o.TicketType, err = refs.get(ctx, q, o.EventID, o.TicketTypeID); err != nil {
			return nil, err
		}
		ids[i] = o.ID
		if o.Kind == palaro.OrderKindAddOns {
			addOnTickets = append(addOnTickets, o.TicketID)
		} else {
			ticketOrders = append(ticketOrders, o.ID)
		}
	}
	addOns, err := queryAddOnsOf(ctx, q, `SELECT oa.order_id, a.id, a.event_id, a.name, oa.price, a.category, a.notes,
		a.image_url, oa.quantity FROM order_add_ons oa JOIN add_ons a ON a.id = oa.add_on_id WHERE oa.order_id IN (`+
		placeholders(len(ids))+`) ORDER BY oa.order_id, a.category, a.name`, ids...)
	if err != nil {
		return nil, err
	}
	var tickets []*palaro.Ticket
	if len(ticketOrders) > 0 {
		ts, err := queryTickets(ctx, q, refs, `t.order_id IN (`+placeholders(len(ticketOrders))+`) ORDER BY t.id`, ticketOrders...)
		if err != nil {
			return nil, err
		}
		tickets = append(tickets, ts...)
	}
	if len(addOnTickets) > 0 {
		ts, err := queryTickets(ctx, q, refs, `t.id IN (`+placeholders(len(addOnTickets))+`) ORDER BY t.id`, addOnTickets...)
		if err != nil {
			return nil, err
		}
		tickets = append(tickets, ts...)
	}
	byOrder, byID := map[int64][]palaro.Ticket{}, map[int64]*palaro.Ticket{}
	for _, t := range tickets {
		byOrder[t.OrderID] = append(byOrder[t.OrderID], *t)
		byID[t.ID] = t
	}
	for _, o := range orders {
		o.AddOns = addOns[o.ID]
		if o.Kind != palaro.OrderKindAddOns {
			o.Tickets = byOrder[o.ID]
		} else if t, ok := byID[o.TicketID]; ok {
			o.Tickets = []palaro.Ticket{*t}
		}
	}
	return orders, nil
}

// placeholders returns n comma-separated placeholders, for an IN list.
func placeholders(n int) string {
	return strings.TrimSuffix(strings.Repeat("?, ", n), ", ")
}

func loadOrder(ctx context.Context, q querier, where string, args ...any) (*palaro.Order, error) {
	orders, err := loadOrders(ctx, q, where, args...)
	if err != nil {
		return nil, err
	}
	if len(orders) == 0 {
		return nil, palaro.Errorf(palaro.ENOTFOUND, "Order not found.")
	}
	return orders[0], nil
}

// refCache loads events and ticket types once per query.
type refCache struct {
	events map[int64]*palaro.Event
	types  map[int64]*palaro.TicketType
}

func newRefCache() *refCache {
	return &refCache{events: map[int64]*palaro.Event{}, types: map[int64]*palaro.TicketType{}}
}

func (c *refCache) get(ctx context.Context, q querier, eventID, ticketTypeID int64) (*palaro.Event, *palaro.TicketType, error) {
	ev, ok := c.events[eventID]
	if !ok {
		var err error
		ev, err = scanEvent(q.QueryRowContext(ctx, `SELECT `+eventColumns+` `+eventJoins+` WHERE e.id = ?`, eventID))
		if err != nil {
			return nil, nil, fmt.Errorf("event %d: %w", eventID, err)
		}
		c.events[eventID] = ev
	}
	tt, ok := c.types[ticketTypeID]
	if !ok {
		t, err := scanTicketType(q.QueryRowContext(ctx, `SELECT `+ticketTypeColumns+` FROM ticket_types tt
			WHERE tt.id = ?`, ticketTypeID))
		if err != nil {
			return nil, nil, fmt.Errorf("ticket type %d: %w", ticketTypeID, err)
		}
		tt = &t
		c.types[ticketTypeID] = tt
	}
	return ev, tt, nil
}

func queryAddOns(ctx context.Context, q querier, query string, args ...any) ([]palaro.AddOn, error) {
	rows, err := q.QueryContext(ctx, query, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var addOns []palaro.AddOn
	cols, err := rows.Columns()
	if err != nil {
		return nil, err
	}
	for rows.Next() {
		var a palaro.AddOn
		if err := rows.Scan(addOnDest(&a, len(cols) > 7)...); err != nil {
			return nil, err
		}
		addOns = append(addOns, a)
	}
	return addOns, rows.Err()
}

// addOnDest is where an add-on's columns are scanned: id, event_id, name, price, category, notes,
// image_url and, for order lines, their quantity.
func addOnDest(a *palaro.AddOn, withQuantity bool) []any {
	dest := []any{&a.ID, &a.EventID, &a.Name, &a.Price, &a.Category, &a.Notes, &a.ImageURL}
	if withQuantity {
		dest = append(dest, &a.Quantity) // order lines carry their quantity
	}
	return dest
}

// queryAddOnsOf returns the add-ons of several orders or tickets by their id: query's first column
// is that id, the others queryAddOns's, in the order each owner's add-ons are listed.
func queryAddOnsOf(ctx context.Context, q querier, query string, args ...any) (map[int64][]palaro.AddOn, error) {
	rows, err := q.QueryContext(ctx, query, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	cols, err := rows.Columns()
	if err != nil {
		return nil, err
	}
	byOwner := map[int64][]palaro.AddOn{}
	for rows.Next() {
		var owner int64
		var a palaro.AddOn
		if err := rows.Scan(append([]any{&owner}, addOnDest(&a, len(cols) > 8)...)...); err != nil {
			return nil, err
		}
		byOwner[owner] = append(byOwner[owner], a)
	}
	return byOwner, rows.Err()
}

const ticketColumns = `t.id, t.public_id, t.code, t.order_id, t.event_id, t.ticket_type_id, t.holder_name, t.email,
	t.seat, t.status, t.checked_in_at, t.created_at`

// queryTickets returns the tickets matching where, with their event, ticket type and add-ons (read
// for all of them in one query).
func queryTickets(ctx context.Context, q querier, refs *refCache, where string, args ...any) ([]*palaro.Ticket, error) {
	rows, err := q.QueryContext(ctx, `SELECT `+ticketColumns+` FROM tickets t WHERE `+where, args...)
	if err != nil {
		return nil, err
	}
	var tickets []*palaro.Ticket
	var typeIDs []int64
	for rows.Next() {
		var t palaro.Ticket
		var typeID int64
		var checked, created sql.NullString
		if err := rows.Scan(&t.ID, &t.PublicID, &t.Code, &t.OrderID, &t.EventID, &typeID, &t.HolderName, &t.Email,
			&t.Seat, &t.Status, &checked, &created); err != nil {
			rows.Close()
			return nil, err
		}
		t.CheckedInAt, _ = parseTime(checked)
		t.CreatedAt, _ = parseTime(created)
		tickets = append(tickets, &t)
		typeIDs = append(typeIDs, typeID)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, err
	}
	if len(tickets) == 0 {
		return tickets, nil
	}
	ids := make([]any, len(tickets))
	for i, t := range tickets {
		ev, tt, err := refs.get(ctx, q, t.EventID, typeIDs[i])
		if err != nil {
			return nil, err
		}
		t.Event, t.TicketType = ev, *tt
		ids[i] = t.ID
	}
	addOns, err := queryAddOnsOf(ctx, q, `SELECT ta.ticket_id, a.id, a.event_id, a.name, a.price, a.category, a.notes,
		a.image_url FROM ticket_add_ons ta JOIN add_ons a ON a.id = ta.add_on_id WHERE ta.ticket_id IN (`+
		placeholders(len(ids))+`) ORDER BY ta.ticket_id, a.category, a.name`, ids...)
	if err != nil {
		return nil, err
	}
	for _, t := range tickets {
		t.AddOns = addOns[t.ID]
	}
	return tickets, nil
}

// FindTicketByPublicID returns a ticket with its event, ticket type and add-ons.
func (s *PurchaseService) FindTicketByPublicID(ctx context.Context, publicID string) (*palaro.Ticket, error) {
	tx, err := s.db.beginRead(ctx)
	if err != nil {
		return nil, err
	}
	defer tx.Rollback()
	return findTicket(ctx, tx, publicID)
}

func findTicket(ctx context.Context, q querier, publicID string) (*palaro.Ticket, error) {
	tickets, err := queryTickets(ctx, q, newRefCache(), `t.public_id = ?`, publicID)
	if err != nil {
		return nil, err
	}
	if len(tickets) == 0 {
		return nil, palaro.Errorf(palaro.ENOTFOUND, "Ticket not found.")
	}
	return tickets[0], nil
}

// ListTicketsByEmail returns the tickets held by an e-mail address, newest first.
func (s *PurchaseService) ListTicketsByEmail(ctx context.Context, email string) ([]*palaro.Ticket, error) {
	tx, err := s.db.beginRead(ctx)
	if err != nil {
		return nil, err
	}
	defer tx.Rollback()
	return queryTickets(ctx, tx, newRefCache(), `t.email = ? ORDER BY t.id DESC LIMIT 500`, palaro.NormalizeEmail(email))
}

// TicketStatus returns the status of the ticket with a short code.
func (s *PurchaseService) TicketStatus(ctx context.Context, code string) (*palaro.TicketStatusInfo, error) {
	var info palaro.TicketStatusInfo
	var checked sql.NullString
	err := s.db.read.QueryRowContext(ctx, `SELECT t.code, t.status, e.code, e.name, tt.code, tt.name, t.checked_in_at
		FROM tickets t JOIN events e ON e.id = t.event_id JOIN ticket_types tt ON tt.id = t.ticket_type_id
		WHERE t.code = ?`, strings.ToUpper(strings.TrimSpace(code))).Scan(&info.Code, &info.Status, &info.EventCode,
		&info.EventName, &info.TicketTypeCode, &info.TicketTypeName, &checked)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, palaro.Errorf(palaro.ENOTFOUND, "Ticket not found.")
	} else if err != nil {
		return nil, err
	}
	info.CheckedInAt, _ = parseTime(checked)
	return &info, nil
}
