package views

import "strings"

// WithDate adds a series date's slug to a buy or seat page's address (date=…), so that the page,
// its form and the buy body's date are for that date; without a slug the address stays.
func WithDate(href, slug string) string {
	if slug == "" {
		return href
	}
	sep := "?"
	if strings.Contains(href, "?") {
		sep = "&"
	}
	return href + sep + "date=" + slug
}

// DateLink is one date of an event series as its pages list it: a link to the date's own page
// with what a buyer picks by (day, time, venue, what is left).
type DateLink struct {
	Href     string // "/e/{code}/{YYYY-MM-DD}", "-2" added for a second session that day
	Day      string // "9"
	Month    string // "JAN"
	Weekday  string // "Fri"
	Label    string // the date's own name ("Match day 3"), or ""
	Time     string // "7:00 PM – 11:00 PM"
	StartISO string
	// Place is the date's venue when it is not the series' own, else "".
	Place string
	// Status is "Postponed", "Cancelled" or "Rescheduled"; "" for a date on as planned.
	Status string
	// Availability says what is left to buy for the date: "On sale", "Only 12 left", "Sold out",
	// "Not yet on sale", "Sales ended".
	Availability string
	// Open is true when tickets for the date can be bought now.
	Open bool
	// Current marks the date whose page lists it.
	Current bool
}

// DatesView is the list of a series' coming dates on its event page and on each date's page.
type DatesView struct {
	Heading string // "Dates", or "Other dates" on a date's page
	Dates   []DateLink
	// Played counts the dates already over, which the list leaves out.
	Played int
}

// DateHeader is what a date's page says about its date above the event's own information.
type DateHeader struct {
	// Label names the date ("Match day 3"), or "" when it has no name of its own.
	Label string
	// SeriesHref is the series' page, which lists every date.
	SeriesHref string
	// Notice says why the date does not sell, for a postponed or cancelled date ("" otherwise).
	Notice string
}
