-- +goose Up
-- Waiting lists per date (issue 22): an entry of a series' day ticket waits for one date
-- (waitlist_entries.date_id; NULL for a single-date event or a pass), so one address may wait for
-- several dates of one type. The table is rebuilt without its UNIQUE (ticket_type_id, email);
-- its offers' references stay valid: the check of waitlist_offers.entry_id is deferred to the
-- commit, by when every entry is back under its id.
PRAGMA defer_foreign_keys = ON;
CREATE TABLE waitlist_entries_copy AS SELECT id, event_id, ticket_type_id, email, quantity, status, joined_at, updated_at,
    date_id FROM waitlist_entries;
DROP TABLE waitlist_entries;
CREATE TABLE waitlist_entries (
    id             INTEGER PRIMARY KEY,
    event_id       INTEGER NOT NULL REFERENCES events(id),
    ticket_type_id INTEGER NOT NULL REFERENCES ticket_types(id),
    email          TEXT    NOT NULL,
    quantity       INTEGER NOT NULL CHECK (quantity >= 1),
    status         TEXT    NOT NULL DEFAULT 'waiting' CHECK (status IN ('waiting', 'offered', 'claimed', 'passed')),
    joined_at      TEXT    NOT NULL,
    updated_at     TEXT    NOT NULL,
    date_id        INTEGER REFERENCES event_dates (id)
);
INSERT INTO waitlist_entries (id, event_id, ticket_type_id, email, quantity, status, joined_at, updated_at, date_id)
    SELECT id, event_id, ticket_type_id, email, quantity, status, joined_at, updated_at, date_id FROM waitlist_entries_copy;
DROP TABLE waitlist_entries_copy;
CREATE UNIQUE INDEX waitlist_entries_email ON waitlist_entries (ticket_type_id, coalesce(date_id, 0), email);
CREATE INDEX waitlist_entries_queue ON waitlist_entries (ticket_type_id, date_id, status, joined_at, id);
CREATE INDEX waitlist_entries_event ON waitlist_entries (event_id, joined_at, id);
CREATE INDEX waitlist_offers_date ON waitlist_offers (date_id) WHERE date_id IS NOT NULL;

-- +goose Down
DROP INDEX waitlist_offers_date;
-- an address waits for one list of a type again: its first entry is kept; the others go, with
-- their offers and the seats those hold (a place such an open offer held stays counted as held)
DELETE FROM seat_assignments WHERE offer_id IN (SELECT id FROM waitlist_offers WHERE entry_id NOT IN
    (SELECT min(id) FROM waitlist_entries GROUP BY ticket_type_id, email));
DELETE FROM waitlist_offers WHERE entry_id NOT IN (SELECT min(id) FROM waitlist_entries GROUP BY ticket_type_id, email);
DELETE FROM waitlist_entries WHERE id NOT IN (SELECT min(id) FROM waitlist_entries GROUP BY ticket_type_id, email);
PRAGMA defer_foreign_keys = ON;
CREATE TABLE waitlist_entries_copy AS SELECT id, event_id, ticket_type_id, email, quantity, status, joined_at, updated_at,
    date_id FROM waitlist_entries;
DROP TABLE waitlist_entries;
CREATE TABLE waitlist_entries (
    id             INTEGER PRIMARY KEY,
    event_id       INTEGER NOT NULL REFERENCES events(id),
    ticket_type_id INTEGER NOT NULL REFERENCES ticket_types(id),
    email          TEXT    NOT NULL,
    quantity       INTEGER NOT NULL CHECK (quantity >= 1),
    status         TEXT    NOT NULL DEFAULT 'waiting' CHECK (status IN ('waiting', 'offered', 'claimed', 'passed')),
    joined_at      TEXT    NOT NULL,
    updated_at     TEXT    NOT NULL, date_id INTEGER REFERENCES event_dates (id),
    UNIQUE (ticket_type_id, email)
);
INSERT INTO waitlist_entries (id, event_id, ticket_type_id, email, quantity, status, joined_at, updated_at, date_id)
    SELECT id, event_id, ticket_type_id, email, quantity, status, joined_at, updated_at, date_id FROM waitlist_entries_copy;
DROP TABLE waitlist_entries_copy;
CREATE INDEX waitlist_entries_queue ON waitlist_entries (ticket_type_id, status, joined_at, id);
CREATE INDEX waitlist_entries_event ON waitlist_entries (event_id, joined_at, id);
