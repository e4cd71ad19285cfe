package views

// OrgWebhooksView is /organizer/webhooks: the endpoints, a new endpoint's secret once, and the form
// that adds one.
type OrgWebhooksView struct {
	Frame     OrgFrame
	Secret    string
	Endpoints []OrgWebhookRow
	Form      OrgForm
}

// OrgWebhookRow is one endpoint in the console.
type OrgWebhookRow struct {
	ID     string
	URL    string
	Events string
	Status string // active or paused
	// Failing says since when its deliveries have failed ("" when they do not).
	Failing string
	Created string
	Href    string // its page of deliveries
	Toggle  OrgAction
	Test    OrgAction
	Remove  OrgAction
}

// OrgWebhookView is one endpoint's page: its facts, actions and recent deliveries.
type OrgWebhookView struct {
	Frame      OrgFrame
	Endpoint   OrgWebhookRow
	Deliveries []OrgDeliveryRow
}

// OrgDeliveryRow is one delivery of an endpoint in the console.
type OrgDeliveryRow struct {
	EventID  string
	Type     string
	Status   string // pending, sent or failed
	Answer   string // the last attempt's HTTP status, or what went wrong
	Attempts string // "1 attempt", "3 attempts"
	Created  string
	Last     string
	Next     string // when a pending one is tried next
	Resend   OrgAction
}
