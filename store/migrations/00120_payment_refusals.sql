-- +goose Up
-- Why a payment event was refused (no order with its checkout session, another mode, another
-- currency or amount), for the operator; '' for an event that was applied.
ALTER TABLE payment_events ADD COLUMN refused TEXT NOT NULL DEFAULT '';

-- +goose Down
ALTER TABLE payment_events DROP COLUMN refused;
