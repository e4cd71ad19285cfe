-- +goose Up
-- The senior citizen and PWD discounts an order asked for, one per discounted ticket (position
-- 0 is the order's first ticket), written with the order: its tickets are issued at payment and
-- take them over (tickets.discount_*). An ID number has one live discount per event (the unique
-- key on id_key, the ID as DiscountIDKey compares it); a released order's rows stop being live.
CREATE TABLE order_discounts (
    order_id   INTEGER NOT NULL REFERENCES orders (id),
    position   INTEGER NOT NULL,
    event_id   INTEGER NOT NULL REFERENCES events (id),
    type       TEXT NOT NULL CHECK (type IN ('senior', 'pwd')),
    holder     TEXT NOT NULL,
    id_number  TEXT NOT NULL,
    id_key     TEXT NOT NULL,
    amount     INTEGER NOT NULL CHECK (amount >= 0),
    live       INTEGER NOT NULL DEFAULT 1,
    PRIMARY KEY (order_id, position)
);
CREATE UNIQUE INDEX order_discounts_one_per_id ON order_discounts (event_id, id_key) WHERE live = 1;

-- The sum of an order's senior citizen and PWD discounts, already taken off its total.
ALTER TABLE orders ADD COLUMN senior_pwd_discount INTEGER NOT NULL DEFAULT 0;

-- The discounted tickets, for the job that masks their ID numbers once the record period is over.
CREATE INDEX tickets_discounted ON tickets (event_id) WHERE discount_id_number != '';

-- +goose Down
DROP INDEX tickets_discounted;
ALTER TABLE orders DROP COLUMN senior_pwd_discount;
DROP TABLE order_discounts;
