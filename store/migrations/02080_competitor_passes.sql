-- +goose Up
-- Competitor passes (issue 22): each tournament gets a second hidden ticket type (tournament_id
-- set, competitor_pass = 1: never listed, sold nor counted in the spectators' sales), and each
-- joined player of a team holding a place once the roster locks a free ticket of it (a paid order
-- of 0), recorded here once per player: the gate admits it like any ticket.
ALTER TABLE ticket_types ADD COLUMN competitor_pass INTEGER NOT NULL DEFAULT 0;
DROP INDEX ticket_types_tournament;
CREATE UNIQUE INDEX ticket_types_tournament ON ticket_types (tournament_id, competitor_pass) WHERE tournament_id IS NOT NULL;
CREATE TABLE competitor_passes (
    player_id  INTEGER PRIMARY KEY REFERENCES team_players (id),
    team_id    INTEGER NOT NULL REFERENCES teams (id),
    ticket_id  INTEGER NOT NULL UNIQUE REFERENCES tickets (id),
    created_at TEXT NOT NULL
);
CREATE INDEX competitor_passes_team ON competitor_passes (team_id);

-- +goose Down
DROP TABLE competitor_passes;
DROP INDEX ticket_types_tournament;
CREATE UNIQUE INDEX ticket_types_tournament ON ticket_types (tournament_id) WHERE tournament_id IS NOT NULL;
ALTER TABLE ticket_types DROP COLUMN competitor_pass;
