-- +goose Up
-- A change of a pass's dates is a change the gate hears of (see the SQLite form).
-- +goose StatementBegin
CREATE FUNCTION gate_changes_pass_use() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO gate_changes (event_id, ticket_id, old_code)
    SELECT event_id, id, NULL FROM tickets WHERE id = (CASE WHEN TG_OP = 'DELETE' THEN OLD.ticket_id ELSE NEW.ticket_id END);
    RETURN NULL;
END;
$$;
-- +goose StatementEnd
CREATE TRIGGER gate_changes_pass_use_new AFTER INSERT ON pass_uses
    FOR EACH ROW EXECUTE FUNCTION gate_changes_pass_use();
CREATE TRIGGER gate_changes_pass_use AFTER UPDATE OF checked_in_at, gate, seat ON pass_uses
    FOR EACH ROW EXECUTE FUNCTION gate_changes_pass_use();
CREATE TRIGGER gate_changes_pass_use_gone AFTER DELETE ON pass_uses
    FOR EACH ROW EXECUTE FUNCTION gate_changes_pass_use();

-- +goose Down
DROP TRIGGER gate_changes_pass_use_gone ON pass_uses;
DROP TRIGGER gate_changes_pass_use ON pass_uses;
DROP TRIGGER gate_changes_pass_use_new ON pass_uses;
DROP FUNCTION gate_changes_pass_use();
