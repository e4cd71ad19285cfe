-- +goose Up
-- A series' gate list gives each ticket its state on the list's date, and a pass's state there is
-- its pass_uses row (taken, checked in) and the dates it used: a change of a pass's dates is a
-- change the gate hears of, as a change of the ticket is (migration 00830).
-- +goose StatementBegin
CREATE TRIGGER gate_changes_pass_use_new AFTER INSERT ON pass_uses
BEGIN
    INSERT INTO gate_changes (event_id, ticket_id, old_code) SELECT event_id, id, NULL FROM tickets WHERE id = NEW.ticket_id;
END;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE TRIGGER gate_changes_pass_use AFTER UPDATE OF checked_in_at, gate, seat ON pass_uses
BEGIN
    INSERT INTO gate_changes (event_id, ticket_id, old_code) SELECT event_id, id, NULL FROM tickets WHERE id = NEW.ticket_id;
END;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE TRIGGER gate_changes_pass_use_gone AFTER DELETE ON pass_uses
BEGIN
    INSERT INTO gate_changes (event_id, ticket_id, old_code) SELECT event_id, id, NULL FROM tickets WHERE id = OLD.ticket_id;
END;
-- +goose StatementEnd

-- +goose Down
DROP TRIGGER gate_changes_pass_use_gone;
DROP TRIGGER gate_changes_pass_use;
DROP TRIGGER gate_changes_pass_use_new;
