-- +goose Up
-- The sites that may frame an event's ticket widget (/embed/e/{code}): https origins separated by
-- spaces, as the widget's Content-Security-Policy frame-ancestors lists them. '': no site may.
ALTER TABLE events ADD COLUMN widget_origins TEXT NOT NULL DEFAULT '';

-- +goose Down
ALTER TABLE events DROP COLUMN widget_origins;
