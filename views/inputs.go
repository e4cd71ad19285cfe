package views

// takesPlaceholder says whether HTML allows the placeholder attribute on an input of type t
// (text-like types and number; not date, time or datetime-local).
func takesPlaceholder(t string) bool {
	switch t {
	case "", "text", "search", "url", "tel", "email", "password", "number":
		return true
	}
	return false
}

// takesMaxLength says whether HTML allows the maxlength attribute on an input of type t (text-like
// types only; not number, date, time or datetime-local).
func takesMaxLength(t string) bool {
	return t != "number" && takesPlaceholder(t)
}
