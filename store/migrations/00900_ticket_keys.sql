-- +goose Up
-- The public keys of retired ticket signing keys, by key id (palaro.TicketKeyID): a ticket QR code
-- names the key that signed it, so codes signed before a rotation keep verifying. The current key's
-- seed stays in app_secrets ('ticket-signing-seed'). The HMAC key of the old PLR1 codes goes: no
-- ticket shows a PLR1 code any more.
CREATE TABLE ticket_keys (
    kid        TEXT PRIMARY KEY,
    public_key BLOB NOT NULL,
    retired_at TEXT NOT NULL
);
DELETE FROM app_secrets WHERE name = 'ticket-key';

-- +goose Down
DROP TABLE ticket_keys;
