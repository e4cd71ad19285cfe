-- +goose Up
-- What changed for the gate since a gate list was downloaded, so an online gate phone fetches a
-- small delta every few seconds instead of the whole list: one row per change of a ticket the gate
-- sees (code, status, holder, seat) and per paid order that stops or starts being paid. old_code
-- is the code a transfer replaced (the phone drops it). Filled by triggers, so no write path can
-- forget it. The id is the list's version.
CREATE TABLE gate_changes (
    id        INTEGER PRIMARY KEY,
    event_id  INTEGER NOT NULL,
    ticket_id INTEGER NOT NULL,
    old_code  TEXT
);
CREATE INDEX gate_changes_event ON gate_changes (event_id, id);

-- +goose StatementBegin
CREATE TRIGGER gate_changes_ticket AFTER UPDATE OF code, status, holder_name, seat ON tickets
BEGIN
    INSERT INTO gate_changes (event_id, ticket_id, old_code)
    VALUES (NEW.event_id, NEW.id, CASE WHEN OLD.code <> NEW.code THEN OLD.code END);
END;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE TRIGGER gate_changes_order AFTER UPDATE OF status ON orders
WHEN OLD.status <> NEW.status AND (OLD.status = 'paid' OR NEW.status = 'paid')
BEGIN
    INSERT INTO gate_changes (event_id, ticket_id, old_code)
    SELECT event_id, id, NULL FROM tickets WHERE order_id = NEW.id;
END;
-- +goose StatementEnd

-- An offline check-in whose phone time was before the gate list's download or the doors, or
-- after the server's clock: scanned_at is clamped and claimed_at keeps what the phone said.
ALTER TABLE check_ins ADD COLUMN claimed_at TEXT;

-- +goose Down
ALTER TABLE check_ins DROP COLUMN claimed_at;
DROP TRIGGER gate_changes_order;
DROP TRIGGER gate_changes_ticket;
DROP TABLE gate_changes;
