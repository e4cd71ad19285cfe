-- +goose Up
-- The payment sandbox's own table (payment/sandbox/sqlstore.go), created by the migrations so that
-- several servers starting together on one database do not race to create it. A database where
-- the sandbox already created it keeps it as it is.
CREATE TABLE IF NOT EXISTS sandbox_sessions (
    id         TEXT PRIMARY KEY,
    order_id   TEXT NOT NULL,
    checkout   TEXT NOT NULL,
    status     TEXT NOT NULL,
    created_at TEXT NOT NULL,
    expires_at TEXT NOT NULL,
    payment_id TEXT NOT NULL DEFAULT '',
    method     TEXT NOT NULL DEFAULT '',
    event_id   TEXT NOT NULL DEFAULT '',
    paid_at    TEXT NOT NULL DEFAULT ''
);

-- +goose Down
DROP TABLE sandbox_sessions;
