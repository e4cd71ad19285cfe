-- +goose Up
-- Sales invoices and credit notes (BIR RR 7-2024). Each organization numbers each kind from its
-- own sequence: invoice_counters holds the last serial given, and the write that marks an order
-- paid (or ends a refund) takes the next one with an UPDATE of that row, so serials have no gap
-- and no repeat (a rolled-back write gives its serial back with it). An invoice keeps a snapshot
-- of the seller's details and of its lines: later edits change nothing on an issued invoice.
CREATE TABLE invoice_counters (
    organizer_id INTEGER NOT NULL REFERENCES organizers (id) ON DELETE CASCADE,
    kind         TEXT NOT NULL CHECK (kind IN ('invoice', 'credit_note')),
    last_serial  INTEGER NOT NULL CHECK (last_serial >= 1),
    PRIMARY KEY (organizer_id, kind)
);

CREATE TABLE invoices (
    id               INTEGER PRIMARY KEY,
    public_id        TEXT NOT NULL UNIQUE,
    organizer_id     INTEGER NOT NULL REFERENCES organizers (id),
    kind             TEXT NOT NULL CHECK (kind IN ('invoice', 'credit_note')),
    serial           INTEGER NOT NULL CHECK (serial >= 1),
    order_id         INTEGER NOT NULL REFERENCES orders (id),
    event_id         INTEGER NOT NULL REFERENCES events (id),
    credits_id       INTEGER REFERENCES invoices (id),
    refund_id        INTEGER UNIQUE REFERENCES refunds (id),
    issued_at        TEXT NOT NULL,
    seller           TEXT NOT NULL,
    buyer_name       TEXT NOT NULL DEFAULT '',
    buyer_email      TEXT NOT NULL DEFAULT '',
    lines            TEXT NOT NULL,
    vatable_sales    INTEGER NOT NULL,
    vat              INTEGER NOT NULL,
    vat_exempt_sales INTEGER NOT NULL,
    discount         INTEGER NOT NULL,
    total            INTEGER NOT NULL,
    admission        INTEGER NOT NULL,
    UNIQUE (organizer_id, kind, serial),
    CHECK ((kind = 'invoice') = (credits_id IS NULL))
);
CREATE UNIQUE INDEX invoices_order ON invoices (order_id) WHERE kind = 'invoice';
CREATE INDEX invoices_issued ON invoices (organizer_id, issued_at);
CREATE INDEX invoices_credits ON invoices (credits_id) WHERE credits_id IS NOT NULL;

-- +goose Down
DROP TABLE invoices;
DROP TABLE invoice_counters;
