-- +goose Up
-- An offer its holder gave up from the link before its end: closed as expired, with declined 1
-- (the console says so; the holder gets no 'expired' e-mail).
ALTER TABLE waitlist_offers ADD COLUMN declined INTEGER NOT NULL DEFAULT 0;

-- +goose Down
ALTER TABLE waitlist_offers DROP COLUMN declined;
