-- +goose Up
-- Best available per series date (issue 22): a hold is for one date of a series (its
-- seat_assignments rows carry that date_id), 0 for the event itself as in seat_assignments, so
-- the buy page and the order that name it take its seats on that date only.
ALTER TABLE seat_holds ADD COLUMN date_id BIGINT NOT NULL DEFAULT 0;

-- +goose Down
ALTER TABLE seat_holds DROP COLUMN date_id;
