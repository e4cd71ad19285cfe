-- +goose Up
-- A stadium's price zone is a sectioned seat plan (ticket_types.seat_plan's "sections"): each seat
-- names its section ('' in a plan without sections), and a section's seats are read in row order
-- through seats_section. Best available holds the seats it chose for a buyer in seat_holds until
-- expires_at: seat_assignments rows with the hold's id and no order, deleted when the hold ends or
-- handed to the order that takes them.
ALTER TABLE seats ADD COLUMN section TEXT NOT NULL DEFAULT '';
CREATE INDEX seats_section ON seats (ticket_type_id, section, row_index, number);
CREATE TABLE seat_holds (
    id             INTEGER PRIMARY KEY,
    public_id      TEXT NOT NULL UNIQUE,
    ticket_type_id INTEGER NOT NULL REFERENCES ticket_types (id) ON DELETE CASCADE,
    seats          TEXT NOT NULL DEFAULT '[]',
    expires_at     TEXT NOT NULL,
    created_at     TEXT NOT NULL
);
CREATE INDEX seat_holds_expires ON seat_holds (expires_at);
ALTER TABLE seat_assignments ADD COLUMN hold_id INTEGER REFERENCES seat_holds (id);
CREATE INDEX seat_assignments_hold ON seat_assignments (hold_id);

-- +goose Down
DROP INDEX seat_assignments_hold;
ALTER TABLE seat_assignments DROP COLUMN hold_id;
DROP TABLE seat_holds;
DROP INDEX seats_section;
ALTER TABLE seats DROP COLUMN section;
