package handlers

import (
	"context"
	"net/http"
	"net/url"
	"slices"
	"strings"

	"github.com/labstack/echo/v5"

	"palaro"
	"palaro/views"
)

// seatScope is where the seats of a ticket type are looked up: the type whose seats they are,
// on which dates of a series (none: the event itself).
type seatScope struct {
	typeID int64
	dates  []int64
}

// seatScopeOf is the seat scope of a ticket type: its own seats on the series date d (none for
// an event of one date); a pass's are its day type's (pass_of) on the dates it holds
// (palaro.PassDates, the rule the order's own check follows), so a seat is free for it only when
// it is free on all of them.
func (s *Server) seatScopeOf(ctx context.Context, tt *palaro.TicketType, ev *palaro.Event, d *dated) (seatScope, error) {
	if !tt.IsPass() || tt.PassOf == 0 {
		return seatScope{typeID: tt.ID, dates: d.ids()}, nil
	}
	dates, err := s.seriesDates(ctx, ev)
	if err != nil {
		return seatScope{}, err
	}
	days := make([]palaro.EventDate, len(dates))
	for i, on := range dates {
		days[i] = on.Date
	}
	return seatScope{typeID: tt.PassOf, dates: palaro.PassDates(days, s.Now())}, nil
}

// chosenSeats reads and checks the seats query of a ticket type: free seats of a seated ticket
// type (in the seat scope sc: on its dates), at most its per-buyer limit; the seats of the
// buyer's waiting-list offer (all of them) or best-available hold (any of them: the buyer may
// keep fewer) count as free (offeredSeats). It returns the parsed seats (nil when malformed) with
// the first problem: EINVALID for a malformed, unknown or surplus seat, ECONFLICT for a taken one.
func (s *Server) chosenSeats(ctx context.Context, tt *palaro.TicketType, sc seatScope, values []string, offered, held []string) ([]string, error) {
	seats, err := palaro.ParseSeats(values)
	if err != nil {
		return nil, err
	}
	if err := palaro.CheckSeatChoice(*tt, seats); err != nil || len(seats) == 0 {
		return seats, err
	}
	if len(offered) > 0 && len(seats) == len(offered) && !slices.ContainsFunc(seats, func(l string) bool { return !slices.Contains(offered, l) }) {
		return seats, nil // held by the buyer's waiting-list offer
	}
	others := slices.DeleteFunc(slices.Clone(seats), func(l string) bool { return slices.Contains(held, l) })
	return seats, s.services.Seats.CheckSeatsOn(ctx, sc.typeID, sc.dates, others)
}

// seatsHref is the seat page of a ticket type, with seats to choose again, a source code and the
// slug of the series date the seats are for ("" for an event of one date).
func seatsHref(code string, seats []string, source, slug string) string {
	q := url.Values{}
	if len(seats) > 0 {
		q.Set("seats", strings.Join(seats, ","))
	}
	if source != "" {
		q.Set("source", source)
	}
	if slug != "" {
		q.Set("date", slug)
	}
	if len(q) == 0 {
		return "/s/" + code
	}
	return "/s/" + code + "?" + q.Encode()
}

// seatsPage renders /s/{ticketTypeCode}: the seat map of a seated ticket type, where the buyer
// chooses up to the per-buyer limit of free seats and continues to /b/{code}?seats=…. Seats in
// the query (back from the form) are chosen again when still free; the page says why any was
// dropped. An unseated ticket type goes straight to its buy page.
func (s *Server) seatsPage(c *echo.Context) error {
	tt, ev, d, err := s.findTicketOnDate(c)
	if to := pickDateFirst(err, ev); to != "" {
		return c.Redirect(http.StatusSeeOther, to)
	} else if err != nil {
		return err
	}
	if to := s.queueDetour(c, ev, d.slug(), d != nil || tt.IsPass()); to != "" {
		return c.Redirect(http.StatusSeeOther, to)
	}
	source := cleanSource(c.QueryParam("source"))
	if !tt.Seated {
		href := "/b/" + tt.Code
		if source != "" {
			href += "?source=" + url.QueryEscape(source)
		}
		return c.Redirect(http.StatusSeeOther, views.WithDate(href, d.slug()))
	}
	ctx := c.Request().Context()
	sc, err := s.seatScopeOf(ctx, tt, ev, d)
	if err != nil {
		return err
	}
	plan, err := s.services.Seats.SeatPlan(ctx, sc.typeID)
	if err != nil {
		return err
	}
	view := views.SeatsView{TicketHeader: s.ticketHeader(tt, ev, d, s.Now())}
	var rows []palaro.SeatRow
	section := strings.ToUpper(strings.TrimSpace(c.QueryParam("section")))
	if len(plan.Sections) > 0 {
		// a stadium: the overview, and a section's seats only when the query opens one, both on
		// the series date d when there is one
		if view.Arena, err = s.arenaOverview(ctx, ev, tt, d, source); err != nil {
			return err
		}
		if _, ok := plan.Section(section); ok {
			rows, err = s.services.Seats.SectionSeats(ctx, sc.typeID, sc.dates, section)
		}
	} else {
		section = ""
		rows, err = s.services.Seats.SeatMapOn(ctx, sc.typeID, sc.dates)
	}
	if err != nil {
		return err
	}
	hold := c.QueryParam("hold")
	held, err := s.services.Seats.HeldSeats(ctx, tt.ID, d.id(), hold)
	if err != nil {
		return err
	}
	wanted, err := s.chosenSeats(ctx, tt, sc, c.QueryParams()["seats"], nil, held)
	if code := palaro.ErrorCode(err); code == palaro.EINTERNAL {
		return err
	} else if err != nil {
		view.Message = palaro.ErrorMessage(err)
	} else if c.QueryParam("choose") != "" {
		view.Message = "Please choose your seats."
	}
	limit := max(min(tt.MaxPurchasable, tt.Available()), 1)
	props := views.SeatsProps{
		Code: tt.Code, Name: tt.Name, FinalPrice: int64(tt.FinalPrice()), Max: limit,
		MaxMessage: palaro.MaxTicketsMessage(max(tt.MaxPurchasable, 1)), Source: source, Selected: []string{}, Date: d.slug(), Section: section,
	}
	if len(held) > 0 {
		props.Hold, props.Held = hold, held
	}
	if limit < tt.MaxPurchasable {
		props.MaxMessage = "Only " + palaro.Plural(limit, "seat is", "seats are") + " left."
	}
	for _, r := range rows {
		for _, seat := range r.Seats {
			free := seat.Status == palaro.SeatAvailable || slices.Contains(held, seat.Label)
			if free && slices.Contains(wanted, seat.Label) && len(props.Selected) < limit {
				props.Selected = append(props.Selected, seat.Label)
			}
		}
	}
	props.Rows = seatRowsJSON(rows)
	props.Aisles, props.RowGaps = append([]int{}, plan.AisleAfter...), append([]string{}, plan.GapAfterRows...)
	if sec, ok := plan.Section(section); ok {
		props.Aisles = append([]int{}, sec.AisleAfter...)
	}
	view.Props = props
	if view.Arena != nil && section != "" {
		view.Arena.Seats = &view.Props
	}
	p := s.page(c, "Choose seats · "+tt.Name+" · "+ev.Name+" · Palaro", "Choose your seats for "+tt.Name+", "+ev.Name+", "+view.When+" at "+view.Place+".")
	p.Nav = views.NavDefaultBack
	p.NoIndex = true
	c.Response().Header().Set("Cache-Control", "no-cache") // seats change with every sale
	if view.Ticket.Available && view.Arena != nil {
		p.Islands = []string{"arena"}
	} else if view.Ticket.Available {
		p.Islands = []string{"seats"}
	} else if view.Ticket.WaitlistHref != "" {
		w := waitlistJoin(tt, ev, d, s.Now(), "", "", "")
		view.Waitlist = &w
	}
	return render(c, http.StatusOK, views.SeatsPage(p, view))
}

// arenaOverview is the overview of a stadium's seat map: every price zone of the event (ev as on
// the series date d, when not nil) with its price, each seated zone's sections with their free
// seats, each standing zone's places left, all on that date, and each zone's page for it. A
// series' passes are left out: they are bought for the series on their own pages, which show the
// pass's zone only (its sections' free seats those free on all its dates, seatScopeOf). Its size grows
// with the number of sections, never with the seats.
func (s *Server) arenaOverview(ctx context.Context, ev *palaro.Event, current *palaro.TicketType, d *dated, source string) (*views.ArenaProps, error) {
	a := &views.ArenaProps{Zone: current.Code, Source: source, Date: d.slug(), Zones: []views.ArenaZoneJSON{}}
	for _, tt := range ev.TicketTypes {
		if (d != nil && tt.IsPass()) || (current.IsPass() && tt.ID != current.ID) {
			continue // a pass is bought on its own page, which shows only its zone
		}
		z := views.ArenaZoneJSON{Code: tt.Code, Name: tt.Name, Price: int64(tt.FinalPrice()), Max: max(tt.MaxPurchasable, 1),
			MaxMessage: palaro.MaxTicketsMessage(max(tt.MaxPurchasable, 1)), Free: tt.Available(), Href: seatsHref(tt.Code, nil, source, d.slug())}
		if !tt.Seated {
			z.Href = strings.Replace(z.Href, "/s/", "/b/", 1)
			a.Zones = append(a.Zones, z)
			continue
		}
		sc, err := s.seatScopeOf(ctx, &tt, ev, d)
		if err != nil {
			return nil, err
		}
		plan, err := s.services.Seats.SeatPlan(ctx, sc.typeID)
		if err != nil {
			return nil, err
		}
		if len(plan.Sections) == 0 {
			a.Zones = append(a.Zones, z)
			continue
		}
		counts, err := s.services.Seats.SectionCounts(ctx, sc.typeID, sc.dates)
		if err != nil {
			return nil, err
		}
		for i, sec := range plan.Sections {
			z.Sections = append(z.Sections, views.ArenaSectionJSON{Name: sec.Name, Ring: sec.Ring, From: sec.From, To: sec.To,
				Seats: counts[i].Seats, Free: counts[i].Free})
		}
		a.Zones = append(a.Zones, z)
	}
	return a, nil
}
