package views

// OrgRefundForm is the order page's refund form: a checkbox per ticket that can still be refunded.
type OrgRefundForm struct {
	Action  string
	Tickets []OrgRefundChoice
}

// OrgRefundChoice is one ticket of the refund form.
type OrgRefundChoice struct {
	Code  string
	Label string // the holder, seat and what the ticket cost
}

// OrgRefundRow is one refund of an order, as the order page shows it.
type OrgRefundRow struct {
	ID      string
	Status  string // pending, refunded or failed
	Amount  string
	Tickets string
	Reason  string
	When    string
	Failure string
	// Retry tries a failed refund again; nil otherwise.
	Retry *OrgAction
}

// OrgRefundAll is the refund queue page's "refund every order" of a cancelled event.
type OrgRefundAll struct {
	// Start asks for the refund of every order; nil once started (or when the event is not cancelled).
	Start *OrgAction
	// Progress says how far it has come ("12 of 40 orders refunded"); empty before it starts.
	Progress string
	// Detail says what is pending or failed, when anything is.
	Detail string
	// Value and Max feed the progress bar.
	Value, Max int
	// Note says why it is not offered (the event is not cancelled).
	Note string
}
