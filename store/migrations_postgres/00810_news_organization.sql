-- +goose Up
-- An article belongs to the organization that wrote it, by id (NULL: the operator's). It used to
-- be matched by the author's name, so an organization registered under another's name (or the
-- operator's "Palaro team") could edit its articles. An existing article goes to the organization
-- of exactly that name when there is only one, approved no later than the article was published
-- (an organization writes news only once approved); any other stays the operator's.
ALTER TABLE news_articles ADD COLUMN organization_id BIGINT REFERENCES organizers (id);
UPDATE news_articles SET organization_id = (SELECT o.id FROM organizers o WHERE o.name = news_articles.author)
WHERE (SELECT count(*) FROM organizers o WHERE o.name = news_articles.author) = 1
  AND EXISTS (SELECT 1 FROM organizers o WHERE o.name = news_articles.author AND o.status = 'approved'
      AND coalesce(o.approved_at, o.created_at) <= news_articles.published_at);
CREATE INDEX news_articles_organization ON news_articles (organization_id);

-- +goose Down
DROP INDEX news_articles_organization;
ALTER TABLE news_articles DROP COLUMN organization_id;
