-- +goose Up
-- A mobile number links an account to a participant only once it is confirmed by an SMS code.
-- users.mobile_confirmed_at: when the account's number was confirmed (NULL: typed, never proven;
-- new accounts keep an unconfirmed number only in mobile_changes until its code is entered).
-- participants.confirmed_at: when the participant's number was confirmed. Only confirmed
-- participants own their number (unique among them); unconfirmed registrations of one number may
-- be many, so registering first locks nobody out. mobile_changes also holds the codes that confirm
-- a participant's number (participant_id instead of user_id).
ALTER TABLE users ADD COLUMN mobile_confirmed_at TEXT;
ALTER TABLE participants ADD COLUMN confirmed_at TEXT;
DROP INDEX participants_mobile_number;
CREATE UNIQUE INDEX participants_confirmed_mobile ON participants (mobile_number) WHERE confirmed_at IS NOT NULL;
CREATE INDEX participants_mobile_number ON participants (mobile_number);

CREATE TABLE mobile_changes_new (
    id             INTEGER PRIMARY KEY,
    user_id        INTEGER REFERENCES users (id) ON DELETE CASCADE,
    participant_id INTEGER REFERENCES participants (id) ON DELETE CASCADE,
    mobile_number  TEXT NOT NULL,
    code_hash      BLOB NOT NULL,
    blocked        INTEGER NOT NULL DEFAULT 0,
    attempts       INTEGER NOT NULL DEFAULT 0,
    expires_at     TEXT NOT NULL,
    used_at        TEXT,
    created_at     TEXT NOT NULL,
    CHECK ((user_id IS NULL) <> (participant_id IS NULL))
);
INSERT INTO mobile_changes_new (id, user_id, mobile_number, code_hash, blocked, attempts, expires_at, used_at, created_at)
    SELECT id, user_id, mobile_number, code_hash, blocked, attempts, expires_at, used_at, created_at FROM mobile_changes;
DROP TABLE mobile_changes;
ALTER TABLE mobile_changes_new RENAME TO mobile_changes;
CREATE INDEX mobile_changes_user ON mobile_changes (user_id, id);
CREATE INDEX mobile_changes_participant ON mobile_changes (participant_id, id);

-- +goose Down
DELETE FROM mobile_changes WHERE user_id IS NULL;
CREATE TABLE mobile_changes_old (
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
INSERT INTO mobile_changes_old SELECT id, user_id, mobile_number, code_hash, blocked, attempts, expires_at, used_at, created_at
    FROM mobile_changes;
DROP TABLE mobile_changes;
ALTER TABLE mobile_changes_old RENAME TO mobile_changes;
CREATE INDEX mobile_changes_user ON mobile_changes (user_id, id);
DROP INDEX participants_mobile_number;
DROP INDEX participants_confirmed_mobile;
DELETE FROM participants WHERE id NOT IN (SELECT MIN(id) FROM participants GROUP BY mobile_number);
CREATE UNIQUE INDEX participants_mobile_number ON participants (mobile_number);
ALTER TABLE participants DROP COLUMN confirmed_at;
ALTER TABLE users DROP COLUMN mobile_confirmed_at;
