-- +goose Up
-- An event's queue in front of its sale (one per event; no row: no queue). opened turns 1 when the
-- places of the visitors who arrived before opens_at are drawn; next_place is the last place given;
-- version counts every change, so a server knows when its copy in memory is stale.
CREATE TABLE event_queues (
    event_id         INTEGER PRIMARY KEY REFERENCES events (id) ON DELETE CASCADE,
    opens_at         TEXT    NOT NULL,
    admit_per_minute INTEGER NOT NULL CHECK (admit_per_minute > 0),
    seed             INTEGER NOT NULL,
    opened           INTEGER NOT NULL DEFAULT 0 CHECK (opened IN (0, 1)),
    next_place       INTEGER NOT NULL DEFAULT 0,
    version          INTEGER NOT NULL DEFAULT 1,
    created_at       TEXT    NOT NULL,
    updated_at       TEXT    NOT NULL
);

-- The admission rate from starts_at on: the first row starts at opens_at, each change adds one.
CREATE TABLE event_queue_rates (
    event_id         INTEGER NOT NULL REFERENCES event_queues (event_id) ON DELETE CASCADE,
    starts_at        TEXT    NOT NULL,
    admit_per_minute INTEGER NOT NULL CHECK (admit_per_minute > 0),
    PRIMARY KEY (event_id, starts_at)
);

-- One browser's place: place is NULL until the draw at opens_at; admitted_at is when the browser
-- first got its admission; email is the address it bought with (one place per address).
CREATE TABLE queue_places (
    id          INTEGER PRIMARY KEY,
    event_id    INTEGER NOT NULL REFERENCES event_queues (event_id) ON DELETE CASCADE,
    place       INTEGER,
    joined_at   TEXT    NOT NULL,
    admitted_at TEXT,
    email       TEXT
);
CREATE UNIQUE INDEX queue_places_place ON queue_places (event_id, place);
CREATE UNIQUE INDEX queue_places_email ON queue_places (event_id, email);

-- +goose Down
DROP TABLE queue_places;
DROP TABLE event_queue_rates;
DROP TABLE event_queues;
