package handlers

import (
	"fmt"
	"net/http"
	"slices"
	"strconv"

	"github.com/labstack/echo/v5"

	"palaro"
	"palaro/views"
)

// promoNotices are the notices of the promo-code page's actions, after their redirect.
var promoNotices = map[string]string{
	"promo-paused":  "The promo code is paused: buyers who type it are told it cannot be used right now.",
	"promo-resumed": "The promo code works again.",
	"promo-deleted": "The promo code is deleted.",
	"promo-retired": "Orders used this promo code, so it is kept for their history; it can no longer be used.",
}

// promoForm is the form of a new promo code (p.ID 0) or of an existing one's terms (its code stays).
func promoForm(action string, types []palaro.TicketType, p palaro.PromoCode, err error) views.OrgForm {
	field := func(name, label, typ, value, hint string, max int) views.FormField {
		return views.FormField{Name: name, Label: label, Type: typ, Value: value, Hint: hint, MaxLength: max, Error: fieldError(err, name)}
	}
	kind := views.OrgSelect{Name: "kind", Label: "Discount type", Error: fieldError(err, "kind"), Options: []views.SelectOption{
		{Value: palaro.PromoPercent, Label: "Percent off", Selected: p.Kind != palaro.PromoFixed},
		{Value: palaro.PromoFixed, Label: "Amount off", Selected: p.Kind == palaro.PromoFixed}}}
	percent, amount, limit := "", "", ""
	if p.Percent > 0 {
		percent = strconv.Itoa(p.Percent)
	}
	if p.Amount > 0 {
		amount = p.Amount.Decimal()
	}
	if p.UsageLimit > 0 {
		limit = strconv.Itoa(p.UsageLimit)
	}
	var fields []views.FormField
	submit := "Create the promo code"
	if p.ID == 0 {
		fields = append(fields, field(palaro.FieldCode, "Code buyers type", "text", p.Code, "Letters, digits, hyphens; such as SUMMER25.", 40))
	} else {
		submit = "Save " + p.Code
	}
	pct := field("percent", "Percent off", "text", percent, "For a percent-off code: 1 to 100.", 3)
	pct.InputMode = "numeric"
	amt := field("amount", "Amount off in pesos", "text", amount, "For an amount-off code.", 20)
	amt.InputMode = "decimal"
	fields = append(fields, pct, amt,
		field("usageLimit", "Usage limit", "text", limit, "How many orders may use it; empty for no limit.", 8),
		field("validFrom", "Valid from (Manila time)", "datetime-local", localTime(p.ValidFrom), "Empty: at once.", 0),
		field("validUntil", "Valid until (Manila time)", "datetime-local", localTime(p.ValidUntil), "Empty: until the event.", 0))
	return views.OrgForm{Action: action, Submit: submit, Error: formError(err),
		Sections: []views.OrgFormSection{{Selects: []views.OrgSelect{kind}, SelectsFirst: true, Fields: fields,
			Checks: []views.OrgCheckGroup{promoTypes(types, p, err)}}}}
}

// promoTypes is the choice of ticket types a promo code applies to (none ticked: all of them).
func promoTypes(types []palaro.TicketType, p palaro.PromoCode, err error) views.OrgCheckGroup {
	g := views.OrgCheckGroup{Name: palaro.FieldTicketTypes, Legend: "Only for these ticket types (none ticked: all)",
		Error: fieldError(err, palaro.FieldTicketTypes)}
	for _, tt := range types {
		g.Options = append(g.Options, views.SelectOption{Value: strconv.FormatInt(tt.ID, 10), Label: tt.Name,
			Selected: slices.Contains(p.TicketTypeIDs, tt.ID)})
	}
	return g
}

// promoMeta describes a promo code's terms and use on one line.
func promoMeta(ev *palaro.Event, pc palaro.PromoCode) string {
	used := fmt.Sprintf("used %d", pc.Used)
	if pc.UsageLimit > 0 {
		used += fmt.Sprintf(" of %d", pc.UsageLimit)
	}
	meta := pc.Describe() + " · " + used
	for _, tt := range ev.TicketTypes {
		if len(pc.TicketTypeIDs) > 0 && slices.Contains(pc.TicketTypeIDs, tt.ID) {
			meta += " · " + tt.Name
		}
	}
	switch {
	case !pc.ValidFrom.IsZero() && !pc.ValidUntil.IsZero():
		meta += " · valid " + manilaTime(pc.ValidFrom) + " to " + manilaTime(pc.ValidUntil)
	case !pc.ValidFrom.IsZero():
		meta += " · valid from " + manilaTime(pc.ValidFrom)
	case !pc.ValidUntil.IsZero():
		meta += " · valid until " + manilaTime(pc.ValidUntil)
	}
	return meta
}

func (s *Server) renderPromoCodes(c *echo.Context, caller *palaro.Caller, ev *palaro.Event, p palaro.PromoCode, err error) error {
	codes, lerr := s.services.Organizers.ListPromoCodes(c.Request().Context(), ev.ID)
	if lerr != nil {
		return lerr
	}
	base := "/organizer/events/" + ev.Code
	action, title := base+"/promo-codes", "New promo code"
	if p.ID != 0 {
		action, title = action+"?id="+strconv.FormatInt(p.ID, 10), "Change "+p.Code
	}
	v := views.OrgListView{Frame: eventFrame(c, caller, ev, "Promo codes · "+ev.Name), Empty: "No promo codes yet.",
		Intro: "Codes buyers type on the purchase form for a discount on this event's tickets. Pause a code to stop it at once " +
			"(a leaked code, say); delete one to remove it (a code orders used is kept for their history, unusable).",
		FormTitle: title, Form: promoForm(action, ev.TicketTypes, p, err)}
	for _, pc := range codes {
		item := views.OrgListItem{Title: pc.Code, Meta: promoMeta(ev, pc)}
		id := base + "/promo-codes/" + strconv.FormatInt(pc.ID, 10)
		switch {
		case pc.Retired:
			item.Badge = "retired"
			item.Meta += " · kept for its orders' history"
			v.Items = append(v.Items, item)
			continue
		case pc.Paused:
			item.Badge = "paused"
			item.Actions = append(item.Actions, views.OrgAction{Label: "Resume " + pc.Code, Action: id + "/pause", Hidden: [][2]string{{"paused", "0"}}})
		default:
			item.Actions = append(item.Actions, views.OrgAction{Label: "Pause " + pc.Code, Action: id + "/pause", Hidden: [][2]string{{"paused", "1"}}, Secondary: true})
		}
		item.Href = base + "/promo-codes?edit=" + strconv.FormatInt(pc.ID, 10)
		item.Actions = append(item.Actions, views.OrgAction{Label: "Delete " + pc.Code, Action: id + "/delete", Secondary: true})
		v.Items = append(v.Items, item)
	}
	status := http.StatusOK
	if err != nil {
		status = statusOfForm(err)
	}
	return render(c, status, views.OrgList(s.orgPage(c, "Promo codes · "+ev.Name), v))
}

func (s *Server) orgPromoCodesPage(c *echo.Context, caller *palaro.Caller) error {
	ev, err := s.orgEvent(c, caller)
	if err != nil {
		return err
	}
	p := palaro.PromoCode{Kind: palaro.PromoPercent}
	if id, _ := strconv.ParseInt(c.QueryParam("edit"), 10, 64); id != 0 {
		codes, err := s.services.Organizers.ListPromoCodes(c.Request().Context(), ev.ID)
		if err != nil {
			return err
		}
		i := slices.IndexFunc(codes, func(pc palaro.PromoCode) bool { return pc.ID == id && !pc.Retired })
		if i < 0 {
			return palaro.Errorf(palaro.ENOTFOUND, "Promo code not found.")
		}
		p = codes[i]
	}
	return s.renderPromoCodes(c, caller, ev, p, nil)
}

// orgCreatePromoCode creates a promo code, or with ?id= changes that one's terms.
func (s *Server) orgCreatePromoCode(c *echo.Context, caller *palaro.Caller) error {
	ev, err := s.orgEvent(c, caller)
	if err != nil {
		return err
	}
	fe := formErrors{}
	id, _ := strconv.ParseInt(c.QueryParam("id"), 10, 64)
	p := palaro.PromoCode{ID: id, Code: c.FormValue(palaro.FieldCode), Kind: c.FormValue("kind"),
		Percent: fe.int(c, "percent", "Percent"), Amount: fe.pesos(c, "amount", "Amount"),
		UsageLimit: fe.int(c, "usageLimit", "Usage limit"),
		ValidFrom:  fe.time(c, "validFrom", "Valid from"), ValidUntil: fe.time(c, "validUntil", "Valid until")}
	for _, v := range formValues(c, palaro.FieldTicketTypes) {
		if id, perr := strconv.ParseInt(v, 10, 64); perr == nil {
			p.TicketTypeIDs = append(p.TicketTypeIDs, id)
		}
	}
	if p.Kind == palaro.PromoPercent {
		p.Amount = 0
	} else {
		p.Percent = 0
	}
	ctx := c.Request().Context()
	if id != 0 {
		codes, lerr := s.services.Organizers.ListPromoCodes(ctx, ev.ID)
		if lerr != nil {
			return lerr
		}
		i := slices.IndexFunc(codes, func(pc palaro.PromoCode) bool { return pc.ID == id && !pc.Retired })
		if i < 0 {
			return palaro.Errorf(palaro.ENOTFOUND, "Promo code not found.")
		}
		p.Code = codes[i].Code
	}
	err = fe.merge(palaro.ValidatePromoCode(p))
	if len(fe) == 0 {
		if id != 0 {
			_, err = s.services.Organizers.UpdatePromoCode(ctx, ev.ID, caller.Actor(), p)
		} else {
			_, err = s.services.Organizers.CreatePromoCode(ctx, ev.ID, caller.Actor(), p)
		}
		if err == nil {
			return c.Redirect(http.StatusSeeOther, "/organizer/events/"+ev.Code+"/promo-codes?notice=saved")
		}
	}
	if _, ok := userFacing(err); !ok {
		return err
	}
	return s.renderPromoCodes(c, caller, ev, p, err)
}

// orgPausePromoCode pauses (paused=1) or resumes (paused=0) a promo code.
func (s *Server) orgPausePromoCode(c *echo.Context, caller *palaro.Caller) error {
	ev, err := s.orgEvent(c, caller)
	if err != nil {
		return err
	}
	id, _ := strconv.ParseInt(c.Param("id"), 10, 64)
	paused := c.FormValue("paused") != "0"
	if err := s.services.Organizers.SetPromoCodePaused(c.Request().Context(), ev.ID, id, paused, caller.Actor()); err != nil {
		return err
	}
	notice := "promo-resumed"
	if paused {
		notice = "promo-paused"
	}
	return c.Redirect(http.StatusSeeOther, "/organizer/events/"+ev.Code+"/promo-codes?notice="+notice)
}

// orgDeletePromoCode deletes a promo code, or retires one that orders used.
func (s *Server) orgDeletePromoCode(c *echo.Context, caller *palaro.Caller) error {
	ev, err := s.orgEvent(c, caller)
	if err != nil {
		return err
	}
	id, _ := strconv.ParseInt(c.Param("id"), 10, 64)
	retired, err := s.services.Organizers.DeletePromoCode(c.Request().Context(), ev.ID, id, caller.Actor())
	if err != nil {
		return err
	}
	notice := "promo-deleted"
	if retired {
		notice = "promo-retired"
	}
	return c.Redirect(http.StatusSeeOther, "/organizer/events/"+ev.Code+"/promo-codes?notice="+notice)
}
