package palaro

import (
	"testing"
	"time"
)

func TestSeniorPWDPrice(t *testing.T) {
	for _, tc := range []struct {
		price     Money
		vat       bool
		want      Money
		wantNoVAT Money // VATExclusive, for VAT-registered rows
	}{
		{100000, true, 71429, 89286}, // the law's worked example: ₱1,000 → ₱892.86 → ₱714.29
		{100000, false, 80000, 0},    // not VAT-registered: just 20% off
		{1, true, 1, 1},              // ₱0.01: 0.714 centavos rounds to 1
		{1, false, 1, 0},             // 0.8 centavos rounds to 1
		{2, true, 1, 2},              // 1.43 → 1
		{3, false, 2, 0},             // 2.4 → 2
		{99999, true, 71428, 89285},  // odd centavos: 71427.857 → 71428
		{12345, false, 9876, 0},      // 9876.0
		{12347, false, 9878, 0},      // 9877.6 → 9878
		{50000, true, 35714, 44643},  // ₱500 → ₱357.14
		{0, true, 0, 0},              // free stays free
		{-5, true, 0, 0},             // nothing below zero
		{1_000_000_000_00, true, 71_428_571_429, 89_285_714_286}, // ₱1 billion: no overflow, exact
	} {
		if got := SeniorPWDPrice(tc.price, tc.vat); got != tc.want {
			t.Errorf("SeniorPWDPrice(%d, %v) = %d, want %d", tc.price, tc.vat, got, tc.want)
		}
		if got := SeniorPWDDiscount(tc.price, tc.vat); got != max(tc.price, 0)-tc.want {
			t.Errorf("SeniorPWDDiscount(%d, %v) = %d, want %d", tc.price, tc.vat, got, max(tc.price, 0)-tc.want)
		}
		if tc.vat {
			if got := VATExclusive(max(tc.price, 0)); got != tc.wantNoVAT {
				t.Errorf("VATExclusive(%d) = %d, want %d", tc.price, got, tc.wantNoVAT)
			}
		}
	}
	if got := SeniorPWDPrice(100000, true).String(); got != "₱714.29" {
		t.Errorf("worked example = %s, want ₱714.29", got)
	}
	if got := SeniorPWDDiscount(100000, true); got != 28571 {
		t.Errorf("discount of ₱1,000.00 = %d, want 28571", got)
	}
}

func TestDecideOrder_SeniorPWD(t *testing.T) {
	now := time.Date(2026, 11, 25, 10, 0, 0, 0, time.UTC)
	tt := TicketType{ID: 7, EventID: 3, Name: "General Admission", Price: 100000, MaxPurchasable: 4, PaymentTypes: []string{PaymentCard}, SeniorPWDDiscount: true}
	senior := TicketDiscount{Type: DiscountSenior, HolderName: "Lola Cora", IDNumber: "OSCA-1"}
	req := PurchaseRequest{Quantity: 2, Discounts: []TicketDiscount{senior}}

	terms, err := DecideOrder(tt, req, nil, nil, true, now)
	if err != nil {
		t.Fatal(err)
	}
	if terms.Price.Total != 100000+71429 || terms.Price.SeniorPWDDiscount != 28571 || len(terms.Discounts) != 1 || terms.Discounts[0].Amount != 28571 {
		t.Fatalf("VAT-registered: %+v %+v", terms.Price, terms.Discounts)
	}
	terms, _ = DecideOrder(tt, req, nil, nil, false, now)
	if terms.Price.Total != 180000 {
		t.Fatalf("not VAT-registered: total %s, want ₱1,800.00", terms.Price.Total)
	}

	// never combined with a promo code: the larger wins
	small := &PromoCode{ID: 1, Code: "TEN", EventID: 3, Kind: PromoPercent, Percent: 10} // ₱200 off two tickets
	terms, _ = DecideOrder(tt, req, small, nil, true, now)
	if terms.Promo != nil || terms.Price.PromoDiscount != 0 || terms.Price.Total != 171429 {
		t.Fatalf("senior larger than promo: %+v promo %v", terms.Price, terms.Promo)
	}
	big := &PromoCode{ID: 2, Code: "HALF", EventID: 3, Kind: PromoPercent, Percent: 50} // ₱1,000 off
	terms, _ = DecideOrder(tt, req, big, nil, true, now)
	if terms.Promo == nil || terms.Discounts != nil || terms.Price.SeniorPWDDiscount != 0 || terms.Price.Total != 100000 {
		t.Fatalf("promo larger than senior: %+v discounts %v", terms.Price, terms.Discounts)
	}

	// the checkout's lines add up to the total (Checkout.Validate)
	terms, _ = DecideOrder(tt, req, nil, nil, true, now)
	o := &Order{PublicID: "o1", Quantity: 2, UnitPrice: terms.Price.UnitPrice, Discounts: terms.Discounts,
		Total: terms.Price.Total, PaymentType: PaymentCard, TicketType: &tt}
	c := o.Checkout("https://palaro.test", "/b/GA")
	if err := c.Validate(); err != nil {
		t.Fatal(err)
	}
	if len(c.LineItems) != 2 || c.LineItems[1].Amount != 71429 || c.LineItems[1].Name != "General Admission (senior citizen, RA 9994)" {
		t.Fatalf("lines %+v", c.LineItems)
	}
}

func TestValidatePurchase_Discounts(t *testing.T) {
	tt := TicketType{Name: "General Admission", Price: 100000, MaxPurchasable: 4, SeniorPWDDiscount: true}
	base := PurchaseRequest{Email: "a@example.com", Quantity: 2}
	fields := func(ds []TicketDiscount, tt TicketType) map[string]string {
		req := base
		req.Discounts = ds
		req = NormalizePurchase(req, tt)
		if err := ValidatePurchase(req, tt, &Event{}); err != nil {
			return err.Fields
		}
		return nil
	}
	ok := TicketDiscount{Type: "Senior ", HolderName: " Cora  Reyes ", IDNumber: "osca 1"}
	if f := fields([]TicketDiscount{ok}, tt); f != nil {
		t.Fatalf("valid discount refused: %v", f)
	}
	f := fields([]TicketDiscount{ok, {Type: "pwd", HolderName: "Ben", IDNumber: "OSCA-1"}}, tt)
	if f["discounts[1].idNumber"] == "" {
		t.Fatalf("the same ID twice: %v", f)
	}
	f = fields([]TicketDiscount{ok, {Type: "student", HolderName: "", IDNumber: ""}}, tt)
	if f["discounts[1].type"] == "" || f["discounts[1].holderName"] == "" || f["discounts[1].idNumber"] == "" {
		t.Fatalf("blank entry: %v", f)
	}
	if f = fields([]TicketDiscount{ok, ok, ok}, tt); f["discounts"] != "At most 2 discounts: one per ticket." {
		t.Fatalf("more than the quantity: %v", f)
	}
	off := tt
	off.SeniorPWDDiscount = false
	if f = fields([]TicketDiscount{ok}, off); f["discounts"] == "" {
		t.Fatalf("a type without the discount: %v", f)
	}
}

func TestMaskIDNumber(t *testing.T) {
	if got := MaskIDNumber("osca-2024-12345"); got != "•••• 2345" {
		t.Errorf("MaskIDNumber = %q", got)
	}
	if got := CheckIDLine(DiscountPWD, "Ben Cruz"); got != "Check ID: person with disability, Ben Cruz" {
		t.Errorf("CheckIDLine = %q", got)
	}
}
