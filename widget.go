package palaro

import (
	"net/url"
	"regexp"
	"slices"
	"strconv"
	"strings"
)

// FieldWidgetOrigins is the form field of the sites that may show an event's ticket widget.
const FieldWidgetOrigins = "origins"

// MaxWidgetOrigins is how many sites may show one event's ticket widget.
const MaxWidgetOrigins = 10

// originHost is a host name or IPv4 address with an optional port: nothing a browser's
// Content-Security-Policy could read as another source or directive.
var originHost = regexp.MustCompile(`^[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)*(:[0-9]{1,5})?$`)

// ParseWidgetOrigins reads the sites an organizer lists for an event's ticket widget, separated by
// spaces, commas or lines, into origins such as "https://mysite.ph": https only (http only for
// localhost and 127.0.0.1, to try the widget on one's own machine), no path, query or user, at
// most MaxWidgetOrigins, duplicates dropped. Returns EINVALID naming FieldWidgetOrigins.
func ParseWidgetOrigins(text string) ([]string, error) {
	var origins []string
	for _, s := range strings.FieldsFunc(text, func(r rune) bool { return r == ',' || r == ' ' || r == '\n' || r == '\r' || r == '\t' }) {
		o, msg := widgetOrigin(s)
		if msg != "" {
			return nil, widgetOriginsError(msg)
		}
		if !slices.Contains(origins, o) {
			origins = append(origins, o)
		}
	}
	if len(origins) > MaxWidgetOrigins {
		return nil, widgetOriginsError("List at most " + strconv.Itoa(MaxWidgetOrigins) + " sites.")
	}
	return origins, nil
}

// widgetOrigin returns the origin s names, or a message saying what is wrong with it.
func widgetOrigin(s string) (string, string) {
	bad := "“" + s + "” is not a site's address: write it as https://mysite.ph, with no path."
	u, err := url.Parse(s)
	if err != nil || u.Host == "" || u.User != nil || u.RawQuery != "" || u.Fragment != "" || u.Opaque != "" ||
		(u.Path != "" && u.Path != "/") || strings.HasSuffix(s, "?") || strings.HasSuffix(s, "#") {
		return "", bad
	}
	host := strings.ToLower(u.Host)
	if !originHost.MatchString(host) {
		return "", bad
	}
	switch scheme := strings.ToLower(u.Scheme); {
	case scheme == "https":
	case scheme == "http" && (u.Hostname() == "localhost" || u.Hostname() == "127.0.0.1"):
	case scheme == "http":
		return "", "“" + s + "” is not secure: only https:// sites may show the widget."
	default:
		return "", bad
	}
	return strings.ToLower(u.Scheme) + "://" + host, ""
}

func widgetOriginsError(msg string) error {
	return &Error{Code: EINVALID, Message: "Please correct the highlighted fields.", Fields: map[string]string{FieldWidgetOrigins: msg}}
}
