package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"time"

	"palaro"
)

// NewsService implements palaro.NewsService on SQLite.
type NewsService struct {
	db *DB
}

var _ palaro.NewsService = (*NewsService)(nil)

// NewNewsService returns the news service.
func NewNewsService(db *DB) *NewsService { return &NewsService{db: db} }

const articleColumns = `id, slug, title, summary, body, cover_url, event_codes, author, coalesce(organization_id, 0), draft, published_at, updated_at FROM news_articles`

func scanArticle(r rowScanner) (*palaro.Article, error) {
	var a palaro.Article
	var codes string
	var pub, upd sql.NullString
	if err := r.Scan(&a.ID, &a.Slug, &a.Title, &a.Summary, &a.Body, &a.CoverURL, &codes, &a.Author, &a.OrganizationID, &a.Draft, &pub, &upd); err != nil {
		return nil, err
	}
	if err := json.Unmarshal([]byte(codes), &a.EventCodes); err != nil {
		return nil, err
	}
	var err error
	if a.PublishedAt, err = parseTime(pub); err != nil {
		return nil, err
	}
	a.UpdatedAt, err = parseTime(upd)
	return &a, err
}

// ListArticles returns articles published by now, newest first.
func (s *NewsService) ListArticles(ctx context.Context, limit int) (_ []palaro.Article, err error) {
	defer wrapErr(&err, "store: ListArticles(%d)", limit)

	return s.queryArticles(ctx, `SELECT `+articleColumns+` WHERE draft = 0 AND published_at <= ? ORDER BY published_at DESC, id DESC LIMIT ?`,
		formatTime(s.db.Now()), limit)
}

// queryArticles reads the articles a query selects (with articleColumns).
func (s *NewsService) queryArticles(ctx context.Context, query string, args ...any) ([]palaro.Article, error) {
	rows, err := s.db.read.QueryContext(ctx, query, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := []palaro.Article{}
	for rows.Next() {
		a, err := scanArticle(rows)
		if err != nil {
			return nil, err
		}
		out = append(out, *a)
	}
	return out, rows.Err()
}

// FindArticle returns a published article by slug.
func (s *NewsService) FindArticle(ctx context.Context, slug string) (_ *palaro.Article, err error) {
	defer wrapErr(&err, "store: FindArticle(%q)", slug)

	tx, err := s.db.beginRead(ctx)
	if err != nil {
		return nil, err
	}
	defer tx.Rollback()
	a, err := scanArticle(tx.QueryRowContext(ctx, `SELECT `+articleColumns+` WHERE slug = ? AND draft = 0 AND published_at <= ?`, slug, formatTime(s.db.Now())))
	if errors.Is(err, sql.ErrNoRows) {
		return nil, palaro.Errorf(palaro.ENOTFOUND, "Article not found.")
	}
	return a, err
}

// ArticlesBy returns every article of an organization (of all when organizationID is 0), drafts included, newest first.
func (s *NewsService) ArticlesBy(ctx context.Context, organizationID int64) (_ []palaro.Article, err error) {
	defer wrapErr(&err, "store: ArticlesBy(%d)", organizationID)

	return s.queryArticles(ctx, `SELECT `+articleColumns+` WHERE ? = 0 OR organization_id = ?
		ORDER BY draft DESC, published_at DESC, id DESC LIMIT 500`, organizationID, organizationID)
}

// FindAnyArticle returns an article by slug, draft or not.
func (s *NewsService) FindAnyArticle(ctx context.Context, slug string) (_ *palaro.Article, err error) {
	defer wrapErr(&err, "store: FindAnyArticle(%q)", slug)

	a, err := scanArticle(s.db.read.QueryRowContext(ctx, `SELECT `+articleColumns+` WHERE slug = ?`, slug))
	if errors.Is(err, sql.ErrNoRows) {
		return nil, palaro.Errorf(palaro.ENOTFOUND, "Article not found.")
	}
	return a, err
}

// SaveArticle creates or updates an article by slug; a new one is published now unless it says
// when, and a draft published later takes that moment as its publication time.
func (s *NewsService) SaveArticle(ctx context.Context, a palaro.Article) (_ *palaro.Article, err error) {
	defer wrapErr(&err, "store: SaveArticle")

	if err := a.Validate(); err != nil {
		return nil, err
	}
	return write(ctx, s.db, func(ctx context.Context, tx *sql.Tx) (*palaro.Article, error) {
		if err := saveArticle(ctx, tx, a, s.db.Now()); err != nil {
			return nil, err
		}
		out, err := scanArticle(tx.QueryRowContext(ctx, `SELECT `+articleColumns+` WHERE slug = ?`, a.Slug))
		if err != nil {
			return nil, err
		}
		return out, nil
	})
}

// errSlugTaken refuses a save over an article of another owner.
var errSlugTaken = &palaro.Error{Code: palaro.ECONFLICT, Message: "This slug is taken: choose another.",
	Fields: map[string]string{"slug": "This slug is taken: choose another."}}

// saveArticle inserts or updates the article with a's slug; an existing one is updated only when it
// has a's owner (the upsert's WHERE, so two organizations cannot take one slug on either engine),
// and keeps it.
func saveArticle(ctx context.Context, tx *sql.Tx, a palaro.Article, now time.Time) error {
	var org any
	if a.OrganizationID != 0 {
		org = a.OrganizationID
	}
	if a.PublishedAt.IsZero() {
		a.PublishedAt = now
	}
	codes, _ := json.Marshal(append([]string{}, a.EventCodes...))
	res, err := tx.ExecContext(ctx, `INSERT INTO news_articles (slug, title, summary, body, cover_url, event_codes, author, organization_id, draft, published_at, updated_at)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (slug) DO UPDATE SET title = excluded.title, summary = excluded.summary,
		body = excluded.body, cover_url = excluded.cover_url, event_codes = excluded.event_codes, author = excluded.author,
		published_at = CASE WHEN news_articles.draft = 1 AND excluded.draft = 0 THEN ? ELSE news_articles.published_at END,
		draft = excluded.draft, updated_at = excluded.updated_at
		WHERE coalesce(news_articles.organization_id, 0) = coalesce(excluded.organization_id, 0)`, a.Slug, a.Title, a.Summary, a.Body, a.CoverURL, string(codes), a.Author,
		org, a.Draft, formatTime(a.PublishedAt), formatTime(now), formatTime(now))
	if err != nil {
		return err
	}
	if n, err := res.RowsAffected(); err != nil {
		return err
	} else if n == 0 {
		return errSlugTaken
	}
	return nil
}

// PartnerPage returns the partner page named "home" or "promo".
func (s *NewsService) PartnerPage(ctx context.Context, name string) (_ *palaro.PartnerPage, err error) {
	defer wrapErr(&err, "store: PartnerPage(%q)", name)

	var content string
	err = s.db.read.QueryRowContext(ctx, `SELECT content FROM partner_pages WHERE name = ?`, name).Scan(&content)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, palaro.Errorf(palaro.ENOTFOUND, "Page not found.")
	} else if err != nil {
		return nil, err
	}
	var p palaro.PartnerPage
	return &p, json.Unmarshal([]byte(content), &p)
}

// SavePartnerPage replaces a partner page's content.
func (s *NewsService) SavePartnerPage(ctx context.Context, name string, p palaro.PartnerPage) (err error) {
	defer wrapErr(&err, "store: SavePartnerPage(%q)", name)

	return s.db.inWrite(ctx, func(ctx context.Context, tx *sql.Tx) error {
		if err := savePartnerPage(ctx, tx, name, p, s.db.Now()); err != nil {
			return err
		}
		return nil
	})
}

func savePartnerPage(ctx context.Context, tx *sql.Tx, name string, p palaro.PartnerPage, now time.Time) error {
	b, err := json.Marshal(p)
	if err != nil {
		return err
	}
	_, err = tx.ExecContext(ctx, `INSERT INTO partner_pages (name, content, updated_at) VALUES (?, ?, ?)
		ON CONFLICT (name) DO UPDATE SET content = excluded.content, updated_at = excluded.updated_at`, name, string(b), formatTime(now))
	return err
}
