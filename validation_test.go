package palaro

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

func testTicket() (TicketType, *Event) {
	tt := TicketType{Code: "gen", Name: "General", Price: 10000, MaxPurchasable: 5, Capacity: 100,
		PaymentTypes: []string{PaymentQR, PaymentCard}, WithSurvey: true, Disclaimer: "Bring an ID."}
	ev := &Event{Code: "ev", RequiredFields: []string{"firstName", "lastName", "fullName", "mobileNumber", "gender",
		"birthDate", "age", "companyName", "designation", "economicClass", "email", "surveyAnswer"},
		SurveyQuestion: "Team?", SurveyAnswers: []string{"Red", "Blue"}}
	return tt, ev
}

func validRequest() PurchaseRequest {
	return PurchaseRequest{TicketCode: "gen", Quantity: 2, Email: "juan@example.ph", FirstName: "Juan", LastName: "Cruz",
		FullName: "Juan Cruz", MobileNumber: "+63-917-123-4567", Gender: "Male", BirthDate: "1999-02-03", Age: "26",
		CompanyName: "Acme", Designation: "Dev", EconomicClass: "Below 10,000", SurveyAnswer: "Red", DisclaimerAccepted: true}
}

func TestValidatePurchase(t *testing.T) {
	tt, ev := testTicket()
	t.Run("OK", func(t *testing.T) {
		require.Nil(t, ValidatePurchase(validRequest(), tt, ev))
	})
	t.Run("OK existing user skips personal details", func(t *testing.T) {
		req := PurchaseRequest{Quantity: 1, Email: "a@b.ph", ExistingUser: true, SurveyAnswer: "Blue", DisclaimerAccepted: true}
		require.Nil(t, ValidatePurchase(req, tt, ev))
	})
	for _, tc := range []struct {
		field, want string
		edit        func(*PurchaseRequest)
	}{
		{"email", "E-mail is required", func(r *PurchaseRequest) { r.Email = "" }},
		{"email", "Invalid E-mail address", func(r *PurchaseRequest) { r.Email = "juan@" }},
		{"quantity", "Please input no. of tickets to be purchased", func(r *PurchaseRequest) { r.Quantity = 0 }},
		{"quantity", "Please input no. of tickets to be purchased", func(r *PurchaseRequest) { r.Quantity = -2 }},
		{"quantity", "Maximum ticket limit per user is 5.", func(r *PurchaseRequest) { r.Quantity = 6 }},
		{"firstName", "First Name is required", func(r *PurchaseRequest) { r.FirstName = "  " }},
		{"lastName", "Last Name is required", func(r *PurchaseRequest) { r.LastName = "" }},
		{"fullName", "Full Name is required", func(r *PurchaseRequest) { r.FullName = "" }},
		{"mobileNumber", "Mobile Number is required", func(r *PurchaseRequest) { r.MobileNumber = "" }},
		{"mobileNumber", "Invalid Mobile Number", func(r *PurchaseRequest) { r.MobileNumber = "0917 123" }},
		{"mobileNumber", "Invalid Mobile Number", func(r *PurchaseRequest) { r.MobileNumber = "63+917" }},
		{"gender", "Gender is required", func(r *PurchaseRequest) { r.Gender = "" }},
		{"gender", "Gender is required", func(r *PurchaseRequest) { r.Gender = "Other" }},
		{"birthDate", "Birthdate is required", func(r *PurchaseRequest) { r.BirthDate = "" }},
		{"age", "Age is required", func(r *PurchaseRequest) { r.Age = "" }},
		{"age", "Invalid Age", func(r *PurchaseRequest) { r.Age = "2a" }},
		{"companyName", "Company name is required", func(r *PurchaseRequest) { r.CompanyName = "" }},
		{"designation", "Designation is required", func(r *PurchaseRequest) { r.Designation = "" }},
		{"economicClass", "Monthly income is required", func(r *PurchaseRequest) { r.EconomicClass = "" }},
		{"surveyAnswer", "Please answer the survey question", func(r *PurchaseRequest) { r.SurveyAnswer = "" }},
		{"surveyAnswer", "Please answer the survey question", func(r *PurchaseRequest) { r.SurveyAnswer = "Green" }},
		{"disclaimerAccepted", "Please accept the disclaimer to continue", func(r *PurchaseRequest) { r.DisclaimerAccepted = false }},
		{"paymentType", "Please choose a payment method", func(r *PurchaseRequest) { r.PaymentType = "CASH" }},
	} {
		t.Run("ErrInvalid "+tc.want+" "+tc.field, func(t *testing.T) {
			req := validRequest()
			tc.edit(&req)
			err := ValidatePurchase(req, tt, ev)
			require.NotNil(t, err)
			require.Equal(t, EINVALID, err.Code)
			require.Equal(t, tc.want, err.Message)
			require.Equal(t, tc.want, err.Fields[tc.field])
		})
	}
	t.Run("OK message is the first in form order", func(t *testing.T) {
		err := ValidatePurchase(PurchaseRequest{}, tt, ev)
		require.Equal(t, "E-mail is required", err.Message)
		require.Len(t, err.Fields, 14) // e-mail, quantity, 10 personal details, survey, disclaimer
	})
}

func TestNormalizePurchase(t *testing.T) {
	tt, _ := testTicket()
	t.Run("OK seats fix the quantity", func(t *testing.T) {
		req := NormalizePurchase(PurchaseRequest{Quantity: 9, Seats: []string{"A1", "A2", "A3"}}, tt)
		require.Equal(t, 3, req.Quantity)
	})
	t.Run("OK free and one-per-buyer force 1", func(t *testing.T) {
		free := tt
		free.Price = 0
		require.Equal(t, 1, NormalizePurchase(PurchaseRequest{Quantity: 4}, free).Quantity)
		one := tt
		one.MaxPurchasable = 1
		require.Equal(t, 1, NormalizePurchase(PurchaseRequest{Quantity: 0}, one).Quantity)
		require.Equal(t, 4, NormalizePurchase(PurchaseRequest{Quantity: 4}, tt).Quantity)
	})
	t.Run("OK e-mail trimmed and lower-cased", func(t *testing.T) {
		require.Equal(t, "a@b.ph", NormalizePurchase(PurchaseRequest{Email: "  A@B.ph "}, tt).Email)
	})
}

func TestPurchaseRules_Hidden(t *testing.T) {
	tt, ev := testTicket()
	tt.Price = 0
	rules := PurchaseRules(tt, ev, 0)
	require.True(t, rules[1].Locked)
	require.True(t, rules[1].Hidden)
	rules = PurchaseRules(tt, &Event{}, 0)
	require.Len(t, rules, 3, "e-mail, quantity and the disclaimer; no survey without a question")
}

func TestPriceOrder(t *testing.T) {
	tt := TicketType{Price: 10000, Discount: 0.15}
	addOns := []AddOn{{Price: 2500}, {Price: 0}}
	p := PriceOrder(tt, 3, addOns, nil)
	require.Equal(t, Price{UnitPrice: 8500, Quantity: 3, TicketsTotal: 25500, AddOnsTotal: 2500, Subtotal: 28000, Total: 28000}, p)
	p = PriceOrder(tt, 3, addOns, &PromoCode{Kind: PromoPercent, Percent: 10})
	require.Equal(t, Money(2800), p.PromoDiscount)
	require.Equal(t, Money(25200), p.Total)
	p = PriceOrder(tt, 1, nil, &PromoCode{Kind: PromoFixed, Amount: 100000})
	require.Equal(t, Money(8500), p.PromoDiscount, "a discount never exceeds the subtotal")
	require.Zero(t, p.Total)
}

// FuzzValidatePurchase checks that validation never panics, that its message is one of its
// field messages, and that the e-mail and mobile rules agree with their definitions.
func FuzzValidatePurchase(f *testing.F) {
	f.Add("juan@example.ph", "+63-917-123-4567", 2, "26", false)
	f.Add("", "", 0, "", true)
	f.Add("a@b", "++63", -1, "abc", false)
	f.Add("x@y.z", "0917--", 99, "1234", false)
	f.Add("é@ü.ph", "-", 5, "0", false)
	f.Add("a b@c.d", "+", 1, " 1", false)
	tt, ev := testTicket()
	f.Fuzz(func(t *testing.T, email, mobile string, quantity int, age string, existing bool) {
		req := validRequest()
		req.Email, req.MobileNumber, req.Quantity, req.Age, req.ExistingUser = email, mobile, quantity, age, existing
		err := ValidatePurchase(req, tt, ev)
		if err == nil {
			require.True(t, ValidEmail(email), "accepted e-mail %q", email)
			require.True(t, quantity >= 1 && quantity <= tt.MaxPurchasable)
			if !existing {
				require.True(t, ValidMobileNumber(mobile), "accepted mobile %q", mobile)
				require.NotContains(t, mobile, " ")
			}
			return
		}
		found := false
		for _, m := range err.Fields {
			found = found || m == err.Message
		}
		require.True(t, found, "message %q is one of the field messages", err.Message)
		if strings.TrimSpace(email) != "" && !ValidEmail(email) {
			require.Equal(t, "Invalid E-mail address", err.Fields["email"])
		}
		if _, bad := err.Fields["mobileNumber"]; bad {
			require.False(t, existing, "existing users skip the mobile number")
		}
	})
}

// TestPriceOrder_PromoCoversItsTicketsOnly: a code that names ticket types discounts their tickets,
// never the add-ons (2 × ₱350 and a ₱799 jersey at 20%: ₱140 off, not ₱299.80); a code for every
// ticket type discounts the whole order; a fixed amount is capped at what it covers.
func TestPriceOrder_PromoCoversItsTicketsOnly(t *testing.T) {
	tt := TicketType{ID: 7, Price: 35000}
	jersey := []AddOn{{Name: "Jersey", Price: 79900}}
	p := PriceOrder(tt, 2, jersey, &PromoCode{Kind: PromoPercent, Percent: 20, TicketTypeIDs: []int64{7}})
	require.Equal(t, Money(14000), p.PromoDiscount)
	require.Equal(t, Money(70000+79900-14000), p.Total)
	p = PriceOrder(tt, 2, jersey, &PromoCode{Kind: PromoPercent, Percent: 20})
	require.Equal(t, Money(29980), p.PromoDiscount, "a code for every ticket type covers the add-ons too")
	p = PriceOrder(tt, 2, jersey, &PromoCode{Kind: PromoFixed, Amount: 100000, TicketTypeIDs: []int64{7}})
	require.Equal(t, Money(70000), p.PromoDiscount, "never more than the tickets it covers")
}

// TestOrder_CheckoutListsEveryLine: the provider's page gets every line (tickets and each paid
// add-on), each at its price after its share of the promo, adding up to the total.
func TestOrder_CheckoutListsEveryLine(t *testing.T) {
	sum := func(c Checkout) Money {
		var s Money
		for _, l := range c.LineItems {
			s += l.Subtotal()
		}
		return s
	}
	o := &Order{PublicID: "o1", Quantity: 2, UnitPrice: 35000, AddOnsTotal: 79900, PromoCode: "SAVE20", PromoDiscount: 14000,
		PromoTicketsOnly: true, Total: 70000 + 79900 - 14000, PaymentType: PaymentCard,
		TicketType: &TicketType{Name: "General Admission"}, Event: &Event{Name: "Laro Cup"},
		AddOns: []AddOn{{Name: "Jersey", Price: 79900}, {Name: "Sticker", Price: 0}}}
	c := o.Checkout("https://palaro.test", "/b/x")
	require.Equal(t, []LineItem{{Name: "General Admission · Laro Cup (promo SAVE20)", Amount: 28000, Quantity: 2},
		{Name: "Jersey", Amount: 79900, Quantity: 1}}, c.LineItems)
	require.Equal(t, o.Total, sum(c))
	require.NoError(t, c.Validate())

	// A share that does not divide by the quantity: two lines a centavo apart; a whole-order code
	// spreads over every line.
	o.Quantity, o.PromoTicketsOnly, o.PromoDiscount = 3, false, 3334
	o.Total = 3*35000 + 79900 - 3334
	c = o.Checkout("https://palaro.test", "/b/x")
	require.Equal(t, o.Total, sum(c))
	require.Len(t, c.LineItems, 3)
	for _, l := range c.LineItems {
		require.Contains(t, l.Name, "(promo SAVE20)")
	}
	require.NoError(t, c.Validate())
}
