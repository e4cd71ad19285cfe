-- +goose Up
-- A waiting-list offer of a seated ticket type holds named seats: seat_assignments rows with the
-- offer's id and no order (so no buyer can take them), deleted when the offer expires and handed
-- to the order that claims it. waitlist_offers.seats keeps the offer's seats (a JSON list) after
-- it closed, for the console.
ALTER TABLE seat_assignments ADD COLUMN offer_id INTEGER REFERENCES waitlist_offers (id);
CREATE INDEX seat_assignments_offer ON seat_assignments (offer_id);
ALTER TABLE waitlist_offers ADD COLUMN seats TEXT NOT NULL DEFAULT '[]';

-- +goose Down
DROP INDEX seat_assignments_offer;
ALTER TABLE seat_assignments DROP COLUMN offer_id;
ALTER TABLE waitlist_offers DROP COLUMN seats;
