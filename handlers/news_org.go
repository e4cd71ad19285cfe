package handlers

import (
	"net/http"
	"strings"

	"github.com/labstack/echo/v5"

	"palaro"
	"palaro/views"
)

// newsOrgRoutes let organizers write news about their events in the console.
var newsOrgRoutes = []orgRoute{
	{http.MethodGet, "/organizer/news", palaro.ActionManageEvents, (*Server).orgNewsPage, false},
	{http.MethodPost, "/organizer/news", palaro.ActionManageEvents, (*Server).orgSaveArticle, false},
}

// newsAuthor is the organization an organizer writes news as: the first approved one where they manage events.
func newsAuthor(caller *palaro.Caller) string {
	for _, m := range caller.Approved() {
		if palaro.RoleAllows(m.Role, palaro.ActionManageEvents) {
			return m.OrganizationName
		}
	}
	return ""
}

func articleForm(a palaro.Article, err error) views.Form {
	field := func(name, label, typ, value string, max int, required bool) views.FormField {
		return views.FormField{Name: name, Label: label, Type: typ, Value: value, MaxLength: max, Required: required, Error: fieldError(err, name)}
	}
	return views.Form{ID: "article", Action: "/organizer/news", Submit: "Publish", Error: formError(err), Fields: []views.FormField{
		field("slug", "Slug (the address: /news/…)", "text", a.Slug, 80, true),
		field("title", "Title", "text", a.Title, 120, true),
		field("summary", "Summary", "text", a.Summary, 300, false),
		field("body", "Body (Markdown)", "textarea", a.Body, 50000, false),
		field("coverUrl", "Cover image URL", "text", a.CoverURL, 500, false),
		field("eventCodes", "Your events it is about (codes, comma-separated)", "text", strings.Join(a.EventCodes, ", "), 500, false),
	}}
}

func (s *Server) renderOrgNews(c *echo.Context, caller *palaro.Caller, a palaro.Article, err error) error {
	if s.services.News == nil {
		return echo.ErrNotFound
	}
	list, lerr := s.services.News.ListArticles(c.Request().Context(), newsListSize)
	if lerr != nil {
		return lerr
	}
	v := views.OrgNewsView{Frame: orgFrame(c, caller, "News"), Form: articleForm(a, err)}
	for _, it := range list {
		if it.Author != newsAuthor(caller) {
			continue // only the organization's own articles
		}
		v.Articles = append(v.Articles, views.Link{Label: it.Title + " · " + it.Author, Href: "/news/" + it.Slug})
	}
	status := http.StatusOK
	if err != nil {
		status = statusOfForm(err)
	}
	return render(c, status, views.OrgNewsPage(s.orgPage(c, "News"), v))
}

func (s *Server) orgNewsPage(c *echo.Context, caller *palaro.Caller) error {
	return s.renderOrgNews(c, caller, palaro.Article{}, nil)
}

// orgSaveArticle publishes an organizer's article: its linked events must be theirs, and a slug
// already used by another author is refused.
func (s *Server) orgSaveArticle(c *echo.Context, caller *palaro.Caller) error {
	ctx := c.Request().Context()
	if s.services.News == nil {
		return echo.ErrNotFound
	}
	a := palaro.Article{Slug: strings.TrimSpace(c.FormValue("slug")), Title: c.FormValue("title"), Summary: c.FormValue("summary"),
		Body: c.FormValue("body"), CoverURL: strings.TrimSpace(c.FormValue("coverUrl")), Author: newsAuthor(caller)}
	for _, code := range strings.Split(c.FormValue("eventCodes"), ",") {
		if code = strings.TrimSpace(code); code != "" {
			a.EventCodes = append(a.EventCodes, code)
		}
	}
	fail := func(field, msg string) error {
		return s.renderOrgNews(c, caller, a, &palaro.Error{Code: palaro.EINVALID, Message: msg, Fields: map[string]string{field: msg}})
	}
	for _, code := range a.EventCodes {
		ev, err := s.services.Organizers.FindEvent(ctx, code)
		if err != nil || caller.CheckEventAccess(ev.Organizer.ID, palaro.ActionManageEvents) != nil {
			return fail("eventCodes", "Link only your own events: "+code+" is not one of them.")
		}
	}
	if !strings.HasPrefix(a.CoverURL, "https://") && !strings.HasPrefix(a.CoverURL, "/") && a.CoverURL != "" {
		return fail("coverUrl", "Use an https:// address.")
	}
	if old, err := s.services.News.FindArticle(ctx, a.Slug); err == nil && old.Author != a.Author {
		return fail("slug", "This slug is taken: choose another.")
	}
	saved, err := s.services.News.SaveArticle(ctx, a)
	if _, ok := userFacing(err); ok {
		return s.renderOrgNews(c, caller, a, err)
	} else if err != nil {
		return err
	}
	return c.Redirect(http.StatusSeeOther, "/news/"+saved.Slug)
}
