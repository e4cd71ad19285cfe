package palaro

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"
)

// The kinds of an invoice row: a sales invoice, or a credit note that reverses (part of) one.
const (
	InvoiceKindInvoice    = "invoice"
	InvoiceKindCreditNote = "credit_note"
)

// The fields of an organization's invoice details form.
const (
	FieldRegisteredName    = "registeredName"
	FieldTIN               = "tin"
	FieldRegisteredAddress = "registeredAddress"
	FieldVATRegistered     = "vatRegistered"
)

// MaxAmusementTaxRate is the highest amusement tax rate a province may levy on gross admission
// receipts (RA 9640), in hundredths of a percent.
const MaxAmusementTaxRate = 1000

// InvoiceSeller is an organization's details as its invoices print them (BIR RR 7-2024): its
// registered name, TIN, registered address and whether it is VAT-registered.
type InvoiceSeller struct {
	OrganizationID int64  `json:"-"`
	Name           string `json:"name"` // the organization's name on Palaro
	RegisteredName string `json:"registeredName"`
	TIN            string `json:"tin"`
	Address        string `json:"address"`
	VATRegistered  bool   `json:"vatRegistered"`
}

// Missing names the details an invoice needs that the organization has not entered yet.
func (s InvoiceSeller) Missing() []string {
	var m []string
	if s.RegisteredName == "" {
		m = append(m, "registered name")
	}
	if s.TIN == "" {
		m = append(m, "TIN")
	}
	if s.Address == "" {
		m = append(m, "registered address")
	}
	return m
}

// DisplayName is the seller's registered name, or its name on Palaro before it entered one.
func (s InvoiceSeller) DisplayName() string {
	if s.RegisteredName != "" {
		return s.RegisteredName
	}
	return s.Name
}

// NormalizeTIN returns a Taxpayer Identification Number in the form 000-000-000-00000: nine digits
// and the five-digit branch code (00000 for the head office). Nine digits alone get the head
// office's code; a 3-digit branch code (the form before 2024) is widened to five digits.
func NormalizeTIN(s string) (string, error) {
	digits := strings.Map(func(r rune) rune {
		if r == '-' || r == ' ' {
			return -1
		}
		return r
	}, strings.TrimSpace(s))
	for _, r := range digits {
		if r < '0' || r > '9' {
			return "", &Error{Code: EINVALID, Message: "A TIN has only digits and dashes, as 000-000-000-00000.",
				Fields: map[string]string{FieldTIN: "A TIN has only digits and dashes, as 000-000-000-00000."}}
		}
	}
	switch len(digits) {
	case 9:
		digits += "00000"
	case 12:
		digits = digits[:9] + "00" + digits[9:]
	case 14:
	default:
		msg := fmt.Sprintf("A TIN has 9 digits and a 5-digit branch code, as 000-000-000-00000 (00000 for the head office); this one has %d digits.", len(digits))
		return "", &Error{Code: EINVALID, Message: msg, Fields: map[string]string{FieldTIN: msg}}
	}
	return digits[0:3] + "-" + digits[3:6] + "-" + digits[6:9] + "-" + digits[9:], nil
}

// ValidateInvoiceSeller trims and checks an organization's invoice details: every one may be left
// empty (sales go on; the console says what is missing), a TIN must read as one, and a
// VAT-registered organization needs its TIN.
func ValidateInvoiceSeller(in InvoiceSeller) (InvoiceSeller, error) {
	var errs fieldErrors
	in.RegisteredName = strings.Join(strings.Fields(in.RegisteredName), " ")
	in.Address = strings.Join(strings.Fields(in.Address), " ")
	if utf8.RuneCountInString(in.RegisteredName) > 200 {
		errs.add(FieldRegisteredName, "The registered name can have at most 200 characters.")
	}
	if strings.TrimSpace(in.TIN) != "" {
		tin, err := NormalizeTIN(in.TIN)
		if err != nil {
			errs.add(FieldTIN, ErrorMessage(err))
		}
		in.TIN = tin
	} else {
		in.TIN = ""
		if in.VATRegistered {
			errs.add(FieldTIN, "A VAT-registered organization needs its TIN on its invoices.")
		}
	}
	if utf8.RuneCountInString(in.Address) > 300 {
		errs.add(FieldRegisteredAddress, "The registered address can have at most 300 characters.")
	}
	if err := errs.err(); err != nil {
		return in, err
	}
	return in, nil
}

// InvoiceLine is one line of an invoice: what was sold, how many, at what VAT-inclusive price.
type InvoiceLine struct {
	Description string `json:"description"`
	Quantity    int    `json:"quantity"`
	UnitPrice   Money  `json:"unitPrice"`
	Amount      Money  `json:"amount"`
}

// InvoiceExemption is a senior citizen's or PWD's ticket on an invoice, with what the law asks to
// be recorded: the holder's name and ID number, the VAT-exempt sale and the 20% discount.
type InvoiceExemption struct {
	Type       string `json:"type"` // "senior" or "pwd"
	Holder     string `json:"holder"`
	IDNumber   string `json:"idNumber"`
	Price      Money  `json:"price"`      // the ticket type's price with VAT
	ExemptSale Money  `json:"exemptSale"` // the price without VAT (the price itself for a non-VAT seller)
	Discount   Money  `json:"discount"`   // the 20% taken off the exempt sale
	Paid       Money  `json:"paid"`
}

// TypeLabel names the discount as the invoice prints it.
func (e InvoiceExemption) TypeLabel() string {
	if e.Type == "pwd" {
		return "Person with disability"
	}
	return "Senior citizen"
}

// InvoiceAmounts are an invoice's sums. Gross − VATRemoved − PromoDiscount − SCPWDDiscount =
// Total; VATableSales + VAT + the exempt sales paid = Total.
type InvoiceAmounts struct {
	Gross          Money `json:"gross"`      // the lines at their VAT-inclusive prices
	VATRemoved     Money `json:"vatRemoved"` // the VAT taken off senior and PWD tickets
	PromoDiscount  Money `json:"promoDiscount"`
	SCPWDDiscount  Money `json:"scpwdDiscount"`
	VATableSales   Money `json:"vatableSales"`
	VAT            Money `json:"vat"`
	VATExemptSales Money `json:"vatExemptSales"`
	Total          Money `json:"total"`
	// Admission is the part of Total paid for admission (tickets, not add-ons): the gross
	// admission receipts the amusement tax is levied on.
	Admission Money `json:"admission"`
}

// VATExclusive returns a VAT-inclusive amount without its 12% VAT (amount ÷ 1.12), rounded half up
// to the centavo: ₱1,000.00 → ₱892.86.
func VATExclusive(m Money) Money {
	if m <= 0 {
		return m
	}
	return (m*100 + 56) / 112
}

// ComputeInvoiceAmounts sums an invoice: lines are every line at its VAT-inclusive price
// (senior and PWD tickets included at their full price), exemptions the senior and PWD tickets
// (their Price and Paid set), promo the promo discount, total what the buyer paid and addOns the
// part of the lines that is not admission. It fills each exemption's ExemptSale and Discount. A
// VAT-registered seller's non-exempt sales split into VATable sales and 12% VAT; a non-VAT
// seller's carry no VAT.
func ComputeInvoiceAmounts(vatRegistered bool, lines []InvoiceLine, exemptions []InvoiceExemption, promo, total, addOns Money) InvoiceAmounts {
	a := InvoiceAmounts{PromoDiscount: promo, Total: total, Admission: max(total-addOns, 0)}
	for _, l := range lines {
		a.Gross += l.Amount
	}
	var exemptPaid Money
	for i := range exemptions {
		e := &exemptions[i]
		e.ExemptSale = e.Price
		if vatRegistered {
			e.ExemptSale = VATExclusive(e.Price)
		}
		e.Discount = max(e.ExemptSale-e.Paid, 0)
		a.VATRemoved += e.Price - e.ExemptSale
		a.SCPWDDiscount += e.Discount
		a.VATExemptSales += e.ExemptSale
		exemptPaid += e.Paid
	}
	a.VATableSales, a.VAT = SplitVAT(max(total-exemptPaid, 0), vatRegistered)
	return a
}

// SplitVAT splits what a buyer paid for sales that are not VAT-exempt into VATable sales and the
// 12% VAT in them (paid = vatable + vat); a non-VAT seller's sales are all sales, with no VAT.
func SplitVAT(paid Money, vatRegistered bool) (vatable, vat Money) {
	if !vatRegistered {
		return paid, 0
	}
	vatable = VATExclusive(paid)
	return vatable, paid - vatable
}

// Invoice is an issued sales invoice or credit note: its serial, the seller's details and the
// lines as they were when it was issued (later edits of the organization or the order change
// nothing on it).
type Invoice struct {
	ID            int64
	PublicID      string // unguessable id of /invoice/{PublicID}
	Kind          string // InvoiceKindInvoice or InvoiceKindCreditNote
	Serial        int64  // from the organization's own sequence of the kind: 1, 2, 3…
	OrderID       int64
	OrderPublicID string
	EventName     string
	// Credits is the invoice a credit note reverses (its PublicID and Number); empty on an invoice.
	CreditsPublicID string
	CreditsNumber   string
	RefundPublicID  string // the refund a credit note records, when it came from one
	IssuedAt        time.Time
	Seller          InvoiceSeller
	BuyerName       string
	BuyerEmail      string
	Lines           []InvoiceLine
	Exemptions      []InvoiceExemption
	Amounts         InvoiceAmounts
}

// InvoiceNumber formats an invoice's serial as printed: 00000042, or CN-00000042 for a credit note.
func InvoiceNumber(kind string, serial int64) string {
	n := fmt.Sprintf("%08d", serial)
	if kind == InvoiceKindCreditNote {
		return "CN-" + n
	}
	return n
}

// Number is the invoice's printed number (InvoiceNumber).
func (i *Invoice) Number() string { return InvoiceNumber(i.Kind, i.Serial) }

// InvoicePath is the printable page of an invoice or credit note.
func InvoicePath(invoicePublicID string) string { return "/invoice/" + invoicePublicID }

// AmusementTax returns the amusement tax on gross admission receipts at rate (hundredths of a
// percent: 1000 is 10%), rounded half up to the centavo.
func AmusementTax(gross Money, rate int) Money {
	if gross <= 0 || rate <= 0 {
		return 0
	}
	return (gross*Money(rate) + 5000) / 10000
}

// ParseAmusementTaxRate reads a percentage such as "10", "7.5" or "2.25%" into hundredths of a
// percent; empty is 0. At most 10% (RA 9640) and two decimals.
func ParseAmusementTaxRate(s string) (int, error) {
	s = strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(s), "%"))
	if s == "" {
		return 0, nil
	}
	bad := func(msg string) (int, error) {
		return 0, &Error{Code: EINVALID, Message: msg, Fields: map[string]string{"rate": msg}}
	}
	whole, frac, _ := strings.Cut(s, ".")
	if len(frac) > 2 {
		return bad("Enter the amusement tax rate with at most two decimals, such as 7.5.")
	}
	w, err := strconv.Atoi(whole)
	if whole == "" {
		w, err = 0, nil
	}
	f := 0
	if err == nil && frac != "" {
		f, err = strconv.Atoi(frac + strings.Repeat("0", 2-len(frac)))
	}
	if err != nil || w < 0 || f < 0 || strings.ContainsAny(whole+frac, "+-") {
		return bad("Enter the amusement tax rate as a percentage, such as 10 or 7.5.")
	}
	rate := w*100 + f
	if rate > MaxAmusementTaxRate {
		return bad("The amusement tax is at most 10% of gross admission receipts (RA 9640).")
	}
	return rate, nil
}

// FormatTaxRate formats a rate in hundredths of a percent as "7.5%".
func FormatTaxRate(rate int) string {
	return strconv.FormatFloat(float64(rate)/100, 'f', -1, 64) + "%"
}

// AdmissionReceipts is one line of the gross admission receipts report: a venue's city and
// province (region), its admission receipts in the period (invoices less credit notes) and the
// amusement tax on them.
type AdmissionReceipts struct {
	City     string
	Province string
	Venues   string // the venues' names, comma-separated
	Invoices int
	Gross    Money
	Tax      Money
}

// AdmissionReport is the gross admission receipts report of an organization for a period.
type AdmissionReport struct {
	Rate  int // hundredths of a percent
	Rows  []AdmissionReceipts
	Gross Money
	Tax   Money
}

// NewAdmissionReport totals rows at rate, filling each row's tax.
func NewAdmissionReport(rows []AdmissionReceipts, rate int) AdmissionReport {
	r := AdmissionReport{Rate: rate, Rows: rows}
	for i := range r.Rows {
		r.Rows[i].Tax = AmusementTax(r.Rows[i].Gross, rate)
		r.Gross += r.Rows[i].Gross
		r.Tax += r.Rows[i].Tax
	}
	return r
}

// InvoiceService issues nothing itself (invoices are written with the payment that makes an
// order paid); it keeps the organizations' invoice details and reads invoices and their reports.
type InvoiceService interface {
	// InvoiceSellers returns the invoice details of the organizations, in the order of orgIDs.
	InvoiceSellers(ctx context.Context, orgIDs []int64) ([]InvoiceSeller, error)
	// SaveInvoiceSeller validates and stores an organization's invoice details (audit-logged);
	// invoices issued before keep the details they were issued with. Returns EINVALID (with Fields).
	SaveInvoiceSeller(ctx context.Context, orgID int64, actor string, in InvoiceSeller) (InvoiceSeller, error)
	// FindInvoice returns an invoice or credit note by its public id. Returns ENOTFOUND.
	FindInvoice(ctx context.Context, publicID string) (*Invoice, error)
	// EachInvoice calls fn with the organization's invoices and credit notes issued in [from, to),
	// by kind then serial, reading them as fn goes (for a streamed export).
	EachInvoice(ctx context.Context, orgID int64, from, to time.Time, fn func(*Invoice) error) error
	// AdmissionReceipts sums the organization's admission receipts issued in [from, to) per venue
	// city and province: invoices less credit notes.
	AdmissionReceipts(ctx context.Context, orgID int64, from, to time.Time) ([]AdmissionReceipts, error)
}
