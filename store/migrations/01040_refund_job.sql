-- +goose Up
-- The payment sandbox's refunds (payment/sandbox/refund.go): one row per idempotency key (the
-- app's refund public id), so asking twice refunds once, as a real gateway does.
CREATE TABLE sandbox_refunds (
    id         TEXT PRIMARY KEY,
    refund_key TEXT NOT NULL UNIQUE,
    session_id TEXT NOT NULL,
    amount     INTEGER NOT NULL,
    reason     TEXT NOT NULL DEFAULT '',
    created_at TEXT NOT NULL
);

-- "Refund every order" of a cancelled event: when the organizer asked, and who. The refund job
-- writes the pending refunds of the event's paid orders in small writes until none is left, so a
-- restart goes on where it stopped.
ALTER TABLE events ADD COLUMN refund_all_at TEXT;
ALTER TABLE events ADD COLUMN refund_all_by TEXT NOT NULL DEFAULT '';

-- +goose Down
ALTER TABLE events DROP COLUMN refund_all_by;
ALTER TABLE events DROP COLUMN refund_all_at;
DROP TABLE sandbox_refunds;
