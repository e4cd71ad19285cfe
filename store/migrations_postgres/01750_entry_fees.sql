-- +goose Up
-- Entry fees (issue 22): a tournament with a fee has its own ticket type (tournament_id set: never
-- listed nor sold as a ticket) whose orders are the fee orders, paid through the same checkout as
-- tickets. A captain's registration with a fee is a team_orders row until its order is paid: the
-- payment takes the team's entry number (a place, or the waiting list) and sets team_id; the team
-- keeps its order (teams.order_id) so that a team refused, dropped or never placed is refunded.
ALTER TABLE ticket_types ADD COLUMN tournament_id BIGINT REFERENCES tournaments (id);
ALTER TABLE teams ADD COLUMN order_id BIGINT REFERENCES orders (id);
CREATE TABLE team_orders (
    order_id      BIGINT PRIMARY KEY REFERENCES orders (id),
    tournament_id BIGINT NOT NULL REFERENCES tournaments (id) ON DELETE CASCADE,
    public_id     TEXT NOT NULL UNIQUE,
    name          TEXT NOT NULL,
    tag           TEXT NOT NULL,
    captain_id    BIGINT NOT NULL REFERENCES users (id),
    logo_type     TEXT CHECK (logo_type IN ('image/jpeg', 'image/png')),
    logo          BYTEA,
    team_id       BIGINT REFERENCES teams (id),
    created_at    TEXT NOT NULL
);
CREATE UNIQUE INDEX ticket_types_tournament ON ticket_types (tournament_id) WHERE tournament_id IS NOT NULL;

-- +goose Down
DROP INDEX ticket_types_tournament;
DROP TABLE team_orders;
ALTER TABLE teams DROP COLUMN order_id;
ALTER TABLE ticket_types DROP COLUMN tournament_id;
