-- +goose Up
-- A face-value return closes as 'refunded' when its ticket is refunded with its order (the event
-- cancelled, or the organizer's refund) before anyone bought it; refund_id names that refund.
ALTER TABLE ticket_returns DROP CONSTRAINT ticket_returns_status_check;
ALTER TABLE ticket_returns ADD CONSTRAINT ticket_returns_status_check CHECK (status IN ('open', 'sold', 'withdrawn', 'refunded'));

-- +goose Down
UPDATE ticket_returns SET status = 'sold' WHERE status = 'refunded';
ALTER TABLE ticket_returns DROP CONSTRAINT ticket_returns_status_check;
ALTER TABLE ticket_returns ADD CONSTRAINT ticket_returns_status_check CHECK (status IN ('open', 'sold', 'withdrawn'));
