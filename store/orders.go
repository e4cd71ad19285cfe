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
	"palaro/internal/metrics"
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

// CreateOrder validates, prices and stores a purchase. Capacity is taken with one conditional
// UPDATE and seats with inserts under a primary key, inside one BEGIN IMMEDIATE transaction, so
// concurrent buyers can never oversell nor share a seat.
func (s *PurchaseService) CreateOrder(ctx context.Context, req palaro.PurchaseRequest, now time.Time) (_ *palaro.Order, err error) {
	defer wrapErr(&err, "store: CreateOrder(%q)", req.TicketCode)

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
	dates, err := s.db.purchaseDates(ctx, ev.ID)
	if err != nil {
		return nil, err
	}
	plan, err := planDates(dates, ev, tt, req.Date, now)
	if err != nil {
		return nil, err
	}
	state := tt.SaleState(ev, now)
	if plan.date != nil { // a series' day ticket: the date's window and status, its own stock
		state = palaro.SaleOpen
	}
	switch state { // sold out is decided by the capacity hold below, under the write lock
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
			promo = p
		case palaro.ErrorCode(err) != palaro.ENOTFOUND:
			return nil, err
		} // an unknown source is a referral code: recorded, no discount
	}
	terms, err := palaro.DecideOrder(*tt, req, promo, addOns, ev.Organizer.VATRegistered, now)
	if err != nil {
		return nil, err
	}
	promo, price := terms.Promo, terms.Price
	o := &palaro.Order{
		PublicID: newPublicID(), Kind: palaro.OrderKindTickets, EventID: ev.ID, TicketTypeID: tt.ID,
		Quantity: req.Quantity, Email: req.Email, Buyer: buyerOf(req), Seats: req.Seats, Source: req.Source,
		PaymentType: terms.PaymentType, SessionKey: req.SessionKey, UserID: req.UserID, UnitPrice: price.UnitPrice, AddOnsTotal: price.AddOnsTotal,
		PromoDiscount: price.PromoDiscount, Total: price.Total, Status: palaro.OrderPending,
		Discounts: terms.Discounts, SeniorPWDDiscount: price.SeniorPWDDiscount,
		HoldExpiresAt: now.Add(s.hold), CreatedAt: now, AddOns: addOns, Event: ev, TicketType: tt, Date: plan.date,
	}
	if promo != nil {
		o.PromoCode, o.PromoTicketsOnly = promo.Code, promo.TicketsOnly()
	}
	if terms.Free {
		o.Status, o.PaidAt, o.HoldExpiresAt = palaro.OrderPaid, now, time.Time{}
	}

	if req.Offer == "" && plan.date == nil { // a waiting-list offer's tickets are held for it: not free, not sold out
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
		if req.SeatHold != "" { // the buyer's own best-available hold on the order's date gives its seats back for the order to take
			if err := endSeatHolds(ctx, tx, `ticket_type_id = ? AND public_id = ? AND date_id = ?`, tt.ID, req.SeatHold, plan.dateID()); err != nil {
				return err
			}
		}
		if err := seatsFreeOn(ctx, tx, plan.stockType, plan.seatsFreeOn(), o.Seats); err != nil {
			return err // a taken seat says so before 'sold out' does
		}
		if plan.date == nil { // a series' day ticket has no stock but its dates'
			if err := reserve(ctx, tx, tt, o.Quantity, o.Free()); err != nil {
				return err
			}
		}
		if err := plan.stillOn(ctx, tx); err != nil {
			return err
		}
		if err := plan.take(ctx, tx, o.Quantity, o.Free()); err != nil {
			return err
		}
		if err := s.saveOrder(ctx, tx, o, promoID, now, plan); err != nil {
			return err
		}
		return takeSeatsOn(ctx, tx, plan.stockType, plan.dates, o.ID, o.Seats)
	})
	if err != nil {
		return nil, err
	}
	metrics.OrdersOnline.Inc()
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
// plan's places on dates are recorded before a free order is issued (its pass tickets take them).
func (s *PurchaseService) saveOrder(ctx context.Context, tx *sql.Tx, o *palaro.Order, promoID any, now time.Time, plan datePlan) error {
	buyer, _ := json.Marshal(o.Buyer)
	seats, _ := json.Marshal(palaro.NonNilStrings(o.Seats))
	var ticketID, userID, dateID any
	if o.TicketID != 0 {
		ticketID = o.TicketID
	}
	if o.Date != nil {
		dateID = o.Date.ID
	}
	if o.UserID != 0 {
		userID = o.UserID
	}
	var err error
	o.ID, err = insertID(ctx, tx, `INSERT INTO orders (public_id, kind, event_id, ticket_type_id, ticket_id, quantity,
		email, buyer, seats, source, promo_code_id, payment_type, unit_price, add_ons_total, promo_discount, total,
		status, hold_expires_at, paid_at, created_at, session_key, user_id, senior_pwd_discount, date_id) VALUES (?, ?, ?, ?, ?, ?,
		?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
		o.PublicID, o.Kind, o.EventID, o.TicketTypeID, ticketID, o.Quantity, o.Email, string(buyer), string(seats),
		o.Source, promoID, o.PaymentType, o.UnitPrice, o.AddOnsTotal, o.PromoDiscount, o.Total, o.Status,
		nullTime(o.HoldExpiresAt), nullTime(o.PaidAt), formatTime(now), o.SessionKey, userID, o.SeniorPWDDiscount, dateID)
	if err != nil {
		return err
	}
	if err := plan.record(ctx, tx, o.ID, o.Quantity); err != nil {
		return err
	}
	if err := saveDiscounts(ctx, tx, o, now); err != nil {
		return err
	}
	for _, a := range o.AddOns {
		if _, err := tx.ExecContext(ctx, `INSERT INTO order_add_ons (order_id, add_on_id, price, quantity)
			VALUES (?, ?, ?, ?)`, o.ID, a.ID, a.Price, a.Count()); err != nil {
			return err
		}
	}
	if o.Free() { // issued in this unit: no team entry can name it yet, and nothing is read back
		return s.issueOrder(ctx, tx, o, now, nil, &issuedNew{dated: len(plan.dates) > 0})
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
// ticket; for an entry fee, registers its team), writes its sales invoice and queues its confirmation e-mail, once; the outbox composes the e-mail when it sends
// it, so the order is not read again here.
func (s *PurchaseService) issue(ctx context.Context, tx *sql.Tx, o *palaro.Order, now time.Time) error {
	entry, err := teamOrderOf(ctx, tx, o.ID)
	if err != nil {
		return err
	}
	return s.issueOrder(ctx, tx, o, now, entry, nil)
}

// issuedNew is what issueOrder need not read back for an order saved in the same unit
// (saveOrder): it has no team entry, its discounts are o.Discounts as just saved, and dated says
// whether it recorded places on dates (order_dates), which a pass's tickets take (pass_uses).
type issuedNew struct{ dated bool }

// issueOrder is issue with the order's team entry (nil for none) read; fresh, when set, says the
// order was saved in this unit (issuedNew), so its discounts and dates are not read back.
func (s *PurchaseService) issueOrder(ctx context.Context, tx *sql.Tx, o *palaro.Order, now time.Time, entry *teamOrder, fresh *issuedNew) error {
	if entry != nil { // an entry fee: no ticket, the team registered (a place or the waiting list)
		teams, _ := s.composer.(palaro.TeamComposer)
		if err := placeTeam(ctx, tx, o.ID, entry, teams, now); err != nil {
			return err
		}
	} else if o.Kind == palaro.OrderKindTickets {
		if err := insertOrderTickets(ctx, tx, o, now, fresh); err != nil {
			return err
		}
		if err := sellReturns(ctx, tx, s.db, o.ID, o.TicketTypeID, len(o.Tickets), now); err != nil {
			return err // tickets returned at face value are sold before the rest
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
	if err := issueInvoice(ctx, tx, o, now); err != nil { // its serial is taken in this write: no gap
		return err
	}
	if err := enqueueWebhook(ctx, tx, palaro.WebhookOrderPaid, o.ID, now); err != nil {
		return err
	}
	if s.composer == nil || entry != nil { // an entry fee's e-mail is the team's registration (placeTeam)
		return nil
	}
	return enqueueOrderMessage(ctx, tx, o, now)
}

// insertOrderTickets inserts a paid ticket order's tickets (o.Tickets) and, for a pass, the places its
// order took on each date (pass_uses, with the tickets' seats). For an order saved in this unit
// (fresh), its discounts are o.Discounts and it has places on dates only when fresh.dated.
func insertOrderTickets(ctx context.Context, tx *sql.Tx, o *palaro.Order, now time.Time, fresh *issuedNew) error {
	if o.Discounts == nil && fresh == nil {
		var err error
		if o.Discounts, err = orderDiscounts(ctx, tx, o.ID); err != nil {
			return err
		}
	}
	tickets := newTickets(o, now)
	for i := range tickets {
		t := tickets[i]
		t.OrderID = o.ID
		if err := insertTicket(ctx, tx, &t, o.TicketTypeID); err != nil {
			return err
		}
		o.Tickets = append(o.Tickets, t)
	}
	if o.Date != nil || fresh != nil && !fresh.dated {
		return nil
	}
	return insertPassUses(ctx, tx, o.ID, now)
}

// insertPassUses gives a pass order's tickets the places the order took on each date (pass_uses
// from order_dates, with the tickets' seats); nothing for an order without dates.
func insertPassUses(ctx context.Context, tx *sql.Tx, orderID int64, now time.Time) error {
	_, err := tx.ExecContext(ctx, `INSERT INTO pass_uses (ticket_id, date_id, seat, created_at)
		SELECT t.id, od.date_id, t.seat, ? FROM tickets t JOIN order_dates od ON od.order_id = t.order_id
		WHERE t.order_id = ?`, formatTime(now), orderID)
	return err
}

// newTickets returns a ticket order's tickets as issued at now, with their public ids and codes
// drawn, not yet stored.
func newTickets(o *palaro.Order, now time.Time) []palaro.Ticket {
	tickets := make([]palaro.Ticket, o.Quantity)
	for i := range tickets {
		tickets[i] = palaro.Ticket{OrderID: o.ID, EventID: o.EventID, HolderName: holderName(o.Buyer), Email: o.Email,
			Status: palaro.TicketValid, CreatedAt: now, PublicID: newPublicID(), Code: newTicketCode(), Date: o.Date}
		if i < len(o.Seats) {
			tickets[i].Seat = o.Seats[i]
		}
		if i < len(o.Discounts) { // the law's discount is for the holder's own use: the ticket is theirs
			tickets[i].Discount, tickets[i].HolderName = o.Discounts[i], o.Discounts[i].HolderName
		}
	}
	return tickets
}

func insertTicket(ctx context.Context, tx *sql.Tx, t *palaro.Ticket, ticketTypeID int64) error {
	for attempt := 0; ; attempt++ {
		if attempt > 0 || t.PublicID == "" || t.Code == "" {
			t.PublicID, t.Code = newPublicID(), newTicketCode() // drawn here unless the caller drew them
		}
		var dateID any
		if t.Date != nil {
			dateID = t.Date.ID
		}
		id, err := insertID(ctx, tx, `INSERT INTO tickets (public_id, code, order_id, event_id, ticket_type_id,
			holder_name, email, seat, status, created_at, discount_type, discount_holder, discount_id_number,
			discount_amount, date_id) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING`,
			t.PublicID, t.Code, t.OrderID, t.EventID, ticketTypeID, t.HolderName, t.Email, t.Seat, t.Status,
			formatTime(t.CreatedAt), t.Discount.Type, t.Discount.HolderName, t.Discount.IDNumber, t.Discount.Amount, dateID)
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
func (s *PurchaseService) AttachCheckout(ctx context.Context, orderID int64, provider string, session palaro.CheckoutSession) (err error) {
	defer wrapErr(&err, "store: AttachCheckout(%d)", orderID)

	// a unit of the batching writer: a rush of paid orders attaches its checkouts in group commits
	return s.db.inWrite(ctx, func(ctx context.Context, tx *sql.Tx) error {
		res, err := tx.ExecContext(ctx, `UPDATE orders SET provider = ?, provider_ref = ?, checkout_url = ?, provider_intent = ?
			WHERE id = ? AND status = 'pending'`, provider, session.ID, session.URL, session.IntentID, orderID)
		if err != nil {
			return err
		}
		if n, _ := res.RowsAffected(); n == 0 {
			return palaro.Errorf(palaro.ECONFLICT, "This order is no longer waiting for payment.")
		}
		return nil
	})
}
