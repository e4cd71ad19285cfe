-- +goose Up
-- The refunds of a cancelled date of a series (reason 'date_cancelled') name it (date_id), so
-- the buyer's e-mail and the console say which date was cancelled. pass_date_refunds records,
-- once per (pass ticket, cancelled date), what the refund job decided for a season pass: the
-- refund of its share for that date (refund_id and amount), or nothing (refund_id NULL: a pass
-- for some dates that can still be used in full, or nothing left to give back). The key makes
-- the decision once, whichever server's job and however often it runs; the ticket stays valid.
ALTER TABLE refunds ADD COLUMN date_id BIGINT REFERENCES event_dates (id);
CREATE TABLE pass_date_refunds (
    ticket_id  BIGINT NOT NULL REFERENCES tickets (id),
    date_id    BIGINT NOT NULL REFERENCES event_dates (id),
    refund_id  BIGINT REFERENCES refunds (id),
    amount     BIGINT NOT NULL DEFAULT 0 CHECK (amount >= 0),
    created_at TEXT NOT NULL,
    PRIMARY KEY (ticket_id, date_id)
);
CREATE INDEX pass_date_refunds_refund ON pass_date_refunds (refund_id) WHERE refund_id IS NOT NULL;
CREATE INDEX refunds_date ON refunds (date_id) WHERE date_id IS NOT NULL;

-- +goose Down
DROP INDEX refunds_date;
DROP TABLE pass_date_refunds;
ALTER TABLE refunds DROP COLUMN date_id;
