package palaro

import (
	"slices"
	"testing"

	"github.com/stretchr/testify/require"
)

// validatePurchaseAsBefore is ValidatePurchase as it was written before eachPurchaseRule: the
// form's rules collected first, then the other personal details, the survey and the promo code
// appended. FuzzValidatePurchase_SameAnswerAsBefore holds the two to the same answers.
func validatePurchaseAsBefore(req PurchaseRequest, tt TicketType, ev *Event) *Error {
	var first string
	fields := map[string]string{}
	if msg := checkSeats(req.Seats, tt); msg != "" {
		fields["seats"], first = msg, msg
	}
	rules := PurchaseRules(tt, ev, len(req.Seats))
	for _, r := range personalFields {
		if !slices.ContainsFunc(rules, func(x FieldRule) bool { return x.Field == r.Field }) {
			r.RequiredWhen = RequiredNever
			rules = append(rules, r)
		}
	}
	if !slices.ContainsFunc(rules, func(x FieldRule) bool { return x.Field == FieldSurveyAnswer }) {
		rules = append(rules, FieldRule{Field: FieldSurveyAnswer, Label: "Survey answer", RequiredWhen: RequiredNever,
			MaxLength: 200, Pattern: LinePattern, PatternMessage: MsgTextInvalid})
	}
	for _, rule := range append(rules, SourceRule) {
		if msg := rule.Check(req.fieldValue(rule.Field), req.ExistingUser); msg != "" {
			fields[rule.Field] = msg
			if first == "" {
				first = msg
			}
		}
	}
	if first == "" && req.PaymentType != "" && !slices.Contains(tt.PaymentTypes, req.PaymentType) {
		first = "Please choose a payment method"
		fields["paymentType"] = first
	}
	if first == "" {
		return nil
	}
	return &Error{Code: EINVALID, Message: first, Fields: fields}
}

// FuzzValidatePurchase_SameAnswerAsBefore checks that ValidatePurchase answers every purchase
// with the message and field messages it gave before its rules were walked in place: for any
// subset of required details, with or without survey, disclaimer, seats and existing user.
func FuzzValidatePurchase_SameAnswerAsBefore(f *testing.F) {
	f.Add(uint16(0), "juan@example.ph", "Juan", "+63-917-123-4567", "26", "1999-02-03", "Red", "PROMO", "", 2, "")
	f.Add(uint16(0xffff), "", "", "", "", "", "", "", "CASH", 0, "A1")
	f.Add(uint16(0x0f0f), "a@b", "J\u202euan", "0917", "1234", "1999-2-3", "Green", "bad\x00code", "QR", 9, "Z99")
	tt0, ev0 := testTicket()
	f.Fuzz(func(t *testing.T, bits uint16, email, name, mobile, age, birth, survey, source, payment string, quantity int, seat string) {
		tt, ev := tt0, *ev0
		ev.RequiredFields = nil
		for i, r := range append(slices.Clone(personalFields), FieldRule{Field: FieldSurveyAnswer}) {
			if bits&(1<<i) != 0 {
				ev.RequiredFields = append(ev.RequiredFields, r.Field)
			}
		}
		tt.WithSurvey = bits&(1<<11) != 0
		if bits&(1<<12) == 0 {
			tt.Disclaimer = ""
		}
		if bits&(1<<13) != 0 {
			tt.Price = 0
		}
		req := validRequest()
		req.Email, req.FirstName, req.FullName, req.MobileNumber, req.Age, req.BirthDate = email, name, name, mobile, age, birth
		req.SurveyAnswer, req.Source, req.PaymentType, req.Quantity = survey, source, payment, quantity
		req.ExistingUser = bits&(1<<14) != 0
		req.DisclaimerAccepted = bits&(1<<15) != 0
		if seat != "" {
			req.Seats = []string{seat}
		}
		require.Equal(t, validatePurchaseAsBefore(req, tt, &ev), ValidatePurchase(req, tt, &ev))
	})
}
