-- +goose Up
-- The browser session that created an order (a hash of its session id): unpaid holds are limited
-- per session and per e-mail, and a buyer who starts again replaces their own unpaid order.
ALTER TABLE orders ADD COLUMN session_key TEXT NOT NULL DEFAULT '';
CREATE INDEX orders_ticket_type_email ON orders (ticket_type_id, email);
CREATE INDEX orders_pending_session ON orders (ticket_type_id, session_key) WHERE status = 'pending';

-- How many of an add-on an order takes: one per ticket, for the first tickets of the order.
ALTER TABLE order_add_ons ADD COLUMN quantity INTEGER NOT NULL DEFAULT 1 CHECK (quantity >= 1);

-- +goose Down
ALTER TABLE order_add_ons DROP COLUMN quantity;
DROP INDEX orders_pending_session;
DROP INDEX orders_ticket_type_email;
ALTER TABLE orders DROP COLUMN session_key;
