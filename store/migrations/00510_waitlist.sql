-- +goose Up
-- The waiting list of a sold-out ticket type: one entry per e-mail and ticket type, in the order
-- of joined_at (then id). Tickets that come back are offered to entries in that order; an open
-- offer holds its tickets (ticket_types.held) until it is claimed by an order or expires.
CREATE TABLE waitlist_entries (
    id             INTEGER PRIMARY KEY,
    event_id       INTEGER NOT NULL REFERENCES events(id),
    ticket_type_id INTEGER NOT NULL REFERENCES ticket_types(id),
    email          TEXT    NOT NULL,
    quantity       INTEGER NOT NULL CHECK (quantity >= 1),
    status         TEXT    NOT NULL DEFAULT 'waiting' CHECK (status IN ('waiting', 'offered', 'claimed', 'passed')),
    joined_at      TEXT    NOT NULL,
    updated_at     TEXT    NOT NULL,
    UNIQUE (ticket_type_id, email)
);
CREATE INDEX waitlist_entries_queue ON waitlist_entries (ticket_type_id, status, joined_at, id);
CREATE INDEX waitlist_entries_event ON waitlist_entries (event_id, joined_at, id);

CREATE TABLE waitlist_offers (
    id              INTEGER PRIMARY KEY,
    entry_id        INTEGER NOT NULL REFERENCES waitlist_entries(id),
    ticket_type_id  INTEGER NOT NULL REFERENCES ticket_types(id),
    quantity        INTEGER NOT NULL CHECK (quantity >= 1),
    token_hash      TEXT    NOT NULL UNIQUE,
    status          TEXT    NOT NULL DEFAULT 'open' CHECK (status IN ('open', 'claimed', 'expired')),
    by_hand         INTEGER NOT NULL DEFAULT 0,
    offered_at      TEXT    NOT NULL,
    expires_at      TEXT    NOT NULL,
    closed_at       TEXT,
    order_public_id TEXT    NOT NULL DEFAULT ''
);
CREATE INDEX waitlist_offers_open ON waitlist_offers (status, expires_at);
CREATE INDEX waitlist_offers_entry ON waitlist_offers (entry_id);

-- How long an offer holds its tickets, per event (no row: 24 hours).
CREATE TABLE waitlist_settings (
    event_id      INTEGER PRIMARY KEY REFERENCES events(id),
    offer_minutes INTEGER NOT NULL CHECK (offer_minutes >= 1)
);

-- +goose Down
DROP TABLE waitlist_settings;
DROP TABLE waitlist_offers;
DROP TABLE waitlist_entries;
