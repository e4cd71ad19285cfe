-- +goose Up
-- The seats of seated ticket types, generated from their capacity (palaro.SeatLayout).
CREATE TABLE seats (
    ticket_type_id INTEGER NOT NULL REFERENCES ticket_types (id) ON DELETE CASCADE,
    label          TEXT NOT NULL,
    row_index      INTEGER NOT NULL,
    row_label      TEXT NOT NULL,
    number         INTEGER NOT NULL,
    PRIMARY KEY (ticket_type_id, label)
);

-- Who has each seat: a pending order holds it, a paid one owns it, and a seat sold outside the
-- app (order_id NULL) is simply sold. The primary key is what makes a seat go to one order only:
-- the row is inserted in the same write transaction as the order's capacity hold, deleted when
-- the hold is released and kept when the order is paid.
CREATE TABLE seat_assignments (
    ticket_type_id INTEGER NOT NULL,
    seat           TEXT NOT NULL,
    order_id       INTEGER REFERENCES orders (id),
    PRIMARY KEY (ticket_type_id, seat),
    FOREIGN KEY (ticket_type_id, seat) REFERENCES seats (ticket_type_id, label) ON DELETE CASCADE
);
CREATE INDEX seat_assignments_order ON seat_assignments (order_id);

-- +goose Down
DROP TABLE seat_assignments;
DROP TABLE seats;
