-- +goose Up
-- E-mail addresses are compared without regard to case: one person cannot hold two accounts whose
-- addresses differ only in case. Stored addresses become lower-case; an account whose address
-- differs from an older account's only in case keeps it with a '#duplicate-<id>' suffix, which
-- no form accepts, so an operator can merge the two (it can no longer sign in by that address).
UPDATE users SET email = lower(email) || '#duplicate-' || id
WHERE EXISTS (SELECT 1 FROM users AS older WHERE lower(older.email) = lower(users.email) AND older.id < users.id);
UPDATE users SET email = lower(email) WHERE email <> lower(email);
CREATE UNIQUE INDEX users_email_lower ON users (lower(email));

UPDATE orders SET email = lower(email) WHERE email <> lower(email);
UPDATE tickets SET email = lower(email) WHERE email <> lower(email);
UPDATE link_tokens SET email = lower(email) WHERE email <> lower(email);
UPDATE account_tokens SET email = lower(email) WHERE email <> lower(email);

-- +goose Down
DROP INDEX users_email_lower;
