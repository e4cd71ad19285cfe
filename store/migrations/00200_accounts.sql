-- +goose Up
-- Secrets the app generates for itself (such as the session key when PALARO_SESSION_KEY is unset).
CREATE TABLE app_secrets (
    name       TEXT PRIMARY KEY,
    value      BLOB NOT NULL,
    created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%SZ', 'now'))
);

CREATE TABLE users (
    id              INTEGER PRIMARY KEY,
    email           TEXT NOT NULL UNIQUE,
    password_hash   TEXT NOT NULL DEFAULT '',
    first_name      TEXT NOT NULL DEFAULT '',
    last_name       TEXT NOT NULL DEFAULT '',
    mobile_number   TEXT NOT NULL UNIQUE,
    role            TEXT NOT NULL DEFAULT 'user' CHECK (role IN ('user', 'organizer')),
    status          TEXT NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'active')),
    existing_user   INTEGER NOT NULL DEFAULT 0,
    session_version INTEGER NOT NULL DEFAULT 1,
    title           TEXT NOT NULL DEFAULT '',
    birth_date      TEXT NOT NULL DEFAULT '',
    age             TEXT NOT NULL DEFAULT '',
    bio             TEXT NOT NULL DEFAULT '',
    country         TEXT NOT NULL DEFAULT '',
    city            TEXT NOT NULL DEFAULT '',
    company_name    TEXT NOT NULL DEFAULT '',
    designation     TEXT NOT NULL DEFAULT '',
    interests       TEXT NOT NULL DEFAULT '',
    username        TEXT UNIQUE,
    organization    TEXT NOT NULL DEFAULT '',
    source          TEXT NOT NULL DEFAULT '',
    picture_version INTEGER NOT NULL DEFAULT 0,
    created_at      TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%SZ', 'now')),
    updated_at      TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%SZ', 'now')),
    activated_at    TEXT
);

CREATE TABLE user_pictures (
    user_id      INTEGER PRIMARY KEY REFERENCES users (id) ON DELETE CASCADE,
    content_type TEXT NOT NULL CHECK (content_type IN ('image/jpeg', 'image/png')),
    data         BLOB NOT NULL,
    updated_at   TEXT NOT NULL
);

-- One-time links sent by e-mail (activation, change of e-mail); only the token's SHA-256 is kept.
CREATE TABLE account_tokens (
    id         INTEGER PRIMARY KEY,
    token_hash TEXT NOT NULL UNIQUE,
    purpose    TEXT NOT NULL CHECK (purpose IN ('activate', 'change_email')),
    user_id    INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    email      TEXT NOT NULL,
    expires_at TEXT NOT NULL,
    used_at    TEXT,
    created_at TEXT NOT NULL
);

-- Password reset codes sent by SMS; only an HMAC of the code is kept.
CREATE TABLE reset_codes (
    id         INTEGER PRIMARY KEY,
    user_id    INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    code_hash  BLOB NOT NULL,
    attempts   INTEGER NOT NULL DEFAULT 0,
    expires_at TEXT NOT NULL,
    used_at    TEXT,
    created_at TEXT NOT NULL
);
CREATE INDEX reset_codes_user ON reset_codes (user_id, id);

CREATE TABLE participants (
    id            INTEGER PRIMARY KEY,
    public_id     TEXT NOT NULL UNIQUE,
    first_name    TEXT NOT NULL,
    last_name     TEXT NOT NULL,
    mobile_number TEXT NOT NULL,
    created_at    TEXT NOT NULL
);

CREATE TABLE problem_reports (
    id         INTEGER PRIMARY KEY,
    reference  TEXT NOT NULL UNIQUE,
    email      TEXT NOT NULL,
    name       TEXT NOT NULL DEFAULT '',
    subject    TEXT NOT NULL DEFAULT '',
    message    TEXT NOT NULL,
    page_url   TEXT NOT NULL DEFAULT '',
    user_id    INTEGER REFERENCES users (id) ON DELETE SET NULL,
    created_at TEXT NOT NULL
);

-- +goose Down
DROP TABLE problem_reports;
DROP TABLE participants;
DROP TABLE reset_codes;
DROP TABLE account_tokens;
DROP TABLE user_pictures;
DROP TABLE users;
DROP TABLE app_secrets;
