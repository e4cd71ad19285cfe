-- +goose Up
CREATE TABLE organizers (
    id         INTEGER PRIMARY KEY,
    name       TEXT NOT NULL,
    email      TEXT NOT NULL DEFAULT '',
    url        TEXT NOT NULL DEFAULT '',
    created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%SZ', 'now'))
);

CREATE TABLE venues (
    id        INTEGER PRIMARY KEY,
    name      TEXT NOT NULL,
    address   TEXT NOT NULL,
    city      TEXT NOT NULL,
    region    TEXT NOT NULL,
    latitude  REAL NOT NULL,
    longitude REAL NOT NULL
);

CREATE TABLE events (
    id              INTEGER PRIMARY KEY,
    code            TEXT NOT NULL UNIQUE,
    name            TEXT NOT NULL,
    summary         TEXT NOT NULL DEFAULT '',
    description     TEXT NOT NULL DEFAULT '',
    starts_at       TEXT NOT NULL,
    ends_at         TEXT NOT NULL,
    image_url       TEXT NOT NULL DEFAULT '',
    status          TEXT NOT NULL DEFAULT 'scheduled'
                    CHECK (status IN ('draft', 'scheduled', 'cancelled', 'postponed', 'rescheduled')),
    popularity      INTEGER NOT NULL DEFAULT 0,
    venue_id        INTEGER NOT NULL REFERENCES venues (id),
    organizer_id    INTEGER NOT NULL REFERENCES organizers (id),
    required_fields TEXT NOT NULL DEFAULT '[]',
    survey_question TEXT NOT NULL DEFAULT '',
    survey_answers  TEXT NOT NULL DEFAULT '[]',
    created_at      TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%SZ', 'now')),
    updated_at      TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%SZ', 'now')),
    CHECK (ends_at >= starts_at)
);
CREATE INDEX events_starts_at ON events (starts_at);
CREATE INDEX events_ends_at ON events (ends_at);

CREATE TABLE tags (
    slug TEXT PRIMARY KEY,
    name TEXT NOT NULL
);

CREATE TABLE event_tags (
    event_id INTEGER NOT NULL REFERENCES events (id) ON DELETE CASCADE,
    tag_slug TEXT NOT NULL REFERENCES tags (slug),
    PRIMARY KEY (event_id, tag_slug)
);
CREATE INDEX event_tags_tag ON event_tags (tag_slug);

CREATE TABLE event_links (
    id       INTEGER PRIMARY KEY,
    event_id INTEGER NOT NULL REFERENCES events (id) ON DELETE CASCADE,
    position INTEGER NOT NULL DEFAULT 0,
    label    TEXT NOT NULL,
    url      TEXT NOT NULL
);

CREATE TABLE ticket_types (
    id               INTEGER PRIMARY KEY,
    event_id         INTEGER NOT NULL REFERENCES events (id) ON DELETE CASCADE,
    code             TEXT NOT NULL UNIQUE,
    name             TEXT NOT NULL,
    description      TEXT NOT NULL DEFAULT '',
    position         INTEGER NOT NULL DEFAULT 0,
    price            INTEGER NOT NULL CHECK (price >= 0),
    discount         REAL NOT NULL DEFAULT 0 CHECK (discount >= 0 AND discount < 1),
    max_purchasable  INTEGER NOT NULL DEFAULT 10 CHECK (max_purchasable >= 1),
    capacity         INTEGER NOT NULL CHECK (capacity >= 0),
    sold             INTEGER NOT NULL DEFAULT 0 CHECK (sold >= 0),
    sales_start      TEXT,
    sales_end        TEXT,
    show_promo_field INTEGER NOT NULL DEFAULT 0,
    with_survey      INTEGER NOT NULL DEFAULT 0,
    disclaimer       TEXT NOT NULL DEFAULT '',
    payment_types    TEXT NOT NULL DEFAULT '["QR","CARD"]',
    seated           INTEGER NOT NULL DEFAULT 0,
    CHECK (sold <= capacity)
);
CREATE INDEX ticket_types_event ON ticket_types (event_id);

CREATE TABLE add_ons (
    id        INTEGER PRIMARY KEY,
    event_id  INTEGER NOT NULL REFERENCES events (id) ON DELETE CASCADE,
    name      TEXT NOT NULL,
    price     INTEGER NOT NULL CHECK (price >= 0),
    category  TEXT NOT NULL DEFAULT '',
    notes     TEXT NOT NULL DEFAULT '',
    image_url TEXT NOT NULL DEFAULT ''
);
CREATE INDEX add_ons_event ON add_ons (event_id);

-- +goose Down
DROP TABLE add_ons;
DROP TABLE ticket_types;
DROP TABLE event_links;
DROP TABLE event_tags;
DROP TABLE tags;
DROP TABLE events;
DROP TABLE venues;
DROP TABLE organizers;
