-- +goose Up
-- Check-ins at the gate. The ticket's status says whether it is checked in (changed only by a
-- conditional update, so one scan wins); this table keeps every accepted scan, every offline scan
-- that found the ticket already used (a conflict, shown in the console) and undos.
CREATE TABLE check_ins (
    id          INTEGER PRIMARY KEY,
    ticket_id   INTEGER NOT NULL REFERENCES tickets (id) ON DELETE CASCADE,
    event_id    INTEGER NOT NULL REFERENCES events (id) ON DELETE CASCADE,
    gate        TEXT NOT NULL DEFAULT '',
    actor       TEXT NOT NULL DEFAULT '',
    scanned_at  TEXT NOT NULL,
    recorded_at TEXT NOT NULL,
    client_id   TEXT UNIQUE,
    outcome     TEXT NOT NULL CHECK (outcome IN ('checked_in', 'conflict')),
    undone_at   TEXT,
    undone_by   TEXT
);
CREATE INDEX check_ins_event ON check_ins (event_id, outcome);
CREATE INDEX check_ins_ticket ON check_ins (ticket_id, id);
ALTER TABLE tickets ADD COLUMN checked_in_gate TEXT NOT NULL DEFAULT '';
CREATE INDEX tickets_event_status ON tickets (event_id, status);

-- +goose Down
DROP INDEX tickets_event_status;
ALTER TABLE tickets DROP COLUMN checked_in_gate;
DROP TABLE check_ins;
