-- +goose Up
-- An organization's details for its sales invoices (BIR RR 7-2024) and whether it is
-- VAT-registered (which decides how the senior and PWD discount is computed).
ALTER TABLE organizers ADD COLUMN registered_name TEXT NOT NULL DEFAULT '';
ALTER TABLE organizers ADD COLUMN tin TEXT NOT NULL DEFAULT '';
ALTER TABLE organizers ADD COLUMN registered_address TEXT NOT NULL DEFAULT '';
ALTER TABLE organizers ADD COLUMN vat_registered INTEGER NOT NULL DEFAULT 0;

-- Whether a ticket type is admission that the senior citizen and PWD discount applies to.
ALTER TABLE ticket_types ADD COLUMN senior_pwd_discount INTEGER NOT NULL DEFAULT 0;

-- A ticket bought with the senior citizen or PWD discount: which one, the holder and ID number
-- shown at the gate, and the centavos taken off the ticket type's price (VAT removed, 20% off).
ALTER TABLE tickets ADD COLUMN discount_type TEXT NOT NULL DEFAULT '' CHECK (discount_type IN ('', 'senior', 'pwd'));
ALTER TABLE tickets ADD COLUMN discount_holder TEXT NOT NULL DEFAULT '';
ALTER TABLE tickets ADD COLUMN discount_id_number TEXT NOT NULL DEFAULT '';
ALTER TABLE tickets ADD COLUMN discount_amount INTEGER NOT NULL DEFAULT 0 CHECK (discount_amount >= 0);

-- One refund of some or all of an order's tickets. A row is written, with its tickets already
-- void, in the change that decides the refund; the refund job then asks the gateway and ends it
-- as refunded or failed. A ticket is refunded at most once (refund_tickets.ticket_id is unique).
CREATE TABLE refunds (
    id           INTEGER PRIMARY KEY,
    public_id    TEXT NOT NULL UNIQUE,
    order_id     INTEGER NOT NULL REFERENCES orders (id),
    amount       INTEGER NOT NULL CHECK (amount >= 0),
    fee          INTEGER NOT NULL DEFAULT 0 CHECK (fee >= 0),
    reason       TEXT NOT NULL CHECK (reason IN ('organizer', 'event_cancelled', 'buyer_cancelled', 'returned')),
    status       TEXT NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'refunded', 'failed')),
    provider     TEXT NOT NULL DEFAULT '',
    provider_ref TEXT NOT NULL DEFAULT '',
    failure      TEXT NOT NULL DEFAULT '',
    requested_by TEXT NOT NULL DEFAULT '',
    attempts     INTEGER NOT NULL DEFAULT 0,
    created_at   TEXT NOT NULL,
    done_at      TEXT
);
CREATE INDEX refunds_order ON refunds (order_id);
CREATE INDEX refunds_pending ON refunds (status) WHERE status = 'pending';

CREATE TABLE refund_tickets (
    refund_id INTEGER NOT NULL REFERENCES refunds (id),
    ticket_id INTEGER NOT NULL UNIQUE REFERENCES tickets (id),
    amount    INTEGER NOT NULL CHECK (amount >= 0),
    PRIMARY KEY (refund_id, ticket_id)
);

-- +goose Down
DROP TABLE refund_tickets;
DROP TABLE refunds;
ALTER TABLE tickets DROP COLUMN discount_amount;
ALTER TABLE tickets DROP COLUMN discount_id_number;
ALTER TABLE tickets DROP COLUMN discount_holder;
ALTER TABLE tickets DROP COLUMN discount_type;
ALTER TABLE ticket_types DROP COLUMN senior_pwd_discount;
ALTER TABLE organizers DROP COLUMN vat_registered;
ALTER TABLE organizers DROP COLUMN registered_address;
ALTER TABLE organizers DROP COLUMN tin;
ALTER TABLE organizers DROP COLUMN registered_name;
