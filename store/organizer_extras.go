package store

import (
	"context"
	"database/sql"
	"errors"
	"strconv"
	"strings"
	"time"

	"palaro"
)

// SaveAddOn creates or changes an add-on of the event.
func (s *OrganizerService) SaveAddOn(ctx context.Context, eventID int64, actor string, a palaro.AddOn) (_ *palaro.AddOn, err error) {
	defer wrapErr(&err, "store: SaveAddOn(%d)", eventID)

	a.Name, a.Category, a.Notes = strings.TrimSpace(a.Name), strings.TrimSpace(a.Category), strings.TrimSpace(a.Notes)
	if err := palaro.ValidateAddOn(a); err != nil {
		return nil, err
	}
	return write(ctx, s.db, func(ctx context.Context, tx *sql.Tx) (*palaro.AddOn, error) {
		action := "add-on " + a.Name + " changed"
		if a.ID == 0 {
			id, err := insertID(ctx, tx, `INSERT INTO add_ons (event_id, name, price, category, notes, hidden) VALUES (?, ?, ?, ?, ?, ?)`,
				eventID, a.Name, a.Price, a.Category, a.Notes, a.Hidden)
			if err != nil {
				return nil, err
			}
			a.ID = id
			action = "add-on " + a.Name + " created"
		} else {
			res, err := tx.ExecContext(ctx, `UPDATE add_ons SET name = ?, price = ?, category = ?, notes = ?, hidden = ? WHERE id = ? AND event_id = ?`,
				a.Name, a.Price, a.Category, a.Notes, a.Hidden, a.ID, eventID)
			if err != nil {
				return nil, err
			}
			if n, _ := res.RowsAffected(); n == 0 {
				return nil, palaro.Errorf(palaro.ENOTFOUND, "Add-on not found.")
			}
		}
		a.EventID = eventID
		if err := s.auditEvent(ctx, tx, eventID, actor, action, palaro.AuditDetail(map[string]any{"price": a.Price, "category": a.Category, "hidden": a.Hidden})); err != nil {
			return nil, err
		}
		return &a, nil
	})
}

// ListAddOns returns every add-on of the event, hidden ones included, by category and name.
func (s *OrganizerService) ListAddOns(ctx context.Context, eventID int64) (_ []palaro.AddOn, err error) {
	defer wrapErr(&err, "store: ListAddOns(%d)", eventID)

	rows, err := s.db.read.QueryContext(ctx, `SELECT id, event_id, name, price, category, notes, image_url, hidden
		FROM add_ons WHERE event_id = ? ORDER BY category, name, id`, eventID)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := []palaro.AddOn{}
	for rows.Next() {
		var a palaro.AddOn
		if err := rows.Scan(&a.ID, &a.EventID, &a.Name, &a.Price, &a.Category, &a.Notes, &a.ImageURL, &a.Hidden); err != nil {
			return nil, err
		}
		out = append(out, a)
	}
	return out, rows.Err()
}

// DeleteAddOn deletes an add-on nobody ordered, in the batching writer.
func (s *OrganizerService) DeleteAddOn(ctx context.Context, eventID, id int64, actor string) (err error) {
	defer wrapErr(&err, "store: DeleteAddOn(%d)", eventID)

	return s.db.inWrite(ctx, func(ctx context.Context, tx *sql.Tx) error {
		var name string
		var ordered bool
		err := tx.QueryRowContext(ctx, `SELECT name, EXISTS (SELECT 1 FROM order_add_ons WHERE add_on_id = a.id)
			OR EXISTS (SELECT 1 FROM ticket_add_ons WHERE add_on_id = a.id) FROM add_ons a WHERE a.id = ? AND a.event_id = ?`,
			id, eventID).Scan(&name, &ordered)
		if errors.Is(err, sql.ErrNoRows) {
			return palaro.Errorf(palaro.ENOTFOUND, "Add-on not found.")
		} else if err != nil {
			return err
		}
		if ordered {
			return palaro.Errorf(palaro.ECONFLICT, "%s was ordered, so it cannot be deleted; hide it instead.", name)
		}
		if _, err := tx.ExecContext(ctx, `DELETE FROM add_ons WHERE id = ?`, id); err != nil {
			return err
		}
		return s.auditEvent(ctx, tx, eventID, actor, "add-on "+name+" deleted", "")
	})
}

// ListPromoCodes returns the event's promo codes, newest first.
func (s *OrganizerService) ListPromoCodes(ctx context.Context, eventID int64) (_ []palaro.PromoCode, err error) {
	defer wrapErr(&err, "store: ListPromoCodes(%d)", eventID)

	rows, err := s.db.read.QueryContext(ctx, `SELECT id, code, kind, percent, amount, valid_from, valid_until, usage_limit, used,
		paused, retired FROM promo_codes WHERE event_id = ? ORDER BY id DESC`, eventID)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []palaro.PromoCode
	for rows.Next() {
		p := palaro.PromoCode{EventID: eventID}
		var from, until sql.NullString
		if err := rows.Scan(&p.ID, &p.Code, &p.Kind, &p.Percent, &p.Amount, &from, &until, &p.UsageLimit, &p.Used,
			&p.Paused, &p.Retired); err != nil {
			return nil, err
		}
		p.ValidFrom, _ = parseTime(from)
		p.ValidUntil, _ = parseTime(until)
		out = append(out, p)
	}
	if err := rows.Err(); err != nil {
		return nil, err
	}
	rows.Close()
	for i := range out {
		if out[i].TicketTypeIDs, err = promoTicketTypes(ctx, s.db.read, out[i].ID); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// CreatePromoCode adds a promo code to the event.
func (s *OrganizerService) CreatePromoCode(ctx context.Context, eventID int64, actor string, p palaro.PromoCode) (_ *palaro.PromoCode, err error) {
	defer wrapErr(&err, "store: CreatePromoCode(%d)", eventID)

	p.Code = strings.ToUpper(strings.TrimSpace(p.Code))
	p.EventID = eventID
	if err := palaro.ValidatePromoCode(p); err != nil {
		return nil, err
	}
	return write(ctx, s.db, func(ctx context.Context, tx *sql.Tx) (*palaro.PromoCode, error) {
		if err := insertPromo(ctx, tx, &p); err != nil {
			if palaro.ErrorCode(err) == palaro.ECONFLICT {
				return nil, fieldErr(palaro.ECONFLICT, palaro.FieldCode, palaro.ErrorMessage(err))
			}
			return nil, err
		}
		if err := setPromoTicketTypes(ctx, tx, eventID, p); err != nil {
			return nil, err
		}
		detail, err := promoAuditOf(ctx, tx, p)
		if err != nil {
			return nil, err
		}
		if err := s.auditEvent(ctx, tx, eventID, actor, "promo code "+p.Code+" created", palaro.AuditDetail(detail)); err != nil {
			return nil, err
		}
		return &p, nil
	})
}

// setPromoTicketTypes makes p.TicketTypeIDs, ticket types of the event, the ones the code applies to.
func setPromoTicketTypes(ctx context.Context, tx *sql.Tx, eventID int64, p palaro.PromoCode) error {
	if _, err := tx.ExecContext(ctx, `DELETE FROM promo_code_ticket_types WHERE promo_code_id = ?`, p.ID); err != nil {
		return err
	}
	for _, id := range p.TicketTypeIDs {
		res, err := tx.ExecContext(ctx, `INSERT INTO promo_code_ticket_types (promo_code_id, ticket_type_id)
			SELECT ?, id FROM ticket_types WHERE id = ? AND event_id = ?`, p.ID, id, eventID)
		if err != nil {
			return err
		}
		if n, _ := res.RowsAffected(); n == 0 {
			return fieldErr(palaro.EINVALID, palaro.FieldTicketTypes, "Choose ticket types of this event.")
		}
	}
	return nil
}

// promoAudit is what the audit log keeps of a promo code's terms, in the words the console shows.
type promoAudit struct {
	Discount    string    `json:"discount"`
	UsageLimit  string    `json:"usageLimit"`
	ValidFrom   time.Time `json:"validFrom,omitzero"`
	ValidUntil  time.Time `json:"validUntil,omitzero"`
	TicketTypes string    `json:"ticketTypes"`
}

// promoAuditOf describes p's terms for the audit log, its ticket types by name.
func promoAuditOf(ctx context.Context, tx *sql.Tx, p palaro.PromoCode) (promoAudit, error) {
	a := promoAudit{Discount: p.Describe(), UsageLimit: "none", ValidFrom: p.ValidFrom, ValidUntil: p.ValidUntil, TicketTypes: "all"}
	if p.UsageLimit > 0 {
		a.UsageLimit = strconv.Itoa(p.UsageLimit)
	}
	var names []string
	for _, id := range p.TicketTypeIDs {
		var name string
		if err := tx.QueryRowContext(ctx, `SELECT name FROM ticket_types WHERE id = ?`, id).Scan(&name); err != nil {
			return a, err
		}
		names = append(names, name)
	}
	if len(names) > 0 {
		a.TicketTypes = strings.Join(names, ", ")
	}
	return a, nil
}

// findPromoTx reads one promo code of the event inside tx; a retired one is not found.
func findPromoTx(ctx context.Context, tx *sql.Tx, eventID, id int64) (*palaro.PromoCode, error) {
	p := palaro.PromoCode{ID: id, EventID: eventID}
	var from, until sql.NullString
	err := tx.QueryRowContext(ctx, `SELECT code, kind, percent, amount, valid_from, valid_until, usage_limit, used, paused
		FROM promo_codes WHERE id = ? AND event_id = ? AND retired = 0`+forUpdate, id, eventID).Scan(&p.Code, &p.Kind, &p.Percent,
		&p.Amount, &from, &until, &p.UsageLimit, &p.Used, &p.Paused)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, palaro.Errorf(palaro.ENOTFOUND, "Promo code not found.")
	} else if err != nil {
		return nil, err
	}
	p.ValidFrom, _ = parseTime(from)
	p.ValidUntil, _ = parseTime(until)
	if p.TicketTypeIDs, err = promoTicketTypes(ctx, tx, id); err != nil {
		return nil, err
	}
	return &p, nil
}

// UpdatePromoCode changes a promo code's discount, usage limit, dates and ticket types; its code stays.
func (s *OrganizerService) UpdatePromoCode(ctx context.Context, eventID int64, actor string, p palaro.PromoCode) (_ *palaro.PromoCode, err error) {
	defer wrapErr(&err, "store: UpdatePromoCode(%d)", eventID)

	return write(ctx, s.db, func(ctx context.Context, tx *sql.Tx) (*palaro.PromoCode, error) {
		cur, err := findPromoTx(ctx, tx, eventID, p.ID)
		if err != nil {
			return nil, err
		}
		next := p
		next.Code, next.EventID, next.Used, next.Paused = cur.Code, eventID, cur.Used, cur.Paused
		if err := palaro.ValidatePromoCode(next); err != nil {
			return nil, err
		}
		if _, err := tx.ExecContext(ctx, `UPDATE promo_codes SET kind = ?, percent = ?, amount = ?, valid_from = ?, valid_until = ?,
			usage_limit = ? WHERE id = ?`, next.Kind, next.Percent, next.Amount, nullTime(next.ValidFrom), nullTime(next.ValidUntil),
			next.UsageLimit, next.ID); err != nil {
			return nil, err
		}
		if err := setPromoTicketTypes(ctx, tx, eventID, next); err != nil {
			return nil, err
		}
		before, err := promoAuditOf(ctx, tx, *cur)
		if err != nil {
			return nil, err
		}
		after, err := promoAuditOf(ctx, tx, next)
		if err != nil {
			return nil, err
		}
		if err := s.auditEvent(ctx, tx, eventID, actor, "promo code "+next.Code+" changed", changedFields(before, after)); err != nil {
			return nil, err
		}
		return &next, nil
	})
}

// SetPromoCodePaused pauses (refused at purchase) or resumes a promo code.
func (s *OrganizerService) SetPromoCodePaused(ctx context.Context, eventID, id int64, paused bool, actor string) (err error) {
	defer wrapErr(&err, "store: SetPromoCodePaused(%d)", eventID)

	return s.db.inWrite(ctx, func(ctx context.Context, tx *sql.Tx) error {
		cur, err := findPromoTx(ctx, tx, eventID, id)
		if err != nil {
			return err
		}
		if cur.Paused == paused {
			return nil
		}
		if _, err := tx.ExecContext(ctx, `UPDATE promo_codes SET paused = ? WHERE id = ?`, paused, id); err != nil {
			return err
		}
		action := "promo code " + cur.Code + " resumed"
		if paused {
			action = "promo code " + cur.Code + " paused"
		}
		return s.auditEvent(ctx, tx, eventID, actor, action, "")
	})
}

// DeletePromoCode deletes a promo code no order used; one that orders used is retired: kept, with
// its ticket types, for those orders' history and never usable again.
func (s *OrganizerService) DeletePromoCode(ctx context.Context, eventID, id int64, actor string) (_ bool, err error) {
	defer wrapErr(&err, "store: DeletePromoCode(%d)", eventID)

	return write(ctx, s.db, func(ctx context.Context, tx *sql.Tx) (bool, error) {
		cur, err := findPromoTx(ctx, tx, eventID, id)
		if err != nil {
			return false, err
		}
		var used bool
		if err := tx.QueryRowContext(ctx, `SELECT EXISTS (SELECT 1 FROM orders WHERE promo_code_id = ?)`, id).Scan(&used); err != nil {
			return false, err
		}
		if used {
			if _, err := tx.ExecContext(ctx, `UPDATE promo_codes SET retired = 1 WHERE id = ?`, id); err != nil {
				return false, err
			}
			return true, s.auditEvent(ctx, tx, eventID, actor, "promo code "+cur.Code+" retired (orders used it, so it is kept for their history)", "")
		}
		if _, err := tx.ExecContext(ctx, `DELETE FROM promo_code_ticket_types WHERE promo_code_id = ?`, id); err != nil {
			return false, err
		}
		if _, err := tx.ExecContext(ctx, `DELETE FROM promo_codes WHERE id = ?`, id); err != nil {
			return false, err
		}
		return false, s.auditEvent(ctx, tx, eventID, actor, "promo code "+cur.Code+" deleted", "")
	})
}

// promoTicketTypes returns the ticket types a promo code is limited to.
func promoTicketTypes(ctx context.Context, q queryRower, promoID int64) ([]int64, error) {
	var list string
	if err := q.QueryRowContext(ctx, `SELECT coalesce(string_agg(CAST(ticket_type_id AS TEXT), ','), '') FROM promo_code_ticket_types
		WHERE promo_code_id = ?`, promoID).Scan(&list); err != nil {
		return nil, err
	}
	var ids []int64
	for _, f := range strings.Split(list, ",") {
		if id, err := strconv.ParseInt(f, 10, 64); err == nil {
			ids = append(ids, id)
		}
	}
	return ids, nil
}
