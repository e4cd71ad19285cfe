-- +goose Up
-- Team events (issue 22): a webhook delivery about a team's player (team.player_joined,
-- team.player_removed) keeps the player's e-mail in note, since a removed player's row is gone;
-- standbys_refunded_at is set once, when the tournament starts, by the job that refunds the fees
-- of waiting teams that checked in as standbys and never got a place.
ALTER TABLE webhook_deliveries ADD COLUMN note TEXT NOT NULL DEFAULT '';
ALTER TABLE tournaments ADD COLUMN standbys_refunded_at TEXT;

-- +goose Down
ALTER TABLE tournaments DROP COLUMN standbys_refunded_at;
ALTER TABLE webhook_deliveries DROP COLUMN note;
