-- +goose Up
-- The network address (IPv4, or an IPv6 /64) a queue place was taken from: a queue gives one
-- address at most palaro.QueuePlacesPerAddress places.
ALTER TABLE queue_places ADD COLUMN client TEXT NOT NULL DEFAULT '';
CREATE INDEX queue_places_client ON queue_places (event_id, client);

-- +goose Down
DROP INDEX queue_places_client;
ALTER TABLE queue_places DROP COLUMN client;
