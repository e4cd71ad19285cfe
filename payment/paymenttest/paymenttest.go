// Package paymenttest holds what the payment providers' tests share.
package paymenttest

import (
	"time"

	"palaro"
)

// OrderID is the order id of Checkout.
const OrderID = "ord_7Q2X9"

// Total is the total of Checkout: two ₱1,500.00 tickets and a ₱250.00 towel.
const Total palaro.Money = 325000

// Checkout is a valid checkout of two tickets and an add-on, paid by paymentType, returning to
// pages under appURL, whose order is held for 15 minutes from now.
func Checkout(appURL, paymentType string, now time.Time) palaro.Checkout {
	return palaro.Checkout{
		OrderID:     OrderID,
		Description: "MPL Season Finals",
		LineItems:   []palaro.LineItem{{Name: "Upper Box", Amount: 150000, Quantity: 2}, {Name: "Rally towel", Amount: 25000, Quantity: 1}},
		Total:       Total,
		Email:       "ana@example.ph",
		Name:        "Ana Cruz",
		PaymentType: paymentType,
		SuccessURL:  appURL + "/payment/success/" + OrderID,
		CancelURL:   appURL + "/b/upper-box",
		ExpiresAt:   now.Add(15 * time.Minute),
	}
}
