package handlers

import (
	"fmt"
	"math"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/labstack/echo/v5"

	"palaro"
	"palaro/views"
)

// localTimeLayout is the value format of datetime-local inputs; the console's times are Manila's.
const localTimeLayout = "2006-01-02T15:04"

func localTime(t time.Time) string {
	if t.IsZero() {
		return ""
	}
	return t.In(palaro.Manila).Format(localTimeLayout)
}

// formErrors collects the messages of form values that could not be read.
type formErrors map[string]string

func (fe formErrors) time(c *echo.Context, field, label string) time.Time {
	v := strings.TrimSpace(c.FormValue(field))
	if v == "" {
		return time.Time{}
	}
	t, err := time.ParseInLocation(localTimeLayout, v, palaro.Manila)
	if err != nil {
		fe[field] = label + " is a date and time such as 2026-12-31T18:00."
	}
	return t
}

func (fe formErrors) float(c *echo.Context, field, label string) float64 {
	v := strings.TrimSpace(c.FormValue(field))
	if v == "" {
		return 0
	}
	f, err := strconv.ParseFloat(v, 64)
	if err != nil || math.IsNaN(f) || math.IsInf(f, 0) {
		fe[field] = label + " is a number."
	}
	return f
}

func (fe formErrors) int(c *echo.Context, field, label string) int {
	v := strings.TrimSpace(c.FormValue(field))
	if v == "" {
		return 0
	}
	n, err := strconv.Atoi(v)
	if err != nil {
		fe[field] = label + " is a whole number."
	}
	return n
}

// pesos reads an amount in pesos ("1,500.50") as centavos.
func (fe formErrors) pesos(c *echo.Context, field, label string) palaro.Money {
	v := strings.NewReplacer(",", "", "₱", "", " ", "").Replace(c.FormValue(field))
	if v == "" {
		return 0
	}
	f, err := strconv.ParseFloat(v, 64)
	if err != nil || f < 0 || math.IsInf(f, 0) || math.IsNaN(f) {
		fe[field] = label + " is an amount in pesos, such as 450 or 1,250.50."
		return 0
	}
	return palaro.Money(math.Round(f * 100))
}

// merge adds the validation errors of err to the read errors and returns the combined error.
func (fe formErrors) merge(err error) error {
	if len(fe) == 0 {
		return err
	}
	all := &palaro.Error{Code: palaro.EINVALID, Message: "Please correct the highlighted fields.", Fields: map[string]string{}}
	if e, ok := err.(*palaro.Error); ok && e != nil {
		for k, v := range e.Fields {
			all.Fields[k] = v
		}
	}
	for k, v := range fe {
		all.Fields[k] = v
	}
	return all
}

func lines(s string) []string {
	return strings.FieldsFunc(strings.ReplaceAll(s, "\r", ""), func(r rune) bool { return r == '\n' })
}

// readEventForm reads the event form; read errors come back with the validation's.
func readEventForm(c *echo.Context) (palaro.EventInput, error) {
	fe := formErrors{}
	in := palaro.EventInput{
		Code: c.FormValue(palaro.FieldCode), Name: c.FormValue(palaro.FieldName), Summary: c.FormValue(palaro.FieldSummary),
		Description: c.FormValue(palaro.FieldDescription),
		StartsAt:    fe.time(c, palaro.FieldStartsAt, "Start"), EndsAt: fe.time(c, palaro.FieldEndsAt, "End"),
		Venue: palaro.VenueInput{Name: c.FormValue(palaro.FieldVenueName), Address: c.FormValue(palaro.FieldVenueAddress),
			City: c.FormValue(palaro.FieldVenueCity), Latitude: fe.float(c, palaro.FieldVenueLatitude, "Latitude"),
			Longitude: fe.float(c, palaro.FieldVenueLongitude, "Longitude")},
		Tags:           strings.Split(c.FormValue(palaro.FieldTags), ","),
		RequiredFields: formValues(c, palaro.FieldRequiredFields),
		SurveyQuestion: c.FormValue(palaro.FieldSurveyQuestion),
		SurveyAnswers:  lines(c.FormValue(palaro.FieldSurveyAnswers)),
		Status:         c.FormValue(palaro.FieldStatus),
	}
	for _, l := range lines(c.FormValue(palaro.FieldLinks)) {
		label, u, ok := strings.Cut(l, "|")
		if !ok {
			label, u = "", l
		}
		in.Links = append(in.Links, palaro.LinkInput{Label: label, URL: u})
	}
	if len(fe) == 0 {
		return in, nil
	}
	return in, fe.merge(in.Normalize().Validate())
}

// formValues returns every value of a repeated form field.
func formValues(c *echo.Context, name string) []string {
	if err := c.Request().ParseForm(); err != nil {
		return nil
	}
	return c.Request().PostForm[name]
}

// requiredFieldOptions are the buyer fields an event may require, in the purchase form's order.
var requiredFieldOptions = [][2]string{
	{palaro.FieldFirstName, "First name"}, {palaro.FieldLastName, "Last name"}, {palaro.FieldFullName, "Full name"},
	{palaro.FieldMobileNumber, "Mobile number"}, {palaro.FieldGender, "Gender"}, {palaro.FieldBirthDate, "Birthdate"},
	{palaro.FieldAge, "Age"}, {palaro.FieldCompanyName, "Company name"}, {palaro.FieldDesignation, "Designation"},
	{palaro.FieldEconomicClass, "Monthly income"},
}

// eventForm builds the event form from an input and its error.
func eventForm(action, submit string, in palaro.EventInput, orgs []views.OrgSelect, err error) views.OrgForm {
	text := func(name, label, value string, max int, required bool) views.FormField {
		return views.FormField{Name: name, Label: label, Type: "text", Value: value, MaxLength: max, Required: required,
			Error: fieldError(err, name)}
	}
	num := func(f float64) string {
		if f == 0 {
			return ""
		}
		return strconv.FormatFloat(f, 'f', -1, 64)
	}
	links := make([]string, len(in.Links))
	for i, l := range in.Links {
		links[i] = l.Label + " | " + l.URL
	}
	code := text(palaro.FieldCode, "Code (in the address /e/…)", in.Code, 80, true)
	code.Hint = "Lower-case letters, digits and hyphens, such as mlbb-manila-2026."
	if action == "/organizer/events" { // a new event: the code follows the name until the organizer edits it
		code.SuggestFrom = palaro.FieldName
		code.Required = false
		code.Hint = "Made from the name; change it if you like. Lower-case letters, digits and hyphens."
		if in.Code == "" {
			code.Value = palaro.SuggestEventCode(in.Name)
		}
	}
	main := views.OrgFormSection{Title: "Event", Fields: []views.FormField{
		text(palaro.FieldName, "Name", in.Name, 200, true), code,
		text(palaro.FieldSummary, "Summary (one line)", in.Summary, 300, false),
		{Name: palaro.FieldDescription, Label: "Description", Type: "textarea", Value: in.Description, MaxLength: 20000,
			Error: fieldError(err, palaro.FieldDescription)},
		{Name: palaro.FieldStartsAt, Label: "Starts (Manila time)", Type: "datetime-local", Value: localTime(in.StartsAt),
			Required: true, Error: fieldError(err, palaro.FieldStartsAt)},
		{Name: palaro.FieldEndsAt, Label: "Ends (Manila time)", Type: "datetime-local", Value: localTime(in.EndsAt),
			Required: true, Error: fieldError(err, palaro.FieldEndsAt)},
	}}
	status := views.OrgSelect{Name: palaro.FieldStatus, Label: "Status", Error: fieldError(err, palaro.FieldStatus)}
	for _, st := range palaro.OrganizerStatuses {
		status.Options = append(status.Options, views.SelectOption{Value: st, Label: st, Selected: st == in.Status})
	}
	main.Selects = append(main.Selects, status)
	main.Selects = append(main.Selects, orgs...)
	venue := views.OrgFormSection{Title: "Venue", Fields: []views.FormField{
		text(palaro.FieldVenueName, "Venue name", in.Venue.Name, 200, true),
		text(palaro.FieldVenueAddress, "Address", in.Venue.Address, 300, true),
		text(palaro.FieldVenueCity, "City", in.Venue.City, 100, true),
		{Name: palaro.FieldVenueLatitude, Label: "Latitude", Type: "text", InputMode: "decimal", Value: num(in.Venue.Latitude),
			Hint: "For \"around me\", such as 14.5326.", Error: fieldError(err, palaro.FieldVenueLatitude)},
		{Name: palaro.FieldVenueLongitude, Label: "Longitude", Type: "text", InputMode: "decimal", Value: num(in.Venue.Longitude),
			Hint: "Such as 120.9841.", Error: fieldError(err, palaro.FieldVenueLongitude)},
	}}
	tags := text(palaro.FieldTags, "Tags and games", strings.Join(in.Tags, ", "), 500, false)
	tags.Hint = "Comma-separated, such as valorant, esports."
	more := views.OrgFormSection{Title: "Listing and buyers", Fields: []views.FormField{tags,
		{Name: palaro.FieldLinks, Label: "Links, one per line: Label | https://…", Type: "textarea", Value: strings.Join(links, "\n"),
			MaxLength: 3000, Error: fieldError(err, palaro.FieldLinks)},
		text(palaro.FieldSurveyQuestion, "Survey question (optional)", in.SurveyQuestion, 300, false),
		{Name: palaro.FieldSurveyAnswers, Label: "Survey answers, one per line", Type: "textarea",
			Value: strings.Join(in.SurveyAnswers, "\n"), MaxLength: 3000, Error: fieldError(err, palaro.FieldSurveyAnswers)},
	}}
	req := views.OrgCheckGroup{Name: palaro.FieldRequiredFields, Legend: "Buyer details to ask for",
		Error: fieldError(err, palaro.FieldRequiredFields)}
	for _, o := range requiredFieldOptions {
		req.Options = append(req.Options, views.SelectOption{Value: o[0], Label: o[1], Selected: slices.Contains(in.RequiredFields, o[0])})
	}
	more.Checks = []views.OrgCheckGroup{req}
	return views.OrgForm{Action: action, Submit: submit, Error: formError(err), Sections: []views.OrgFormSection{main, venue, more}}
}

func (s *Server) renderEventForm(c *echo.Context, caller *palaro.Caller, heading, action, submit, back string, in palaro.EventInput, orgID int64, err error) error {
	var orgs []views.OrgSelect
	if strings.HasSuffix(action, "/events") { // a new event chooses its organization; an event stays in its own
		orgs = orgSelect(caller, palaro.ActionManageEvents, orgID)
	}
	v := views.OrgFormView{Frame: orgFrame(c, caller, heading), Form: eventForm(action, submit, in, orgs, err)}
	v.Frame.Back = views.Link{Label: "Back", Href: back}
	return render(c, statusOfForm(err), views.OrgFormPage(s.orgPage(c, heading), v))
}

func (s *Server) orgNewEventPage(c *echo.Context, caller *palaro.Caller) error {
	now := s.Now().In(palaro.Manila)
	start := time.Date(now.Year(), now.Month(), now.Day()+30, 18, 0, 0, 0, palaro.Manila)
	in := palaro.EventInput{Status: palaro.EventDraft, StartsAt: start, EndsAt: start.Add(4 * time.Hour),
		RequiredFields: []string{palaro.FieldFullName, palaro.FieldMobileNumber}}
	return s.renderEventForm(c, caller, "Create an event", "/organizer/events", "Create event", "/organizer", in, 0, nil)
}

func (s *Server) orgCreateEvent(c *echo.Context, caller *palaro.Caller) error {
	in, err := readEventForm(c)
	if strings.TrimSpace(in.Code) == "" {
		in.Code = palaro.SuggestEventCode(in.Name) // the page script fills it as the name is typed; without it, here
	}
	orgID, oerr := chosenOrg(c, caller, palaro.ActionManageEvents)
	if oerr != nil {
		return oerr
	}
	if err == nil {
		var ev *palaro.Event
		ev, err = s.services.Organizers.CreateEvent(c.Request().Context(), orgID, caller.Actor(), in)
		if err == nil {
			s.eventsChanged()
			return c.Redirect(http.StatusSeeOther, "/organizer/events/"+ev.Code+"?notice=created")
		}
	}
	if _, ok := userFacing(err); !ok {
		return err
	}
	return s.renderEventForm(c, caller, "Create an event", "/organizer/events", "Create event", "/organizer", in.Normalize(), orgID, err)
}

func (s *Server) orgEditEventPage(c *echo.Context, caller *palaro.Caller) error {
	ev, err := s.orgEvent(c, caller)
	if err != nil {
		return err
	}
	base := "/organizer/events/" + ev.Code
	return s.renderEventForm(c, caller, "Edit "+ev.Name, base, "Save", base, palaro.EventInputOf(ev), ev.Organizer.ID, nil)
}

func (s *Server) orgUpdateEvent(c *echo.Context, caller *palaro.Caller) error {
	ev, err := s.orgEvent(c, caller)
	if err != nil {
		return err
	}
	in, err := readEventForm(c)
	if err == nil {
		var saved *palaro.Event
		saved, err = s.services.Organizers.UpdateEvent(c.Request().Context(), ev.ID, caller.Actor(), in)
		if err == nil {
			s.eventsChanged()
			return c.Redirect(http.StatusSeeOther, "/organizer/events/"+saved.Code+"?notice="+savedNotice(ev, saved, "saved"))
		}
	}
	if _, ok := userFacing(err); !ok {
		return err
	}
	base := "/organizer/events/" + ev.Code
	return s.renderEventForm(c, caller, "Edit "+ev.Name, base, "Save", base, in.Normalize(), ev.Organizer.ID, err)
}

// ---- Ticket types

func readTicketTypeForm(c *echo.Context) (palaro.TicketTypeInput, error) {
	fe := formErrors{}
	in := palaro.TicketTypeInput{
		Code: c.FormValue(palaro.FieldCode), Name: c.FormValue(palaro.FieldName), Description: c.FormValue(palaro.FieldDescription),
		Price:          fe.pesos(c, palaro.FieldPrice, "Price"),
		Discount:       fe.float(c, palaro.FieldDiscount, "Discount") / 100,
		Capacity:       fe.int(c, palaro.FieldCapacity, "Capacity"),
		MaxPurchasable: fe.int(c, palaro.FieldMaxPurchasable, "Per-buyer maximum"),
		SalesStart:     fe.time(c, palaro.FieldSalesStart, "Sales start"),
		SalesEnd:       fe.time(c, palaro.FieldSalesEnd, "Sales end"),
		PaymentTypes:   formValues(c, palaro.FieldPaymentTypes),
		Disclaimer:     c.FormValue("disclaimer"),
		Seated:         c.FormValue("seated") != "",
		WithSurvey:     c.FormValue("withSurvey") != "",
		ShowPromoField: c.FormValue("showPromoField") != "",
		PassKind:       c.FormValue(palaro.FieldPassKind),
		PassDates:      fe.int(c, palaro.FieldPassDates, "Number of dates"),
		PassOf:         c.FormValue(palaro.FieldPassOf),
	}
	senior := c.FormValue("seniorPwdDiscount") != ""
	in.SeniorPWDDiscount = &senior
	if len(fe) == 0 {
		return in, nil
	}
	return in, fe.merge(in.Normalize().Validate())
}

// passChoice is what a ticket type form of a series offers for a pass: the event's number of
// dates and the day ticket types a pass can take the places of.
type passChoice struct {
	dates    int
	dayTypes []palaro.TicketType
}

// passChoiceOf returns the pass part of a ticket type form of the event, nil for a single-date
// event (no pass there); code is the type being edited ("" for a new one), never its own choice.
func (s *Server) passChoiceOf(c *echo.Context, ev *palaro.Event, code string) (*passChoice, error) {
	dates, err := s.services.Series.ListEventDates(c.Request().Context(), ev.ID)
	if err != nil || len(dates) == 0 {
		return nil, err
	}
	pc := &passChoice{dates: len(dates)}
	for _, tt := range ev.TicketTypes {
		if !tt.IsPass() && tt.Code != code {
			pc.dayTypes = append(pc.dayTypes, tt)
		}
	}
	return pc, nil
}

// section is the form's "Season pass" part: its kind, number of dates and day ticket.
func (pc *passChoice) section(in palaro.TicketTypeInput, err error) views.OrgFormSection {
	kind := views.OrgSelect{Name: palaro.FieldPassKind, Label: "Season pass", Error: fieldError(err, palaro.FieldPassKind)}
	for _, o := range [][2]string{{"", "No: a ticket for one date"}, {palaro.PassEvery, "Every date"},
		{palaro.PassCount, "A number of dates the holder picks"}} {
		kind.Options = append(kind.Options, views.SelectOption{Value: o[0], Label: o[1], Selected: in.PassKind == o[0]})
	}
	of := views.OrgSelect{Name: palaro.FieldPassOf, Label: "Takes the places (and seats) of", Error: fieldError(err, palaro.FieldPassOf),
		Options: []views.SelectOption{{Value: "", Label: "Choose a day ticket", Selected: in.PassOf == ""}}}
	for _, tt := range pc.dayTypes {
		of.Options = append(of.Options, views.SelectOption{Value: tt.Code, Label: tt.Name, Selected: in.PassOf == tt.Code})
	}
	dates := ""
	if in.PassDates > 0 {
		dates = strconv.Itoa(in.PassDates)
	}
	return views.OrgFormSection{Title: "Season pass", SelectsFirst: true, Selects: []views.OrgSelect{kind, of},
		Fields: []views.FormField{{Name: palaro.FieldPassDates, Label: "Number of dates", Type: "text", InputMode: "numeric",
			Value: dates, MaxLength: 3, Error: fieldError(err, palaro.FieldPassDates),
			Hint: fmt.Sprintf("For a pass of a number of dates: from 2 to the event's %d.", pc.dates)}}}
}

func ticketTypeForm(action, submit string, in palaro.TicketTypeInput, pass *passChoice, err error) views.OrgForm {
	field := func(name, label, typ, value, hint string, max int) views.FormField {
		return views.FormField{Name: name, Label: label, Type: typ, Value: value, Hint: hint, MaxLength: max,
			Error: fieldError(err, name)}
	}
	discount := ""
	if in.Discount > 0 {
		discount = strconv.FormatFloat(math.Round(in.Discount*10000)/100, 'f', -1, 64)
	}
	price := in.Price.Decimal()
	main := views.OrgFormSection{Title: "Ticket type", Fields: []views.FormField{
		field(palaro.FieldName, "Name", "text", in.Name, "", 200),
		field(palaro.FieldCode, "Code (in the address /b/…)", "text", in.Code, "Lower-case letters, digits and hyphens; unique on Palaro.", 80),
		field(palaro.FieldDescription, "Description", "textarea", in.Description, "", 2000),
		field(palaro.FieldPrice, "Price in pesos", "text", price, "0 for a free ticket.", 20),
		field(palaro.FieldDiscount, "Discount in percent", "text", discount, "Such as 15 for 15% off; empty for none.", 6),
		field(palaro.FieldCapacity, "Capacity", "number", strconv.Itoa(in.Capacity), "It cannot go below the tickets sold plus those held.", 8),
		field(palaro.FieldMaxPurchasable, "Per-buyer maximum", "number", strconv.Itoa(in.MaxPurchasable), "", 3),
		field(palaro.FieldSalesStart, "Sales start (Manila time)", "datetime-local", localTime(in.SalesStart), "Empty: on sale at once.", 0),
		field(palaro.FieldSalesEnd, "Sales end (Manila time)", "datetime-local", localTime(in.SalesEnd), "Empty: until the event.", 0),
		field("disclaimer", "Disclaimer the buyer must accept (optional)", "textarea", in.Disclaimer, "", 1000),
	}}
	for i := range main.Fields {
		if main.Fields[i].Type == "number" {
			main.Fields[i].Type, main.Fields[i].InputMode = "text", "numeric"
		}
	}
	pay := views.OrgCheckGroup{Name: palaro.FieldPaymentTypes, Legend: "Payment types", Error: fieldError(err, palaro.FieldPaymentTypes)}
	for _, t := range palaro.PaymentTypes {
		pay.Options = append(pay.Options, views.SelectOption{Value: t, Label: palaro.PaymentTypeName(t), Selected: slices.Contains(in.PaymentTypes, t)})
	}
	main.Checks = []views.OrgCheckGroup{pay}
	main.Booleans = []views.FormCheckbox{
		{Name: "seated", Label: "Seated: buyers choose seats on a seat map (laid out on this page once saved)", Checked: in.Seated},
		{Name: "withSurvey", Label: "Ask the event's survey question", Checked: in.WithSurvey},
		{Name: "showPromoField", Label: "Show the promo code field", Checked: in.ShowPromoField},
		{Name: "seniorPwdDiscount", Label: "Admission: senior citizens and persons with disability get the law's discount " +
			"(RA 9994, RA 10754). Turn off for parking, merchandise and other add-ons.", Checked: in.AppliesSeniorPWD()},
	}
	sections := []views.OrgFormSection{main}
	if pass != nil {
		sections = append(sections, pass.section(in, err))
	}
	return views.OrgForm{Action: action, Submit: submit, Error: formError(err), Sections: sections}
}

func (s *Server) renderTicketTypeForm(c *echo.Context, caller *palaro.Caller, ev *palaro.Event, heading, action, submit string, in palaro.TicketTypeInput, err error) error {
	pass, perr := s.passChoiceOf(c, ev, "")
	if perr != nil {
		return perr
	}
	v := views.OrgFormView{Frame: eventFrame(c, caller, ev, heading), Form: ticketTypeForm(action, submit, in, pass, err)}
	return render(c, statusOfForm(err), views.OrgFormPage(s.orgPage(c, heading), v))
}

func (s *Server) orgNewTicketTypePage(c *echo.Context, caller *palaro.Caller) error {
	ev, err := s.orgEvent(c, caller)
	if err != nil {
		return err
	}
	in := palaro.TicketTypeInput{Code: fmt.Sprintf("%s-%d", ev.Code, len(ev.TicketTypes)+1), MaxPurchasable: 10, Capacity: 100,
		PaymentTypes: []string{palaro.PaymentQR, palaro.PaymentCard}}
	return s.renderTicketTypeForm(c, caller, ev, "New ticket type", "/organizer/events/"+ev.Code+"/ticket-types", "Add ticket type", in, nil)
}

func (s *Server) orgCreateTicketType(c *echo.Context, caller *palaro.Caller) error {
	ev, err := s.orgEvent(c, caller)
	if err != nil {
		return err
	}
	in, err := readTicketTypeForm(c)
	if err == nil {
		if _, err = s.services.Organizers.CreateTicketType(c.Request().Context(), ev.ID, caller.Actor(), in); err == nil {
			s.eventsChanged()
			return c.Redirect(http.StatusSeeOther, "/organizer/events/"+ev.Code+"?notice=saved")
		}
	}
	if _, ok := userFacing(err); !ok {
		return err
	}
	return s.renderTicketTypeForm(c, caller, ev, "New ticket type", "/organizer/events/"+ev.Code+"/ticket-types", "Add ticket type", in.Normalize(), err)
}

func (s *Server) orgEditTicketTypePage(c *echo.Context, caller *palaro.Caller) error {
	ev, err := s.orgEvent(c, caller)
	if err != nil {
		return err
	}
	tt, err := orgTicketType(c, ev)
	if err != nil {
		return err
	}
	return s.renderTicketTypeEdit(c, caller, ev, tt, palaro.TicketTypeInputOf(*tt), nil, "", http.StatusOK)
}

// renderTicketTypeEdit renders a ticket type's edit page, with its seat grid when it is seated;
// seatErr is the message of a refused change of blocked seats.
func (s *Server) renderTicketTypeEdit(c *echo.Context, caller *palaro.Caller, ev *palaro.Event, tt *palaro.TicketType,
	in palaro.TicketTypeInput, err error, seatErr string, status int) error {
	return s.renderTicketTypeEditPlan(c, caller, ev, tt, in, err, seatErr, nil, status)
}

// renderTicketTypeEditPlan is renderTicketTypeEdit with the seat grid showing plan, a refused one,
// when it is not nil.
func (s *Server) renderTicketTypeEditPlan(c *echo.Context, caller *palaro.Caller, ev *palaro.Event, tt *palaro.TicketType,
	in palaro.TicketTypeInput, err error, seatErr string, plan *palaro.SeatPlan, status int) error {
	action := "/organizer/events/" + ev.Code + "/ticket-types/" + tt.Code
	heading := "Edit " + tt.Name
	pass, perr := s.passChoiceOf(c, ev, tt.Code)
	if perr != nil {
		return perr
	}
	v := views.OrgFormView{Frame: eventFrame(c, caller, ev, heading), Form: ticketTypeForm(action, "Save", in, pass, err)}
	if tt.Seated {
		grid, gerr := s.seatGrid(c, tt, action+"/seats", plan)
		if gerr != nil {
			return gerr
		}
		if grid != nil {
			grid.Error = seatErr
			v.Seats = grid
		}
	}
	if err != nil {
		status = statusOfForm(err)
	}
	return render(c, status, views.OrgFormPage(s.orgPage(c, heading), v))
}

// seatGrid builds the console's seat grid of a seated ticket type from its plan (or from plan, the
// one refused, when it is not nil).
func (s *Server) seatGrid(c *echo.Context, tt *palaro.TicketType, action string, plan *palaro.SeatPlan) (*views.OrgSeatGrid, error) {
	ctx := c.Request().Context()
	rows, err := s.services.Seats.SeatMap(ctx, tt.ID)
	if palaro.ErrorCode(err) == palaro.ENOTFOUND {
		return nil, nil
	} else if err != nil {
		return nil, err
	}
	p, err := s.services.Seats.SeatPlan(ctx, tt.ID)
	if err != nil {
		return nil, err
	}
	if plan != nil {
		p = *plan
	}
	taken := map[string]bool{}
	for _, r := range rows {
		for _, seat := range r.Seats {
			if seat.Status != palaro.SeatAvailable && !slices.Contains(p.Blocked, seat.Label) {
				taken[seat.Label] = true
			}
		}
	}
	g := &views.OrgSeatGrid{Action: action, RowCount: p.Rows, SeatsPerRow: p.SeatsPerRow, Sellable: p.Sellable(),
		MaxRows: palaro.MaxSeatRows, MaxSeatsPerRow: palaro.MaxSeatsInRow}
	for n := 1; n <= p.SeatsPerRow; n++ {
		g.Columns = append(g.Columns, views.OrgSeatColumn{Number: n, Aisle: slices.Contains(p.AisleAfter, n), Last: n == p.SeatsPerRow})
	}
	for i, r := range p.Seats() {
		row := views.OrgSeatRow{Row: r.Row, GapAfter: slices.Contains(p.GapAfterRows, r.Row), Last: i == p.Rows-1}
		for _, seat := range r.Seats {
			row.Seats = append(row.Seats, views.OrgSeatCell{Label: seat.Label, Number: seat.Number,
				Blocked: slices.Contains(p.Blocked, seat.Label), Taken: taken[seat.Label],
				AisleAfter: slices.Contains(p.AisleAfter, seat.Number)})
		}
		g.Rows = append(g.Rows, row)
	}
	return g, nil
}

// readSeatPlan reads the console's seat grid: rows, seats per row, the aisles, empty rows and
// blocked seats ticked; ticks outside the new size are dropped (the grid was smaller or larger).
func readSeatPlan(c *echo.Context) (palaro.SeatPlan, error) {
	var p palaro.SeatPlan
	var err error
	number := func(name, msg string) int {
		n, e := strconv.Atoi(strings.TrimSpace(c.FormValue(name)))
		if e != nil && err == nil {
			err = &palaro.Error{Code: palaro.EINVALID, Message: msg, Fields: map[string]string{name: msg}}
		}
		return n
	}
	p.Rows = number("rows", "Rows must be a whole number.")
	p.SeatsPerRow = number("seatsPerRow", "Seats per row must be a whole number.")
	if err != nil {
		return p, err
	}
	for _, v := range formValues(c, "aisleAfter") {
		if n, e := strconv.Atoi(v); e == nil && n >= 1 && n < p.SeatsPerRow {
			p.AisleAfter = append(p.AisleAfter, n)
		}
	}
	for _, v := range formValues(c, "gapAfterRows") {
		if i := slices.Index(rowLabels(p.Rows-1), strings.ToUpper(v)); i >= 0 {
			p.GapAfterRows = append(p.GapAfterRows, strings.ToUpper(v))
		}
	}
	for _, v := range formValues(c, "blocked") {
		if p.Rows >= 1 && p.Rows <= palaro.MaxSeatRows && p.SeatsPerRow >= 1 && p.SeatsPerRow <= palaro.MaxSeatsInRow && p.Has(strings.ToUpper(v)) {
			p.Blocked = append(p.Blocked, v)
		}
	}
	return p.Normalize(), nil
}

// rowLabels returns the labels of the first n rows.
func rowLabels(n int) []string {
	out := make([]string, 0, max(n, 0))
	for i := range min(max(n, 0), palaro.MaxSeatRows) {
		out = append(out, palaro.RowLabel(i))
	}
	return out
}

// orgSetBlockedSeats saves the console's seat grid: the whole plan when the form has its size, else
// (an older form) only the blocked seats.
func (s *Server) orgSetBlockedSeats(c *echo.Context, caller *palaro.Caller) error {
	ev, err := s.orgEvent(c, caller)
	if err != nil {
		return err
	}
	tt, err := orgTicketType(c, ev)
	if err != nil {
		return err
	}
	ctx := c.Request().Context()
	var refused *palaro.SeatPlan
	if c.FormValue("rows") == "" && c.FormValue("seatsPerRow") == "" {
		err = s.services.Organizers.SetBlockedSeats(ctx, ev.ID, tt.Code, caller.Actor(), formValues(c, "blocked"))
	} else {
		var p palaro.SeatPlan
		if p, err = readSeatPlan(c); err == nil {
			err = s.services.Organizers.SetSeatPlan(ctx, ev.ID, tt.Code, caller.Actor(), p)
		}
		if p.Rows >= 1 && p.Rows <= palaro.MaxSeatRows && p.SeatsPerRow >= 1 && p.SeatsPerRow <= palaro.MaxSeatsInRow {
			refused = &p
		}
	}
	if _, ok := userFacing(err); ok && palaro.ErrorCode(err) == palaro.EINVALID {
		return s.renderTicketTypeEditPlan(c, caller, ev, tt, palaro.TicketTypeInputOf(*tt), nil, palaro.ErrorMessage(err), refused, http.StatusUnprocessableEntity)
	} else if err != nil {
		return err
	}
	s.eventsChanged()
	return c.Redirect(http.StatusSeeOther, "/organizer/events/"+ev.Code+"/ticket-types/"+tt.Code+"/edit?notice=saved#seats")
}

func (s *Server) orgUpdateTicketType(c *echo.Context, caller *palaro.Caller) error {
	ev, err := s.orgEvent(c, caller)
	if err != nil {
		return err
	}
	tt, err := orgTicketType(c, ev)
	if err != nil {
		return err
	}
	in, err := readTicketTypeForm(c)
	if err == nil {
		if _, err = s.services.Organizers.UpdateTicketType(c.Request().Context(), ev.ID, tt.Code, caller.Actor(), in); err == nil {
			s.eventsChanged()
			return c.Redirect(http.StatusSeeOther, "/organizer/events/"+ev.Code+"?notice=saved")
		}
	}
	if _, ok := userFacing(err); !ok {
		return err
	}
	return s.renderTicketTypeEdit(c, caller, ev, tt, in.Normalize(), err, "", http.StatusOK)
}
