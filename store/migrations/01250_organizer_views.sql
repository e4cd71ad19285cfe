-- +goose Up
-- The organizer's views of a big event (a 55,000-ticket stadium) read its orders and tickets
-- through indexes, not the whole tables: the orders search and the orders export walk an event's
-- orders newest first (orders_event), the attendees export walks them oldest first with each
-- order's tickets (tickets_order), the check-in counts count by status, type and gate from the
-- index alone (tickets_event_counts, which starts with tickets_event_status's columns and replaces
-- it), and the dashboard sums the event's paid orders (orders_event_paid: without it SQLite reads
-- every paid order of every event through orders_status_hold) and counts the senior citizen and
-- PWD tickets among the few discounted ones.
CREATE INDEX orders_event ON orders (event_id, id);
CREATE INDEX orders_event_paid ON orders (event_id, paid_at) WHERE status = 'paid';
CREATE INDEX tickets_event_counts ON tickets (event_id, status, ticket_type_id, checked_in_gate);
DROP INDEX tickets_event_status;
CREATE INDEX tickets_discount_type ON tickets (event_id) WHERE discount_type != '';

-- +goose Down
DROP INDEX tickets_discount_type;
CREATE INDEX tickets_event_status ON tickets (event_id, status);
DROP INDEX tickets_event_counts;
DROP INDEX orders_event_paid;
DROP INDEX orders_event;
