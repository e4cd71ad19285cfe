package palaro_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"palaro"
)

func validCheckout() palaro.Checkout {
	return palaro.Checkout{
		OrderID:     "ord_1",
		LineItems:   []palaro.LineItem{{Name: "VIP", Amount: 150000, Quantity: 2}, {Name: "Shirt", Amount: 50000, Quantity: 1}},
		Total:       350000,
		PaymentType: palaro.PaymentCard,
		SuccessURL:  "http://localhost/payment/success/ord_1",
		CancelURL:   "http://localhost/b/vip",
	}
}

func TestCheckout_Validate(t *testing.T) {
	t.Run("OK", func(t *testing.T) {
		require.NoError(t, validCheckout().Validate())
	})
	t.Run("OK_EveryPaymentType", func(t *testing.T) {
		for _, pt := range palaro.PaymentTypes {
			c := validCheckout()
			c.PaymentType = pt
			require.NoError(t, c.Validate(), pt)
		}
	})
	cases := map[string]func(c *palaro.Checkout){
		"ErrNoOrderID":       func(c *palaro.Checkout) { c.OrderID = "" },
		"ErrNoLineItems":     func(c *palaro.Checkout) { c.LineItems = nil },
		"ErrPaymentType":     func(c *palaro.Checkout) { c.PaymentType = "CASH" },
		"ErrNoSuccessURL":    func(c *palaro.Checkout) { c.SuccessURL = "" },
		"ErrZeroQuantity":    func(c *palaro.Checkout) { c.LineItems[0].Quantity = 0 },
		"ErrNegativeAmount":  func(c *palaro.Checkout) { c.LineItems[1].Amount = -1 },
		"ErrTotalNotLineSum": func(c *palaro.Checkout) { c.Total = 300000 },
	}
	for name, mutate := range cases {
		t.Run(name, func(t *testing.T) {
			c := validCheckout()
			c.LineItems = append([]palaro.LineItem(nil), c.LineItems...)
			mutate(&c)
			assert.Equal(t, palaro.EINVALID, palaro.ErrorCode(c.Validate()))
		})
	}
}

func TestLineItem_Subtotal(t *testing.T) {
	assert.Equal(t, palaro.Money(450000), palaro.LineItem{Name: "VIP", Amount: 150000, Quantity: 3}.Subtotal())
}

func TestPaymentEvent_Refusal(t *testing.T) {
	o := &palaro.Order{Total: 35000}
	ok := palaro.PaymentEvent{Status: palaro.PaymentPaid, Amount: 35000, Currency: "PHP"}
	require.Empty(t, ok.Refusal(o, false))
	live := ok
	live.Live = true
	require.Empty(t, live.Refusal(o, true), "live event, live provider")
	require.Contains(t, live.Refusal(o, false), "live-mode event")
	require.Contains(t, ok.Refusal(o, true), "test-mode event")
	usd := ok
	usd.Currency = "USD"
	require.Contains(t, usd.Refusal(o, false), `currency "USD"`)
	short := ok
	short.Amount = 100
	require.Contains(t, short.Refusal(o, false), "amount")
	expired := palaro.PaymentEvent{Status: palaro.PaymentExpired}
	require.Empty(t, expired.Refusal(o, false), "an unpaid event carries no amount")
}

func TestPaymentTypes(t *testing.T) {
	assert.Equal(t, []string{"QR", "CARD", "GCASH", "MAYA", "GRABPAY", "SHOPEEPAY"}, palaro.PaymentTypes)
	assert.False(t, palaro.ValidPaymentType("gcash"), "upper case, as the API takes them")
	var wallets []string
	for _, pt := range palaro.PaymentTypes {
		if palaro.WalletPayment(pt) {
			wallets = append(wallets, palaro.PaymentTypeName(pt))
		}
	}
	assert.Equal(t, []string{"GCash", "Maya", "GrabPay", "ShopeePay"}, wallets)

	in := palaro.TicketTypeInput{Code: "cup-ga", Name: "GA", MaxPurchasable: 4, Capacity: 10, PaymentTypes: []string{" gcash", "MAYA"}}.Normalize()
	assert.Equal(t, []string{"GCASH", "MAYA"}, in.PaymentTypes)
	require.NoError(t, in.Validate())
	in.PaymentTypes = append(in.PaymentTypes, "PAYPAL")
	var e *palaro.Error
	require.ErrorAs(t, in.Validate(), &e)
	assert.Equal(t, "Payment types are QR, CARD, GCASH, MAYA, GRABPAY, SHOPEEPAY.", e.Fields[palaro.FieldPaymentTypes])
}

func TestPaidWith(t *testing.T) {
	for method, want := range map[string]string{"gcash": "GCash ending 4321", "paymaya": "Maya ending 4321", "grab_pay": "GrabPay ending 4321",
		"shopee_pay": "ShopeePay ending 4321", "card": "Card ending 4321", "bpi": "bpi ending 4321"} {
		assert.Equal(t, want, palaro.PaidWith(method, "4321"))
	}
	assert.Equal(t, "QR Ph", palaro.PaidWith("qrph", ""))
	assert.Equal(t, "", palaro.PaidWith("", "4321"), "nothing told, nothing shown")
}
