-- +goose Up
-- When the participant finished scratching the stored card (NULL: not yet, so /activities offers
-- to open it again). Cards stored before this column are taken as played.
ALTER TABLE activity_visits ADD COLUMN revealed_at TEXT;
UPDATE activity_visits SET revealed_at = created_at WHERE scratch != '';

-- +goose Down
ALTER TABLE activity_visits DROP COLUMN revealed_at;
