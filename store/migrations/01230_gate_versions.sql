-- +goose Up
-- A ticket issued already paid (a free order, a box-office sale, a seeded sale) is a change the
-- gate hears of too: before, only updates were, so a new free ticket reached a gate phone with
-- the next whole list only.
-- +goose StatementBegin
CREATE TRIGGER gate_changes_new_ticket AFTER INSERT ON tickets
WHEN (SELECT status FROM orders WHERE id = NEW.order_id) = 'paid'
BEGIN
    INSERT INTO gate_changes (event_id, ticket_id, old_code) VALUES (NEW.event_id, NEW.id, NULL);
END;
-- +goose StatementEnd

-- Marks of the gate list's version over time, written by the pruning job: gate_changes rows
-- older than the newest mark at least PruneGateChanges' keep old are deleted, and a phone whose
-- version is older than the oldest mark left gets the whole list.
CREATE TABLE gate_change_marks (
    version INTEGER NOT NULL,
    at      TEXT NOT NULL
);
CREATE INDEX gate_change_marks_at ON gate_change_marks (at);

-- +goose Down
DROP TABLE gate_change_marks;
DROP TRIGGER gate_changes_new_ticket;
