-- +goose Up
-- News articles (Markdown bodies, rendered and sanitised when shown) and the partner bank's page.
CREATE TABLE news_articles (
    id           INTEGER PRIMARY KEY,
    slug         TEXT NOT NULL UNIQUE,
    title        TEXT NOT NULL,
    summary      TEXT NOT NULL DEFAULT '',
    body         TEXT NOT NULL DEFAULT '',
    cover_url    TEXT NOT NULL DEFAULT '',
    event_codes  TEXT NOT NULL DEFAULT '[]',
    author       TEXT NOT NULL DEFAULT '',
    published_at TEXT NOT NULL,
    updated_at   TEXT NOT NULL
);
CREATE INDEX news_articles_published ON news_articles (published_at);

-- One row per page of the partner bank (home and promo): its content as JSON.
CREATE TABLE partner_pages (
    name       TEXT PRIMARY KEY CHECK (name IN ('home', 'promo')),
    content    TEXT NOT NULL,
    updated_at TEXT NOT NULL
);

-- +goose Down
DROP TABLE partner_pages;
DROP TABLE news_articles;
