package views

import (
	"fmt"

	"github.com/a-h/templ"
)

func orDefault(s, def string) string {
	if s == "" {
		return def
	}
	return s
}

// staggerStyle delays the i-th menu item's entrance by 0.025 s per item.
func staggerStyle(i int) templ.SafeCSS {
	return templ.SafeCSS(fmt.Sprintf("--stagger:%.3fs", float64(i)*0.025))
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
		{Label: "Sign in", Href: "/sign-in"},
	}
}
