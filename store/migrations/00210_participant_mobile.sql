-- +goose Up
-- One participant per mobile number: a second registration with the same number finds the first
-- (and its QR code). Earlier duplicates keep the first registration.
DELETE FROM participants WHERE id NOT IN (SELECT MIN(id) FROM participants GROUP BY mobile_number);
CREATE UNIQUE INDEX participants_mobile_number ON participants (mobile_number);

-- +goose Down
DROP INDEX participants_mobile_number;
