-- +goose Up
-- The signed-in account that created an order, if any: the per-buyer maximum also holds per account.
ALTER TABLE orders ADD COLUMN user_id INTEGER REFERENCES users (id) ON DELETE SET NULL;
CREATE INDEX orders_ticket_type_user ON orders (ticket_type_id, user_id) WHERE user_id IS NOT NULL;

-- +goose Down
DROP INDEX orders_ticket_type_user;
ALTER TABLE orders DROP COLUMN user_id;
