-- +goose Up
-- Articles can be kept as drafts (not shown on /news until published), and Palaro's operators are
-- accounts granted with `bin/palaro operators grant EMAIL`: they edit every article and the
-- partner bank's pages in the web console (/operator).
ALTER TABLE news_articles ADD COLUMN draft BIGINT NOT NULL DEFAULT 0;

CREATE TABLE operators (
    user_id    BIGINT PRIMARY KEY REFERENCES users (id) ON DELETE CASCADE,
    granted_at TEXT NOT NULL
);

-- +goose Down
DROP TABLE operators;
ALTER TABLE news_articles DROP COLUMN draft;
