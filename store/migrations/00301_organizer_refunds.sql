-- +goose Up
-- When an organizer marked a refund-queue order (paid after its hold expired) as refunded.
ALTER TABLE orders ADD COLUMN refunded_at TEXT;

-- +goose Down
ALTER TABLE orders DROP COLUMN refunded_at;
