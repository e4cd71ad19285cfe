-- +goose Up
-- An organizer can pause a promo code (refused at purchase until resumed) and delete one; a code
-- that orders used is retired instead (kept for their history, never usable again).
ALTER TABLE promo_codes ADD COLUMN paused BIGINT NOT NULL DEFAULT 0;
ALTER TABLE promo_codes ADD COLUMN retired BIGINT NOT NULL DEFAULT 0;

-- +goose Down
ALTER TABLE promo_codes DROP COLUMN retired;
ALTER TABLE promo_codes DROP COLUMN paused;
