package handlers

import (
	"fmt"
	"net/http"
	"slices"
	"strings"
	"time"

	"github.com/labstack/echo/v5"

	"palaro"
	"palaro/views"
)

// datesIntro explains the console's Dates page.
const datesIntro = "The dates of this series, each with its own start, end, capacity and status; buyers pick one. " +
	"A new time, a postponement or a cancellation e-mails everyone holding a ticket for the date or a pass " +
	"covering it. Cancelling a date (you confirm it on a second page) stops its sale, refunds its day tickets in full " +
	"with their add-ons and refunds each season pass its share for the date; it cannot be undone. A date nothing " +
	"was sold on can be deleted."

// dateLabel names a date in the console: its day (and session), with its own name.
func dateLabel(d palaro.EventDate) string {
	if d.Name != "" {
		return palaro.DateSlugLabel(d.Slug) + " · " + d.Name
	}
	return palaro.DateSlugLabel(d.Slug)
}

// dateHours is a date's time in Manila, "7:00 PM to 11:00 PM", with the end's day when it ends
// on another day (the day itself is the date's label).
func dateHours(d palaro.EventDate) string {
	st, en := d.StartsAt.In(palaro.Manila), d.EndsAt.In(palaro.Manila)
	if palaro.ManilaDay(st) == palaro.ManilaDay(en) {
		return st.Format("3:04 PM") + " to " + en.Format("3:04 PM")
	}
	return st.Format("3:04 PM") + " to " + en.Format("Mon 2 Jan, 3:04 PM")
}

// dateForm is the console form that changes date d (its time, name, status, sales window and the
// capacity of each day ticket on it) or, d nil, adds dates: one, or every week by a rule; after a
// refused form (posted non-nil) it shows again what was sent.
func dateForm(base string, ev *palaro.Event, d *palaro.EventDate, stock []palaro.DateStock, posted func(string) []string, err error) views.OrgForm {
	field := func(name, label, typ, value, hint string) views.FormField {
		return views.FormField{Name: name, Label: label, Type: typ, Value: value, Hint: hint, Error: fieldError(err, name)}
	}
	if posted != nil {
		stored := field
		field = func(name, label, typ, _, hint string) views.FormField {
			return stored(name, label, typ, strings.Join(posted(name), ""), hint)
		}
	}
	if d == nil {
		weekdays := views.OrgCheckGroup{Name: palaro.FieldRuleWeekdays, Legend: "Days of the week",
			Error: fieldError(err, palaro.FieldRuleWeekdays)}
		for w := time.Monday; ; w = (w + 1) % 7 {
			value := strings.ToLower(w.String()[:3])
			weekdays.Options = append(weekdays.Options, views.SelectOption{Value: value, Label: w.String(),
				Selected: slices.Contains(posted(palaro.FieldRuleWeekdays), value)})
			if w == time.Sunday {
				break
			}
		}
		weeks := field(palaro.FieldRuleWeeks, "For how many weeks", "text", "", "1 to 104.")
		weeks.InputMode = "numeric"
		return views.OrgForm{Action: base, Submit: "Add this date", Error: formError(err),
			Also: []views.OrgAction{{Label: "Add the weekly dates", Action: base + "/rule"}},
			Sections: []views.OrgFormSection{
				{Title: "One date", Fields: []views.FormField{
					field(palaro.FieldDateStartsAt, "Starts (Manila time)", "datetime-local", "", ""),
					field(palaro.FieldDateEndsAt, "Ends (Manila time)", "datetime-local", "", ""),
					field(palaro.FieldDateName, "Name (optional)", "text", "", "Such as Match day 3."),
				}},
				{Title: "Or every week", Checks: []views.OrgCheckGroup{weekdays}, Fields: []views.FormField{
					field(palaro.FieldRuleStartTime, "Start time", "time", "", ""),
					field(palaro.FieldRuleEndTime, "End time", "time", "", "An end at or before the start is the next day."),
					field(palaro.FieldRuleFrom, "From", "date", "", "The first day; dates fall on the days ticked."),
					weeks,
				}},
			}}
	}
	if posted != nil { // a refused change: the status sent
		d = &palaro.EventDate{Slug: d.Slug, Status: strings.Join(posted(palaro.FieldDateStatus), "")}
	}
	status := views.OrgSelect{Name: palaro.FieldDateStatus, Label: "Status", Error: fieldError(err, palaro.FieldDateStatus)}
	for _, st := range palaro.DateStatuses {
		label := map[string]string{palaro.DateScheduled: "Scheduled", palaro.DatePostponed: "Postponed",
			palaro.DateCancelled: "Cancelled (final)"}[st]
		status.Options = append(status.Options, views.SelectOption{Value: st, Label: label, Selected: st == d.Status})
	}
	fields := []views.FormField{
		field(palaro.FieldDateStartsAt, "Starts (Manila time)", "datetime-local", localTime(d.StartsAt), ""),
		field(palaro.FieldDateEndsAt, "Ends (Manila time)", "datetime-local", localTime(d.EndsAt), ""),
		field(palaro.FieldDateName, "Name (optional)", "text", d.Name, "Such as Match day 3."),
		field(palaro.FieldDateSalesFrom, "Sales start (Manila time)", "datetime-local", localTime(d.SalesStart), "Empty: the ticket types' own."),
		field(palaro.FieldDateSalesEnd, "Sales end (Manila time)", "datetime-local", localTime(d.SalesEnd), "Empty: the ticket types' own."),
	}
	for _, st := range stock {
		for _, t := range ev.TicketTypes {
			if t.ID == st.TicketTypeID && !t.IsPass() {
				f := field(palaro.FieldDateCapacity+"."+t.Code, "Capacity: "+t.Name, "text", fmt.Sprint(st.Capacity),
					fmt.Sprintf("%d sold, %d held on this date.", st.Sold, st.Held))
				f.InputMode = "numeric"
				fields = append(fields, f)
			}
		}
	}
	return views.OrgForm{Action: base + "/" + d.Slug, Submit: "Save " + palaro.DateSlugLabel(d.Slug), Error: formError(err),
		Sections: []views.OrgFormSection{{Fields: fields, Selects: []views.OrgSelect{status}}}}
}

// renderOrgDates draws the console's Dates page: the dates with what is sold on each and their
// status, and the form that adds dates or (edit, a date's slug) changes one.
func (s *Server) renderOrgDates(c *echo.Context, caller *palaro.Caller, ev *palaro.Event, edit string, err error) error {
	avail, lerr := s.services.Series.ListDateAvailability(c.Request().Context(), ev.ID)
	if lerr != nil {
		return lerr
	}
	base := "/organizer/events/" + ev.Code + "/dates"
	title := "Dates · " + ev.Name
	v := views.OrgListView{Frame: eventFrame(c, caller, ev, title), Intro: datesIntro, FormTitle: "Add dates",
		Empty: "No dates yet: this is a single-date event. Add dates to make it a series."}
	var editing *palaro.DateAvailability
	for i, a := range avail {
		d := a.Date
		sold, held, capacity := 0, 0, 0
		for _, st := range a.Stock { // a pass's entry repeats its day ticket's places
			if slices.ContainsFunc(ev.TicketTypes, func(t palaro.TicketType) bool { return t.ID == st.TicketTypeID && !t.IsPass() }) {
				sold, held, capacity = sold+st.Sold, held+st.Held, capacity+st.Capacity
			}
		}
		item := views.OrgListItem{Title: dateLabel(d), Href: base + "?edit=" + d.Slug,
			Meta: fmt.Sprintf("%s · %d of %d sold", dateHours(d), sold, capacity)}
		if d.Venue != nil {
			item.Meta += " · at " + d.Venue.Name
		}
		if d.Status != palaro.DateScheduled {
			item.Badge = d.Status
		}
		if d.Status == palaro.DateCancelled {
			item.Href = "" // final: nothing to change
		}
		if d.Status != palaro.DateCancelled && !d.Past(s.Now()) { // a date played is not cancelled by a mis-tap
			item.Actions = append(item.Actions, views.OrgAction{Label: "Cancel " + palaro.DateSlugLabel(d.Slug) + "…",
				Action: base + "/" + d.Slug + "/cancel", Secondary: true})
		}
		if sold+held == 0 {
			item.Actions = append(item.Actions, views.OrgAction{Label: "Delete " + palaro.DateSlugLabel(d.Slug),
				Action: base + "/" + d.Slug + "/delete", Secondary: true})
		}
		if d.Slug == edit && d.Status != palaro.DateCancelled {
			editing = &avail[i]
		}
		v.Items = append(v.Items, item)
	}
	if edit != "" && editing == nil && err == nil {
		return palaro.Errorf(palaro.ENOTFOUND, "%s", palaro.MsgDateUnknown)
	}
	posted := func(name string) []string { return formValues(c, name) }
	if editing != nil {
		v.FormTitle = "Change " + dateLabel(editing.Date)
		if err == nil {
			posted = nil
		}
		v.Form = dateForm(base, ev, &editing.Date, editing.Stock, posted, err)
	} else {
		v.Form = dateForm(base, ev, nil, nil, posted, err)
	}
	if e, ok := err.(*palaro.Error); ok && v.Form.Error == "" && len(e.Fields) > 0 {
		v.Form.Error = e.Message
	}
	return render(c, statusOfForm(err), views.OrgList(s.orgPage(c, title), v))
}

// orgDatesPage shows the console's Dates page (?edit={slug} changes that date).
func (s *Server) orgDatesPage(c *echo.Context, caller *palaro.Caller) error {
	ev, err := s.orgEvent(c, caller)
	if err != nil {
		return err
	}
	return s.renderOrgDates(c, caller, ev, c.QueryParam("edit"), nil)
}

// orgDatesDone answers a saved form of the Dates page: back to the page with a notice, or the
// page again with what was wrong (a problem the person can fix; others are errors).
func (s *Server) orgDatesDone(c *echo.Context, caller *palaro.Caller, ev *palaro.Event, edit string, err error) error {
	if err == nil {
		s.eventsChanged()
		return c.Redirect(http.StatusSeeOther, "/organizer/events/"+ev.Code+"/dates?notice=saved")
	}
	if _, ok := userFacing(err); !ok {
		return err
	}
	return s.renderOrgDates(c, caller, ev, edit, err)
}

// orgAddDate adds one date from the Dates page's form.
func (s *Server) orgAddDate(c *echo.Context, caller *palaro.Caller) error {
	ev, err := s.orgEvent(c, caller)
	if err != nil {
		return err
	}
	fe := formErrors{}
	in := palaro.DateInput{Name: strings.TrimSpace(c.FormValue(palaro.FieldDateName)),
		StartsAt: fe.time(c, palaro.FieldDateStartsAt, "Starts"), EndsAt: fe.time(c, palaro.FieldDateEndsAt, "Ends")}
	if err = fe.merge(in.Validate()); err == nil {
		_, err = s.services.Series.CreateDates(c.Request().Context(), ev.ID, []palaro.DateInput{in}, s.Now())
	}
	return s.orgDatesDone(c, caller, ev, "", err)
}

// orgAddWeeklyDates adds the dates of the Dates page's weekly rule.
func (s *Server) orgAddWeeklyDates(c *echo.Context, caller *palaro.Caller) error {
	ev, err := s.orgEvent(c, caller)
	if err != nil {
		return err
	}
	fe := formErrors{}
	rule := palaro.DateRule{StartTime: c.FormValue(palaro.FieldRuleStartTime), EndTime: c.FormValue(palaro.FieldRuleEndTime),
		From: c.FormValue(palaro.FieldRuleFrom), Weeks: fe.int(c, palaro.FieldRuleWeeks, "Weeks")}
	for _, w := range formValues(c, palaro.FieldRuleWeekdays) {
		if d, ok := palaro.ParseWeekday(w); ok {
			rule.Weekdays = append(rule.Weekdays, d)
		}
	}
	dates, err := rule.Dates()
	if err = fe.merge(err); err == nil {
		inputs := make([]palaro.DateInput, len(dates))
		for i, d := range dates {
			inputs[i] = palaro.DateInput{StartsAt: d.StartsAt, EndsAt: d.EndsAt}
		}
		_, err = s.services.Series.CreateDates(c.Request().Context(), ev.ID, inputs, s.Now())
	}
	return s.orgDatesDone(c, caller, ev, "", err)
}

// orgEventDate finds the console's event and its date named in the path, for a date's form.
func (s *Server) orgEventDate(c *echo.Context, caller *palaro.Caller) (*palaro.Event, *palaro.EventDate, error) {
	ev, err := s.orgEvent(c, caller)
	if err != nil {
		return nil, nil, err
	}
	d, err := s.orgDate(c, ev)
	return ev, d, err
}

// orgUpdateDate saves the Dates page's form of one date (its holders are told of a change).
func (s *Server) orgUpdateDate(c *echo.Context, caller *palaro.Caller) error {
	ev, d, err := s.orgEventDate(c, caller)
	if err != nil {
		return err
	}
	fe := formErrors{}
	in := d.InputOf()
	in.Name = strings.TrimSpace(c.FormValue(palaro.FieldDateName))
	in.StartsAt, in.EndsAt = fe.time(c, palaro.FieldDateStartsAt, "Starts"), fe.time(c, palaro.FieldDateEndsAt, "Ends")
	in.SalesStart, in.SalesEnd = fe.time(c, palaro.FieldDateSalesFrom, "Sales start"), fe.time(c, palaro.FieldDateSalesEnd, "Sales end")
	in.Status = c.FormValue(palaro.FieldDateStatus)
	in.Capacities = map[string]int{}
	for _, t := range ev.TicketTypes {
		name := palaro.FieldDateCapacity + "." + t.Code
		if !t.IsPass() && strings.TrimSpace(c.FormValue(name)) != "" {
			in.Capacities[t.Code] = fe.int(c, name, "Capacity")
		}
	}
	if err = fe.merge(in.Validate()); err == nil {
		if in.Status == palaro.DateCancelled && d.Status != palaro.DateCancelled && !confirmed(c) {
			return s.confirmDateCancel(c, caller, ev, d, "/organizer/events/"+ev.Code+"/dates/"+d.Slug)
		}
		_, err = s.services.Series.UpdateDate(c.Request().Context(), ev.ID, d.Slug, in, caller.Actor(), s.Now())
	}
	return s.orgDatesDone(c, caller, ev, d.Slug, err)
}

// orgCancelDatePage shows the confirmation step of cancelling a date (its cancel address opened
// again, or reloaded); it changes nothing.
func (s *Server) orgCancelDatePage(c *echo.Context, caller *palaro.Caller) error {
	ev, d, err := s.orgEventDate(c, caller)
	if err != nil {
		return err
	}
	return s.confirmDateCancel(c, caller, ev, d, "/organizer/events/"+ev.Code+"/dates/"+d.Slug+"/cancel")
}

// orgCancelDate cancels a date of the Dates page once confirmed (the date's other settings
// unchanged); the first tap shows the confirmation step.
func (s *Server) orgCancelDate(c *echo.Context, caller *palaro.Caller) error {
	ev, d, err := s.orgEventDate(c, caller)
	if err != nil {
		return err
	}
	if !confirmed(c) {
		return s.confirmDateCancel(c, caller, ev, d, "/organizer/events/"+ev.Code+"/dates/"+d.Slug+"/cancel")
	}
	in := d.InputOf()
	in.Status = palaro.DateCancelled
	_, err = s.services.Series.UpdateDate(c.Request().Context(), ev.ID, d.Slug, in, caller.Actor(), s.Now())
	return s.orgDatesDone(c, caller, ev, "", err)
}

// confirmDateCancel renders the confirmation step of cancelling date d: how many holders are
// e-mailed and what is refunded; its button posts the same form again to action, confirmed. A
// date cancelled already has no such step (MsgDateCancelledFinal).
func (s *Server) confirmDateCancel(c *echo.Context, caller *palaro.Caller, ev *palaro.Event, d *palaro.EventDate, action string) error {
	if d.Status == palaro.DateCancelled {
		return palaro.Errorf(palaro.ECONFLICT, "%s", palaro.MsgDateCancelledFinal)
	}
	p, err := s.services.Series.PreviewDateCancel(c.Request().Context(), ev.ID, d.Slug, s.Now())
	if err != nil {
		return err
	}
	label := dateLabel(*d)
	lines := []string{ev.Name + ", " + label + ", " + dateHours(*d) + ": its sale stops and the date is cancelled for good. This cannot be undone.",
		palaro.Plural(p.Holders, "ticket holder is", "ticket holders are") + " e-mailed that the date is cancelled."}
	if p.DayOrders > 0 {
		lines = append(lines, palaro.Plural(p.DayOrders, "order of day tickets for this date is", "orders of day tickets for this date are")+
			" refunded in full, add-ons included ("+p.DayAmount.Display()+"), through the payment provider; their tickets are cancelled.")
	} else {
		lines = append(lines, "No paid day-ticket order of this date is left to refund.")
	}
	if p.Passes > 0 {
		lines = append(lines, palaro.Plural(p.Passes, "season pass gets back its share for this date ("+p.PassAmount.Display()+") and stays",
			"season passes get back their share for this date ("+p.PassAmount.Display()+" in all) and stay")+" valid on the other dates.")
	} else {
		lines = append(lines, "No season pass is owed a share for this date.")
	}
	hidden := slices.Clone(confirmHidden)
	if form, err := c.FormValues(); err == nil {
		for name, values := range form {
			if name == "confirm" || name == csrfField {
				continue
			}
			for _, v := range values {
				hidden = append(hidden, [2]string{name, v})
			}
		}
	}
	slices.SortFunc(hidden, func(a, b [2]string) int { return strings.Compare(a[0], b[0]) })
	return s.renderConfirm(c, caller, "Cancel "+label+"?", lines,
		views.OrgAction{Label: "Cancel " + palaro.DateSlugLabel(d.Slug), Action: action, Hidden: hidden},
		views.Link{Label: "Keep the date", Href: "/organizer/events/" + ev.Code + "/dates"})
}

// orgDeleteDate deletes a date nothing was sold on, from the Dates page.
func (s *Server) orgDeleteDate(c *echo.Context, caller *palaro.Caller) error {
	ev, err := s.orgEvent(c, caller)
	if err != nil {
		return err
	}
	err = s.services.Series.DeleteDate(c.Request().Context(), ev.ID, c.Param("date"), caller.Actor(), s.Now())
	return s.orgDatesDone(c, caller, ev, "", err)
}

// seriesSales reads a series' sales per date for the console (none for a single-date event): the
// rows of the event page and dashboard, and each day ticket's totals over the dates.
func (s *Server) seriesSales(c *echo.Context, ev *palaro.Event) ([]views.OrgDateSalesRow, map[int64]palaro.DateTypeSales, error) {
	sales, err := s.services.Series.DateSales(c.Request().Context(), ev.ID)
	if err != nil || len(sales) == 0 {
		return nil, nil, err
	}
	rows := make([]views.OrgDateSalesRow, len(sales))
	for i, d := range sales {
		row := views.OrgDateSalesRow{Label: dateLabel(d.Date) + ", " + dateHours(d.Date), Href: eventPath(ev.Code, d.Date.Slug),
			CheckIns: checkInsText(d.CheckedIn, d.Admits)}
		if d.Date.Status != palaro.DateScheduled {
			row.Status = d.Date.Status
		}
		for _, t := range d.Types {
			row.Types = append(row.Types, [2]string{t.Name, dateTypeSales(t)})
		}
		rows[i] = row
	}
	return rows, palaro.SeriesTotals(sales), nil
}

// dateTypeSales says a ticket type's places on a date: "120 of 300 sold (16 by passes), 2 held"
// for a day ticket, "16 holders" for a pass.
func dateTypeSales(t palaro.DateTypeSales) string {
	if t.PassKind != "" {
		return palaro.Plural(t.Sold, "holder", "holders")
	}
	out := fmt.Sprintf("%d of %d sold", t.Sold, t.Capacity)
	if t.Passes > 0 {
		out += fmt.Sprintf(" (%d by passes)", t.Passes)
	}
	if t.Held > 0 {
		out += fmt.Sprintf(", %d held", t.Held)
	}
	return out
}

// seriesTypeNote says how the console counts a ticket type of a series: a day ticket over its
// dates, a pass by its kind and the day ticket whose places it takes.
func seriesTypeNote(ev *palaro.Event, tt palaro.TicketType, dates int) string {
	if tt.IsPass() {
		of := tt.PassOfCode
		if i := slices.IndexFunc(ev.TicketTypes, func(o palaro.TicketType) bool { return o.ID == tt.PassOf }); i >= 0 {
			of = ev.TicketTypes[i].Name
		}
		return palaro.PassRowLabel + " (" + strings.ToLower(tt.PassLabel()) + "), in the places of " + of
	}
	return "Places over " + palaro.Plural(dates, "date", "dates") + ", passes' included; capacity is per date unless a date sets its own."
}
