package views

// OrderReturnsView is the order page's block of self-cancellation and face-value returns.
type OrderReturnsView struct {
	// CancelHref is the self-cancel confirmation page ("" when the buyer may not cancel now).
	CancelHref string
	// CancelNote says until when and at what fee the buyer may cancel.
	CancelNote string
	// Tickets are the buyer's tickets that can be returned, or are returned.
	Tickets []ReturnTicketView
	// Refunds are the refunds written for this order by a self-cancel or a return, in words.
	Refunds []string
}

// Empty reports whether the block has nothing to show.
func (v OrderReturnsView) Empty() bool {
	return v.CancelHref == "" && len(v.Tickets) == 0 && len(v.Refunds) == 0
}

// ReturnTicketView is one ticket in the returns block: a button to return it, or its return's state.
type ReturnTicketView struct {
	Code  string
	Title string
	// State says what became of a returned ticket ("" for one that can be returned).
	State string
	// ReturnAction is the form that returns the ticket ("" when it cannot be returned).
	ReturnAction string
	// WithdrawAction is the form that takes an open return back ("" when none is open).
	WithdrawAction string
}

// SelfCancelView is the view model of /payment/success/{orderId}/cancel.
type SelfCancelView struct {
	OrderHref string
	EventName string
	Heading   string
	// Error is why the order cannot be cancelled (or why the cancel just failed).
	Error string
	// Rows are the amounts: tickets, paid, fee kept, refund.
	Rows [][2]string
	// Action is the form that cancels ("" when the order cannot be cancelled).
	Action string
	Submit string
	Note   string
}

// OrgSelfCancelView is the console page of an event's buyers' self-cancel settings.
type OrgSelfCancelView struct {
	Frame OrgFrame
	Form  Form
	// Returns lists the event's open face-value returns, in words.
	Returns []string
}
