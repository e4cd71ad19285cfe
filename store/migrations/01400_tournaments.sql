-- +goose Up
-- Tournaments of an event (issue 22): teams of competitors register for one, up to max_teams;
-- later registrations wait in order of entry. check-in runs from checkin_opens minutes to
-- checkin_closes minutes before starts_at, by the captain or by every player (checkin_by);
-- checkin_done_at is set by the job that drops the teams that missed it, once.
-- entries is the last entry number given: a registration takes the next one with a guarded
-- UPDATE of this row, which also orders concurrent registrations (the waiting-list guarantee).
CREATE TABLE tournaments (
    id                      INTEGER PRIMARY KEY,
    event_id                INTEGER NOT NULL REFERENCES events (id) ON DELETE CASCADE,
    code                    TEXT NOT NULL UNIQUE,
    name                    TEXT NOT NULL,
    game                    TEXT NOT NULL,
    format                  TEXT NOT NULL DEFAULT '',
    min_players             INTEGER NOT NULL CHECK (min_players >= 1),
    max_players             INTEGER NOT NULL CHECK (max_players >= min_players),
    substitutes             INTEGER NOT NULL DEFAULT 0 CHECK (substitutes >= 0),
    max_teams               INTEGER NOT NULL CHECK (max_teams >= 2),
    entry_fee               INTEGER NOT NULL DEFAULT 0 CHECK (entry_fee >= 0),
    rules                   TEXT NOT NULL DEFAULT '',
    registration_opens_at   TEXT NOT NULL,
    registration_closes_at  TEXT NOT NULL,
    roster_locks_at         TEXT NOT NULL,
    starts_at               TEXT NOT NULL,
    checkin_opens           INTEGER NOT NULL DEFAULT 60 CHECK (checkin_opens > 0),
    checkin_closes          INTEGER NOT NULL DEFAULT 15 CHECK (checkin_closes >= 0),
    checkin_by              TEXT NOT NULL DEFAULT 'captain' CHECK (checkin_by IN ('captain', 'players')),
    bracket_url             TEXT NOT NULL DEFAULT '',
    stream_url              TEXT NOT NULL DEFAULT '',
    entries                 INTEGER NOT NULL DEFAULT 0,
    checkin_done_at         TEXT,
    created_at              TEXT NOT NULL,
    updated_at              TEXT NOT NULL
);
CREATE INDEX tournaments_event ON tournaments (event_id);
CREATE INDEX tournaments_checkin ON tournaments (starts_at) WHERE checkin_done_at IS NULL;

-- A team: its captain (a signed-in account) registered it as entry number entry; status is
-- 'registered' (has a place), 'waitlisted' (waits in entry order), 'dropped' (missed check-in),
-- 'refused' or 'disqualified' (by the organizer). public_id addresses the captain's page.
CREATE TABLE teams (
    id              INTEGER PRIMARY KEY,
    tournament_id   INTEGER NOT NULL REFERENCES tournaments (id) ON DELETE CASCADE,
    public_id       TEXT NOT NULL UNIQUE,
    name            TEXT NOT NULL,
    tag             TEXT NOT NULL,
    captain_id      INTEGER NOT NULL REFERENCES users (id),
    entry           INTEGER NOT NULL,
    status          TEXT NOT NULL CHECK (status IN ('registered', 'waitlisted', 'dropped', 'refused', 'disqualified')),
    seed            INTEGER,
    logo_type       TEXT CHECK (logo_type IN ('image/jpeg', 'image/png')),
    logo            BLOB,
    checked_in_at   TEXT,
    created_at      TEXT NOT NULL,
    updated_at      TEXT NOT NULL,
    UNIQUE (tournament_id, entry)
);
CREATE UNIQUE INDEX teams_name ON teams (tournament_id, lower(name));
CREATE UNIQUE INDEX teams_tag ON teams (tournament_id, lower(tag));
CREATE INDEX teams_captain ON teams (captain_id);

-- A player invited to a team by e-mail: token_hash is the hash of the invite link's token (the
-- link is the player's own page); joined_at is set when the player gives their game account and
-- accepts the rules; checked_in_at when they check in (tournaments checked in by every player).
CREATE TABLE team_players (
    id              INTEGER PRIMARY KEY,
    team_id         INTEGER NOT NULL REFERENCES teams (id) ON DELETE CASCADE,
    email           TEXT NOT NULL,
    token_hash      TEXT NOT NULL UNIQUE,
    in_game_name    TEXT NOT NULL DEFAULT '',
    game_account    TEXT NOT NULL DEFAULT '',
    discord         TEXT NOT NULL DEFAULT '',
    invited_at      TEXT NOT NULL,
    joined_at       TEXT,
    checked_in_at   TEXT
);
CREATE UNIQUE INDEX team_players_email ON team_players (team_id, lower(email));

-- +goose Down
DROP TABLE team_players;
DROP TABLE teams;
DROP TABLE tournaments;
