package views

// GateTicketType is a ticket type the box office can sell, in the gate island's props.
type GateTicketType struct {
	Code  string `json:"code"`
	Name  string `json:"name"`
	Price string `json:"price"`
	// Centavos is the price of one ticket, for the amount to collect.
	Centavos int64 `json:"centavos"`
	// Max is how many one sale may have: the per-buyer maximum, at most the tickets left when the page was made.
	Max int `json:"max"`
	// MaxByDate is, on a series, Max on each date (by slug) from the date's places left (a day
	// ticket's own counters stay 0); the gate shows its chosen date's.
	MaxByDate map[string]int `json:"maxByDate,omitempty"`
}

// GateProps are the gate island's props.
type GateProps struct {
	EventCode string `json:"eventCode"`
	EventName string `json:"eventName"`
	// PublicKey is the current Ed25519 signing key's public key (base64url).
	PublicKey string `json:"publicKey"`
	// PublicKeys are the public keys (base64url) that verify ticket QR codes offline, by key id.
	PublicKeys map[string]string `json:"publicKeys"`
	ListURL    string            `json:"listUrl"`
	// Member names the signed-in member, so what the gate keeps on a shared phone is theirs alone.
	Member      string           `json:"member"`
	ConsoleHref string           `json:"consoleHref"`
	TicketTypes []GateTicketType `json:"ticketTypes"`
	// Dates are a series' dates the gate can admit to (not cancelled), by start; none for a
	// single-date event. Date is the one the gate opens on (palaro.GateDate).
	Dates []GateDateOption `json:"dates,omitempty"`
	Date  string           `json:"date,omitempty"`
}

// GateDateOption is a date of a series in the gate's picker and the console's counts.
type GateDateOption struct {
	Slug string `json:"slug"`
	// Label names it at the gate: "Match Day 3 · Sat 12 Dec" (palaro.GateDateLabel).
	Label string `json:"label"`
}

// GateView is the gate page: the scanner island and links back to the console.
type GateView struct {
	Frame OrgFrame
	Props GateProps
}

// CheckInCountRow is a line of the live counts: a gate or a ticket type.
type CheckInCountRow struct {
	Name      string
	CheckedIn int
	Sold      int
}

// CheckInCountsView are the live counts, refreshed by htmx from LiveURL.
type CheckInCountsView struct {
	LiveURL string
	// Date is the series date counted (a slug, "" for a single-date event), DateLabel its name.
	Date      string
	DateLabel string
	CheckedIn int
	Sold      int
	Conflicts int
	// TimeCorrected counts offline scans recorded at the nearest possible time (the phone's clock was wrong).
	TimeCorrected int
	ByGate        []CheckInCountRow
	ByType        []CheckInCountRow
}

// CheckInConflictView is one offline double check-in in the console.
type CheckInConflictView struct {
	Code       string
	Holder     string
	TicketType string
	First      string
	Second     string
}

// CheckInsView is the console's check-in page: live counts, conflicts and undo.
type CheckInsView struct {
	Frame    OrgFrame
	GateHref string
	// Date picks the series date counted (no options for a single-date event).
	Date      OrgSelect
	Counts    CheckInCountsView
	Conflicts []CheckInConflictView
	// UndoAction is where a manager undoes a check-in; empty for gate staff.
	UndoAction string
}
