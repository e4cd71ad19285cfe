-- +goose Up
-- Cover images uploaded by organizers, re-encoded in the sizes the pages use; a new upload adds
-- a new version, so the URLs can be cached for ever.
CREATE TABLE event_images (
    version      INTEGER NOT NULL,
    width        INTEGER NOT NULL,
    event_id     INTEGER NOT NULL REFERENCES events (id) ON DELETE CASCADE,
    content_type TEXT NOT NULL CHECK (content_type IN ('image/jpeg')),
    data         BLOB NOT NULL,
    created_at   TEXT NOT NULL,
    PRIMARY KEY (version, width)
);
CREATE INDEX event_images_event ON event_images (event_id);

-- +goose Down
DROP TABLE event_images;
