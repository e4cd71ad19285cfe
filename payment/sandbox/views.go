package sandbox

import "palaro"

// summaryView is the order summary shown on every payment page.
type summaryView struct {
	Description string
	Email       string
	Total       string
	Lines       []lineView
}

// lineView is one line of the order summary.
type lineView struct {
	Name     string
	Quantity int
	Subtotal string
}

// fieldView is one input of the card form.
type fieldView struct {
	ID, Name, Label, Value, Error string
	Autocomplete, Inputmode       string
	Placeholder                   string
	MaxLength                     int
}

// cardView is the card page: the summary, the four card fields and a decline message.
type cardView struct {
	Summary   summaryView
	Action    string
	CancelURL string
	Alert     string
	Fields    []fieldView
}

// qrView is the QR Ph page.
type qrView struct {
	Summary      summaryView
	Action       string
	CancelURL    string
	Image        string
	Payload      string
	SecondsLeft  int64
	Remaining    string
	ExpiresClock string
}

// walletView is an e-wallet's authorization page: "Authorize ₱450.00 to Palaro — GCash".
type walletView struct {
	Summary   summaryView
	Wallet    string // the wallet's name, such as "GCash"
	Account   string // the made-up account, masked: "09•• ••• 4321"
	Action    string
	CancelURL string
	// ExpiresClock is when the authorization expires, in Manila time.
	ExpiresClock string
}

// messageView is a page with a title, a message and a link back.
type messageView struct {
	Title, Message     string
	LinkURL, LinkLabel string
}

func newSummaryView(c palaro.Checkout) summaryView {
	v := summaryView{Description: c.Description, Email: c.Email, Total: c.Total.String()}
	for _, l := range c.LineItems {
		v.Lines = append(v.Lines, lineView{Name: l.Name, Quantity: l.Quantity, Subtotal: l.Subtotal().String()})
	}
	return v
}

// newCardView fills the card form with what the buyer typed (except the CVC), its errors and an alert.
func newCardView(s Session, c Card, errs map[string]string, alert string) cardView {
	return cardView{
		Summary:   newSummaryView(s.Checkout),
		Action:    PathPrefix + "checkout/" + s.ID + "/card",
		CancelURL: s.Checkout.CancelURL,
		Alert:     alert,
		Fields: []fieldView{
			{ID: "card-number", Name: "number", Label: "Card number", Value: c.Number, Error: errs["number"],
				Autocomplete: "cc-number", Inputmode: "numeric", Placeholder: "4343 4343 4343 4345", MaxLength: 23},
			{ID: "card-expiry", Name: "expiry", Label: "Expiry (MM/YY)", Value: c.Expiry, Error: errs["expiry"],
				Autocomplete: "cc-exp", Inputmode: "numeric", Placeholder: "MM/YY", MaxLength: 7},
			{ID: "card-cvc", Name: "cvc", Label: "CVC", Error: errs["cvc"],
				Autocomplete: "cc-csc", Inputmode: "numeric", Placeholder: "123", MaxLength: 4},
			{ID: "card-name", Name: "name", Label: "Name on card", Value: c.Name, Error: errs["name"],
				Autocomplete: "cc-name", Placeholder: "Juan dela Cruz", MaxLength: 80},
		},
	}
}

func newWalletView(s Session) walletView {
	return walletView{
		Summary:      newSummaryView(s.Checkout),
		Wallet:       palaro.PaymentTypeName(s.Checkout.PaymentType),
		Account:      "09•• ••• " + walletAccount(s.ID),
		Action:       PathPrefix + "checkout/" + s.ID + "/authorize",
		CancelURL:    s.Checkout.CancelURL,
		ExpiresClock: s.ExpiresAt.In(palaro.Manila).Format("3:04 PM"),
	}
}
