-- +goose Up
-- A face-value return closes as 'refunded' when its ticket is refunded with its order (the event
-- cancelled, or the organizer's refund) before anyone bought it; refund_id names that refund.
CREATE TABLE ticket_returns_new (
    id             INTEGER PRIMARY KEY,
    ticket_id      INTEGER NOT NULL REFERENCES tickets (id),
    order_id       INTEGER NOT NULL REFERENCES orders (id),
    ticket_type_id INTEGER NOT NULL REFERENCES ticket_types (id),
    amount         INTEGER NOT NULL CHECK (amount >= 0),
    status         TEXT NOT NULL DEFAULT 'open' CHECK (status IN ('open', 'sold', 'withdrawn', 'refunded')),
    sold_order_id  INTEGER REFERENCES orders (id),
    refund_id      INTEGER REFERENCES refunds (id),
    created_at     TEXT NOT NULL,
    closed_at      TEXT
);
INSERT INTO ticket_returns_new SELECT id, ticket_id, order_id, ticket_type_id, amount, status, sold_order_id, refund_id,
    created_at, closed_at FROM ticket_returns;
DROP TABLE ticket_returns;
ALTER TABLE ticket_returns_new RENAME TO ticket_returns;
CREATE UNIQUE INDEX ticket_returns_open ON ticket_returns (ticket_id) WHERE status = 'open';
CREATE INDEX ticket_returns_queue ON ticket_returns (ticket_type_id, status, id);
CREATE INDEX ticket_returns_order ON ticket_returns (order_id);

-- +goose Down
UPDATE ticket_returns SET status = 'sold' WHERE status = 'refunded';
CREATE TABLE ticket_returns_old (
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
INSERT INTO ticket_returns_old SELECT id, ticket_id, order_id, ticket_type_id, amount, status, sold_order_id, refund_id,
    created_at, closed_at FROM ticket_returns;
DROP TABLE ticket_returns;
ALTER TABLE ticket_returns_old RENAME TO ticket_returns;
CREATE UNIQUE INDEX ticket_returns_open ON ticket_returns (ticket_id) WHERE status = 'open';
CREATE INDEX ticket_returns_queue ON ticket_returns (ticket_type_id, status, id);
CREATE INDEX ticket_returns_order ON ticket_returns (order_id);
