// Package views holds Palaro's templ components: the layout, the pages and the pieces they share.
// Components take view models shaped for the page; they never query anything.
package views

import "palaro/static"

// Navigation bar layouts (SPEC.md "Menu and navigation").
const (
	NavInitApp     = "init-app"
	NavDefaultBack = "default-back"
	NavPopup       = "popup"
)

// Site holds what every page needs from the configuration.
type Site struct {
	BaseURL      string
	SupportEmail string
	TagManagerID string
	PixelID      string
	BuildID      string
	Assets       *static.Assets
	// NewsFeed is true when the site has news, whose Atom feed the pages' heads announce.
	NewsFeed bool
}

// Page is the head and frame information of one page.
type Page struct {
	Site        Site
	Title       string
	Description string
	// Path is the canonical path of the page (such as "/e/some-event"); the canonical URL is BaseURL+Path.
	Path    string
	Image   string
	OGType  string
	NoIndex bool
	// Nav is the navigation bar layout; ShowNav hides the whole navigation layer when false.
	Nav     string
	ShowNav bool
	// Current is the path of the page as visited, used to mark the menu entry of the current page.
	Current string
	// JSONLD is structured data rendered as application/ld+json when not nil.
	JSONLD any
	// Islands names the React islands the page mounts; their scripts are added to the page.
	Islands []string
	// HTMX loads htmx on a page that has islands; pages without islands always load it.
	HTMX bool
	// Styles are extra stylesheets (names under static/, such as "css/engage.css") of the page's area.
	Styles []string
	// Refresh, when above zero, reloads the page every Refresh seconds in a browser without
	// scripts (pages with scripts refresh their part by htmx).
	Refresh int
}

// UsesHTMX reports whether the page loads htmx. Island pages leave it out to stay within their
// JS budget unless they ask for it.
func (p Page) UsesHTMX() bool { return len(p.Islands) == 0 || p.HTMX }

// Canonical returns the page's absolute canonical URL.
func (p Page) Canonical() string { return p.Site.BaseURL + p.Path }

// Asset returns the hashed URL of a static asset.
func (p Page) Asset(name string) string { return p.Site.Assets.URL(name) }

// AbsoluteImage returns the page's share image as an absolute URL, or "" when it has none.
func (p Page) AbsoluteImage() string {
	if p.Image == "" {
		return ""
	}
	if len(p.Image) > 4 && p.Image[:4] == "http" {
		return p.Image
	}
	return p.Site.BaseURL + p.Image
}

// MenuItem is one entry of the menu overlay.
type MenuItem struct {
	Label string
	Href  string
	// Popup, when set, opens that popup instead of following Href (Href stays as the no-JS fallback).
	Popup string
}

// EventCard is an event as shown in a list.
type EventCard struct {
	Code string
	// Href is the page the card leads to: the event's, or a series' next date's.
	Href     string
	Name     string
	Summary  string
	ImageURL string
	Day      string // "22"
	Month    string // "NOV"
	When     string // "Sun, 22 November 2026 · 7:00 PM"
	Place    string // "SM Mall of Asia Arena, Pasay"
	Price    string // "FREE", "₱450.00" or "From ₱450.00"
	Tags     []TagLink
	Status   string // "" or a notice such as "Postponed"
	Distance string // "3.2 km away" for around-me lists
	Ongoing  bool
	SoldOut  bool
	Anchor   string // id of the card's list item where a page of the list starts ("page-2"), or ""
	// Dates says how many more dates a series has after the one the card shows ("+5 more dates"), or "".
	Dates string
}

// TagLink is a tag with its find-page URL.
type TagLink struct {
	Name string
	Href string
}

// Filter is one date filter tab of the event list.
type Filter struct {
	Label  string
	Value  string
	Href   string
	Active bool
}

// EventList is a list of event cards with its filters and 'load more' link.
type EventList struct {
	Heading  string
	Filters  []Filter
	Cards    []EventCard
	MoreHref string // next page URL, "" when there is none
	// MoreFragment is the URL of the next page's cards alone, fetched by htmx.
	MoreFragment string
	Empty        string // message shown when there are no cards
	Notice       string // e.g. the around-me explanation
	AroundMe     bool
}
