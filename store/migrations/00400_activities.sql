-- +goose Up
-- Activities of events (booths, scratch cards, quizzes), their prizes with stock, and the visits
-- of participants: one per participant and activity, holding the points and the stored scratch card.
CREATE TABLE activities (
    id                  INTEGER PRIMARY KEY,
    event_id            INTEGER NOT NULL REFERENCES events (id) ON DELETE CASCADE,
    code                TEXT NOT NULL,
    kind                TEXT NOT NULL CHECK (kind IN ('booth', 'scratch', 'quiz')),
    name                TEXT NOT NULL,
    description         TEXT NOT NULL DEFAULT '',
    points              INTEGER NOT NULL DEFAULT 0 CHECK (points >= 0),
    starts_at           TEXT NOT NULL,
    ends_at             TEXT NOT NULL,
    ticket_holders_only INTEGER NOT NULL DEFAULT 0,
    win_percent         INTEGER NOT NULL DEFAULT 100 CHECK (win_percent BETWEEN 0 AND 100),
    quiz                TEXT NOT NULL DEFAULT '',
    created_at          TEXT NOT NULL,
    UNIQUE (event_id, code),
    CHECK (ends_at > starts_at)
);

CREATE TABLE prizes (
    id          INTEGER PRIMARY KEY,
    activity_id INTEGER NOT NULL REFERENCES activities (id) ON DELETE CASCADE,
    position    INTEGER NOT NULL DEFAULT 0,
    code        TEXT NOT NULL,
    name        TEXT NOT NULL,
    image_url   TEXT NOT NULL DEFAULT '',
    stock       INTEGER NOT NULL CHECK (stock >= 0),
    awarded     INTEGER NOT NULL DEFAULT 0 CHECK (awarded >= 0),
    claimable   INTEGER NOT NULL DEFAULT 1,
    UNIQUE (activity_id, code),
    CHECK (awarded <= stock)
);

CREATE TABLE activity_visits (
    id             INTEGER PRIMARY KEY,
    activity_id    INTEGER NOT NULL REFERENCES activities (id) ON DELETE CASCADE,
    participant_id INTEGER NOT NULL REFERENCES participants (id) ON DELETE CASCADE,
    points         INTEGER NOT NULL DEFAULT 0,
    remarks        TEXT NOT NULL DEFAULT '',
    prize_id       INTEGER REFERENCES prizes (id),
    scratch        TEXT NOT NULL DEFAULT '',
    claimed_at     TEXT,
    claimed_by     TEXT NOT NULL DEFAULT '',
    created_at     TEXT NOT NULL,
    UNIQUE (activity_id, participant_id)
);
CREATE INDEX activity_visits_participant ON activity_visits (participant_id, created_at);

-- +goose Down
DROP TABLE activity_visits;
DROP TABLE prizes;
DROP TABLE activities;
