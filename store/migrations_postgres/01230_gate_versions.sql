-- +goose Up
-- A ticket issued already paid is a change the gate hears of too (see the SQLite form).
-- +goose StatementBegin
CREATE FUNCTION gate_changes_new_ticket() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF (SELECT status FROM orders WHERE id = NEW.order_id) = 'paid' THEN
        INSERT INTO gate_changes (event_id, ticket_id, old_code) VALUES (NEW.event_id, NEW.id, NULL);
    END IF;
    RETURN NULL;
END;
$$;
-- +goose StatementEnd
CREATE TRIGGER gate_changes_new_ticket AFTER INSERT ON tickets
    FOR EACH ROW EXECUTE FUNCTION gate_changes_new_ticket();

-- The id of a gate_changes row is drawn from a sequence when the row is written, not when it
-- commits: a transaction holding id 10 may commit after one holding id 11, so "every row after
-- the largest id I saw" could miss row 10 for good. Each row therefore also names its writing
-- transaction (xid), and a gate list's version is the xmin of the snapshot it was read in (every
-- transaction below it had ended): the next delta is every row whose xid is at least that
-- version, which holds every change the list could not see.
ALTER TABLE gate_changes ADD COLUMN xid BIGINT NOT NULL DEFAULT (pg_current_xact_id()::text::bigint);
CREATE INDEX gate_changes_event_xid ON gate_changes (event_id, xid);

-- Marks of the gate list's version over time (see the SQLite form).
CREATE TABLE gate_change_marks (
    version BIGINT NOT NULL,
    at      TEXT NOT NULL
);
CREATE INDEX gate_change_marks_at ON gate_change_marks (at);

-- +goose Down
DROP TABLE gate_change_marks;
DROP INDEX gate_changes_event_xid;
ALTER TABLE gate_changes DROP COLUMN xid;
DROP TRIGGER gate_changes_new_ticket ON tickets;
DROP FUNCTION gate_changes_new_ticket();
