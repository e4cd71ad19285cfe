package handlers

import (
	"context"
	"net/http"
	"net/url"
	"strings"

	"github.com/labstack/echo/v5"

	"palaro"
	"palaro/views"
)

// newsAuthor is the organization an organizer writes news as: the first approved one where they
// manage events (false when there is none).
func newsAuthor(caller *palaro.Caller) (palaro.Membership, bool) {
	for _, m := range caller.Approved() {
		if palaro.RoleAllows(m.Role, palaro.ActionManageEvents) {
			return m, true
		}
	}
	return palaro.Membership{}, false
}

// articleForm is the form that writes or edits an article, posted to action; the operator also sets the author.
func articleForm(a palaro.Article, err error, action string, operator bool) views.Form {
	field := func(name, label, typ, value string, max int, required bool) views.FormField {
		return views.FormField{Name: name, Label: label, Type: typ, Value: value, MaxLength: max, Required: required, Error: fieldError(err, name)}
	}
	events := "Codes of your events it is about, comma-separated."
	if operator {
		events = "Codes of the events it is about, comma-separated."
	}
	f := views.Form{ID: "article", Action: action, Submit: "Save", Error: formError(err), Fields: []views.FormField{
		field("slug", "Slug (the address: /news/…)", "text", a.Slug, 80, true),
		field("title", "Title", "text", a.Title, 120, true),
		field("summary", "Summary", "text", a.Summary, 300, false),
		field("body", "Body (Markdown)", "textarea", a.Body, 50000, false),
		withHint(field("coverUrl", "Cover image URL", "text", a.CoverURL, 500, false), "An https:// address or a path of this site."),
		withHint(field("eventCodes", "Linked events", "text", strings.Join(a.EventCodes, ", "), 500, false), events),
	}, Checkboxes: []views.FormCheckbox{{Name: "draft", Label: "Draft: keep it off /news for now", Checked: a.Draft}}}
	if operator {
		f.Fields = append(f.Fields, field("author", "Author (shown on the article)", "text", a.Author, 80, true))
	}
	return f
}

// articleFromForm reads the article form; author is the organization, or the operator's field.
func articleFromForm(c *echo.Context, author string) palaro.Article {
	a := palaro.Article{Slug: strings.TrimSpace(c.FormValue("slug")), Title: c.FormValue("title"), Summary: c.FormValue("summary"),
		Body: c.FormValue("body"), CoverURL: strings.TrimSpace(c.FormValue("coverUrl")), Author: author, Draft: c.FormValue("draft") != ""}
	for _, code := range strings.Split(c.FormValue("eventCodes"), ",") {
		if code = strings.TrimSpace(code); code != "" {
			a.EventCodes = append(a.EventCodes, code)
		}
	}
	return a
}

// fieldFailure is a validation error of one field.
func fieldFailure(field, msg string) error {
	return &palaro.Error{Code: palaro.EINVALID, Message: msg, Fields: map[string]string{field: msg}}
}

// saveArticle checks an article's links (linkable says whether an event may be linked) and
// cover, saves it and drops the cached public pages, so /news shows it at once.
func (s *Server) saveArticle(ctx context.Context, a palaro.Article, linkable func(*palaro.Event) bool) (*palaro.Article, error) {
	for _, code := range a.EventCodes {
		ev, err := s.services.Organizers.FindEvent(ctx, code)
		if err != nil || !linkable(ev) {
			return nil, fieldFailure("eventCodes", "Link only your own events: "+code+" is not one of them.")
		}
	}
	if a.CoverURL != "" && !strings.HasPrefix(a.CoverURL, "https://") && (!strings.HasPrefix(a.CoverURL, "/") || strings.HasPrefix(a.CoverURL, "//")) {
		return nil, fieldFailure("coverUrl", "Use an https:// address or a path of this site.")
	}
	saved, err := s.services.News.SaveArticle(ctx, a)
	if err == nil {
		s.pages.Invalidate()
	}
	return saved, err
}

// articleRows lists articles for a console, with their state and edit links under editBase.
func articleRows(list []palaro.Article, editBase string) []views.ArticleRow {
	out := make([]views.ArticleRow, 0, len(list))
	for _, a := range list {
		r := views.ArticleRow{Title: a.Title, Author: a.Author, State: "Published", EditHref: editBase + url.PathEscape(a.Slug)}
		if a.Draft {
			r.State = "Draft"
		} else {
			r.ViewHref = "/news/" + a.Slug
		}
		out = append(out, r)
	}
	return out
}

func (s *Server) renderOrgNews(c *echo.Context, caller *palaro.Caller, a palaro.Article, err error) error {
	org, ok := newsAuthor(caller)
	if !ok {
		return palaro.Errorf(palaro.EFORBIDDEN, "You do not manage events in an approved organization.")
	}
	list, lerr := s.services.News.ArticlesBy(c.Request().Context(), org.OrganizationID)
	if lerr != nil {
		return lerr
	}
	heading := "News"
	if a.ID != 0 {
		heading = "Edit: " + a.Title
	}
	v := views.OrgNewsView{Frame: orgFrame(c, caller, heading), Form: articleForm(a, err, "/organizer/news", false),
		Articles: articleRows(list, "/organizer/news/")}
	status := http.StatusOK
	if err != nil {
		status = statusOfForm(err)
	}
	return render(c, status, views.OrgNewsPage(s.orgPage(c, "News"), v))
}

func (s *Server) orgNewsPage(c *echo.Context, caller *palaro.Caller) error {
	return s.renderOrgNews(c, caller, palaro.Article{}, nil)
}

// orgEditArticle opens one of the organization's articles in the form; another owner's (by id, not
// by the author's name) is a 404.
func (s *Server) orgEditArticle(c *echo.Context, caller *palaro.Caller) error {
	a, err := s.services.News.FindAnyArticle(c.Request().Context(), c.Param("slug"))
	if err != nil {
		return err
	}
	if org, ok := newsAuthor(caller); !ok || a.OrganizationID != org.OrganizationID {
		return palaro.Errorf(palaro.ENOTFOUND, "Article not found.")
	}
	return s.renderOrgNews(c, caller, *a, nil)
}

// orgSaveArticle saves an organizer's article as their organization (its name shown as the
// author): its linked events must be theirs, and a slug of another owner's article is refused.
func (s *Server) orgSaveArticle(c *echo.Context, caller *palaro.Caller) error {
	ctx := c.Request().Context()
	org, ok := newsAuthor(caller)
	if !ok {
		return palaro.Errorf(palaro.EFORBIDDEN, "You do not manage events in an approved organization.")
	}
	a := articleFromForm(c, org.OrganizationName)
	a.OrganizationID = org.OrganizationID
	if old, err := s.services.News.FindAnyArticle(ctx, a.Slug); err == nil {
		if old.OrganizationID != a.OrganizationID {
			return s.renderOrgNews(c, caller, a, fieldFailure("slug", "This slug is taken: choose another."))
		}
		a.ID = old.ID
	}
	saved, err := s.saveArticle(ctx, a, func(ev *palaro.Event) bool {
		return caller.CheckEventAccess(ev.Organizer.ID, palaro.ActionManageEvents) == nil
	})
	if _, ok := userFacing(err); ok {
		return s.renderOrgNews(c, caller, a, err)
	} else if err != nil {
		return err
	}
	if saved.Draft {
		return c.Redirect(http.StatusSeeOther, "/organizer/news/"+url.PathEscape(saved.Slug)+"?notice=saved")
	}
	return c.Redirect(http.StatusSeeOther, "/news/"+saved.Slug)
}

// withHint returns the field with a hint under it.
func withHint(f views.FormField, hint string) views.FormField {
	f.Hint = hint
	return f
}
