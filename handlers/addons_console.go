package handlers

import (
	"net/http"
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
