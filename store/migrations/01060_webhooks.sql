-- +goose Up
-- An organization's webhook endpoint: an HTTPS URL, the event types it receives (",a,b," so a
-- type is found with LIKE '%,type,%'), the secret that signs its deliveries (kept: it signs every
-- send), active or paused, and since when its deliveries have been failing (NULL: not failing).
CREATE TABLE webhook_endpoints (
    id              INTEGER PRIMARY KEY,
    public_id       TEXT NOT NULL UNIQUE,
    organization_id INTEGER NOT NULL REFERENCES organizers (id) ON DELETE CASCADE,
    url             TEXT NOT NULL,
    events          TEXT NOT NULL,
    secret          TEXT NOT NULL,
    active          INTEGER NOT NULL DEFAULT 1,
    failing_since   TEXT,
    created_by      TEXT NOT NULL DEFAULT '',
    created_at      TEXT NOT NULL
);
CREATE INDEX webhook_endpoints_org ON webhook_endpoints (organization_id);

-- One event for one endpoint, written in the same transaction as the change that caused it.
-- event_id is the event's stable id (the same for every endpoint and every attempt); subject_id
-- is the order, ticket or waiting-list offer the event is about, read when it is sent. Claimed
-- like the outbox's rows (claimed_until); retried until retry_until (three days after it was
-- queued, or sent again from the console).
CREATE TABLE webhook_deliveries (
    id              INTEGER PRIMARY KEY,
    endpoint_id     INTEGER NOT NULL REFERENCES webhook_endpoints (id) ON DELETE CASCADE,
    event_id        TEXT NOT NULL,
    type            TEXT NOT NULL,
    subject_id      INTEGER NOT NULL DEFAULT 0,
    status          TEXT NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'sent', 'failed')),
    attempts        INTEGER NOT NULL DEFAULT 0,
    answer_code     INTEGER NOT NULL DEFAULT 0,
    last_error      TEXT NOT NULL DEFAULT '',
    next_attempt_at TEXT NOT NULL,
    retry_until     TEXT NOT NULL,
    claimed_until   TEXT,
    last_attempt_at TEXT,
    created_at      TEXT NOT NULL,
    UNIQUE (endpoint_id, event_id)
);
CREATE INDEX webhook_deliveries_due ON webhook_deliveries (status, next_attempt_at);

-- +goose Down
DROP TABLE webhook_deliveries;
DROP TABLE webhook_endpoints;
