package handlers

import (
	"cmp"
	"fmt"
	"net/http"
	"strconv"

	"github.com/labstack/echo/v5"

	"palaro"
	"palaro/views"
)

// selfCancelForm is the console's form of an event's self-cancel settings, with the values typed
// and the errors of a refused save.
func selfCancelForm(base string, p palaro.SelfCancelPolicy, err error, typed map[string]string) views.Form {
	f := views.Form{ID: "self-cancel-form", Action: base + "/cancellations", Submit: "Save",
		Lead: []views.FormCheckbox{{Name: "enabled", Label: "Let buyers cancel their own orders", Checked: p.Enabled}},
		Fields: []views.FormField{
			{Name: palaro.FieldSelfCancelHours, Label: "Until how many hours before the start", Type: "text", InputMode: "numeric",
				MaxLength: 4, Required: true, Value: strconv.Itoa(p.HoursBefore), Hint: "24 closes cancelling a day before the event starts."},
			{Name: palaro.FieldSelfCancelFee, Label: "Fixed fee you keep (₱)", Type: "text", InputMode: "decimal", MaxLength: 12,
				Value: p.Fee.Decimal(), Hint: "Per cancelled order; 0 for none."},
			{Name: palaro.FieldSelfCancelPercent, Label: "Percentage you keep (%)", Type: "text", InputMode: "decimal", MaxLength: 6,
				Value: strconv.FormatFloat(float64(p.PercentBP)/100, 'f', -1, 64), Hint: "Of what was paid, 0 to 100; added to the fixed fee."},
		}}
	var perr *palaro.Error
	if err != nil {
		perr, _ = err.(*palaro.Error)
		f.Error = palaro.ErrorMessage(err)
	}
	for i := range f.Fields {
		if v, ok := typed[f.Fields[i].Name]; ok {
			f.Fields[i].Value = v
		}
		if perr != nil {
			f.Fields[i].Error = perr.Fields[f.Fields[i].Name]
		}
	}
	return f
}

// orgSelfCancelPage shows an event's self-cancel settings and its open face-value returns.
func (s *Server) orgSelfCancelPage(c *echo.Context, caller *palaro.Caller) error {
	ev, err := s.orgEvent(c, caller)
	if err != nil {
		return err
	}
	p, err := s.services.Returns.SelfCancelPolicy(c.Request().Context(), ev.ID)
	if err != nil {
		return err
	}
	return s.renderOrgSelfCancel(c, caller, ev, http.StatusOK, selfCancelForm("/organizer/events/"+ev.Code, p, nil, nil))
}

func (s *Server) renderOrgSelfCancel(c *echo.Context, caller *palaro.Caller, ev *palaro.Event, status int, form views.Form) error {
	base := "/organizer/events/" + ev.Code
	v := views.OrgSelfCancelView{Frame: orgFrame(c, caller, "Cancellations and returns · "+ev.Name), Form: form}
	v.Frame.Back = views.Link{Label: ev.Name, Href: base}
	if c.QueryParam("notice") == "saved" && form.Error == "" {
		v.Frame.Notice = "Saved. Buyers see the new rule on their order pages at once."
	}
	returns, err := s.services.Returns.EventReturns(c.Request().Context(), ev.ID)
	if err != nil {
		return err
	}
	for _, r := range returns {
		switch r.Status {
		case palaro.ReturnOpen:
			v.Returns = append(v.Returns, fmt.Sprintf("Ticket %s (%s) returned %s: waiting for a new buyer.",
				r.TicketCode, r.Amount, r.CreatedAt.In(palaro.Manila).Format(offerTimeFormat)))
		case palaro.ReturnSold:
			v.Returns = append(v.Returns, fmt.Sprintf("Ticket %s (%s) sold again %s: its buyer's refund is %s.",
				r.TicketCode, r.Amount, r.ClosedAt.In(palaro.Manila).Format(offerTimeFormat), cmp.Or(r.RefundStatus, "pending")))
		case palaro.ReturnRefunded:
			v.Returns = append(v.Returns, fmt.Sprintf("Ticket %s (%s) refunded with its order %s before anyone bought it: the refund is %s.",
				r.TicketCode, r.Amount, r.ClosedAt.In(palaro.Manila).Format(offerTimeFormat), cmp.Or(r.RefundStatus, "pending")))
		}
	}
	return render(c, status, views.OrgSelfCancel(s.orgPage(c, "Cancellations and returns · "+ev.Name), v))
}

// orgSelfCancelSave saves an event's self-cancel settings from the console's form.
func (s *Server) orgSelfCancelSave(c *echo.Context, caller *palaro.Caller) error {
	ev, err := s.orgEvent(c, caller)
	if err != nil {
		return err
	}
	base := "/organizer/events/" + ev.Code
	typed := map[string]string{}
	for _, name := range []string{palaro.FieldSelfCancelHours, palaro.FieldSelfCancelFee, palaro.FieldSelfCancelPercent} {
		typed[name] = c.FormValue(name)
	}
	enabled := c.FormValue("enabled") != ""
	p, err := palaro.ParseSelfCancelPolicy(enabled, typed[palaro.FieldSelfCancelHours], typed[palaro.FieldSelfCancelFee],
		typed[palaro.FieldSelfCancelPercent])
	if err == nil {
		err = s.services.Returns.SetSelfCancelPolicy(c.Request().Context(), ev.ID, p, caller.Actor(), s.Now())
	}
	if err != nil {
		if palaro.ErrorCode(err) != palaro.EINVALID {
			return err
		}
		return s.renderOrgSelfCancel(c, caller, ev, http.StatusUnprocessableEntity, selfCancelForm(base, p, err, typed))
	}
	return c.Redirect(http.StatusSeeOther, base+"/cancellations?notice=saved")
}

// selfCancelJSON is an event's self-cancel settings in the organizer API.
type selfCancelJSON struct {
	Enabled     bool         `json:"enabled"`
	HoursBefore int          `json:"hoursBefore"`
	Fee         palaro.Money `json:"fee"`
	Percent     float64      `json:"percent"`
}

// apiOrgSelfCancel answers an event's self-cancel settings; PATCH changes the fields sent
// (enabled, hoursBefore, fee in centavos, percent 0–100) and answers the result.
func (s *Server) apiOrgSelfCancel(c *echo.Context, caller *palaro.Caller) error {
	ev, err := s.orgEvent(c, caller)
	if err != nil {
		return err
	}
	ctx := c.Request().Context()
	p, err := s.services.Returns.SelfCancelPolicy(ctx, ev.ID)
	if err != nil {
		return err
	}
	if c.Request().Method == http.MethodPatch {
		var in palaro.SelfCancelChange
		if err := decodeJSONStrict(c, &in); err != nil {
			return err
		}
		if p, err = in.Apply(p); err != nil {
			return apiError(err)
		}
		if err := s.services.Returns.SetSelfCancelPolicy(ctx, ev.ID, p, caller.Actor(), s.Now()); err != nil {
			return err
		}
		if !p.Enabled {
			p = palaro.SelfCancelPolicy{} // off keeps no settings
		}
	}
	return c.JSON(http.StatusOK, selfCancelJSON{Enabled: p.Enabled, HoursBefore: p.HoursBefore, Fee: p.Fee,
		Percent: float64(p.PercentBP) / 100})
}
