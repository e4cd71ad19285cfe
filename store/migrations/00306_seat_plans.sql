-- +goose Up
-- The stored layout of a seated ticket type (palaro.SeatPlan as JSON: rows, seats per row, aisles,
-- empty rows; blocked seats stay in seat_assignments). Empty for seats generated from capacity
-- (palaro.SeatLayout), which are read as the plan they form (palaro.PlanOfSeats).
ALTER TABLE ticket_types ADD COLUMN seat_plan TEXT NOT NULL DEFAULT '';

-- +goose Down
ALTER TABLE ticket_types DROP COLUMN seat_plan;
