package handlers

import (
	"fmt"
	"net/http"
	"slices"
	"strconv"
	"strings"

	"github.com/labstack/echo/v5"

	"palaro"
	"palaro/views"
)

func addOnForm(action string, a palaro.AddOn, err error) views.OrgForm {
	field := func(name, label, typ, value string, max int) views.FormField {
		return views.FormField{Name: name, Label: label, Type: typ, Value: value, MaxLength: max, Error: fieldError(err, name)}
	}
	price := field(palaro.FieldPrice, "Price in pesos", "text", a.Price.Decimal(), 20)
	price.InputMode = "decimal"
	return views.OrgForm{Action: action, Submit: map[bool]string{true: "Add the add-on", false: "Save"}[a.ID == 0], Error: formError(err),
		Sections: []views.OrgFormSection{{Fields: []views.FormField{
			field(palaro.FieldName, "Name", "text", a.Name, 200), price,
			field("category", "Category (Merchandise, Food, Parking, …)", "text", a.Category, 100),
			field("notes", "Notes for the buyer", "textarea", a.Notes, 1000),
		}, Booleans: []views.FormCheckbox{{Name: "hidden", Label: "Hidden: no longer offered to buyers (orders keep it)", Checked: a.Hidden}}}}}
}

func (s *Server) renderAddOns(c *echo.Context, caller *palaro.Caller, ev *palaro.Event, edit palaro.AddOn, err error) error {
	addOns, lerr := s.services.Organizers.ListAddOns(c.Request().Context(), ev.ID)
	if lerr != nil {
		return lerr
	}
	base := "/organizer/events/" + ev.Code
	v := views.OrgListView{Frame: eventFrame(c, caller, ev, "Add-ons · "+ev.Name), Empty: "No add-ons yet.",
		Intro: "Extras buyers add to their tickets: merchandise, food, parking.", FormTitle: "New add-on"}
	for _, a := range addOns {
		meta := strings.Trim(a.Price.Display()+" · "+a.Category, " ·")
		if a.Hidden {
			meta += " · hidden"
		}
		v.Items = append(v.Items, views.OrgListItem{Title: a.Name, Meta: meta,
			Href:   base + "/add-ons?edit=" + strconv.FormatInt(a.ID, 10),
			Action: &views.OrgAction{Label: "Delete " + a.Name, Action: base + "/add-ons/" + strconv.FormatInt(a.ID, 10) + "/delete", Secondary: true}})
	}
	action := base + "/add-ons"
	if edit.ID != 0 {
		v.FormTitle = "Edit " + edit.Name
		action += "?id=" + strconv.FormatInt(edit.ID, 10)
	}
	v.Form = addOnForm(action, edit, err)
	status := http.StatusOK
	if err != nil {
		status = statusOfForm(err)
	}
	return render(c, status, views.OrgList(s.orgPage(c, "Add-ons · "+ev.Name), v))
}

func (s *Server) orgAddOnsPage(c *echo.Context, caller *palaro.Caller) error {
	ev, err := s.orgEvent(c, caller)
	if err != nil {
		return err
	}
	var edit palaro.AddOn
	addOns, err := s.services.Organizers.ListAddOns(c.Request().Context(), ev.ID)
	if err != nil {
		return err
	}
	if id, _ := strconv.ParseInt(c.QueryParam("edit"), 10, 64); id != 0 {
		for _, a := range addOns {
			if a.ID == id {
				edit = a
			}
		}
	}
	return s.renderAddOns(c, caller, ev, edit, nil)
}

func (s *Server) orgSaveAddOn(c *echo.Context, caller *palaro.Caller) error {
	ev, err := s.orgEvent(c, caller)
	if err != nil {
		return err
	}
	fe := formErrors{}
	id, _ := strconv.ParseInt(c.QueryParam("id"), 10, 64)
	a := palaro.AddOn{ID: id, Name: c.FormValue(palaro.FieldName), Price: fe.pesos(c, palaro.FieldPrice, "Price"),
		Category: c.FormValue("category"), Notes: c.FormValue("notes"), Hidden: c.FormValue("hidden") != ""}
	err = fe.merge(nil)
	if err == nil {
		if _, err = s.services.Organizers.SaveAddOn(c.Request().Context(), ev.ID, caller.Actor(), a); err == nil {
			s.eventsChanged()
			return c.Redirect(http.StatusSeeOther, "/organizer/events/"+ev.Code+"/add-ons?notice=saved")
		}
	}
	if _, ok := userFacing(err); !ok {
		return err
	}
	return s.renderAddOns(c, caller, ev, a, err)
}

// orgDeleteAddOn deletes an add-on nobody ordered; an ordered one stays, with the message to hide it.
func (s *Server) orgDeleteAddOn(c *echo.Context, caller *palaro.Caller) error {
	ev, err := s.orgEvent(c, caller)
	if err != nil {
		return err
	}
	id, _ := strconv.ParseInt(c.Param("id"), 10, 64)
	err = s.services.Organizers.DeleteAddOn(c.Request().Context(), ev.ID, id, caller.Actor())
	if palaro.ErrorCode(err) == palaro.ECONFLICT {
		return s.renderAddOns(c, caller, ev, palaro.AddOn{}, &palaro.Error{Code: palaro.EINVALID, Message: palaro.ErrorMessage(err)})
	} else if err != nil {
		return err
	}
	s.eventsChanged()
	return c.Redirect(http.StatusSeeOther, "/organizer/events/"+ev.Code+"/add-ons?notice=saved")
}

func promoForm(action string, types []palaro.TicketType, p palaro.PromoCode, err error) views.OrgForm {
	field := func(name, label, typ, value, hint string, max int) views.FormField {
		return views.FormField{Name: name, Label: label, Type: typ, Value: value, Hint: hint, MaxLength: max, Error: fieldError(err, name)}
	}
	kind := views.OrgSelect{Name: "kind", Label: "Discount", Error: fieldError(err, "kind"), Options: []views.SelectOption{
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
	return views.OrgForm{Action: action, Submit: "Create the promo code", Error: formError(err),
		Sections: []views.OrgFormSection{{Fields: []views.FormField{
			field(palaro.FieldCode, "Code buyers type", "text", p.Code, "Letters, digits, hyphens; such as SUMMER25.", 40),
			field("percent", "Percent off", "text", percent, "", 3),
			field("amount", "Amount off in pesos", "text", amount, "", 20),
			field("usageLimit", "Usage limit", "text", limit, "How many orders may use it; empty for no limit.", 8),
			field("validFrom", "Valid from (Manila time)", "datetime-local", localTime(p.ValidFrom), "Empty: at once.", 0),
			field("validUntil", "Valid until (Manila time)", "datetime-local", localTime(p.ValidUntil), "Empty: until the event.", 0),
		}, Selects: []views.OrgSelect{kind}, Checks: []views.OrgCheckGroup{promoTypes(types, p, err)}}}}
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

func (s *Server) renderPromoCodes(c *echo.Context, caller *palaro.Caller, ev *palaro.Event, p palaro.PromoCode, err error) error {
	codes, lerr := s.services.Organizers.ListPromoCodes(c.Request().Context(), ev.ID)
	if lerr != nil {
		return lerr
	}
	base := "/organizer/events/" + ev.Code
	v := views.OrgListView{Frame: eventFrame(c, caller, ev, "Promo codes · "+ev.Name), Empty: "No promo codes yet.",
		Intro: "Codes buyers type on the purchase form for a discount on this event's tickets.", FormTitle: "New promo code",
		Form: promoForm(base+"/promo-codes", ev.TicketTypes, p, err)}
	for _, pc := range codes {
		off := strconv.Itoa(pc.Percent) + "% off"
		if pc.Kind == palaro.PromoFixed {
			off = pc.Amount.String() + " off"
		}
		used := fmt.Sprintf("used %d", pc.Used)
		if pc.UsageLimit > 0 {
			used += fmt.Sprintf(" of %d", pc.UsageLimit)
		}
		meta := off + " · " + used
		for _, tt := range ev.TicketTypes {
			if len(pc.TicketTypeIDs) > 0 && slices.Contains(pc.TicketTypeIDs, tt.ID) {
				meta += " · " + tt.Name
			}
		}
		if !pc.ValidFrom.IsZero() || !pc.ValidUntil.IsZero() {
			meta += " · valid " + manilaTime(pc.ValidFrom) + " to " + manilaTime(pc.ValidUntil)
		}
		v.Items = append(v.Items, views.OrgListItem{Title: pc.Code, Meta: meta})
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
	return s.renderPromoCodes(c, caller, ev, palaro.PromoCode{Kind: palaro.PromoPercent}, nil)
}

func (s *Server) orgCreatePromoCode(c *echo.Context, caller *palaro.Caller) error {
	ev, err := s.orgEvent(c, caller)
	if err != nil {
		return err
	}
	fe := formErrors{}
	p := palaro.PromoCode{Code: c.FormValue(palaro.FieldCode), Kind: c.FormValue("kind"),
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
	err = fe.merge(palaro.ValidatePromoCode(p))
	if len(fe) == 0 {
		if _, err = s.services.Organizers.CreatePromoCode(c.Request().Context(), ev.ID, caller.Actor(), p); err == nil {
			return c.Redirect(http.StatusSeeOther, "/organizer/events/"+ev.Code+"/promo-codes?notice=saved")
		}
	}
	if _, ok := userFacing(err); !ok {
		return err
	}
	return s.renderPromoCodes(c, caller, ev, p, err)
}
