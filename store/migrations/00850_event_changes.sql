-- +goose Up
-- An event's iCalendar SEQUENCE: it grows with each change its ticket holders are told about
-- (postponed, rescheduled, cancelled), so calendars that imported the .ics update it.
ALTER TABLE events ADD COLUMN sequence INTEGER NOT NULL DEFAULT 0;

-- One change of a published event that its ticket holders are told about, as it was made: the
-- e-mails (outbox rows naming the change, one per holder) are composed from it when sent.
CREATE TABLE event_changes (
    id            INTEGER PRIMARY KEY,
    event_id      INTEGER NOT NULL REFERENCES events (id),
    kind          TEXT NOT NULL CHECK (kind IN ('postponed', 'rescheduled', 'cancelled')),
    sequence      INTEGER NOT NULL,
    old_starts_at TEXT NOT NULL,
    old_ends_at   TEXT NOT NULL,
    old_venue     TEXT NOT NULL,
    starts_at     TEXT NOT NULL,
    ends_at       TEXT NOT NULL,
    venue         TEXT NOT NULL,
    created_at    TEXT NOT NULL
);
CREATE INDEX event_changes_event ON event_changes (event_id);

ALTER TABLE outbox ADD COLUMN event_change_id INTEGER;

-- +goose Down
ALTER TABLE outbox DROP COLUMN event_change_id;
DROP TABLE event_changes;
ALTER TABLE events DROP COLUMN sequence;
