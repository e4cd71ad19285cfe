package views

// EmbedView is the ticket widget of an event (/embed/e/{code}), the page other sites frame: its
// ticket types with prices and availability, each with a buy link that opens Palaro in a new tab.
type EmbedView struct {
	Name    string
	When    string
	Venue   string
	Ended   bool
	Tickets []TicketView
	// EventURL is the event's page on Palaro (absolute).
	EventURL string
}

// OrgWidgetView is the console's widget page of an event: the sites that may show the widget and
// the snippet to copy.
type OrgWidgetView struct {
	Frame OrgFrame
	Form  OrgForm
	// IframeSnippet is the iframe tag that shows the event's widget; TypeSnippet shows one ticket
	// type's ("" when the event has none).
	IframeSnippet string
	TypeSnippet   string
	// ScriptSnippet is the script tag that puts the same iframe in (/embed/widget.js).
	ScriptSnippet string
	// Framable is false while no site is listed: the widget then shows only on Palaro itself.
	Framable bool
}
