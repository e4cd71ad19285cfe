package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"palaro"
)

// Invoices and credit notes (BIR RR 7-2024). The serial rule: each organization has its own
// sequence per kind in invoice_counters, and the next serial is taken by one guarded upsert of
// that row inside the write that makes the order paid (or ends the refund). The row lock it takes
// (PostgreSQL) or the single writer (SQLite) orders concurrent writers, and a write that rolls
// back gives its serial back with it: serials run 1, 2, 3… with no gap and no repeat, across
// servers too. UNIQUE (organizer_id, kind, serial) is the backstop.

// invoiceBody is what the lines column keeps: the lines, the senior and PWD tickets and the sums,
// as they were at issue.
type invoiceBody struct {
	Lines      []palaro.InvoiceLine      `json:"lines"`
	Exemptions []palaro.InvoiceExemption `json:"exemptions,omitempty"`
	Amounts    palaro.InvoiceAmounts     `json:"amounts"`
}

// nextSerial takes the next serial of an organization's sequence of kind, in the caller's write.
func nextSerial(ctx context.Context, tx *sql.Tx, orgID int64, kind string) (int64, error) {
	var serial int64
	err := tx.QueryRowContext(ctx, `INSERT INTO invoice_counters (organizer_id, kind, last_serial) VALUES (?, ?, 1)
		ON CONFLICT (organizer_id, kind) DO UPDATE SET last_serial = invoice_counters.last_serial + 1
		RETURNING last_serial`, orgID, kind).Scan(&serial)
	return serial, err
}

// sellerOf reads an organization's invoice details as they are now.
func sellerOf(ctx context.Context, q querier, orgID int64) (palaro.InvoiceSeller, error) {
	s := palaro.InvoiceSeller{OrganizationID: orgID}
	var vat int
	err := q.QueryRowContext(ctx, `SELECT name, registered_name, tin, registered_address, vat_registered
		FROM organizers WHERE id = ?`, orgID).Scan(&s.Name, &s.RegisteredName, &s.TIN, &s.Address, &vat)
	s.VATRegistered = vat == 1
	return s, err
}

// issueInvoice writes the sales invoice of an order that has just become paid, in the same write
// (called by issue, after the order's tickets are inserted, and by the box office's sale). An
// order with nothing to pay (a free order) is no sale and gets no invoice. An order that already
// has one is left as it is.
func issueInvoice(ctx context.Context, tx *sql.Tx, o *palaro.Order, now time.Time) error {
	if o.Total <= 0 {
		return nil
	}
	var orgID int64
	var eventName, typeName string
	if err := tx.QueryRowContext(ctx, `SELECT e.organizer_id, e.name, coalesce(tt.name, '') FROM events e
		LEFT JOIN ticket_types tt ON tt.id = ? WHERE e.id = ?`, o.TicketTypeID, o.EventID).Scan(&orgID, &eventName, &typeName); err != nil {
		return fmt.Errorf("invoice of order %d: %w", o.ID, err)
	}
	var exists int
	if err := tx.QueryRowContext(ctx, `SELECT count(*) FROM invoices WHERE order_id = ? AND kind = 'invoice'`, o.ID).Scan(&exists); err != nil {
		return err
	} else if exists > 0 {
		return nil
	}
	seller, err := sellerOf(ctx, tx, orgID)
	if err != nil {
		return err
	}
	var body invoiceBody
	var addOns palaro.Money
	if o.Kind == palaro.OrderKindTickets && o.Quantity > 0 {
		body.Lines = append(body.Lines, palaro.InvoiceLine{Description: eventName + ": " + typeName, Quantity: o.Quantity,
			UnitPrice: o.UnitPrice, Amount: o.UnitPrice * palaro.Money(o.Quantity)})
		body.Exemptions, err = queryRows(ctx, tx, `SELECT discount_type, discount_holder, discount_id_number, discount_amount
			FROM tickets WHERE order_id = ? AND discount_type != '' ORDER BY id`, []any{o.ID},
			func(r rowScanner) (e palaro.InvoiceExemption, err error) {
				var off palaro.Money
				err = r.Scan(&e.Type, &e.Holder, &e.IDNumber, &off)
				e.Price, e.Paid = o.UnitPrice, max(o.UnitPrice-off, 0)
				return e, err
			})
		if err != nil {
			return err
		}
	}
	for _, a := range o.AddOns {
		line := palaro.InvoiceLine{Description: "Add-on: " + a.Name, Quantity: a.Count(), UnitPrice: a.Price,
			Amount: a.Price * palaro.Money(a.Count())}
		body.Lines = append(body.Lines, line)
		addOns += line.Amount
	}
	body.Amounts = palaro.ComputeInvoiceAmounts(seller.VATRegistered, body.Lines, body.Exemptions, o.PromoDiscount, o.Total, addOns)
	inv := &palaro.Invoice{Kind: palaro.InvoiceKindInvoice, OrderID: o.ID, IssuedAt: now, Seller: seller,
		BuyerName: holderName(o.Buyer), BuyerEmail: o.Email}
	return insertInvoice(ctx, tx, inv, o.EventID, nil, nil, body)
}

// insertInvoice takes the next serial of the invoice's kind and stores it.
func insertInvoice(ctx context.Context, tx *sql.Tx, inv *palaro.Invoice, eventID int64, creditsID, refundID any, body invoiceBody) error {
	var err error
	if inv.Serial, err = nextSerial(ctx, tx, inv.Seller.OrganizationID, inv.Kind); err != nil {
		return err
	}
	seller, _ := json.Marshal(inv.Seller)
	lines, _ := json.Marshal(body)
	a := body.Amounts
	inv.PublicID = newPublicID()
	inv.ID, err = insertID(ctx, tx, `INSERT INTO invoices (public_id, organizer_id, kind, serial, order_id, event_id,
		credits_id, refund_id, issued_at, seller, buyer_name, buyer_email, lines, vatable_sales, vat, vat_exempt_sales,
		discount, total, admission) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
		inv.PublicID, inv.Seller.OrganizationID, inv.Kind, inv.Serial, inv.OrderID, eventID, creditsID, refundID,
		formatTime(inv.IssuedAt), string(seller), inv.BuyerName, inv.BuyerEmail, string(lines), a.VATableSales, a.VAT,
		a.VATExemptSales, a.PromoDiscount+a.SCPWDDiscount, a.Total, a.Admission)
	return err
}

// creditedInvoice is the sales invoice a credit note reverses.
type creditedInvoice struct {
	id, eventID int64
	seller      palaro.InvoiceSeller
	buyer       string
	email       string
	body        invoiceBody
}

// orderInvoice reads an order's sales invoice in the caller's write; ok is false when it has none.
func orderInvoice(ctx context.Context, tx *sql.Tx, orderID int64) (c creditedInvoice, ok bool, err error) {
	var seller, lines string
	var orgID int64
	err = tx.QueryRowContext(ctx, `SELECT id, organizer_id, event_id, seller, buyer_name, buyer_email, lines FROM invoices
		WHERE order_id = ? AND kind = 'invoice'`, orderID).Scan(&c.id, &orgID, &c.eventID, &seller, &c.buyer, &c.email, &lines)
	if errors.Is(err, sql.ErrNoRows) {
		return c, false, nil
	} else if err != nil {
		return c, false, err
	}
	if err := json.Unmarshal([]byte(seller), &c.seller); err != nil {
		return c, false, err
	}
	c.seller.OrganizationID = orgID
	if err := json.Unmarshal([]byte(lines), &c.body); err != nil {
		return c, false, err
	}
	return c, true, nil
}

// issueCreditNoteForRefund writes the credit note of a refund inside the write that ends it (the
// refunds row becoming 'refunded'). It points to the order's sales invoice and takes the next
// serial of the organization's credit note sequence (printed CN-00000001). Its lines are the
// refunded tickets at the amounts refunded; its total is the refund's amount; a senior or PWD
// ticket's refund is VAT-exempt, the rest splits into VATable sales and 12% VAT as the invoice
// did. Nothing happens when the order has no invoice (a free order, or one paid before invoices
// existed) or the refund already has its credit note.
func issueCreditNoteForRefund(ctx context.Context, tx *sql.Tx, refundID int64, now time.Time) error {
	var orderID int64
	var amount, fee palaro.Money
	if err := tx.QueryRowContext(ctx, `SELECT order_id, amount, fee FROM refunds WHERE id = ?`, refundID).
		Scan(&orderID, &amount, &fee); err != nil {
		return fmt.Errorf("credit note of refund %d: %w", refundID, err)
	}
	var done int
	if err := tx.QueryRowContext(ctx, `SELECT count(*) FROM invoices WHERE refund_id = ?`, refundID).Scan(&done); err != nil || done > 0 {
		return err
	}
	inv, ok, err := orderInvoice(ctx, tx, orderID)
	if err != nil || !ok {
		return err
	}
	type refunded struct {
		line   string // the line's description
		exempt bool
		amount palaro.Money
	}
	// A pass refunded in part for a cancelled date is a line of its own, VAT-exempt as its ticket is.
	tickets, err := queryRows(ctx, tx, `SELECT 'Refund of ticket ' || t.code, t.discount_type != '', rt.amount, t.id
		FROM refund_tickets rt JOIN tickets t ON t.id = rt.ticket_id WHERE rt.refund_id = ?
		UNION ALL SELECT 'Part refund of pass ' || t.code || ' for ' || d.slug || ' (cancelled)', t.discount_type != '', p.amount, t.id
		FROM pass_date_refunds p JOIN tickets t ON t.id = p.ticket_id JOIN event_dates d ON d.id = p.date_id WHERE p.refund_id = ?
		ORDER BY 4`, []any{refundID, refundID},
		func(r rowScanner) (t refunded, err error) {
			var id int64
			err = r.Scan(&t.line, &t.exempt, &t.amount, &id)
			return t, err
		})
	if err != nil {
		return err
	}
	var body invoiceBody
	var exempt, lines palaro.Money
	for _, t := range tickets {
		body.Lines = append(body.Lines, palaro.InvoiceLine{Description: t.line, Quantity: 1,
			UnitPrice: t.amount, Amount: t.amount})
		lines += t.amount
		if t.exempt {
			exempt += t.amount
		}
	}
	if len(tickets) == 0 { // a refund of the order as a whole
		body.Lines = []palaro.InvoiceLine{{Description: "Refund of the order", Quantity: 1, UnitPrice: amount, Amount: amount}}
		lines = amount
	}
	a := palaro.InvoiceAmounts{Gross: lines, Total: amount, Admission: amount, PromoDiscount: max(lines-amount, 0)}
	a.VATExemptSales = min(exempt, amount)
	a.VATableSales, a.VAT = palaro.SplitVAT(amount-a.VATExemptSales, inv.seller.VATRegistered)
	body.Amounts = a
	cn := &palaro.Invoice{Kind: palaro.InvoiceKindCreditNote, OrderID: orderID, IssuedAt: now, Seller: inv.seller,
		BuyerName: inv.buyer, BuyerEmail: inv.email}
	return insertInvoice(ctx, tx, cn, inv.eventID, inv.id, refundID, body)
}

// issueCreditNoteForOrder writes the credit note that reverses an order's whole sales invoice, in
// the write that marks the order refunded by hand (the console's "Mark refunded"): the invoice's
// lines and sums, from the organization's credit note sequence. Nothing happens when the order
// has no invoice or its invoice is already credited.
func issueCreditNoteForOrder(ctx context.Context, tx *sql.Tx, orderID int64, now time.Time) error {
	inv, ok, err := orderInvoice(ctx, tx, orderID)
	if err != nil || !ok {
		return err
	}
	var done int
	if err := tx.QueryRowContext(ctx, `SELECT count(*) FROM invoices WHERE credits_id = ?`, inv.id).Scan(&done); err != nil || done > 0 {
		return err
	}
	cn := &palaro.Invoice{Kind: palaro.InvoiceKindCreditNote, OrderID: orderID, IssuedAt: now, Seller: inv.seller,
		BuyerName: inv.buyer, BuyerEmail: inv.email}
	return insertInvoice(ctx, tx, cn, inv.eventID, inv.id, nil, inv.body)
}

const invoiceColumns = `i.id, i.organizer_id, i.public_id, i.kind, i.serial, i.order_id, o.public_id, e.name, coalesce(c.public_id, ''),
	coalesce(c.serial, 0), coalesce(r.public_id, ''), i.issued_at, i.seller, i.buyer_name, i.buyer_email, i.lines`

const invoiceFrom = ` FROM invoices i JOIN orders o ON o.id = i.order_id JOIN events e ON e.id = i.event_id
	LEFT JOIN invoices c ON c.id = i.credits_id LEFT JOIN refunds r ON r.id = i.refund_id`

func scanInvoice(r rowScanner) (*palaro.Invoice, error) {
	inv := &palaro.Invoice{}
	var creditsSerial int64
	var issued sql.NullString
	var seller, lines string
	if err := r.Scan(&inv.ID, &inv.Seller.OrganizationID, &inv.PublicID, &inv.Kind, &inv.Serial, &inv.OrderID, &inv.OrderPublicID, &inv.EventName,
		&inv.CreditsPublicID, &creditsSerial, &inv.RefundPublicID, &issued, &seller, &inv.BuyerName, &inv.BuyerEmail, &lines); err != nil {
		return nil, err
	}
	if creditsSerial > 0 {
		inv.CreditsNumber = palaro.InvoiceNumber(palaro.InvoiceKindInvoice, creditsSerial)
	}
	var err error
	if inv.IssuedAt, err = parseTime(issued); err != nil {
		return nil, err
	}
	var body invoiceBody
	orgID := inv.Seller.OrganizationID
	if err := json.Unmarshal([]byte(seller), &inv.Seller); err != nil {
		return nil, err
	}
	inv.Seller.OrganizationID = orgID
	if err := json.Unmarshal([]byte(lines), &body); err != nil {
		return nil, err
	}
	inv.Lines, inv.Exemptions, inv.Amounts = body.Lines, body.Exemptions, body.Amounts
	return inv, nil
}

// FindInvoice returns an invoice or credit note by its public id.
func (s *OrganizerService) FindInvoice(ctx context.Context, publicID string) (_ *palaro.Invoice, err error) {
	defer wrapErr(&err, "store: FindInvoice")

	inv, err := scanInvoice(s.db.read.QueryRowContext(ctx, `SELECT `+invoiceColumns+invoiceFrom+` WHERE i.public_id = ?`, publicID))
	if errors.Is(err, sql.ErrNoRows) {
		return nil, palaro.Errorf(palaro.ENOTFOUND, "Invoice not found.")
	}
	return inv, err
}

// EachInvoice calls fn with the organization's invoices and credit notes issued in [from, to), by
// kind then serial, as the rows are read.
func (s *OrganizerService) EachInvoice(ctx context.Context, orgID int64, from, to time.Time, fn func(*palaro.Invoice) error) (err error) {
	defer wrapErr(&err, "store: EachInvoice(%d)", orgID)

	rows, err := s.db.read.QueryContext(ctx, `SELECT `+invoiceColumns+invoiceFrom+`
		WHERE i.organizer_id = ? AND i.issued_at >= ? AND i.issued_at < ? ORDER BY i.kind DESC, i.serial`,
		orgID, formatTime(from), formatTime(to))
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
		inv, err := scanInvoice(rows)
		if err != nil {
			return err
		}
		if err := fn(inv); err != nil {
			return err
		}
	}
	return rows.Err()
}

// AdmissionReceipts sums the organization's admission receipts issued in [from, to) per venue
// city and province: invoices add, credit notes take away.
func (s *OrganizerService) AdmissionReceipts(ctx context.Context, orgID int64, from, to time.Time) (_ []palaro.AdmissionReceipts, err error) {
	defer wrapErr(&err, "store: AdmissionReceipts(%d)", orgID)

	return queryRows(ctx, s.db.read, `SELECT v.city, v.region,
		sum(CASE WHEN i.kind = 'invoice' THEN 1 ELSE 0 END),
		sum(CASE WHEN i.kind = 'invoice' THEN i.admission ELSE -i.admission END)
		FROM invoices i JOIN events e ON e.id = i.event_id JOIN venues v ON v.id = e.venue_id
		WHERE i.organizer_id = ? AND i.issued_at >= ? AND i.issued_at < ?
		GROUP BY v.region, v.city ORDER BY v.region, v.city`, []any{orgID, formatTime(from), formatTime(to)},
		func(r rowScanner) (a palaro.AdmissionReceipts, err error) {
			err = r.Scan(&a.City, &a.Province, &a.Invoices, &a.Gross)
			return a, err
		})
}

// InvoiceSellers returns the organizations' invoice details, in the order of orgIDs.
func (s *OrganizerService) InvoiceSellers(ctx context.Context, orgIDs []int64) (_ []palaro.InvoiceSeller, err error) {
	defer wrapErr(&err, "store: InvoiceSellers")

	out := make([]palaro.InvoiceSeller, 0, len(orgIDs))
	for _, id := range orgIDs {
		sel, err := sellerOf(ctx, s.db.read, id)
		if errors.Is(err, sql.ErrNoRows) {
			continue
		} else if err != nil {
			return nil, err
		}
		out = append(out, sel)
	}
	return out, nil
}

// SaveInvoiceSeller validates and stores an organization's invoice details, audit-logged.
func (s *OrganizerService) SaveInvoiceSeller(ctx context.Context, orgID int64, actor string, in palaro.InvoiceSeller) (_ palaro.InvoiceSeller, err error) {
	defer wrapErr(&err, "store: SaveInvoiceSeller(%d)", orgID)

	in, err = palaro.ValidateInvoiceSeller(in)
	if err != nil {
		return in, err
	}
	vat := 0
	if in.VATRegistered {
		vat = 1
	}
	now := s.db.Now()
	err = s.db.inWrite(ctx, func(ctx context.Context, tx *sql.Tx) error {
		res, err := tx.ExecContext(ctx, `UPDATE organizers SET registered_name = ?, tin = ?, registered_address = ?,
			vat_registered = ? WHERE id = ?`, in.RegisteredName, in.TIN, in.Address, vat, orgID)
		if err != nil {
			return err
		}
		if n, _ := res.RowsAffected(); n == 0 {
			return palaro.Errorf(palaro.ENOTFOUND, "Organization not found.")
		}
		_, err = tx.ExecContext(ctx, `INSERT INTO audit_log (organizer_id, event_id, actor, action, detail, created_at)
			VALUES (?, NULL, ?, 'organization.invoice_details', ?, ?)`, orgID, actor,
			palaro.AuditDetail(map[string]any{"registeredName": in.RegisteredName, "tin": in.TIN,
				"registeredAddress": in.Address, "vatRegistered": in.VATRegistered}), formatTime(now))
		return err
	})
	if err != nil {
		return in, err
	}
	return sellerOf(ctx, s.db.read, orgID)
}
