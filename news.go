package palaro

import (
	"context"
	"fmt"
	"regexp"
	"strings"
	"time"
	"unicode/utf8"
)

// slugRE is the pattern of an article's slug: lower-case letters, digits and hyphens, up to 80.
var slugRE = regexp.MustCompile(`^[a-z0-9][a-z0-9-]{0,79}$`)

// Article is a news article: a Markdown body (rendered and sanitised when shown) and the events it is about.
type Article struct {
	ID         int64    `json:"-"`
	Slug       string   `json:"slug"`
	Title      string   `json:"title"`
	Summary    string   `json:"summary"`
	Body       string   `json:"body"`
	CoverURL   string   `json:"coverUrl"`
	EventCodes []string `json:"eventCodes"`
	Author     string   `json:"author"`
	// OrganizationID is the organization that owns the article (it alone edits it); 0 is the operator's.
	OrganizationID int64 `json:"-"`
	// Draft keeps the article off /news until it is published (its publication time is then).
	Draft       bool      `json:"draft"`
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
	// ArticlesBy returns every article, drafts included, newest first: of one organization, or all
	// (the operator's and every organization's) when organizationID is 0.
	ArticlesBy(ctx context.Context, organizationID int64) ([]Article, error)
	// FindAnyArticle returns an article by slug, draft or not, for editing. Returns ENOTFOUND.
	FindAnyArticle(ctx context.Context, slug string) (*Article, error)
	// SaveArticle creates or updates (by slug) an article; it replaces only an article of the same
	// owner (a.OrganizationID), and keeps that owner. Returns EINVALID, ECONFLICT (slug of another owner).
	SaveArticle(ctx context.Context, a Article) (*Article, error)
	// PartnerPage returns the partner page named "home" or "promo". Returns ENOTFOUND.
	PartnerPage(ctx context.Context, name string) (*PartnerPage, error)
	// SavePartnerPage replaces a partner page's content.
	SavePartnerPage(ctx context.Context, name string, p PartnerPage) error
}

// Operators are the accounts that run Palaro: in the web console they edit every news article
// and the partner bank's pages. Only the command line grants the role.
type Operators interface {
	// IsOperator reports whether the account is an operator.
	IsOperator(ctx context.Context, userID int64) (bool, error)
	// SetOperator grants or revokes the role of the account with the e-mail address. Returns ENOTFOUND.
	SetOperator(ctx context.Context, email string, operator bool) error
	// ListOperators returns the operators' e-mail addresses.
	ListOperators(ctx context.Context) ([]string, error)
}

// hexColorRE is a CSS colour the operator may set: #rgb or #rrggbb.
var hexColorRE = regexp.MustCompile(`^#([0-9a-fA-F]{3}|[0-9a-fA-F]{6})$`)

// SafeColor reports whether s is a colour the partner page may use in its stylesheet.
func SafeColor(s string) bool { return hexColorRE.MatchString(s) }

// safeLink reports whether a link the operator sets is a path of this site or an https address.
func safeLink(s string) bool {
	return s == "" || (strings.HasPrefix(s, "/") && !strings.HasPrefix(s, "//")) || strings.HasPrefix(s, "https://")
}

// MaxPartnerBlocks is how many promo blocks a partner page has at most.
const MaxPartnerBlocks = 6

// Validate checks a partner page the operator writes: EINVALID with a message per field (blocks
// are named block0Title, block0LinkURL, …).
func (p *PartnerPage) Validate() error {
	f := map[string]string{}
	text := func(name, v string, max int, required bool) {
		if n := utf8.RuneCountInString(strings.TrimSpace(v)); required && n == 0 {
			f[name] = "Required."
		} else if n > max {
			f[name] = fmt.Sprintf("At most %d characters.", max)
		}
	}
	text("bankName", p.BankName, 80, true)
	text("heroTitle", p.HeroTitle, 120, true)
	text("heroText", p.HeroText, 300, false)
	for _, c := range [][2]string{{"primaryColor", p.PrimaryColor}, {"accentColor", p.AccentColor}} {
		if !SafeColor(c[1]) {
			f[c[0]] = "Use a colour like #0b3d91."
		}
	}
	if !safeLink(p.HeroImage) {
		f["heroImage"] = "Use an https:// address or a path of this site."
	}
	if len(p.Blocks) > MaxPartnerBlocks {
		f["blocks"] = fmt.Sprintf("At most %d blocks.", MaxPartnerBlocks)
	}
	for i, b := range p.Blocks {
		n := fmt.Sprintf("block%d", i)
		text(n+"Title", b.Title, 120, true)
		text(n+"Text", b.Text, 2000, false)
		text(n+"LinkText", b.LinkText, 60, b.LinkURL != "")
		if !safeLink(b.LinkURL) {
			f[n+"LinkURL"] = "Use an https:// address or a path of this site."
		}
	}
	if len(f) > 0 {
		return &Error{Code: EINVALID, Message: "Please correct the page.", Fields: f}
	}
	return nil
}
