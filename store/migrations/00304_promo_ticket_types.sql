-- +goose Up
-- The ticket types a promo code applies to; a code without rows here applies to every ticket type.
CREATE TABLE promo_code_ticket_types (
    promo_code_id  INTEGER NOT NULL REFERENCES promo_codes (id) ON DELETE CASCADE,
    ticket_type_id INTEGER NOT NULL REFERENCES ticket_types (id) ON DELETE CASCADE,
    PRIMARY KEY (promo_code_id, ticket_type_id)
);

-- +goose Down
DROP TABLE promo_code_ticket_types;
