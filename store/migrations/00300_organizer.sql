-- +goose Up
-- Organizations are the organizers table: an organizer registered through /register/organizer is
-- pending until the operator approves it; the demo organizers are approved.
ALTER TABLE organizers ADD COLUMN status TEXT NOT NULL DEFAULT 'approved' CHECK (status IN ('pending', 'approved'));
ALTER TABLE organizers ADD COLUMN approved_at TEXT;

-- Who belongs to an organization, and with which role. One person may belong to several.
CREATE TABLE organizer_members (
    organizer_id INTEGER NOT NULL REFERENCES organizers (id) ON DELETE CASCADE,
    user_id      INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    role         TEXT NOT NULL CHECK (role IN ('owner', 'manager', 'gate', 'booth')),
    created_at   TEXT NOT NULL,
    PRIMARY KEY (organizer_id, user_id)
);
CREATE INDEX organizer_members_user ON organizer_members (user_id);

-- API tokens of an organization: only the token's SHA-256 is kept.
CREATE TABLE api_tokens (
    id           INTEGER PRIMARY KEY,
    token_hash   TEXT NOT NULL UNIQUE,
    organizer_id INTEGER NOT NULL REFERENCES organizers (id) ON DELETE CASCADE,
    role         TEXT NOT NULL CHECK (role IN ('manager', 'gate')),
    name         TEXT NOT NULL DEFAULT '',
    created_by   TEXT NOT NULL DEFAULT '',
    created_at   TEXT NOT NULL,
    last_used_at TEXT,
    revoked_at   TEXT
);
CREATE INDEX api_tokens_organizer ON api_tokens (organizer_id);

-- Who changed what and when, per event.
CREATE TABLE audit_log (
    id           INTEGER PRIMARY KEY,
    organizer_id INTEGER NOT NULL REFERENCES organizers (id) ON DELETE CASCADE,
    event_id     INTEGER REFERENCES events (id) ON DELETE CASCADE,
    actor        TEXT NOT NULL,
    action       TEXT NOT NULL,
    detail       TEXT NOT NULL DEFAULT '',
    created_at   TEXT NOT NULL
);
CREATE INDEX audit_log_event ON audit_log (event_id, id);

-- +goose Down
DROP TABLE audit_log;
DROP TABLE api_tokens;
DROP TABLE organizer_members;
ALTER TABLE organizers DROP COLUMN approved_at;
ALTER TABLE organizers DROP COLUMN status;
