-- +goose Up
-- An order's confirmation e-mail is queued inside the order's transaction as a small row naming
-- the order; the outbox composes it from the order when it is sent.
ALTER TABLE outbox ADD COLUMN order_id BIGINT;

-- +goose Down
ALTER TABLE outbox DROP COLUMN order_id;
