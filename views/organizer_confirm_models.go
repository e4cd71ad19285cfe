package views

// OrgConfirmView is the console's confirmation step for an action that cannot be undone (cancel a
// ticket, mark an order refunded): a page of its own, so it works without JavaScript.
type OrgConfirmView struct {
	Frame OrgFrame
	// Lines say what the action does and does not do.
	Lines []string
	// Confirm is the form that takes the action (it carries confirm=yes).
	Confirm OrgAction
	// Keep leads back without doing anything.
	Keep Link
}
