package views

import (
	"fmt"

	"palaro"
)

// plural is n with the noun that fits it, such as "1 conflict" or "2 conflicts".
func plural(n int, one, many string) string { return palaro.Plural(n, one, many) }

// ticketsLabel introduces a list of n ticket codes.
func ticketsLabel(n int) string {
	if n == 1 {
		return "Ticket: "
	}
	return "Tickets: "
}

// staggerClass names the CSS class that delays the i-th menu item's entrance by 0.025 s per item
// (a class, not a style attribute, which the Content-Security-Policy would block).
func staggerClass(i int) string {
	return fmt.Sprintf("stagger-%d", min(i, 19))
}

func islandScript(p Page, name string) string {
	if isl, ok := p.Site.Assets.Island(name); ok {
		return "/static/" + isl.JS
	}
	return ""
}

func menuItems() []MenuItem {
	return []MenuItem{
		{Label: "Home", Href: "/"},
		{Label: "Register", Href: "/register"},
		{Label: "Privacy Policy", Href: "/privacy", Popup: "privacy"},
		{Label: "Terms & Conditions", Href: "/terms", Popup: "terms-and-conditions"},
		{Label: "About Us", Href: "/about"},
		{Label: "Contact Us", Href: "/contacts", Popup: "contact-us"},
	}
}

func exploreItems() []MenuItem {
	return []MenuItem{
		{Label: "Explore events", Href: "/"},
		{Label: "Calendar", Href: "/calendar"},
		{Label: "My tickets", Href: "/tickets"},
		{Label: "Profile", Href: "/profile"},
		{Label: "Leaderboard", Href: "/leaderboard"},
		{Label: "Activities", Href: "/activities"},
		{Label: "News", Href: "/news"},
		{Label: "FAQ", Href: "/faq"},
		{Label: "Settings", Href: "/profile#settings"},
	}
}
