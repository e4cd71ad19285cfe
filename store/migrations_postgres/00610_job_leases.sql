-- +goose Up
-- Leases of the periodic background jobs (payment reconciliation and hold release): with several
-- app servers on one database, the server that holds a job's lease runs it; when it dies, the
-- lease runs out and another server takes the job over.
CREATE TABLE job_leases (
    name       TEXT PRIMARY KEY,
    holder     TEXT NOT NULL,
    expires_at TEXT NOT NULL
);

-- +goose Down
DROP TABLE job_leases;
