-- +goose Up
-- How an order was paid, as the gateway's paid event told: its method ("gcash", "card", …) and
-- the last digits of the wallet or card account ('' when not told); the method of the last
-- attempt that failed while the order was pending (the buyer may try again); and the payment
-- intent behind its checkout, which a failed payment's webhook names instead of the session.
ALTER TABLE orders ADD COLUMN payment_method TEXT NOT NULL DEFAULT '';
ALTER TABLE orders ADD COLUMN payment_account TEXT NOT NULL DEFAULT '';
ALTER TABLE orders ADD COLUMN payment_failed TEXT NOT NULL DEFAULT '';
ALTER TABLE orders ADD COLUMN provider_intent TEXT NOT NULL DEFAULT '';
CREATE INDEX orders_provider_intent ON orders (provider, provider_intent) WHERE provider_intent != '';
