-- +goose Up
-- A new mobile number on /profile is saved only once the code sent to it by SMS is entered.
-- blocked marks a change to a number another account uses: no code was sent and it never
-- completes (the visitor sees the same as for a free number). Only an HMAC of the code is kept.
CREATE TABLE mobile_changes (
    id            INTEGER PRIMARY KEY,
    user_id       INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    mobile_number TEXT NOT NULL,
    code_hash     BLOB NOT NULL,
    blocked       INTEGER NOT NULL DEFAULT 0,
    attempts      INTEGER NOT NULL DEFAULT 0,
    expires_at    TEXT NOT NULL,
    used_at       TEXT,
    created_at    TEXT NOT NULL
);
CREATE INDEX mobile_changes_user ON mobile_changes (user_id, id);

-- +goose Down
DROP TABLE mobile_changes;
