package views

// InvoiceView is the view model of /invoice/{id}: a printable sales invoice or credit note.
type InvoiceView struct {
	Title     string // "Sales invoice" or "Credit note"
	Number    string
	Date      string // the day of issue in Manila
	Seller    string // the registered name (or the organization's name before it entered one)
	TradeName string // the organization's name on Palaro when it differs from the registered name
	TIN       string
	Address   string
	VATStatus string // "VAT-registered" or "Non-VAT registered"
	NonVAT    bool
	// Missing says which of the seller's details were not entered when the invoice was issued.
	Missing   string
	Buyer     string
	Email     string
	EventName string
	OrderHref string
	// Credits links the invoice a credit note reverses; Credits.Href is "" on an invoice.
	Credits    Link
	Lines      []InvoiceLineView
	Exemptions []InvoiceExemptionView
	// Summary are the sums from the gross to the total; Breakdown the VAT analysis of the total.
	Summary    []LineView
	Breakdown  []LineView
	Total      string
	TotalLabel string
}

// InvoiceLineView is one line of an invoice.
type InvoiceLineView struct {
	Description string
	Quantity    int
	UnitPrice   string
	Amount      string
}

// InvoiceExemptionView is a senior citizen's or PWD's ticket on an invoice.
type InvoiceExemptionView struct {
	Type       string
	Holder     string
	IDNumber   string
	ExemptSale string
	Discount   string
}

// OrgOrganizationView is /organizer/organization: an organization's invoice details, what is
// missing, and the forms of its reports.
type OrgOrganizationView struct {
	Frame OrgFrame
	// Missing says which invoice details are still to be entered ("" when none).
	Missing      string
	Form         OrgForm
	Organization string // the organization's id, carried by the report forms
	From, To     string // the default period of the reports (dates in Manila)
}

// OrgAdmissionView is the gross admission receipts report of an organization and period.
type OrgAdmissionView struct {
	Frame        OrgFrame
	Organization string
	Period       string
	Rate         string
	Rows         []OrgAdmissionRow
	Gross        string
	Tax          string
	CSVHref      string
}

// OrgAdmissionRow is one venue city and province of the report.
type OrgAdmissionRow struct {
	City     string
	Province string
	Invoices string // "3 invoices"
	Gross    string
	Tax      string
}
