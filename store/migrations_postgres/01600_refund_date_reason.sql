-- +goose Up
-- A refund can be for a cancelled date of a series (reason 'date_cancelled'). SQLite makes the
-- same change with the Go migration 01600 (store/migrate_refunded.go).
ALTER TABLE refunds DROP CONSTRAINT refunds_reason_check;
ALTER TABLE refunds ADD CONSTRAINT refunds_reason_check
    CHECK (reason IN ('organizer', 'event_cancelled', 'buyer_cancelled', 'returned', 'date_cancelled'));

-- +goose Down
-- As SQLite's Go migration does: a date's refunds become the organizer's, so the old CHECK holds.
UPDATE refunds SET reason = 'organizer' WHERE reason = 'date_cancelled';
ALTER TABLE refunds DROP CONSTRAINT refunds_reason_check;
ALTER TABLE refunds ADD CONSTRAINT refunds_reason_check
    CHECK (reason IN ('organizer', 'event_cancelled', 'buyer_cancelled', 'returned'));
