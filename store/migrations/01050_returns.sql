-- +goose Up
-- An event's rule for buyers who cancel themselves (issue 21): allowed until hours_before the
-- event starts; the organizer keeps fee centavos plus percent_bp hundredths of a percent of what
-- was paid for the cancelled tickets (never more than was paid). No row: buyers cannot cancel.
CREATE TABLE self_cancel_settings (
    event_id     INTEGER PRIMARY KEY REFERENCES events (id) ON DELETE CASCADE,
    hours_before INTEGER NOT NULL CHECK (hours_before >= 0),
    fee          INTEGER NOT NULL DEFAULT 0 CHECK (fee >= 0),
    percent_bp   INTEGER NOT NULL DEFAULT 0 CHECK (percent_bp BETWEEN 0 AND 10000),
    updated_at   TEXT NOT NULL
);

-- A ticket its buyer returned at face value: the ticket is void (status 'cancelled') and its
-- place back on sale (waiting list first) while the return is 'open'; the first paid sale of the
-- type closes it as 'sold' and writes the buyer's pending refund; 'withdrawn' gave it back to
-- the buyer. At most one open return per ticket.
CREATE TABLE ticket_returns (
    id             INTEGER PRIMARY KEY,
    ticket_id      INTEGER NOT NULL REFERENCES tickets (id),
    order_id       INTEGER NOT NULL REFERENCES orders (id),
    ticket_type_id INTEGER NOT NULL REFERENCES ticket_types (id),
    amount         INTEGER NOT NULL CHECK (amount >= 0),
    status         TEXT NOT NULL DEFAULT 'open' CHECK (status IN ('open', 'sold', 'withdrawn')),
    sold_order_id  INTEGER REFERENCES orders (id),
    refund_id      INTEGER REFERENCES refunds (id),
    created_at     TEXT NOT NULL,
    closed_at      TEXT
);
CREATE UNIQUE INDEX ticket_returns_open ON ticket_returns (ticket_id) WHERE status = 'open';
CREATE INDEX ticket_returns_queue ON ticket_returns (ticket_type_id, status, id);
CREATE INDEX ticket_returns_order ON ticket_returns (order_id);

-- +goose Down
DROP TABLE ticket_returns;
DROP TABLE self_cancel_settings;
