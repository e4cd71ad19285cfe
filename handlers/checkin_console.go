package handlers

import (
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"

	"github.com/labstack/echo/v5"

	"palaro"
	"palaro/views"
)

// gatePage renders /organizer/events/{code}/check-in: the scanner island for a phone.
func (s *Server) gatePage(c *echo.Context, caller *palaro.Caller) error {
	ev, err := s.orgEvent(c, caller)
	if err != nil {
		return err
	}
	base := "/organizer/events/" + ev.Code
	v := views.GateView{Frame: orgFrame(c, caller, "Gate · "+ev.Name), Props: views.GateProps{EventCode: ev.Code, EventName: ev.Name,
		PublicKey: s.ticketPublicKey(), PublicKeys: s.ticketPublicKeys(), ListURL: "/v1" + base + "/gate-list", ConsoleHref: base + "/check-ins",
		Member:      strconv.FormatInt(caller.UserID, 10),
		TicketTypes: []views.GateTicketType{}}}
	v.Frame.Back = views.Link{Label: "Your events", Href: "/organizer"}
	avail, err := s.services.Series.ListDateAvailability(c.Request().Context(), ev.ID) // none for a single-date event
	if err != nil {
		return err
	}
	for _, tt := range ev.TicketTypes {
		if !tt.Seated {
			gt := views.GateTicketType{Code: tt.Code, Name: tt.Name, Price: tt.FinalPrice().String(), Centavos: int64(tt.FinalPrice()),
				Max: boxOfficeLimit(tt, max(tt.Capacity-tt.Sold-tt.Held, 0))}
			for _, a := range avail {
				if gt.MaxByDate == nil {
					gt.MaxByDate = map[string]int{}
				}
				left := 0
				if st, ok := a.Of(tt.ID); ok {
					left = st.Available()
				}
				if tt.PassKind != "" { // a pass has its own places too, on its type
					left = min(left, max(tt.Capacity-tt.Sold-tt.Held, 0))
				}
				gt.MaxByDate[a.Date.Slug] = boxOfficeLimit(tt, left)
			}
			v.Props.TicketTypes = append(v.Props.TicketTypes, gt)
		}
	}
	dates, date, err := s.gateDate(c, ev, "")
	if err != nil {
		return err
	}
	v.Props.Dates, v.Props.Date = dates, date.Slug
	p := s.orgPage(c, "Gate · "+ev.Name)
	p.Islands = []string{"gate"}
	allowWasm(c)
	return render(c, http.StatusOK, views.GatePage(p, v))
}

// boxOfficeLimit is how many tickets of tt one box-office sale may have with left places: at
// most its per-buyer maximum.
func boxOfficeLimit(tt palaro.TicketType, left int) int {
	if tt.MaxPurchasable > 0 {
		return min(left, tt.MaxPurchasable)
	}
	return left
}

// gateDate returns, for a series, the dates a gate can admit to (not cancelled, by start) and
// the one chosen: slug when given (EINVALID when the series has no such date), else the one the
// gate opens on now (palaro.GateDate). A single-date event has neither (chosen's Slug "").
func (s *Server) gateDate(c *echo.Context, ev *palaro.Event, slug string) (options []views.GateDateOption, chosen views.GateDateOption, err error) {
	all, err := s.services.Series.ListEventDates(c.Request().Context(), ev.ID)
	if err != nil || len(all) == 0 {
		return nil, chosen, err
	}
	var on *palaro.EventDate
	if slug == "" {
		on = palaro.GateDate(all, s.Now())
	} else if i := slices.IndexFunc(all, func(d palaro.EventDate) bool { return d.Slug == slug }); i >= 0 {
		on = &all[i]
	} else {
		return nil, chosen, &palaro.Error{Code: palaro.EINVALID, Message: palaro.MsgDateUnknown, Fields: map[string]string{palaro.FieldDate: palaro.MsgDateUnknown}}
	}
	if on != nil {
		chosen = views.GateDateOption{Slug: on.Slug, Label: palaro.GateDateLabel(*on)}
	}
	options = []views.GateDateOption{}
	for _, d := range all {
		if d.Status != palaro.DateCancelled {
			options = append(options, views.GateDateOption{Slug: d.Slug, Label: palaro.GateDateLabel(d)})
		}
	}
	return options, chosen, nil
}

// checkInCounts builds the live counts of an event; for a series, of its date slug ("": the
// gate's date now), with the dates to pick from.
func (s *Server) checkInCounts(c *echo.Context, ev *palaro.Event, slug string) (views.CheckInCountsView, []views.GateDateOption, error) {
	dates, date, err := s.gateDate(c, ev, slug)
	if err != nil {
		return views.CheckInCountsView{}, nil, err
	}
	counts, err := s.services.CheckIns.CheckInCounts(c.Request().Context(), ev.ID, date.Slug)
	if err != nil {
		return views.CheckInCountsView{}, nil, err
	}
	live := "/organizer/events/" + ev.Code + "/check-ins/live"
	if date.Slug != "" {
		live += "?date=" + url.QueryEscape(date.Slug)
	}
	v := views.CheckInCountsView{LiveURL: live, Date: date.Slug, DateLabel: date.Label, CheckedIn: counts.CheckedIn,
		Sold: counts.Sold, Conflicts: counts.Conflicts, TimeCorrected: counts.TimeCorrected}
	for _, g := range counts.ByGate {
		v.ByGate = append(v.ByGate, views.CheckInCountRow(g))
	}
	for _, g := range counts.ByType {
		v.ByType = append(v.ByType, views.CheckInCountRow(g))
	}
	return v, dates, nil
}

// checkInsPage renders /organizer/events/{code}/check-ins: live counts, conflicts and undo.
func (s *Server) checkInsPage(c *echo.Context, caller *palaro.Caller) error {
	ev, err := s.orgEvent(c, caller)
	if err != nil {
		return err
	}
	base := "/organizer/events/" + ev.Code
	v := views.CheckInsView{Frame: orgFrame(c, caller, "Check-in · "+ev.Name), GateHref: base + "/check-in"}
	v.Frame.Back = views.Link{Label: "Your events", Href: "/organizer"}
	if caller.Can(ev.Organizer.ID, palaro.ActionOrders) {
		v.UndoAction = base + "/check-ins/undo"
	}
	var dates []views.GateDateOption
	if v.Counts, dates, err = s.checkInCounts(c, ev, strings.TrimSpace(c.QueryParam("date"))); err != nil {
		return err
	}
	v.Date = views.OrgSelect{Name: "date", Label: "Date"}
	for _, d := range dates {
		v.Date.Options = append(v.Date.Options, views.SelectOption{Value: d.Slug, Label: d.Label, Selected: d.Slug == v.Counts.Date})
	}
	conflicts, err := s.services.CheckIns.CheckInConflicts(c.Request().Context(), ev.ID)
	if err != nil {
		return err
	}
	for _, r := range conflicts {
		v.Conflicts = append(v.Conflicts, views.CheckInConflictView{Code: r.Code, Holder: r.HolderName, TicketType: r.TicketType,
			First:  palaro.GateName(r.FirstGate) + " at " + manilaTime(r.FirstAt),
			Second: palaro.GateName(r.SecondGate) + " at " + manilaTime(r.SecondAt) + " (synced " + manilaTime(r.SyncedAt) + ")"})
	}
	on := ""
	if v.Counts.DateLabel != "" {
		on = " on " + v.Counts.DateLabel
	}
	switch c.QueryParam("notice") {
	case "undone":
		v.Frame.Notice = "The check-in" + on + " is undone: the ticket is valid again."
	case "not-checked-in":
		v.Frame.Notice = "That ticket is not checked in" + on + "."
	}
	return render(c, http.StatusOK, views.CheckInsPage(s.orgPage(c, "Check-in · "+ev.Name), v))
}

// checkInsLive answers the htmx refresh of the live counts.
func (s *Server) checkInsLive(c *echo.Context, caller *palaro.Caller) error {
	ev, err := s.orgEvent(c, caller)
	if err != nil {
		return err
	}
	v, _, err := s.checkInCounts(c, ev, strings.TrimSpace(c.QueryParam("date")))
	if err != nil {
		return err
	}
	return render(c, http.StatusOK, views.CheckInCounts(v))
}

// undoCheckIn lets a manager make a checked-in ticket valid again (a scan by mistake); for a
// series, on the date the page shows (the form's date), then shows that date again.
func (s *Server) undoCheckIn(c *echo.Context, caller *palaro.Caller) error {
	ev, err := s.orgEvent(c, caller)
	if err != nil {
		return err
	}
	code, _ := palaro.ParseTicketInput(s.ticketKeys(), c.FormValue("ticket"))
	date := strings.TrimSpace(c.FormValue("date"))
	notice := "undone"
	err = s.services.CheckIns.UndoCheckIn(c.Request().Context(), ev.ID, strings.ToUpper(code), date, caller.Actor(), s.Now())
	switch palaro.ErrorCode(err) {
	case "":
	case palaro.ECONFLICT, palaro.ENOTFOUND:
		notice = "not-checked-in"
	default:
		return err
	}
	back := "/organizer/events/" + url.PathEscape(ev.Code) + "/check-ins?notice=" + notice
	if date != "" {
		back += "&date=" + url.QueryEscape(date)
	}
	return c.Redirect(http.StatusSeeOther, back)
}

// allowWasm lets the page compile WebAssembly, the QR decoder of browsers without BarcodeDetector:
// only the pages with a camera scanner (the gate, activities, the booth) have this exception.
func allowWasm(c *echo.Context) {
	h := c.Response().Header()
	h.Set("Content-Security-Policy", strings.Replace(h.Get("Content-Security-Policy"), "script-src ", "script-src 'wasm-unsafe-eval' ", 1))
}

// cameraScan returns the camera-scan island's props for mode ("booth" or "participant").
func (s *Server) cameraScan(mode string) views.CameraScanProps {
	p := views.CameraScanProps{Mode: mode, Origins: []string{}}
	if u, err := url.Parse(s.config.BaseURL); err == nil && u.Scheme != "" && u.Host != "" {
		p.Origins = append(p.Origins, u.Scheme+"://"+u.Host)
	}
	if mode == "participant" {
		p.FormID, p.InputID = "booth-form", "participant"
	}
	return p
}
