package views

// OrgNavItem is one entry of the organizer console's navigation.
type OrgNavItem struct {
	Label   string
	Href    string
	Current bool
}

// OrgFrame is what every console page shows around its content: the navigation and a notice.
type OrgFrame struct {
	Nav     []OrgNavItem
	Notice  string
	Heading string
	// Back is a link above the heading (to the event, to the list).
	Back Link
}

// OrgEventRow is one event of the console's list.
type OrgEventRow struct {
	Code         string
	Name         string
	Organization string
	When         string
	Venue        string
	Phase        string // draft, published, postponed, past, cancelled
	Sold         int
	Capacity     int
	Revenue      string // "" when the viewer may not see sales
	Href         string
}

// OrgHomeView is /organizer: the events, grouped by phase, and the create button.
type OrgHomeView struct {
	Frame     OrgFrame
	Groups    []OrgEventGroup
	CanCreate bool
	Empty     bool
	// InvoiceNotices say which organizations' invoices still lack their registered details.
	InvoiceNotices []Link
}

// OrgEventGroup is a heading and its events (Draft, Published, Past, Cancelled).
type OrgEventGroup struct {
	Title  string
	Events []OrgEventRow
}

// SelectOption is one option of a select input.
type SelectOption struct {
	Value    string
	Label    string
	Selected bool
}

// OrgSelect is a labelled select input.
type OrgSelect struct {
	Name    string
	Label   string
	Options []SelectOption
	Error   string
}

// ID is the select's element id.
func (s OrgSelect) ID() string { return "f-" + s.Name }

// OrgCheckGroup is a labelled group of checkboxes sharing a name.
type OrgCheckGroup struct {
	Name    string
	Legend  string
	Options []SelectOption
	Error   string
}

// OrgFormSection is a titled part of a console form.
type OrgFormSection struct {
	Title    string
	Fields   []FormField
	Selects  []OrgSelect
	Checks   []OrgCheckGroup
	Booleans []FormCheckbox
	// SelectsFirst puts the selects before the fields (a choice the fields depend on, such as a discount's type).
	SelectsFirst bool
}

// OrgForm is a console form: sections of fields, posted to Action.
type OrgForm struct {
	Action   string
	Submit   string
	Error    string
	Sections []OrgFormSection
	// Multipart is true for forms with a file input.
	Multipart bool
	// Also are more submit buttons after Submit, each posting the same fields to its own action.
	Also []OrgAction
}

// OrgFormView is a page with one console form.
type OrgFormView struct {
	Frame OrgFrame
	Form  OrgForm
	// Seats, when set, is the seat grid of a seated ticket type, below the form.
	Seats *OrgSeatGrid
}

// OrgTicketTypeRow is a ticket type on the event page.
type OrgTicketTypeRow struct {
	Code      string
	Name      string
	Price     string
	Sold      int
	Held      int
	Capacity  int
	Seated    bool
	SaleState string
	EditHref  string
	BuyHref   string
	// Note says how a series counts the type: a day ticket's places over its dates, a pass's kind.
	Note string
}

// OrgDateSalesRow is one date of a series on the console's event page and dashboard: each
// ticket type's places there and the check-ins.
type OrgDateSalesRow struct {
	Label    string
	Href     string // the date's public page
	Status   string // "" when scheduled
	Types    [][2]string
	CheckIns string
}

// OrgAction is a button that posts to Action (with CSRF), such as "Publish".
type OrgAction struct {
	Label  string
	Action string
	// Hidden are the form's hidden fields.
	Hidden [][2]string
	// Secondary styles the button as a secondary one.
	Secondary bool
}

// OrgAuditRow is one line of an event's audit log.
type OrgAuditRow struct {
	When   string
	Actor  string
	Action string
	// Detail is a detail in words, as the change recorded it; Changes are a structured detail's
	// fields, one line each, such as "Capacity: 100 → 120".
	Detail  string
	Changes []string
}

// OrgEventView is the console's page of one event.
type OrgEventView struct {
	Frame       OrgFrame
	CoverURL    string
	CoverAction string
	CoverError  string
	Code        string
	Status      string
	When        string
	Venue       string
	PublicHref  string
	Facts       [][2]string
	TicketTypes []OrgTicketTypeRow
	Links       []Link
	Actions     []OrgAction
	Audit       []OrgAuditRow
	// Warning says what keeps the event from selling (no ticket types yet).
	Warning string
	// Dates are a series' dates with their sales (none for a single-date event).
	Dates []OrgDateSalesRow
}

// OrgOrderRow is one order in the console's order search.
type OrgOrderRow struct {
	// Href is the order's console page.
	Href    string
	ID      string
	When    string
	Email   string
	Item    string
	Total   string
	Status  string
	Tickets []string
	// Date is a series' order's date ("Season pass" for a pass), "" for a single-date event's.
	Date string
}

// OrgOrdersView is the order search of an event.
type OrgOrdersView struct {
	Frame   OrgFrame
	Action  string
	Query   string
	Orders  []OrgOrderRow
	Exports []Link
	// Dates are a series' dates to filter by (the first "Every date"), none for a single-date event.
	Dates []SelectOption
}

// OrgTokenRow is one API token in the console.
type OrgTokenRow struct {
	ID           string
	Name         string
	Organization string
	Role         string
	Created      string
	LastUsed     string
	Revoked      bool
	RevokeAction string
}

// OrgTokensView is /organizer/tokens: the tokens, a new token's secret once, and the create form.
type OrgTokensView struct {
	Frame  OrgFrame
	Secret string
	Tokens []OrgTokenRow
	Form   OrgForm
	// APIBase is the organizer API's address on this site, for the help beside the tokens.
	APIBase string
}

// OrgTicketRow is a ticket on the console's order page, with its actions.
type OrgTicketRow struct {
	Code        string
	Status      string
	Holder      string
	Email       string
	Seat        string
	EmailAction string
	EmailError  string
	Cancel      *OrgAction
}

// OrgOrderView is the console's page of one order.
type OrgOrderView struct {
	Frame   OrgFrame
	Status  string
	Facts   [][2]string
	Actions []OrgAction
	Tickets []OrgTicketRow
	Error   string
	// Note is said under the actions (what 'Mark refunded' does not do).
	Note string
	// Invoices link the order's sales invoice and credit notes.
	Invoices []Link
	// Refund is the refund form (nil when nothing can be refunded); Refunds the order's refunds.
	Refund  *OrgRefundForm
	Refunds []OrgRefundRow
}

// OrgRefundsView is an event's refund queue.
type OrgRefundsView struct {
	Frame  OrgFrame
	Orders []OrgOrderRow
	// All is the cancelled event's "refund every order".
	All OrgRefundAll
	// Dates say how far the refunds of each cancelled date of a series are, one line each.
	Dates []string
}

// SVGBar is one bar of a server-drawn chart, in the chart's viewBox units.
type SVGBar struct {
	X, Y, W, H float64
	// Title is the bar's tooltip and accessible text, such as "12 Mar: 40 tickets".
	Title string
}

// SVGLabel is a text of a server-drawn chart.
type SVGLabel struct {
	X, Y   float64
	Text   string
	Anchor string // start, middle or end
}

// OrgChart is a bar chart drawn on the server as SVG (no chart library on a phone).
type OrgChart struct {
	Title string
	// Summary describes the chart for screen readers.
	Summary string
	Width   float64
	Height  float64
	Bars    []SVGBar
	Labels  []SVGLabel
	// Class colours the bars (chart-tickets, chart-revenue).
	Class string
}

// OrgSalesRow is one line of a sales table.
type OrgSalesRow struct {
	Label   string
	Tickets string
	Revenue string
}

// OrgDashboardView is an event's sales dashboard.
type OrgDashboardView struct {
	Frame      OrgFrame
	Totals     [][2]string
	Charts     []OrgChart
	ByType     []OrgSalesRow
	BySource   []OrgSalesRow
	CheckIns   string
	CheckInBar SVGBar
	// Dates are a series' dates with their sales (none for a single-date event).
	Dates []OrgDateSalesRow
}

// OrgMemberRow is a member of an organization on the team page.
type OrgMemberRow struct {
	Name         string
	Email        string
	Role         string
	Organization string
	Remove       *OrgAction
}

// OrgTeamView is /organizer/team: members, pending invitations and the invitation form.
type OrgTeamView struct {
	Frame       OrgFrame
	Members     []OrgMemberRow
	Invitations []OrgMemberRow
	Form        OrgForm
}

// OrgJoinView is the page of a team invitation link.
type OrgJoinView struct {
	Frame  OrgFrame
	Text   string
	Action string
	// Links lead a signed-out visitor to sign in or sign up and come back.
	Links []Link
}

// OrgListItem is one line of a console list.
type OrgListItem struct {
	Title string
	Meta  string
	Href  string
	// Action, when set, is a button of the item, such as "Delete".
	Action *OrgAction
	// Actions are further buttons of the item, side by side (Pause, Delete).
	Actions []OrgAction
	// Badge, when set, is a state shown beside the title, such as "paused".
	Badge string
}

// OrgListView is a console page with a list and a form below it (add-ons, promo codes).
type OrgListView struct {
	Frame     OrgFrame
	Intro     string
	Items     []OrgListItem
	Empty     string
	FormTitle string
	Form      OrgForm
}

// OrgSeatCell is one seat of the console's seat grid.
type OrgSeatCell struct {
	Label   string
	Number  int
	Blocked bool
	// Taken is true for a sold or held seat, which cannot be blocked.
	Taken bool
	// AisleAfter is true when an aisle follows this seat.
	AisleAfter bool
}

// OrgSeatRow is one row of the console's seat grid; GapAfter when an empty row follows it.
type OrgSeatRow struct {
	Row      string
	Seats    []OrgSeatCell
	GapAfter bool
	Last     bool
}

// OrgSeatColumn is one seat number of the grid, where the organizer ticks an aisle after it.
type OrgSeatColumn struct {
	Number int
	Aisle  bool
	Last   bool
}

// OrgSeatGrid is the grid where an organizer lays out a seated ticket type: its size, aisles,
// empty rows and the seats to take off sale.
type OrgSeatGrid struct {
	Action         string
	RowCount       int
	SeatsPerRow    int
	MaxRows        int
	MaxSeatsPerRow int
	// Sellable is the number of seats for sale, the ticket type's capacity.
	Sellable int
	Columns  []OrgSeatColumn
	Rows     []OrgSeatRow
	Error    string
}
