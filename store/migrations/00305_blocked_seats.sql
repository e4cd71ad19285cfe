-- +goose Up
-- Seats an organizer took off sale (a pillar, the camera platform): assigned to no order, and
-- left out of the ticket type's capacity.
ALTER TABLE seat_assignments ADD COLUMN blocked INTEGER NOT NULL DEFAULT 0;

-- +goose Down
ALTER TABLE seat_assignments DROP COLUMN blocked;
