package views

// EmbedView is the ticket widget of an event (/embed/e/{code}), the page other sites frame: its
// ticket types with prices and availability, each with a buy link that opens Palaro in a new tab
// (or, put in by widget.js, the buy flow in an overlay).
type EmbedView struct {
	Name    string
	When    string
	Venue   string
	Ended   bool
	Tickets []EmbedTicket
	// EventURL is the event's page on Palaro (absolute).
	EventURL string
	// Origins are the sites that may frame the widget, space-separated: embed.js talks only to a
	// parent page of one of them.
	Origins string
}

// EmbedTicket is a ticket type of the widget; Overlay is true when it can be bought in the
// overlay's frame (available, not seated).
type EmbedTicket struct {
	TicketView
	Overlay bool
}

// EmbedBuyView is the widget overlay's buy page (/embed/b/{code}): the purchase form, or a link
// that continues on Palaro's own tab where the purchase cannot happen in a frame.
type EmbedBuyView struct {
	TicketHeader
	// Form is the buy page's form and props (nil when ElsewhereHref is set).
	Form *BuyView
	// ElsewhereHref continues on Palaro in a new tab (the seat map, the queue), for ElsewhereWhy.
	ElsewhereHref string
	ElsewhereWhy  string
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
