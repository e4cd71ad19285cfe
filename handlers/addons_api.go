package handlers

import (
	"net/http"
	"strconv"

	"github.com/labstack/echo/v5"

	"palaro"
)

// orgAddOnJSON is an add-on as the organizer API takes and answers it: the console's field
// names, the price in centavos; id 0 (or none) creates one.
type orgAddOnJSON struct {
	ID       int64        `json:"id"`
	Name     string       `json:"name"`
	Price    palaro.Money `json:"price"`
	Category string       `json:"category"`
	Notes    string       `json:"notes"`
	Hidden   bool         `json:"hidden"`
}

func addOnOut(a palaro.AddOn) orgAddOnJSON {
	return orgAddOnJSON{ID: a.ID, Name: a.Name, Price: a.Price, Category: a.Category, Notes: a.Notes, Hidden: a.Hidden}
}

func (s *Server) apiOrgAddOns(c *echo.Context, caller *palaro.Caller) error {
	ev, err := s.orgEvent(c, caller)
	if err != nil {
		return err
	}
	addOns, err := s.services.Organizers.ListAddOns(c.Request().Context(), ev.ID)
	if err != nil {
		return err
	}
	out := make([]orgAddOnJSON, 0, len(addOns))
	for _, a := range addOns {
		out = append(out, addOnOut(a))
	}
	return c.JSON(http.StatusOK, map[string]any{"addOns": out})
}

func (s *Server) apiOrgSaveAddOn(c *echo.Context, caller *palaro.Caller) error {
	ev, err := s.orgEvent(c, caller)
	if err != nil {
		return err
	}
	var in orgAddOnJSON
	if err := decodeJSONStrict(c, &in); err != nil {
		return err
	}
	a, err := s.services.Organizers.SaveAddOn(c.Request().Context(), ev.ID, caller.Actor(),
		palaro.AddOn{ID: in.ID, Name: in.Name, Price: in.Price, Category: in.Category, Notes: in.Notes, Hidden: in.Hidden})
	if err != nil {
		return apiError(err)
	}
	s.eventsChanged()
	status := http.StatusOK
	if in.ID == 0 {
		status = http.StatusCreated
	}
	return c.JSON(status, addOnOut(*a))
}

func (s *Server) apiOrgDeleteAddOn(c *echo.Context, caller *palaro.Caller) error {
	ev, err := s.orgEvent(c, caller)
	if err != nil {
		return err
	}
	id, err := strconv.ParseInt(c.Param("id"), 10, 64)
	if err != nil {
		return palaro.Errorf(palaro.ENOTFOUND, "Add-on not found.")
	}
	if err := s.services.Organizers.DeleteAddOn(c.Request().Context(), ev.ID, id, caller.Actor()); err != nil {
		return err
	}
	s.eventsChanged()
	return c.NoContent(http.StatusNoContent)
}
