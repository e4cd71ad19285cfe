package handlers

import (
	"fmt"
	"math"
	"strings"
	"time"

	"palaro"
	"palaro/views"
)

// imageURL resolves an event or add-on image: absolute URLs stay, asset names get their hashed URL.
func (s *Server) imageURL(name string) string {
	if name == "" || strings.HasPrefix(name, "http://") || strings.HasPrefix(name, "https://") || strings.HasPrefix(name, "/") {
		return name
	}
	if u := s.assets.URL(name); u != "" {
		return u
	}
	return ""
}

// formatWhen renders an event's time range in Manila time, e.g. "Sun, 22 November 2026 · 7:00 PM".
func formatWhen(start, end time.Time) string {
	st, en := start.In(palaro.Manila), end.In(palaro.Manila)
	s := st.Format("Mon, 2 January 2006 · 3:04 PM")
	if st.YearDay() == en.YearDay() && st.Year() == en.Year() {
		return s + " – " + en.Format("3:04 PM")
	}
	return s + " – " + en.Format("Mon, 2 January 3:04 PM")
}

// priceLabel is the cheapest final price of the event's ticket types.
func priceLabel(ev *palaro.Event) (label string, soldOut bool) {
	if len(ev.TicketTypes) == 0 {
		return "Tickets soon", false
	}
	minPrice, varied, available := ev.TicketTypes[0].FinalPrice(), false, 0
	for _, t := range ev.TicketTypes {
		available += t.Available()
		p := t.FinalPrice()
		if p != minPrice {
			varied = true
		}
		if p < minPrice {
			minPrice = p
		}
	}
	if varied {
		return "From " + minPrice.Display(), available == 0
	}
	return minPrice.Display(), available == 0
}

func statusLabel(status string) string {
	switch status {
	case palaro.EventCancelled:
		return "Cancelled"
	case palaro.EventPostponed:
		return "Postponed"
	case palaro.EventRescheduled:
		return "Rescheduled"
	}
	return ""
}

func tagLinks(tags []palaro.Tag) []views.TagLink {
	links := make([]views.TagLink, len(tags))
	for i, t := range tags {
		links[i] = views.TagLink{Name: t.Name, Href: "/f/" + t.Slug}
	}
	return links
}

// eventCard builds the list card of an event; near, when set, adds the distance to the venue.
func (s *Server) eventCard(ev *palaro.Event, now time.Time, near *palaro.GeoPoint) views.EventCard {
	st := ev.StartsAt.In(palaro.Manila)
	price, soldOut := priceLabel(ev)
	card := views.EventCard{
		Code:     ev.Code,
		Href:     eventPath(ev.Code, ""),
		Name:     ev.Name,
		Summary:  ev.Summary,
		ImageURL: s.imageURL(ev.ImageURL),
		Day:      st.Format("2"),
		Month:    strings.ToUpper(st.Format("Jan")),
		When:     formatWhen(ev.StartsAt, ev.EndsAt),
		Place:    ev.Venue.Name + ", " + ev.Venue.City,
		Price:    price,
		SoldOut:  soldOut,
		Tags:     tagLinks(ev.Tags),
		Status:   statusLabel(ev.Status),
		Ongoing:  !now.Before(ev.StartsAt) && now.Before(ev.EndsAt),
	}
	if near != nil {
		card.Distance = fmt.Sprintf("%.1f km away", distanceKm(*near, palaro.GeoPoint{Latitude: ev.Venue.Latitude, Longitude: ev.Venue.Longitude}))
	}
	return card
}

// distanceKm is the great-circle distance between two points.
func distanceKm(a, b palaro.GeoPoint) float64 {
	const r = 6371.0
	rad := math.Pi / 180
	dLat, dLng := (b.Latitude-a.Latitude)*rad, (b.Longitude-a.Longitude)*rad
	h := math.Sin(dLat/2)*math.Sin(dLat/2) + math.Cos(a.Latitude*rad)*math.Cos(b.Latitude*rad)*math.Sin(dLng/2)*math.Sin(dLng/2)
	return 2 * r * math.Asin(math.Sqrt(h))
}

// eventView builds the event page's view model.
func (s *Server) eventView(ev *palaro.Event, now time.Time) views.EventView {
	v := views.EventView{
		Code:         ev.Code,
		Name:         ev.Name,
		Summary:      ev.Summary,
		ImageURL:     s.imageURL(ev.ImageURL),
		When:         formatWhen(ev.StartsAt, ev.EndsAt),
		StartISO:     ev.StartsAt.In(palaro.Manila).Format(time.RFC3339),
		Status:       statusLabel(ev.Status),
		VenueName:    ev.Venue.Name,
		Address:      ev.Venue.Address + ", " + ev.Venue.City + ", " + ev.Venue.Region,
		MapURL:       fmt.Sprintf("https://www.google.com/maps/search/?api=1&query=%.6f,%.6f", ev.Venue.Latitude, ev.Venue.Longitude),
		Organizer:    ev.Organizer.Name,
		Tags:         tagLinks(ev.Tags),
		ICSURL:       "/e/" + ev.Code + "/calendar.ics",
		GoogleCalURL: palaro.GoogleCalendarURL(ev, s.config.BaseURL),
		Ended:        !now.Before(ev.EndsAt),
	}
	for _, para := range strings.Split(ev.Description, "\n") {
		if para = strings.TrimSpace(para); para != "" {
			v.Paragraphs = append(v.Paragraphs, para)
		}
	}
	for _, l := range ev.Links {
		v.Links = append(v.Links, views.LinkView{Label: l.Label, URL: l.URL})
	}
	for _, t := range ev.TicketTypes {
		v.Tickets = append(v.Tickets, s.withWaitlist(ticketView(t, ev, now, v.Ended), t))
	}
	return v
}

// ticketView builds one ticket type's row of the event page; ended says the event is over.
func ticketView(t palaro.TicketType, ev *palaro.Event, now time.Time, ended bool) views.TicketView {
	tv := views.TicketView{Code: t.Code, Name: t.Name, Description: t.Description, Price: t.FinalPrice().Display()}
	if t.Discount > 0 && t.Price > 0 {
		tv.Original, tv.Discount = t.Price.String(), palaro.DiscountPercent(t.Discount)
	}
	notes := []string{}
	if label := t.PassLabel(); label != "" {
		notes = append(notes, label)
	}
	if t.MaxPurchasable > 1 {
		notes = append(notes, fmt.Sprintf("Max. %d per person", t.MaxPurchasable))
	} else {
		notes = append(notes, "One per person")
	}
	state := t.SaleState(ev, now)
	if left := t.Available(); left > 0 && left <= lowStock && state == palaro.SaleOpen && !ended {
		notes = append(notes, fmt.Sprintf("Only %d left", left)) // not on a sale ended or cancelled
	}
	tv.Note = strings.Join(notes, " · ")
	tv.BuyHref = "/b/" + t.Code
	if t.Seated {
		tv.BuyHref = "/s/" + t.Code
	}
	switch {
	case ended || state == palaro.SaleEnded:
		tv.Unavailable = "Sales ended"
	case state == palaro.SaleSoldOut:
		tv.Unavailable = "Sold out"
	case state == palaro.SaleNotStarted:
		tv.Unavailable = "Not yet on sale"
	default:
		tv.Available = true
	}
	return tv
}
