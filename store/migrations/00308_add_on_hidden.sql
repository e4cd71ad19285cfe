-- +goose Up
-- An add-on the organizer hid is no longer offered (on the purchase form or later on a ticket);
-- orders that hold it keep it.
ALTER TABLE add_ons ADD COLUMN hidden INTEGER NOT NULL DEFAULT 0;

-- +goose Down
ALTER TABLE add_ons DROP COLUMN hidden;
