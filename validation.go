package palaro

import (
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Purchase form field names, as in the purchase payload and in an event's requiredFields.
const (
	FieldEmail         = "email"
	FieldQuantity      = "quantity"
	FieldFirstName     = "firstName"
	FieldLastName      = "lastName"
	FieldFullName      = "fullName"
	FieldMobileNumber  = "mobileNumber"
	FieldGender        = "gender"
	FieldBirthDate     = "birthDate"
	FieldAge           = "age"
	FieldCompanyName   = "companyName"
	FieldDesignation   = "designation"
	FieldEconomicClass = "economicClass"
	FieldSurveyAnswer  = "surveyAnswer"
	FieldDisclaimer    = "disclaimerAccepted"
)

// When a rule's field is required.
const (
	RequiredAlways   = "always"   // every buyer must fill it
	RequiredNewBuyer = "newBuyer" // required unless the buyer ticked 'I am an existing user'
	RequiredNever    = ""         // optional; its pattern still applies when filled
)

// GenderOptions are the choices of the gender field.
var GenderOptions = []string{"Male", "Female"}

// IncomeOptions are the choices of the monthly income (economicClass) field.
var IncomeOptions = []string{"Unemployed", "Below 10,000", "10,000 to 30,000", "30,000 to 100,000", "Above 100,000"}

// Patterns of the purchase form, written so that Go's regexp and JavaScript's RegExp read them alike.
const (
	EmailPattern     = "^[A-Za-z0-9.!#$%&'*+/=?^_`{|}~-]+@[^\\s@\"<>()\\[\\],;:\\\\]+\\.[^\\s@\"<>()\\[\\],;:\\\\]+$"
	MobilePattern    = `^\+?[0-9][0-9-]*$`
	DigitsPattern    = `^[0-9]+$`
	BirthDatePattern = `^[0-9]{4}-[0-9]{2}-[0-9]{2}$`
	// PHMobilePattern is what NormalizeMobileNumber accepts, read after MobileSeparators are
	// removed: 09XXXXXXXXX, 9XXXXXXXXX, (+)639XXXXXXXXX, or another country's number with a plus.
	PHMobilePattern = `^(0?9[0-9]{9}|\+?639[0-9]{9}|\+([1-57-9][0-9]{7,14}|6[0-24-9][0-9]{6,13}))$`
	// MobileSeparators are the characters a typed mobile number may contain between its digits.
	MobileSeparators = `[\s().-]`
)

// ValidEmail reports whether s is an acceptable e-mail address (CanonicalEmail); the basic
// pattern of SPEC.md section 5 is what the islands check before sending.
func ValidEmail(s string) bool {
	_, ok := CanonicalEmail(s)
	return ok && matchEmailPattern(strings.TrimSpace(s))
}

// CheckEmail returns an address's canonical form (CanonicalEmail), or EINVALID with the form's
// message ('E-mail is required' or 'Invalid E-mail address').
func CheckEmail(s string) (string, error) {
	if strings.TrimSpace(s) == "" {
		return "", Errorf(EINVALID, "E-mail is required")
	}
	c, ok := CanonicalEmail(s)
	if !ok || !matchEmailPattern(c) {
		return "", Errorf(EINVALID, "Invalid E-mail address")
	}
	return c, nil
}

// ValidMobileNumber reports whether s has only digits and hyphens, with an optional leading plus.
func ValidMobileNumber(s string) bool { return len(s) <= 20 && matchMobilePattern(s) }

// FieldRule is one validation rule of the purchase form. The same rules are enforced on the
// server by ValidatePurchase and handed to the purchase island as JSON, so both show one message.
type FieldRule struct {
	// Field is the payload field name, such as "email".
	Field string `json:"field"`
	// Label is the field's visible label (the floating placeholder).
	Label string `json:"label"`
	// Input is the input kind: text, email, tel, digits, date, select, survey, checkbox or quantity.
	Input string `json:"input"`
	// RequiredWhen is RequiredAlways, RequiredNewBuyer or RequiredNever.
	RequiredWhen string `json:"requiredWhen"`
	// Message is shown when a required field is empty.
	Message string `json:"message"`
	// Pattern, when set, is a regular expression the filled value must match.
	Pattern string `json:"pattern,omitempty"`
	// Strip, when set, is a pattern of characters removed before Pattern is matched (the separators
	// of a mobile number); the server then checks the value with NormalizeMobileNumber.
	Strip string `json:"strip,omitempty"`
	// PatternMessage is shown when the value does not match Pattern or is not one of Options.
	PatternMessage string `json:"patternMessage,omitempty"`
	// Options, when set, lists the only accepted values.
	Options []string `json:"options,omitempty"`
	// MaxLength is the longest accepted value in characters.
	MaxLength int `json:"maxLength,omitempty"`
	// Max is the largest accepted number (quantity), with MaxMessage shown above it.
	Max        int    `json:"max,omitempty"`
	MaxMessage string `json:"maxMessage,omitempty"`
	// Locked is true when the value is fixed by the page (quantity 1 for free tickets, or the seat count).
	Locked bool `json:"locked,omitempty"`
	// Hidden is true when the field is not shown (a forced quantity of 1).
	Hidden bool `json:"hidden,omitempty"`
}

// personalFields are the personal details an event may require, in form order, with their rules.
// A detail the event does not require still has its length limit and character rule checked
// when it is sent (ValidatePurchase).
var personalFields = []FieldRule{
	{Field: FieldFirstName, Label: "First Name", Input: "text", Message: "First Name is required", MaxLength: 100,
		Pattern: NamePattern, PatternMessage: MsgNameInvalid},
	{Field: FieldLastName, Label: "Last Name", Input: "text", Message: "Last Name is required", MaxLength: 100,
		Pattern: NamePattern, PatternMessage: MsgNameInvalid},
	{Field: FieldFullName, Label: "Full Name", Input: "text", Message: "Full Name is required", MaxLength: 200,
		Pattern: NamePattern, PatternMessage: MsgNameInvalid},
	{Field: FieldMobileNumber, Label: "Mobile Number", Input: "tel", Message: "Mobile Number is required",
		Pattern: PHMobilePattern, Strip: MobileSeparators, PatternMessage: "Invalid Mobile Number", MaxLength: 24},
	{Field: FieldGender, Label: "Gender", Input: "select", Message: "Gender is required",
		Options: GenderOptions, PatternMessage: "Gender is required", MaxLength: 20},
	{Field: FieldBirthDate, Label: "Birthdate", Input: "date", Message: "Birthdate is required",
		Pattern: BirthDatePattern, PatternMessage: "Invalid Birthdate", MaxLength: 10},
	{Field: FieldAge, Label: "Age", Input: "digits", Message: "Age is required",
		Pattern: agePattern, PatternMessage: "Invalid Age", MaxLength: 3},
	{Field: FieldCompanyName, Label: "Company Name", Input: "text", Message: "Company name is required", MaxLength: 200,
		Pattern: LinePattern, PatternMessage: MsgTextInvalid},
	{Field: FieldDesignation, Label: "Designation", Input: "text", Message: "Designation is required", MaxLength: 200,
		Pattern: LinePattern, PatternMessage: MsgTextInvalid},
	{Field: FieldEconomicClass, Label: "Monthly Income", Input: "select", Message: "Monthly income is required",
		Options: IncomeOptions, PatternMessage: "Monthly income is required", MaxLength: 30},
}

// FieldSource is the purchase payload's promo or referral code.
const FieldSource = "source"

// SourceRule is the rule of the optional promo or referral code; the purchase island receives it
// in its props for the promo field.
var SourceRule = FieldRule{Field: FieldSource, Label: "Promo or referral code", Input: "text", RequiredWhen: RequiredNever,
	MaxLength: 64, Pattern: LinePattern, PatternMessage: "Invalid promo or referral code"}

// PersonalField reports whether name is a personal detail that existing users skip.
func PersonalField(name string) bool {
	return slices.ContainsFunc(personalFields, func(r FieldRule) bool { return r.Field == name })
}

// MaxTicketsMessage is the message for a quantity above the ticket type's limit.
func MaxTicketsMessage(max int) string {
	return "Maximum ticket limit per user is " + strconv.Itoa(max) + "."
}

// FixedQuantity returns the quantity the form forces, if any: the seat count when seats were
// chosen, 1 for a free ticket or a ticket limited to one per buyer, else 0 (the buyer chooses).
func FixedQuantity(tt TicketType, seats int) int {
	switch {
	case seats > 0:
		return seats
	case tt.Price == 0 || tt.MaxPurchasable == 1:
		return 1
	}
	return 0
}

// PurchaseRules returns the rules of the purchase form for a ticket type of an event, in form
// order: e-mail, quantity, the event's required personal details, survey answer, disclaimer.
// seats is the number of seats chosen in the query (0 when none).
func PurchaseRules(tt TicketType, ev *Event, seats int) []FieldRule {
	rules := make([]FieldRule, 0, 4+len(personalFields))
	eachPurchaseRule(&tt, ev, seats, false, func(r FieldRule) { rules = append(rules, r) })
	return rules
}

// eachPurchaseRule calls use with each rule of PurchaseRules, in order; with all, it goes on with
// the rules ValidatePurchase checks beyond the form's: the personal details the event does not
// ask for (optional, still checked when sent), the survey answer when the form has no survey
// question, and the promo or referral code.
func eachPurchaseRule(tt *TicketType, ev *Event, seats int, all bool, use func(FieldRule)) {
	use(FieldRule{
		Field: FieldEmail, Label: "E-mail", Input: "email", RequiredWhen: RequiredAlways,
		Message: "E-mail is required", Pattern: EmailPattern, PatternMessage: "Invalid E-mail address", MaxLength: 254,
	})
	q := FieldRule{
		Field: FieldQuantity, Label: "No. of Tickets", Input: "quantity", RequiredWhen: RequiredAlways,
		Message: "Please input no. of tickets to be purchased", Pattern: DigitsPattern,
		PatternMessage: "Please input no. of tickets to be purchased", MaxLength: 3,
		Max: max(tt.MaxPurchasable, 1), MaxMessage: MaxTicketsMessage(max(tt.MaxPurchasable, 1)),
	}
	if fixed := FixedQuantity(*tt, seats); fixed > 0 {
		q.Locked = true
		q.Hidden = seats == 0
	}
	use(q)
	var required []string
	if ev != nil {
		required = ev.RequiredFields
	}
	for _, r := range personalFields {
		if slices.Contains(required, r.Field) {
			r.RequiredWhen = RequiredNewBuyer
			use(r)
		}
	}
	survey := tt.WithSurvey && ev != nil && ev.SurveyQuestion != "" && len(ev.SurveyAnswers) > 0
	if survey {
		use(FieldRule{
			Field: FieldSurveyAnswer, Label: ev.SurveyQuestion, Input: "survey", RequiredWhen: RequiredAlways,
			Message: "Please answer the survey question", Options: ev.SurveyAnswers,
			PatternMessage: "Please answer the survey question",
		})
	}
	if tt.Disclaimer != "" {
		use(FieldRule{
			Field: FieldDisclaimer, Label: tt.Disclaimer, Input: "checkbox", RequiredWhen: RequiredAlways,
			Message: "Please accept the disclaimer to continue",
		})
	}
	if !all {
		return
	}
	for _, r := range personalFields {
		if !slices.Contains(required, r.Field) {
			r.RequiredWhen = RequiredNever
			use(r)
		}
	}
	if !survey {
		use(FieldRule{Field: FieldSurveyAnswer, Label: "Survey answer", RequiredWhen: RequiredNever,
			MaxLength: 200, Pattern: LinePattern, PatternMessage: MsgTextInvalid})
	}
	use(SourceRule)
}

// fieldValue returns the payload's value of a field as the form would hold it.
func (r PurchaseRequest) fieldValue(field string) string {
	switch field {
	case FieldEmail:
		return r.Email
	case FieldQuantity:
		if r.Quantity == 0 {
			return ""
		}
		return strconv.Itoa(r.Quantity)
	case FieldFirstName:
		return r.FirstName
	case FieldLastName:
		return r.LastName
	case FieldFullName:
		return r.FullName
	case FieldMobileNumber:
		return r.MobileNumber
	case FieldGender:
		return r.Gender
	case FieldBirthDate:
		return r.BirthDate
	case FieldAge:
		return r.Age
	case FieldCompanyName:
		return r.CompanyName
	case FieldDesignation:
		return r.Designation
	case FieldEconomicClass:
		return r.EconomicClass
	case FieldSurveyAnswer:
		return r.SurveyAnswer
	case FieldSource:
		return r.Source
	case FieldDisclaimer:
		if r.DisclaimerAccepted {
			return "yes"
		}
	}
	return ""
}

// Check returns the rule's message for value, or "" when value passes. existingUser skips
// RequiredNewBuyer rules entirely.
func (f FieldRule) Check(value string, existingUser bool) string {
	if f.RequiredWhen == RequiredNewBuyer && existingUser {
		return ""
	}
	if strings.TrimSpace(value) == "" {
		if f.RequiredWhen == RequiredNever {
			return ""
		}
		return f.Message
	}
	if f.MaxLength > 0 && utf8.RuneCountInString(value) > f.MaxLength {
		return orText(f.PatternMessage, f.Label+" is too long")
	}
	if f.Field == FieldMobileNumber {
		if _, ok := NormalizeMobileNumber(value); !ok {
			return f.PatternMessage
		}
	} else if f.Pattern != "" && !matches(f.Pattern, value) {
		return f.PatternMessage
	}
	if !ValidText(TextLine, value) || (f.Input == "email" && !ValidEmail(value)) {
		return orText(f.PatternMessage, MsgTextInvalid)
	}
	if len(f.Options) > 0 && !slices.Contains(f.Options, value) {
		return f.PatternMessage
	}
	if f.Max > 0 {
		if n, err := strconv.Atoi(value); err != nil || n < 1 {
			return f.Message
		} else if n > f.Max {
			return f.MaxMessage
		}
	}
	return ""
}

func orText(s, def string) string {
	if s == "" {
		return def
	}
	return s
}

// NormalizePurchase trims the payload's text fields and applies the quantity the form forces
// (FixedQuantity), so that the server sees what an honest form would have sent.
func NormalizePurchase(req PurchaseRequest, tt TicketType) PurchaseRequest {
	for _, s := range []*string{&req.Email, &req.FirstName, &req.LastName, &req.FullName, &req.MobileNumber,
		&req.Gender, &req.BirthDate, &req.Age, &req.CompanyName, &req.Designation, &req.EconomicClass,
		&req.SurveyAnswer, &req.Source, &req.PaymentType, &req.EventCode, &req.TicketCode} {
		*s = strings.TrimSpace(*s)
	}
	req.Email = NormalizeEmail(req.Email)
	if seats, err := ParseSeats(req.Seats); err == nil {
		req.Seats = seats // a malformed list stays as sent, for ValidatePurchase to refuse
	}
	if fixed := FixedQuantity(tt, len(req.Seats)); fixed > 0 {
		req.Quantity = fixed
	}
	if n, ok := NormalizeMobileNumber(req.MobileNumber); ok {
		req.MobileNumber = n
	}
	if len(req.Discounts) > 0 {
		req.Discounts = NormalizeDiscounts(req.Discounts)
	}
	if req.ExistingUser {
		req.FirstName, req.LastName, req.FullName, req.MobileNumber = "", "", "", ""
		req.Gender, req.BirthDate, req.Age, req.CompanyName, req.Designation, req.EconomicClass = "", "", "", "", "", ""
	}
	return req
}

// ValidatePurchase checks a (normalized) purchase payload against the rules of its ticket type
// and event. It returns nil when valid, otherwise an EINVALID error whose Fields map holds each
// failing field's message and whose Message is the first of them in form order (the seats,
// chosen on the seat map before the form, come first).
func ValidatePurchase(req PurchaseRequest, tt TicketType, ev *Event) *Error {
	var errs fieldErrors
	if msg := checkSeats(req.Seats, tt); msg != "" {
		errs.add("seats", msg) // seats are chosen on the seat map, before the form
	}
	eachPurchaseRule(&tt, ev, len(req.Seats), true, func(rule FieldRule) {
		if msg := rule.Check(req.fieldValue(rule.Field), req.ExistingUser); msg != "" {
			errs.add(rule.Field, msg)
		}
	})
	checkDiscounts(&errs, req.Discounts, req.Quantity, tt)
	if errs.first == "" && req.PaymentType != "" && !slices.Contains(tt.PaymentTypes, req.PaymentType) {
		errs.add("paymentType", "Please choose a payment method")
	}
	return errs.err()
}

// checkSeats returns the message for a payload's seats, or "": a seated ticket needs seats chosen
// on its seat map, any other ticket none.
func checkSeats(seats []string, tt TicketType) string {
	if tt.Seated && len(seats) == 0 {
		return "Please choose your seats."
	}
	if _, err := ParseSeats(seats); err != nil {
		return ErrorMessage(err)
	}
	if err := CheckSeatChoice(tt, seats); err != nil {
		return ErrorMessage(err)
	}
	return ""
}

// MsgExistingUserUnknown asks an 'existing user' with no account or earlier order for their details.
const MsgExistingUserUnknown = "We have no details for this e-mail address yet. Please fill in your details."

// FieldExistingUser is the error field that tells the purchase form to show the personal fields again.
const FieldExistingUser = "existingUser"

// WithBuyerDetails fills the personal fields of an existing user's purchase from the details
// known for their e-mail address (their account or an earlier order).
func WithBuyerDetails(req PurchaseRequest, b Buyer) PurchaseRequest {
	age, _ := strconv.Atoi(req.Age)
	m := MergeBuyers(Buyer{FirstName: req.FirstName, LastName: req.LastName, FullName: req.FullName,
		MobileNumber: req.MobileNumber, Gender: req.Gender, BirthDate: req.BirthDate, Age: age,
		CompanyName: req.CompanyName, Designation: req.Designation, EconomicClass: req.EconomicClass}, b)
	if m.FullName == "" {
		m.FullName = strings.TrimSpace(m.FirstName + " " + m.LastName)
	}
	req.FirstName, req.LastName, req.FullName, req.MobileNumber = m.FirstName, m.LastName, m.FullName, m.MobileNumber
	req.Gender, req.BirthDate, req.CompanyName, req.Designation = m.Gender, m.BirthDate, m.CompanyName, m.Designation
	req.EconomicClass = m.EconomicClass
	if m.Age > 0 {
		req.Age = strconv.Itoa(m.Age)
	}
	return req
}

// ValidateExistingBuyer checks that an existing user's purchase, filled by WithBuyerDetails, has
// every personal detail the event requires. Otherwise it returns EINVALID with
// MsgExistingUserUnknown, the failing fields, and FieldExistingUser so the form shows them again.
func ValidateExistingBuyer(req PurchaseRequest, tt TicketType, ev *Event) *Error {
	req.ExistingUser = false
	err := ValidatePurchase(req, tt, ev)
	if err == nil {
		return nil
	}
	fields := map[string]string{}
	for f, msg := range err.Fields {
		if PersonalField(f) {
			fields[f] = msg
		}
	}
	if len(fields) == 0 {
		return nil // only non-personal fields fail, and those were checked for the buyer already
	}
	fields[FieldExistingUser] = MsgExistingUserUnknown
	return &Error{Code: EINVALID, Message: MsgExistingUserUnknown, Fields: fields}
}
