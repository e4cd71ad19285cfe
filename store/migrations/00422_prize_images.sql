-- +goose Up
-- Prize pictures uploaded by organizers, re-encoded as square PNGs; a new upload is a new row, so
-- the URLs (/prize-images/{id}.png) can be cached for ever.
CREATE TABLE prize_images (
    id           INTEGER PRIMARY KEY,
    event_id     INTEGER NOT NULL REFERENCES events (id) ON DELETE CASCADE,
    content_type TEXT NOT NULL CHECK (content_type IN ('image/png')),
    data         BLOB NOT NULL,
    created_at   TEXT NOT NULL
);
CREATE INDEX prize_images_event ON prize_images (event_id);

-- +goose Down
DROP TABLE prize_images;
