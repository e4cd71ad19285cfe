-- +goose Up
-- The organizer's views of a 55,000-ticket event read their rows from indexes alone (issue 24):
-- the dashboard's one grouped read of the event's paid orders finds every column it sums in
-- orders_event_paid (status among them, or SQLite does not count the index as covering), the
-- orders search matches the e-mail and order id of each of the event's orders in orders_event,
-- and the check-in counts count conflicts and corrected times in check_ins_event. Each index
-- starts with the columns of the one it replaces, so what used those still finds them.
DROP INDEX orders_event_paid;
CREATE INDEX orders_event_paid ON orders (event_id, paid_at, ticket_type_id, source, promo_code_id, kind, quantity, total,
    add_ons_total, status) WHERE status = 'paid';
DROP INDEX orders_event;
CREATE INDEX orders_event ON orders (event_id, id, status, email, public_id);
DROP INDEX check_ins_event;
CREATE INDEX check_ins_event ON check_ins (event_id, outcome, claimed_at);

-- +goose Down
DROP INDEX check_ins_event;
CREATE INDEX check_ins_event ON check_ins (event_id, outcome);
DROP INDEX orders_event;
CREATE INDEX orders_event ON orders (event_id, id);
DROP INDEX orders_event_paid;
CREATE INDEX orders_event_paid ON orders (event_id, paid_at) WHERE status = 'paid';
