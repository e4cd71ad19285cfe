-- +goose Up
-- A date of a series can be changed, postponed or cancelled alone, and its holders are told:
-- sequence is the date's own iCalendar SEQUENCE (its .ics carries the event's plus the date's),
-- raised with each change told about; a change of a date is an event_changes row naming it
-- (date_id), whose e-mails go to the holders of that date's day tickets and of passes covering
-- it. refund_all_at/by: the refund of the date's day-ticket orders was started (cancelling a date
-- starts it), written by the event refund job as for a cancelled event.
ALTER TABLE event_dates ADD COLUMN sequence INTEGER NOT NULL DEFAULT 0;
ALTER TABLE event_dates ADD COLUMN refund_all_at TEXT;
ALTER TABLE event_dates ADD COLUMN refund_all_by TEXT NOT NULL DEFAULT '';
ALTER TABLE event_changes ADD COLUMN date_id INTEGER REFERENCES event_dates (id);
CREATE INDEX event_changes_date ON event_changes (date_id) WHERE date_id IS NOT NULL;
CREATE INDEX event_dates_refund_all ON event_dates (refund_all_at) WHERE refund_all_at IS NOT NULL;
CREATE INDEX orders_date ON orders (date_id) WHERE date_id IS NOT NULL;

-- +goose Down
DROP INDEX orders_date;
DROP INDEX event_dates_refund_all;
DROP INDEX event_changes_date;
ALTER TABLE event_changes DROP COLUMN date_id;
ALTER TABLE event_dates DROP COLUMN refund_all_by;
ALTER TABLE event_dates DROP COLUMN refund_all_at;
ALTER TABLE event_dates DROP COLUMN sequence;
