-- +goose Up
-- Invitations to join an organization with a role; only the token's SHA-256 is kept.
CREATE TABLE organizer_invitations (
    id           INTEGER PRIMARY KEY,
    token_hash   TEXT NOT NULL UNIQUE,
    organizer_id INTEGER NOT NULL REFERENCES organizers (id) ON DELETE CASCADE,
    email        TEXT NOT NULL,
    role         TEXT NOT NULL CHECK (role IN ('manager', 'gate', 'booth')),
    invited_by   TEXT NOT NULL,
    created_at   TEXT NOT NULL,
    expires_at   TEXT NOT NULL,
    accepted_at  TEXT
);
CREATE INDEX organizer_invitations_organizer ON organizer_invitations (organizer_id);

-- +goose Down
DROP TABLE organizer_invitations;
