package palaro

import "testing"

// BenchmarkValidatePurchase_StormOrder measures the checks of one purchase as the purchase
// storm sends it (cmd/bench/storm.go: every personal field filled), as the store runs them:
// NormalizePurchase, then ValidatePurchase.
func BenchmarkValidatePurchase_StormOrder(b *testing.B) {
	ev := &Event{ID: 1, Code: "storm-event", RequiredFields: []string{FieldFirstName, FieldLastName, FieldMobileNumber}}
	tt := TicketType{ID: 1, Code: "storm", MaxPurchasable: 1, Capacity: 30000}
	req := PurchaseRequest{EventCode: "storm-event", TicketCode: "storm", Quantity: 1, Email: "buyer1234@storm.palaro.test",
		FirstName: "Juan", LastName: "Dela Cruz", FullName: "Juan Dela Cruz", MobileNumber: "09171234567",
		Gender: "Male", BirthDate: "1998-05-17", Age: "27", CompanyName: "Palaro", Designation: "Player",
		EconomicClass: "10,000 to 30,000", DisclaimerAccepted: true}
	b.ReportAllocs()
	for b.Loop() {
		if err := ValidatePurchase(NormalizePurchase(req, tt), tt, ev); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkCanonicalEmail measures the canonical form of a plain ASCII address.
func BenchmarkCanonicalEmail(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		if _, ok := CanonicalEmail("buyer1234@storm.palaro.test"); !ok {
			b.Fatal("refused")
		}
	}
}
