package palaro

import (
	"context"
	"regexp"
	"strings"
	"time"
	"unicode/utf8"
)

// slugRE is the pattern of an article's slug: lower-case letters, digits and hyphens, up to 80.
var slugRE = regexp.MustCompile(`^[a-z0-9][a-z0-9-]{0,79}$`)

// Article is a news article: a Markdown body (rendered and sanitised when shown) and the events it is about.
type Article struct {
	ID          int64     `json:"-"`
	Slug        string    `json:"slug"`
	Title       string    `json:"title"`
	Summary     string    `json:"summary"`
	Body        string    `json:"body"`
	CoverURL    string    `json:"coverUrl"`
	EventCodes  []string  `json:"eventCodes"`
	Author      string    `json:"author"`
	PublishedAt time.Time `json:"publishedAt"`
	UpdatedAt   time.Time `json:"updatedAt"`
}

// Validate checks an article an operator or organizer writes: EINVALID with a message per field.
func (a *Article) Validate() error {
	a.Slug, a.Title, a.Summary = strings.TrimSpace(a.Slug), strings.TrimSpace(a.Title), strings.TrimSpace(a.Summary)
	f := map[string]string{}
	if !slugRE.MatchString(a.Slug) {
		f["slug"] = "Use lower-case letters, digits and hyphens."
	}
	if a.Title == "" || utf8.RuneCountInString(a.Title) > 120 {
		f["title"] = "Title is required (at most 120 characters)."
	}
	if utf8.RuneCountInString(a.Summary) > 300 {
		f["summary"] = "At most 300 characters."
	}
	if utf8.RuneCountInString(a.Body) > 50000 {
		f["body"] = "At most 50,000 characters."
	}
	if len(f) > 0 {
		return &Error{Code: EINVALID, Message: "Please correct the article.", Fields: f}
	}
	return nil
}

// PartnerPage is the content of the partner bank's page (/pnk, or /pnk/promo), managed by the operator.
type PartnerPage struct {
	BankName     string         `json:"bankName"`
	PrimaryColor string         `json:"primaryColor"`
	AccentColor  string         `json:"accentColor"`
	HeroTitle    string         `json:"heroTitle"`
	HeroText     string         `json:"heroText"`
	HeroImage    string         `json:"heroImage"`
	Blocks       []PartnerBlock `json:"blocks"`
}

// PartnerBlock is a promo block of the partner page.
type PartnerBlock struct {
	Title    string `json:"title"`
	Text     string `json:"text"`
	LinkText string `json:"linkText"`
	LinkURL  string `json:"linkUrl"`
}

// NewsService stores news articles and the partner bank's pages.
type NewsService interface {
	// ListArticles returns published articles, newest first, at most limit.
	ListArticles(ctx context.Context, limit int) ([]Article, error)
	// FindArticle returns an article by slug. Returns ENOTFOUND.
	FindArticle(ctx context.Context, slug string) (*Article, error)
	// SaveArticle creates or updates (by slug) an article. Returns EINVALID.
	SaveArticle(ctx context.Context, a Article) (*Article, error)
	// PartnerPage returns the partner page named "home" or "promo". Returns ENOTFOUND.
	PartnerPage(ctx context.Context, name string) (*PartnerPage, error)
	// SavePartnerPage replaces a partner page's content.
	SavePartnerPage(ctx context.Context, name string, p PartnerPage) error
}
