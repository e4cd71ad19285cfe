-- +goose Up
-- Moves of a ticket to another e-mail address. The current holder consents (a link to the
-- current address, or the signed-in owner asks), then the new address confirms receipt; the
-- ticket is then reissued (new public id and code) and every other transfer of it is voided.
-- Link tokens are stored hashed.
CREATE TABLE ticket_transfers (
    id           INTEGER PRIMARY KEY,
    ticket_id    INTEGER NOT NULL REFERENCES tickets (id) ON DELETE CASCADE,
    from_email   TEXT NOT NULL,
    to_email     TEXT NOT NULL,
    consent_hash TEXT UNIQUE,
    receipt_hash TEXT UNIQUE,
    status       TEXT NOT NULL CHECK (status IN ('awaiting_holder', 'awaiting_receipt', 'done', 'void')),
    expires_at   TEXT NOT NULL,
    created_at   TEXT NOT NULL,
    updated_at   TEXT NOT NULL
);
CREATE INDEX ticket_transfers_ticket ON ticket_transfers (ticket_id, status);

-- Confirmation links of the old one-step e-mail change moved a ticket without its holder: void them.
DELETE FROM link_tokens WHERE purpose = 'email_change';

-- +goose Down
DROP TABLE ticket_transfers;
