package handlers

import (
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/labstack/echo/v5"

	"palaro"
	"palaro/views"
)

// orgHandler handles an organizer route for a caller whose role allows the route's action.
type orgHandler func(s *Server, c *echo.Context, caller *palaro.Caller) error

// bearerToken returns the request's API token when it sends one to a route that takes tokens.
// Such a request is authenticated by the token alone, never by the session cookie, which is why
// checkCSRF lets it through: a browser page of another site cannot set the Authorization header
// without a CORS preflight, which Palaro never answers.
func bearerToken(c *echo.Context) (string, bool) {
	h := c.Request().Header.Get(echo.HeaderAuthorization)
	tok, ok := strings.CutPrefix(h, "Bearer ")
	if rt := routeOf(c); !ok || rt == nil || !rt.token {
		return "", false
	}
	return strings.TrimSpace(tok), true
}

const orgActionKey = "palaro.org.action"

// orgAccess resolves the caller (token or session), refuses callers whose role allows the
// route's action in none of their organizations, then runs the route's handler.
func (s *Server) orgAccess(r *route) echo.HandlerFunc {
	return func(c *echo.Context) error {
		ctx := c.Request().Context()
		var caller *palaro.Caller
		if tok, ok := bearerToken(c); ok {
			var err error
			if caller, err = s.services.Organizers.AuthenticateToken(ctx, tok); err != nil {
				return err
			}
		} else {
			u := currentUser(c)
			if u == nil {
				if isAPI(c) || strings.HasSuffix(c.Path(), ".csv") {
					return palaro.Errorf(palaro.EUNAUTHORIZED, "Sign in or send an API token.")
				}
				return c.Redirect(http.StatusSeeOther, "/sign-in?next="+url.QueryEscape(c.Request().URL.RequestURI()))
			}
			ms, err := s.services.Organizers.Memberships(ctx, u.ID)
			if err != nil {
				return err
			}
			caller = &palaro.Caller{UserID: u.ID, Email: u.Email, Memberships: ms}
			if len(caller.Approved()) == 0 && !isAPI(c) {
				return s.orgNotMember(c, len(ms) > 0)
			}
		}
		c.Response().Header().Set("Cache-Control", "no-store")
		if len(caller.OrganizationIDs(r.action)) == 0 {
			if len(caller.Approved()) == 0 {
				return palaro.Errorf(palaro.EFORBIDDEN, "Your organization is waiting for approval.")
			}
			return palaro.Errorf(palaro.EFORBIDDEN, "Your role in your organizations does not allow this.")
		}
		c.Set(orgActionKey, r.action)
		return r.org(s, c, caller)
	}
}

// orgNotMember tells a signed-in account without an approved organization why the console is closed.
func (s *Server) orgNotMember(c *echo.Context, pending bool) error {
	m := views.MessagePage{Heading: "Not an organizer account",
		Message: "This account does not belong to an organization. Register your organization to run events on Palaro.",
		Links:   []views.Link{{Label: "Register as an organizer", Href: "/register/organizer"}}}
	if pending {
		m = views.MessagePage{Heading: "Waiting for approval",
			Message: "Your organization is registered and waiting for our approval. We will e-mail you as soon as it is approved.",
			Links:   []views.Link{{Label: "Explore events", Href: "/"}}}
	}
	return render(c, http.StatusForbidden, views.Message(s.accountPage(c, "Organizer console", true), m))
}

// orgEvent returns the event of the route's :code when the caller may take the route's action on
// it: ENOTFOUND when it is another organization's (or does not exist), EFORBIDDEN for the role.
func (s *Server) orgEvent(c *echo.Context, caller *palaro.Caller) (*palaro.Event, error) {
	ev, err := s.services.Organizers.FindEvent(c.Request().Context(), c.Param("code"))
	if err != nil {
		return nil, err
	}
	action, _ := c.Get(orgActionKey).(string)
	if err := caller.CheckEventAccess(ev.Organizer.ID, action); err != nil {
		return nil, err
	}
	return ev, nil
}

// orgTicketType returns the event's ticket type named by the route's :type. Returns ENOTFOUND.
func orgTicketType(c *echo.Context, ev *palaro.Event) (*palaro.TicketType, error) {
	for i := range ev.TicketTypes {
		if ev.TicketTypes[i].Code == c.Param("type") {
			return &ev.TicketTypes[i], nil
		}
	}
	return nil, palaro.Errorf(palaro.ENOTFOUND, "Ticket type not found.")
}

// eventsChanged drops the cached event reads and the cached public pages at once, after a change
// of event data (an organizer's, or a sale that changes what the pages show), and tells the other
// app servers of the database (Services.Changes) to drop theirs.
func (s *Server) eventsChanged() {
	s.DropCaches()
	if s.services.Changes != nil {
		s.services.Changes.Publish()
	}
}

// DropCaches drops this server's cached event reads and public pages; the change feed calls it
// when another server changed event data.
func (s *Server) DropCaches() {
	if s.services.EventCache != nil {
		s.services.EventCache.Invalidate()
	}
	s.pages.Invalidate()
}

// EventsChanged drops the cached event reads and public pages; background jobs call it after
// they change what the pages show (released holds put tickets on sale again).
func (s *Server) EventsChanged() { s.eventsChanged() }

// orgPage returns the Page of a console page: never indexed, never cached.
func (s *Server) orgPage(c *echo.Context, title string) views.Page {
	p := s.page(c, title+" · Palaro organizer", title)
	p.NoIndex = true
	p.Nav = views.NavDefaultBack
	return p
}

// orgFrame returns the console's frame with the navigation the caller may use.
func orgFrame(c *echo.Context, caller *palaro.Caller, heading string) views.OrgFrame {
	path := c.Request().URL.Path
	nav := []views.OrgNavItem{{Label: "Events", Href: "/organizer", Current: path == "/organizer" || strings.HasPrefix(path, "/organizer/events")}}
	if len(caller.OrganizationIDs(palaro.ActionManageEvents)) > 0 {
		nav = append(nav, views.OrgNavItem{Label: "News", Href: "/organizer/news", Current: strings.HasPrefix(path, "/organizer/news")})
	}
	if len(caller.OrganizationIDs(palaro.ActionOrders)) > 0 {
		nav = append(nav, views.OrgNavItem{Label: "Invoices", Href: "/organizer/organization", Current: strings.HasPrefix(path, "/organizer/organization")})
	}
	if len(caller.OrganizationIDs(palaro.ActionTeam)) > 0 {
		nav = append(nav, views.OrgNavItem{Label: "Team", Href: "/organizer/team", Current: path == "/organizer/team"})
	}
	if len(caller.OrganizationIDs(palaro.ActionTokens)) > 0 {
		nav = append(nav, views.OrgNavItem{Label: "API tokens", Href: "/organizer/tokens", Current: path == "/organizer/tokens"})
	}
	if len(caller.OrganizationIDs(palaro.ActionWebhooks)) > 0 {
		nav = append(nav, views.OrgNavItem{Label: "Webhooks", Href: "/organizer/webhooks", Current: strings.HasPrefix(path, "/organizer/webhooks")})
	}
	return views.OrgFrame{Nav: nav, Heading: heading, Notice: noticeText(c.QueryParam("notice"))}
}

// eventFrame is orgFrame for a page of one event, with a back link to the event's console page.
func eventFrame(c *echo.Context, caller *palaro.Caller, ev *palaro.Event, heading string) views.OrgFrame {
	f := orgFrame(c, caller, heading)
	f.Back = views.Link{Label: ev.Name, Href: "/organizer/events/" + ev.Code}
	return f
}

// noticeText is the message of a notice key passed after a redirect.
func noticeText(key string) string {
	switch key {
	case "created":
		return "Saved. Add ticket types, then publish the event."
	case "saved":
		return "Saved."
	case "widgetSaved":
		return "Saved. The sites listed may show the widget now."
	case "status":
		return "The event's status is changed; the public pages show it now."
	case "told":
		return "Saved; the public pages show it now. Every ticket holder is told by e-mail, and calendars that added the event get the change."
	case "revoked":
		return "The token is revoked."
	case "cover":
		return "The cover image is saved; the public pages show it now."
	case "invited":
		return "The invitation is on its way."
	case "removed":
		return "Removed from the team. The API tokens they created are revoked."
	case "joined":
		return "You joined the team."
	case "tested":
		return "The test e-mails are on their way to your address: a confirmation and a reminder, with a sample ticket."
	case "messageSent":
		return "The message is on its way: see it in the list below."
	case "resent":
		return "The tickets e-mail is on its way again."
	case "moved":
		return "The ticket now belongs to the new e-mail address."
	case "cancelled":
		return "The ticket is cancelled; its place is on sale again."
	case "refunded":
		return "Marked refunded."
	case "refund":
		return "The refund is on its way: the tickets are cancelled and the buyer is told by e-mail."
	case "refund-retried":
		return "The refund is being tried again."
	case "refund-all":
		return "Every order is being refunded; this page shows how far it has come."
	}
	if n, ok := webhookNotices[key]; ok {
		return n
	}
	return promoNotices[key]
}

// manilaTime formats a time for the console, in Manila.
func manilaTime(t time.Time) string {
	if t.IsZero() {
		return "—"
	}
	return t.In(palaro.Manila).Format("Mon 2 Jan 2006, 3:04 PM")
}

func (s *Server) orgHome(c *echo.Context, caller *palaro.Caller) error {
	events, err := s.services.Organizers.ListEvents(c.Request().Context(), caller.OrganizationIDs(palaro.ActionViewEvents))
	if err != nil {
		return err
	}
	now := s.Now()
	titles := map[string]string{"draft": "Drafts", "published": "Published", "postponed": "Postponed",
		"rescheduled": "Rescheduled", "past": "Past", "cancelled": "Cancelled"}
	order := []string{"draft", "published", "postponed", "rescheduled", "past", "cancelled"}
	byPhase := map[string][]views.OrgEventRow{}
	for _, e := range events {
		row := views.OrgEventRow{Code: e.Code, Name: e.Name, Organization: e.OrganizationName, When: manilaTime(e.StartsAt),
			Venue: e.Venue.Name, Phase: e.Phase(now), Sold: e.Sold, Capacity: e.Capacity}
		if caller.Can(e.Organizer.ID, palaro.ActionOrders) {
			row.Revenue = e.Revenue.String()
		}
		if caller.Can(e.Organizer.ID, palaro.ActionManageEvents) {
			row.Href = "/organizer/events/" + e.Code
		} else if caller.Can(e.Organizer.ID, palaro.ActionCheckIn) {
			row.Href = "/organizer/events/" + e.Code + "/check-in" // gate staff go straight to the scanner
		}
		byPhase[row.Phase] = append(byPhase[row.Phase], row)
	}
	v := views.OrgHomeView{Frame: orgFrame(c, caller, "Your events"), Empty: len(events) == 0,
		CanCreate: len(caller.OrganizationIDs(palaro.ActionManageEvents)) > 0}
	if v.InvoiceNotices, err = s.invoiceNotices(c, caller); err != nil {
		return err
	}
	for _, phase := range order {
		if rows := byPhase[phase]; len(rows) > 0 {
			if phase != "past" {
				// Upcoming events read best soonest first; past ones latest first.
				for i, j := 0, len(rows)-1; i < j; i, j = i+1, j-1 {
					rows[i], rows[j] = rows[j], rows[i]
				}
			}
			v.Groups = append(v.Groups, views.OrgEventGroup{Title: titles[phase], Events: rows})
		}
	}
	return render(c, http.StatusOK, views.OrgHome(s.orgPage(c, "Your events"), v))
}

func (s *Server) orgEventPage(c *echo.Context, caller *palaro.Caller) error {
	ev, err := s.orgEvent(c, caller)
	if err != nil {
		return err
	}
	return s.renderOrgEvent(c, caller, ev, "", http.StatusOK)
}

// renderOrgEvent renders an event's console page; coverErr is the message of a refused cover upload.
func (s *Server) renderOrgEvent(c *echo.Context, caller *palaro.Caller, ev *palaro.Event, coverErr string, status int) error {
	audit, err := s.services.Organizers.ListAudit(c.Request().Context(), ev.ID, 20)
	if err != nil {
		return err
	}
	base := "/organizer/events/" + ev.Code
	v := views.OrgEventView{Frame: orgFrame(c, caller, ev.Name), Code: ev.Code, Status: palaro.OrganizerStatus(ev.Status),
		CoverURL: s.imageURL(ev.ImageURL), CoverError: coverErr, CoverAction: base + "/cover",
		When: manilaTime(ev.StartsAt) + " to " + manilaTime(ev.EndsAt), Venue: ev.Venue.Name + ", " + ev.Venue.City,
		Links: []views.Link{{Label: "Edit details", Href: base + "/edit"}, {Label: "Dates", Href: base + "/dates"}, {Label: "Check-in", Href: base + "/check-ins"},
			{Label: "Gate scanner", Href: base + "/check-in"}, {Label: "Queue", Href: base + "/queue"},
			{Label: "Add-ons", Href: base + "/add-ons"}, {Label: "Promo codes", Href: base + "/promo-codes"},
			{Label: "E-mails", Href: base + "/emails"}, {Label: "Messages", Href: base + "/messages"},
			{Label: "Widget", Href: base + "/widget"}}}
	v.Frame.Back = views.Link{Label: "Your events", Href: "/organizer"}
	if caller.Can(ev.Organizer.ID, palaro.ActionActivities) {
		v.Links = append(v.Links, views.Link{Label: "Activities", Href: base + "/activities"})
	}
	if caller.Can(ev.Organizer.ID, palaro.ActionOrders) {
		v.Links = append(v.Links, views.Link{Label: "Sales", Href: base + "/dashboard"}, views.Link{Label: "Orders", Href: base + "/orders"}, views.Link{Label: "Refund queue", Href: base + "/refunds"}, views.Link{Label: "Waiting list", Href: base + "/waitlist"}, views.Link{Label: "Tournaments", Href: base + "/tournaments"},
			views.Link{Label: "Cancellations", Href: base + "/cancellations"},
			views.Link{Label: "Attendees CSV", Href: base + "/attendees.csv"}, views.Link{Label: "Orders CSV", Href: base + "/orders.csv"})
		if ev.Status == palaro.EventCancelled {
			v.Links = append([]views.Link{{Label: "Refund every order", Href: base + "/refunds"}}, v.Links...)
		}
	}
	if ev.Status != palaro.EventDraft {
		v.PublicHref = "/e/" + ev.Code
	}
	switch ev.Status {
	case palaro.EventDraft:
		v.Actions = append(v.Actions, views.OrgAction{Label: "Publish", Action: base + "/status", Hidden: [][2]string{{"status", palaro.EventPublished}}})
	case palaro.EventScheduled, palaro.EventRescheduled:
		v.Actions = append(v.Actions, views.OrgAction{Label: "Unpublish (back to draft)", Action: base + "/status",
			Hidden: [][2]string{{"status", palaro.EventDraft}}, Secondary: true})
	}
	if len(ev.TicketTypes) == 0 && (ev.Status == palaro.EventDraft || ev.Status == palaro.EventScheduled) {
		v.Warning = palaro.MsgPublishNeedsTicketTypes
		if ev.Status == palaro.EventScheduled {
			v.Warning = "This event is public but has no ticket types: add one so that people can buy tickets."
		}
	}
	// changes that e-mail every ticket holder are confirmed on a page of their own first
	switch ev.Status {
	case palaro.EventScheduled, palaro.EventRescheduled:
		v.Links = append([]views.Link{{Label: "Postpone…", Href: base + "/status?status=" + palaro.EventPostponed},
			{Label: "Cancel the event…", Href: base + "/status?status=" + palaro.EventCancelled}}, v.Links...)
	case palaro.EventPostponed:
		v.Links = append([]views.Link{{Label: "Publish the new date…", Href: base + "/status?status=" + palaro.EventPublished},
			{Label: "Cancel the event…", Href: base + "/status?status=" + palaro.EventCancelled}}, v.Links...)
	}
	v.Facts = [][2]string{{"Code", ev.Code}, {"Organization", ev.Organizer.Name}, {"Summary", ev.Summary},
		{"Address", ev.Venue.Address}, {"Tags", tagList(ev.Tags)}}
	now := s.Now()
	dates, totals, err := s.seriesSales(c, ev)
	if err != nil {
		return err
	}
	v.Dates = dates
	for _, tt := range ev.TicketTypes {
		row := views.OrgTicketTypeRow{Code: tt.Code, Name: tt.Name, Price: tt.FinalPrice().Display(),
			Sold: tt.Sold, Held: tt.Held, Capacity: tt.Capacity, Seated: tt.Seated,
			SaleState: strings.ReplaceAll(tt.SaleState(ev, now), "_", " "),
			EditHref:  base + "/ticket-types/" + tt.Code + "/edit", BuyHref: "/b/" + tt.Code}
		if len(dates) > 0 {
			if sum, ok := totals[tt.ID]; ok {
				row.Sold, row.Held, row.Capacity = sum.Sold, sum.Held, sum.Capacity
			}
			row.Note = seriesTypeNote(ev, tt, len(dates))
		}
		v.TicketTypes = append(v.TicketTypes, row)
	}
	for _, a := range audit {
		v.Audit = append(v.Audit, auditRow(a))
	}
	return render(c, status, views.OrgEvent(s.orgPage(c, ev.Name), v))
}

func tagList(tags []palaro.Tag) string {
	names := make([]string, len(tags))
	for i, t := range tags {
		names[i] = t.Slug
	}
	return strings.Join(names, ", ")
}

func (s *Server) orgSetStatus(c *echo.Context, caller *palaro.Caller) error {
	ev, err := s.orgEvent(c, caller)
	if err != nil {
		return err
	}
	in := palaro.EventInputOf(ev)
	in.Status = c.FormValue(palaro.FieldStatus)
	saved, err := s.services.Organizers.UpdateEvent(c.Request().Context(), ev.ID, caller.Actor(), in)
	if err != nil {
		if palaro.ErrorMessage(err) == palaro.MsgPublishNeedsTicketTypes {
			return s.renderOrgEvent(c, caller, ev, "", statusOfForm(err)) // its warning says why
		}
		return err
	}
	s.eventsChanged()
	return c.Redirect(http.StatusSeeOther, "/organizer/events/"+ev.Code+"?notice="+savedNotice(ev, saved, "status"))
}

// statusChanges are the status changes confirmed first (they e-mail every ticket holder): what the
// confirmation page asks and its button says.
var statusChanges = map[string][2]string{
	palaro.EventPostponed: {"Postpone %s?", "Postpone and tell the ticket holders"},
	palaro.EventCancelled: {"Cancel %s?", "Cancel the event and tell the ticket holders"},
	palaro.EventPublished: {"Publish the new date of %s?", "Publish and tell the ticket holders"},
}

// orgConfirmStatus asks the organizer to confirm a change of status that e-mails every ticket
// holder (query status: postponed, cancelled or published), saying who is told and what.
func (s *Server) orgConfirmStatus(c *echo.Context, caller *palaro.Caller) error {
	ev, err := s.orgEvent(c, caller)
	if err != nil {
		return err
	}
	status := c.QueryParam("status")
	words, ok := statusChanges[status]
	if !ok {
		return palaro.Errorf(palaro.EINVALID, "Choose postponed, cancelled or published.")
	}
	base := "/organizer/events/" + ev.Code
	attendees, err := s.services.Organizers.ListAttendees(c.Request().Context(), ev.ID)
	if err != nil {
		return err
	}
	holders := map[string]bool{}
	for _, a := range attendees {
		if a.Status != palaro.TicketCancelled {
			holders[a.Email] = true
		}
	}
	heading := fmt.Sprintf(words[0], ev.Name)
	told := "Nobody holds a ticket yet, so no e-mail goes out."
	if n := len(holders); n > 0 {
		told = fmt.Sprintf("Each of the %d addresses holding tickets gets an e-mail at once", n)
		switch status {
		case palaro.EventCancelled:
			told += " saying the event is cancelled and they are refunded in full within 30 days. This cannot be undone."
		case palaro.EventPostponed:
			told += " saying the event is postponed, the new date is to follow, and they may ask for a refund within 14 days."
		default:
			told += " with the date and place now in Edit details (" + manilaTime(ev.StartsAt) + ", " + ev.Venue.Name + ")."
		}
	}
	v := views.OrgFormView{Frame: orgFrame(c, caller, heading), Form: views.OrgForm{Action: base + "/status", Submit: words[1],
		Sections: []views.OrgFormSection{{Selects: []views.OrgSelect{{Name: palaro.FieldStatus, Label: "New status",
			Options: []views.SelectOption{{Value: status, Label: status, Selected: true}}}}}}}}
	v.Frame.Notice = told
	v.Frame.Back = views.Link{Label: "Back to the event, changing nothing", Href: base}
	return render(c, http.StatusOK, views.OrgFormPage(s.orgPage(c, heading), v))
}

// savedNotice is the notice key after an event was saved: "told" when the change was one its
// ticket holders are told about by e-mail (its SEQUENCE grew), else key.
func savedNotice(before, saved *palaro.Event, key string) string {
	if saved.Sequence > before.Sequence {
		return "told"
	}
	return key
}

func (s *Server) orgOrdersPage(c *echo.Context, caller *palaro.Caller) error {
	ev, err := s.orgEvent(c, caller)
	if err != nil {
		return err
	}
	q := strings.TrimSpace(c.QueryParam("q"))
	date, err := s.orgDateFilter(c, ev)
	if err != nil {
		return err
	}
	orders, err := s.services.Organizers.SearchOrders(c.Request().Context(), palaro.OrderSearch{EventID: ev.ID, Query: q, DateID: dateID(date)})
	if err != nil {
		return err
	}
	dates, err := s.services.Series.ListEventDates(c.Request().Context(), ev.ID)
	if err != nil {
		return err
	}
	base := "/organizer/events/" + ev.Code
	suffix := ""
	if date != nil {
		suffix = "?date=" + date.Slug
	}
	v := views.OrgOrdersView{Frame: eventFrame(c, caller, ev, "Orders · "+ev.Name), Action: base + "/orders", Query: q,
		Exports: []views.Link{{Label: "Attendees CSV", Href: base + "/attendees.csv" + suffix}, {Label: "Orders CSV", Href: base + "/orders.csv" + suffix}}}
	if len(dates) > 0 {
		v.Dates = []views.SelectOption{{Value: "", Label: "Every date", Selected: date == nil}}
		for _, d := range dates {
			v.Dates = append(v.Dates, views.SelectOption{Value: d.Slug, Label: dateLabel(d), Selected: date != nil && d.ID == date.ID})
		}
	}
	for _, o := range orders {
		v.Orders = append(v.Orders, orderRow(base, o))
	}
	return render(c, http.StatusOK, views.OrgOrders(s.orgPage(c, "Orders · "+ev.Name), v))
}
