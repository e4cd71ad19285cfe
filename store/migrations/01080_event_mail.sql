-- +goose Up
-- An event's e-mail settings: the organizer's words for the confirmation and the reminder ('' for
-- Palaro's) and how many hours before the start reminders go out (0: none). No row: the defaults.
CREATE TABLE event_emails (
    event_id       INTEGER PRIMARY KEY REFERENCES events (id),
    confirmation   TEXT NOT NULL DEFAULT '',
    reminder       TEXT NOT NULL DEFAULT '',
    reminder_hours INTEGER NOT NULL DEFAULT 24 CHECK (reminder_hours BETWEEN 0 AND 168),
    updated_at     TEXT NOT NULL,
    updated_by     TEXT NOT NULL DEFAULT ''
);

-- The tickets whose reminder is queued, written in the write that queues it: once per ticket.
CREATE TABLE ticket_reminders (
    ticket_id INTEGER PRIMARY KEY REFERENCES tickets (id),
    event_id  INTEGER NOT NULL REFERENCES events (id),
    queued_at TEXT NOT NULL
);

-- An organizer's message to the holders of an event's tickets (or of one ticket type's): the
-- e-mails (outbox rows naming it, one per address) are composed from it when sent.
CREATE TABLE organizer_messages (
    id             INTEGER PRIMARY KEY,
    event_id       INTEGER NOT NULL REFERENCES events (id),
    ticket_type_id INTEGER REFERENCES ticket_types (id),
    subject        TEXT NOT NULL,
    body           TEXT NOT NULL,
    recipients     INTEGER NOT NULL,
    sent_by        TEXT NOT NULL,
    created_at     TEXT NOT NULL
);
CREATE INDEX organizer_messages_event ON organizer_messages (event_id, id);

ALTER TABLE outbox ADD COLUMN ticket_id INTEGER;
ALTER TABLE outbox ADD COLUMN organizer_message_id INTEGER;

-- +goose Down
ALTER TABLE outbox DROP COLUMN organizer_message_id;
ALTER TABLE outbox DROP COLUMN ticket_id;
DROP TABLE organizer_messages;
DROP TABLE ticket_reminders;
DROP TABLE event_emails;
