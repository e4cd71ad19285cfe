-- +goose Up
-- Waiting lists per date (issue 22): an entry of a series' day ticket waits for one date
-- (waitlist_entries.date_id; NULL for a single-date event or a pass), so one address may wait for
-- several dates of one type.
ALTER TABLE waitlist_entries DROP CONSTRAINT waitlist_entries_ticket_type_id_email_key;
CREATE UNIQUE INDEX waitlist_entries_email ON waitlist_entries (ticket_type_id, (coalesce(date_id, 0)), email);
DROP INDEX waitlist_entries_queue;
CREATE INDEX waitlist_entries_queue ON waitlist_entries (ticket_type_id, date_id, status, joined_at, id);
CREATE INDEX waitlist_offers_date ON waitlist_offers (date_id) WHERE date_id IS NOT NULL;

-- +goose Down
DROP INDEX waitlist_offers_date;
-- an address waits for one list of a type again: its first entry is kept; the others go, with
-- their offers and the seats those hold (a place such an open offer held stays counted as held)
DELETE FROM seat_assignments WHERE offer_id IN (SELECT id FROM waitlist_offers WHERE entry_id NOT IN
    (SELECT min(id) FROM waitlist_entries GROUP BY ticket_type_id, email));
DELETE FROM waitlist_offers WHERE entry_id NOT IN (SELECT min(id) FROM waitlist_entries GROUP BY ticket_type_id, email);
DELETE FROM waitlist_entries WHERE id NOT IN (SELECT min(id) FROM waitlist_entries GROUP BY ticket_type_id, email);
DROP INDEX waitlist_entries_queue;
CREATE INDEX waitlist_entries_queue ON waitlist_entries (ticket_type_id, status, joined_at, id);
DROP INDEX waitlist_entries_email;
ALTER TABLE waitlist_entries ADD CONSTRAINT waitlist_entries_ticket_type_id_email_key UNIQUE (ticket_type_id, email);
