-- +goose Up
-- Event series (issue 22): an event with rows here is a series; each row is one date (session)
-- with its own start and end. NULL columns take the event's (venue) or the ticket types' (sales
-- window) values, so editing the series changes what the dates share while what was set on a date
-- stays. slug is the date's address under the event: YYYY-MM-DD in Manila, '-2' for a second
-- session that day. An event without rows here is a single-date event, exactly as before.
CREATE TABLE event_dates (
    id          INTEGER PRIMARY KEY,
    event_id    INTEGER NOT NULL REFERENCES events (id) ON DELETE CASCADE,
    slug        TEXT NOT NULL,
    name        TEXT NOT NULL DEFAULT '',
    starts_at   TEXT NOT NULL,
    ends_at     TEXT NOT NULL,
    venue_id    INTEGER REFERENCES venues (id),
    sales_start TEXT,
    sales_end   TEXT,
    status      TEXT NOT NULL DEFAULT 'scheduled' CHECK (status IN ('scheduled', 'postponed', 'cancelled')),
    created_at  TEXT NOT NULL,
    updated_at  TEXT NOT NULL,
    UNIQUE (event_id, slug),
    CHECK (ends_at >= starts_at)
);
CREATE INDEX event_dates_starts_at ON event_dates (starts_at);

-- A ticket type's places on one date of a series: the guarded counters of a dated sale
-- (sold + held + n <= capacity in one UPDATE, as ticket_types' for a single-date event). capacity
-- is the ticket type's while own_capacity = 0 (a series edit carries it over) and the date's own
-- once set on it. A row appears when the date or the type is created, or at its first sale.
CREATE TABLE date_stock (
    date_id        INTEGER NOT NULL REFERENCES event_dates (id) ON DELETE CASCADE,
    ticket_type_id INTEGER NOT NULL REFERENCES ticket_types (id) ON DELETE CASCADE,
    capacity       INTEGER NOT NULL CHECK (capacity >= 0),
    own_capacity   INTEGER NOT NULL DEFAULT 0 CHECK (own_capacity IN (0, 1)),
    sold           INTEGER NOT NULL DEFAULT 0 CHECK (sold >= 0),
    held           INTEGER NOT NULL DEFAULT 0 CHECK (held >= 0),
    PRIMARY KEY (date_id, ticket_type_id)
);
CREATE INDEX date_stock_type ON date_stock (ticket_type_id);

-- The places an order takes on dates while pending (held) and once paid (sold): one row for a
-- day ticket order (its date), one per date for a pass valid on every date (each on the type the
-- pass gives places of). Releasing or paying the order moves exactly these.
CREATE TABLE order_dates (
    order_id       INTEGER NOT NULL REFERENCES orders (id) ON DELETE CASCADE,
    date_id        INTEGER NOT NULL REFERENCES event_dates (id) ON DELETE CASCADE,
    ticket_type_id INTEGER NOT NULL REFERENCES ticket_types (id),
    quantity       INTEGER NOT NULL CHECK (quantity >= 1),
    PRIMARY KEY (order_id, date_id, ticket_type_id)
);
CREATE INDEX order_dates_date ON order_dates (date_id);

-- Passes: pass_kind 'every' is valid on every date of the series, 'count' on pass_dates dates the
-- holder picks as they go. A pass has its own capacity (ticket_types.capacity/sold/held) and takes
-- a place of type pass_of on each date it is used for, so passes and day tickets together never
-- oversell a date; a seated pass keeps one seat of pass_of's map on every date.
ALTER TABLE ticket_types ADD COLUMN pass_kind TEXT NOT NULL DEFAULT '' CHECK (pass_kind IN ('', 'every', 'count'));
ALTER TABLE ticket_types ADD COLUMN pass_dates INTEGER NOT NULL DEFAULT 0 CHECK (pass_dates >= 0);
ALTER TABLE ticket_types ADD COLUMN pass_of INTEGER REFERENCES ticket_types (id);

-- A pass ticket's dates: one row per date it holds a place on (every date for 'every', each pick
-- for 'count'), with its seat there; checked_in_at is its admission on that date (once per date).
CREATE TABLE pass_uses (
    ticket_id     INTEGER NOT NULL REFERENCES tickets (id) ON DELETE CASCADE,
    date_id       INTEGER NOT NULL REFERENCES event_dates (id) ON DELETE CASCADE,
    seat          TEXT NOT NULL DEFAULT '',
    checked_in_at TEXT,
    gate          TEXT NOT NULL DEFAULT '',
    created_at    TEXT NOT NULL,
    PRIMARY KEY (ticket_id, date_id)
);
CREATE INDEX pass_uses_date ON pass_uses (date_id);

-- What is bought, held, queued for, waited for and admitted knows its date (NULL: a single-date
-- event, or a pass, whose dates are in pass_uses).
ALTER TABLE orders ADD COLUMN date_id INTEGER REFERENCES event_dates (id);
ALTER TABLE tickets ADD COLUMN date_id INTEGER REFERENCES event_dates (id);
ALTER TABLE check_ins ADD COLUMN date_id INTEGER REFERENCES event_dates (id);
ALTER TABLE waitlist_entries ADD COLUMN date_id INTEGER REFERENCES event_dates (id);
ALTER TABLE waitlist_offers ADD COLUMN date_id INTEGER REFERENCES event_dates (id);
ALTER TABLE queue_places ADD COLUMN date_id INTEGER REFERENCES event_dates (id);
CREATE INDEX tickets_date ON tickets (date_id) WHERE date_id IS NOT NULL;

-- Seats per date: a seat sold for week 1 is free for week 2. date_id 0 is the event itself (a
-- single-date event's seats, and blocked seats, which hold on every date).
CREATE TABLE seat_assignments_new (
    ticket_type_id INTEGER NOT NULL,
    date_id        INTEGER NOT NULL DEFAULT 0,
    seat           TEXT NOT NULL,
    order_id       INTEGER REFERENCES orders (id),
    blocked        INTEGER NOT NULL DEFAULT 0,
    offer_id       INTEGER REFERENCES waitlist_offers (id),
    hold_id        INTEGER REFERENCES seat_holds (id),
    PRIMARY KEY (ticket_type_id, date_id, seat),
    FOREIGN KEY (ticket_type_id, seat) REFERENCES seats (ticket_type_id, label) ON DELETE CASCADE
);
INSERT INTO seat_assignments_new (ticket_type_id, date_id, seat, order_id, blocked, offer_id, hold_id)
    SELECT ticket_type_id, 0, seat, order_id, blocked, offer_id, hold_id FROM seat_assignments;
DROP TABLE seat_assignments;
ALTER TABLE seat_assignments_new RENAME TO seat_assignments;
CREATE INDEX seat_assignments_offer ON seat_assignments (offer_id);
CREATE INDEX seat_assignments_order ON seat_assignments (order_id);
CREATE INDEX seat_assignments_hold ON seat_assignments (hold_id);

-- +goose Down
CREATE TABLE seat_assignments_old (
    ticket_type_id INTEGER NOT NULL,
    seat           TEXT NOT NULL,
    order_id       INTEGER REFERENCES orders (id),
    blocked        INTEGER NOT NULL DEFAULT 0,
    offer_id       INTEGER REFERENCES waitlist_offers (id),
    hold_id        INTEGER REFERENCES seat_holds (id),
    PRIMARY KEY (ticket_type_id, seat),
    FOREIGN KEY (ticket_type_id, seat) REFERENCES seats (ticket_type_id, label) ON DELETE CASCADE
);
INSERT INTO seat_assignments_old (ticket_type_id, seat, order_id, blocked, offer_id, hold_id)
    SELECT ticket_type_id, seat, order_id, blocked, offer_id, hold_id FROM seat_assignments WHERE date_id = 0;
DROP TABLE seat_assignments;
ALTER TABLE seat_assignments_old RENAME TO seat_assignments;
CREATE INDEX seat_assignments_offer ON seat_assignments (offer_id);
CREATE INDEX seat_assignments_order ON seat_assignments (order_id);
CREATE INDEX seat_assignments_hold ON seat_assignments (hold_id);
DROP INDEX tickets_date;
ALTER TABLE queue_places DROP COLUMN date_id;
ALTER TABLE waitlist_offers DROP COLUMN date_id;
ALTER TABLE waitlist_entries DROP COLUMN date_id;
ALTER TABLE check_ins DROP COLUMN date_id;
ALTER TABLE tickets DROP COLUMN date_id;
ALTER TABLE orders DROP COLUMN date_id;
DROP TABLE pass_uses;
ALTER TABLE ticket_types DROP COLUMN pass_of;
ALTER TABLE ticket_types DROP COLUMN pass_dates;
ALTER TABLE ticket_types DROP COLUMN pass_kind;
DROP TABLE order_dates;
DROP TABLE date_stock;
DROP TABLE event_dates;
