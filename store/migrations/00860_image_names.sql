-- +goose Up
-- Uploaded covers and prize pictures are served under random names, not their sequential ids, so
-- a draft event's pictures cannot be found by counting. Existing pictures get a random name and
-- the events and prizes that show them their new URL.
ALTER TABLE event_images ADD COLUMN name TEXT;
ALTER TABLE prize_images ADD COLUMN name TEXT;
UPDATE event_images SET name = lower(hex(randomblob(16)))
    WHERE width = (SELECT max(e2.width) FROM event_images e2 WHERE e2.version = event_images.version);
UPDATE event_images SET name = (SELECT e2.name FROM event_images e2 WHERE e2.version = event_images.version AND e2.name IS NOT NULL)
    WHERE name IS NULL;
UPDATE prize_images SET name = lower(hex(randomblob(16)));
UPDATE events SET image_url = (SELECT '/event-images/' || ei.name || '-' || CAST(ei.width AS TEXT) || '.jpg' FROM event_images ei
        WHERE '/event-images/' || CAST(ei.version AS TEXT) || '-' || CAST(ei.width AS TEXT) || '.jpg' = events.image_url)
    WHERE image_url IN (SELECT '/event-images/' || CAST(version AS TEXT) || '-' || CAST(width AS TEXT) || '.jpg' FROM event_images);
UPDATE prizes SET image_url = (SELECT '/prize-images/' || pi.name || '.png' FROM prize_images pi
        WHERE '/prize-images/' || CAST(pi.id AS TEXT) || '.png' = prizes.image_url)
    WHERE image_url IN (SELECT '/prize-images/' || CAST(id AS TEXT) || '.png' FROM prize_images);
CREATE UNIQUE INDEX event_images_name ON event_images (name, width);
CREATE UNIQUE INDEX prize_images_name ON prize_images (name);

-- +goose Down
DROP INDEX prize_images_name;
DROP INDEX event_images_name;
UPDATE events SET image_url = (SELECT '/event-images/' || CAST(ei.version AS TEXT) || '-' || CAST(ei.width AS TEXT) || '.jpg' FROM event_images ei
        WHERE '/event-images/' || ei.name || '-' || CAST(ei.width AS TEXT) || '.jpg' = events.image_url)
    WHERE image_url IN (SELECT '/event-images/' || name || '-' || CAST(width AS TEXT) || '.jpg' FROM event_images);
UPDATE prizes SET image_url = (SELECT '/prize-images/' || CAST(pi.id AS TEXT) || '.png' FROM prize_images pi
        WHERE '/prize-images/' || pi.name || '.png' = prizes.image_url)
    WHERE image_url IN (SELECT '/prize-images/' || name || '.png' FROM prize_images);
ALTER TABLE prize_images DROP COLUMN name;
ALTER TABLE event_images DROP COLUMN name;
