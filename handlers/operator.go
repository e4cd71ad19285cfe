package handlers

import (
	"fmt"
	"net/http"
	"net/url"
	"strings"

	"github.com/labstack/echo/v5"

	"palaro"
	"palaro/views"
)

// operatorHome sends the operator to the news articles, the console's first page. An operator is
// a signed-in account granted with `bin/palaro operators grant EMAIL`.
func (s *Server) operatorHome(c *echo.Context) error {
	return c.Redirect(http.StatusSeeOther, "/operator/news")
}

// operatorOnly lets operators through: a visitor who is not signed in is sent to sign in, any
// other account gets a 404 (the console is not advertised).
func (s *Server) operatorOnly(h echo.HandlerFunc) echo.HandlerFunc {
	return func(c *echo.Context) error {
		c.Response().Header().Set("Cache-Control", "no-store")
		u := currentUser(c)
		if u == nil {
			if c.Request().Method != http.MethodGet {
				return palaro.Errorf(palaro.EUNAUTHORIZED, "Sign in again to continue.")
			}
			return c.Redirect(http.StatusSeeOther, "/sign-in?next="+url.QueryEscape(c.Request().URL.RequestURI()))
		}
		ok, err := s.services.Operators.IsOperator(c.Request().Context(), u.ID)
		if err != nil {
			return err
		}
		if !ok {
			return errPageNotFound
		}
		return h(c)
	}
}

// operatorFrame is the console frame of the operator's pages.
func operatorFrame(c *echo.Context, heading string) views.OrgFrame {
	path := c.Request().URL.Path
	nav := []views.OrgNavItem{
		{Label: "News", Href: "/operator/news", Current: strings.HasPrefix(path, "/operator/news")},
		{Label: "Partner page", Href: "/operator/pnk/home", Current: path == "/operator/pnk/home"},
		{Label: "Promo page", Href: "/operator/pnk/promo", Current: path == "/operator/pnk/promo"},
	}
	return views.OrgFrame{Nav: nav, Heading: heading, Notice: noticeText(c.QueryParam("notice"))}
}

func (s *Server) renderOperatorNews(c *echo.Context, a palaro.Article, err error) error {
	list, lerr := s.services.News.ArticlesBy(c.Request().Context(), 0)
	if lerr != nil {
		return lerr
	}
	heading := "News"
	if a.ID != 0 {
		heading = "Edit: " + a.Title
	}
	v := views.OrgNewsView{Frame: operatorFrame(c, heading), Form: articleForm(a, err, "/operator/news", true),
		Articles: articleRows(list, "/operator/news/")}
	status := http.StatusOK
	if err != nil {
		status = statusOfForm(err)
	}
	p := s.orgPage(c, "News")
	p.Title = "News · Palaro operator"
	return render(c, status, views.OrgNewsPage(p, v))
}

func (s *Server) operatorNewsPage(c *echo.Context) error {
	return s.renderOperatorNews(c, palaro.Article{Author: "Palaro"}, nil)
}

// operatorEditArticle opens any article, draft or not, in the form.
func (s *Server) operatorEditArticle(c *echo.Context) error {
	a, err := s.services.News.FindAnyArticle(c.Request().Context(), c.Param("slug"))
	if err != nil {
		return err
	}
	return s.renderOperatorNews(c, *a, nil)
}

// operatorSaveArticle saves any article, which keeps its owner (an organization's stays theirs); the
// operator may link any event.
func (s *Server) operatorSaveArticle(c *echo.Context) error {
	ctx := c.Request().Context()
	a := articleFromForm(c, strings.TrimSpace(c.FormValue("author")))
	if old, err := s.services.News.FindAnyArticle(ctx, a.Slug); err == nil {
		a.ID, a.OrganizationID = old.ID, old.OrganizationID
	}
	if a.Author == "" {
		return s.renderOperatorNews(c, a, fieldFailure("author", "Author is required."))
	}
	saved, err := s.saveArticle(ctx, a, func(*palaro.Event) bool { return true })
	if _, ok := userFacing(err); ok {
		return s.renderOperatorNews(c, a, err)
	} else if err != nil {
		return err
	}
	if saved.Draft {
		return c.Redirect(http.StatusSeeOther, "/operator/news/"+url.PathEscape(saved.Slug)+"?notice=saved")
	}
	return c.Redirect(http.StatusSeeOther, "/news/"+saved.Slug)
}

// partnerPageOf is the partner page named by the route ("home" or "promo"), or "" for another name.
func partnerPageOf(c *echo.Context) string {
	if n := c.Param("name"); n == "home" || n == "promo" {
		return n
	}
	return ""
}

// partnerForm is the operator's form of a partner page: its fields and MaxPartnerBlocks blocks.
func partnerForm(name string, p palaro.PartnerPage, err error) views.Form {
	field := func(fname, label, typ, value string, max int, required bool) views.FormField {
		return views.FormField{Name: fname, Label: label, Type: typ, Value: value, MaxLength: max, Required: required, Error: fieldError(err, fname)}
	}
	f := views.Form{ID: "partner", Action: "/operator/pnk/" + name, Submit: "Save", Error: formError(err), Fields: []views.FormField{
		field("bankName", "Bank name", "text", p.BankName, 80, true),
		withHint(field("primaryColor", "Main colour", "text", p.PrimaryColor, 7, true), "Like #0b5d3b."),
		withHint(field("accentColor", "Accent colour", "text", p.AccentColor, 7, true), "Like #f5b700."),
		field("heroTitle", "Hero title", "text", p.HeroTitle, 120, true),
		field("heroText", "Hero text", "textarea", p.HeroText, 300, false),
		withHint(field("heroImage", "Hero image URL", "text", p.HeroImage, 500, false), "An https:// address or a path of this site."),
	}}
	for i := range palaro.MaxPartnerBlocks {
		var b palaro.PartnerBlock
		if i < len(p.Blocks) {
			b = p.Blocks[i]
		}
		n, l := fmt.Sprintf("block%d", i), fmt.Sprintf("Block %d: ", i+1)
		f.Fields = append(f.Fields,
			field(n+"Title", l+"title", "text", b.Title, 120, false),
			field(n+"Text", l+"text (Markdown)", "textarea", b.Text, 2000, false),
			field(n+"LinkText", l+"link text", "text", b.LinkText, 60, false),
			withHint(field(n+"LinkURL", l+"link", "text", b.LinkURL, 500, false), "A path of this site (/quiz/…) or an https:// address."))
	}
	return f
}

func (s *Server) renderPartnerForm(c *echo.Context, name string, p palaro.PartnerPage, err error) error {
	heading, view := "Partner page (/pnk)", "/pnk"
	if name == "promo" {
		heading, view = "Promo page (/pnk/promo)", "/pnk/promo"
	}
	status := http.StatusOK
	if err != nil {
		status = statusOfForm(err)
	}
	page := s.orgPage(c, heading)
	return render(c, status, views.PartnerFormPage(page, views.PartnerFormView{Frame: operatorFrame(c, heading), Form: partnerForm(name, p, err), ViewHref: view}))
}

func (s *Server) operatorPartnerPage(c *echo.Context) error {
	name := partnerPageOf(c)
	if name == "" {
		return errPageNotFound
	}
	p, err := s.services.News.PartnerPage(c.Request().Context(), name)
	if palaro.ErrorCode(err) == palaro.ENOTFOUND {
		p, err = &palaro.PartnerPage{}, nil
	}
	if err != nil {
		return err
	}
	return s.renderPartnerForm(c, name, *p, nil)
}

// operatorSavePartner saves a partner page (a block with every field empty is dropped) and drops
// the cached public pages, so /pnk shows it at once.
func (s *Server) operatorSavePartner(c *echo.Context) error {
	name := partnerPageOf(c)
	if name == "" {
		return errPageNotFound
	}
	v := func(k string) string { return strings.TrimSpace(c.FormValue(k)) }
	p := palaro.PartnerPage{BankName: v("bankName"), PrimaryColor: v("primaryColor"), AccentColor: v("accentColor"),
		HeroTitle: v("heroTitle"), HeroText: v("heroText"), HeroImage: v("heroImage")}
	for i := range palaro.MaxPartnerBlocks {
		n := fmt.Sprintf("block%d", i)
		b := palaro.PartnerBlock{Title: v(n + "Title"), Text: v(n + "Text"), LinkText: v(n + "LinkText"), LinkURL: v(n + "LinkURL")}
		if b != (palaro.PartnerBlock{}) {
			p.Blocks = append(p.Blocks, b)
		}
	}
	if err := p.Validate(); err != nil {
		return s.renderPartnerForm(c, name, p, err)
	}
	if err := s.services.News.SavePartnerPage(c.Request().Context(), name, p); err != nil {
		return err
	}
	s.pages.Invalidate()
	return c.Redirect(http.StatusSeeOther, "/operator/pnk/"+name+"?notice=saved")
}
