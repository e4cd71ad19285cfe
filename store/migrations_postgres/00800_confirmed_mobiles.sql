-- +goose Up
-- A mobile number links an account to a participant only once it is confirmed by an SMS code
-- (the SQLite form explains the columns).
ALTER TABLE users ADD COLUMN mobile_confirmed_at TEXT;
ALTER TABLE participants ADD COLUMN confirmed_at TEXT;
DROP INDEX participants_mobile_number;
CREATE UNIQUE INDEX participants_confirmed_mobile ON participants (mobile_number) WHERE confirmed_at IS NOT NULL;
CREATE INDEX participants_mobile_number ON participants (mobile_number);
ALTER TABLE mobile_changes ALTER COLUMN user_id DROP NOT NULL;
ALTER TABLE mobile_changes ADD COLUMN participant_id BIGINT REFERENCES participants (id) ON DELETE CASCADE;
ALTER TABLE mobile_changes ADD CONSTRAINT mobile_changes_owner CHECK ((user_id IS NULL) <> (participant_id IS NULL));
CREATE INDEX mobile_changes_participant ON mobile_changes (participant_id, id);

-- +goose Down
DELETE FROM mobile_changes WHERE user_id IS NULL;
DROP INDEX mobile_changes_participant;
ALTER TABLE mobile_changes DROP CONSTRAINT mobile_changes_owner;
ALTER TABLE mobile_changes DROP COLUMN participant_id;
ALTER TABLE mobile_changes ALTER COLUMN user_id SET NOT NULL;
DROP INDEX participants_mobile_number;
DROP INDEX participants_confirmed_mobile;
DELETE FROM participants WHERE id NOT IN (SELECT MIN(id) FROM participants GROUP BY mobile_number);
CREATE UNIQUE INDEX participants_mobile_number ON participants (mobile_number);
ALTER TABLE participants DROP COLUMN confirmed_at;
ALTER TABLE users DROP COLUMN mobile_confirmed_at;
