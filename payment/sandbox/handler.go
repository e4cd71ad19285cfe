package sandbox

import (
	"crypto/rand"
	"encoding/base64"
	"fmt"
	"net/http"
	"time"

	"github.com/a-h/templ"

	"palaro"
)

// Handler serves the hosted checkout pages under /sandbox/: the wiring mounts it for every path
// under PathPrefix. Pages are never cached, and cross-origin form posts are refused.
//
//	GET  /sandbox/checkout/{id}         the card form or the QR Ph code, by the checkout's payment type
//	POST /sandbox/checkout/{id}/card    pay by card; redirects to the success URL when the card is accepted
//	POST /sandbox/checkout/{id}/wallet  simulate the wallet paying the QR Ph code; redirects likewise
//	POST /sandbox/checkout/{id}/authorize  an e-wallet's answer (decision=approve|decline|expire);
//	                                    redirects to the success URL, where the order tells the outcome
func (p *Provider) Handler() http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("GET "+PathPrefix+"checkout/{id}", p.showCheckout)
	mux.HandleFunc("POST "+PathPrefix+"checkout/{id}/card", p.payByCard)
	mux.HandleFunc("POST "+PathPrefix+"checkout/{id}/wallet", p.payByWallet)
	mux.HandleFunc("POST "+PathPrefix+"checkout/{id}/authorize", p.authorizeWallet)
	return noStore(http.NewCrossOriginProtection().Handler(mux))
}

func (p *Provider) showCheckout(w http.ResponseWriter, r *http.Request) {
	s, ok := p.findSession(w, r)
	if !ok {
		return
	}
	switch now := p.cfg.Now(); {
	case s.Status == palaro.PaymentPaid:
		render(w, r, http.StatusOK, messagePage(messageView{
			Title: "Payment received", Message: "This order is paid. Thank you!",
			LinkURL: s.Checkout.SuccessURL, LinkLabel: "Return to Palaro",
		}))
	case s.Expired(now):
		p.renderExpired(w, r, s)
	case s.Checkout.PaymentType == palaro.PaymentQR:
		p.renderQR(w, r, s, now)
	case palaro.WalletPayment(s.Checkout.PaymentType):
		render(w, r, http.StatusOK, walletPage(newWalletView(s)))
	default:
		render(w, r, http.StatusOK, cardPage(newCardView(s, Card{}, nil, "")))
	}
}

func (p *Provider) payByCard(w http.ResponseWriter, r *http.Request) {
	s, ok := p.payableSession(w, r, palaro.PaymentCard)
	if !ok {
		return
	}
	r.Body = http.MaxBytesReader(w, r.Body, 16<<10)
	if err := r.ParseForm(); err != nil {
		render(w, r, http.StatusBadRequest, messagePage(messageView{Title: "Bad request", Message: "The form could not be read."}))
		return
	}
	card := Card{Number: r.PostFormValue("number"), Expiry: r.PostFormValue("expiry"), CVC: r.PostFormValue("cvc"), Name: r.PostFormValue("name")}
	if errs := card.Validate(p.cfg.Now()); len(errs) > 0 {
		render(w, r, http.StatusUnprocessableEntity, cardPage(newCardView(s, card, errs, "")))
		return
	}
	if msg := card.Decline(); msg != "" {
		render(w, r, http.StatusPaymentRequired, cardPage(newCardView(s, card, nil, msg)))
		return
	}
	p.completePayment(w, r, s, MethodCard)
}

func (p *Provider) payByWallet(w http.ResponseWriter, r *http.Request) {
	if s, ok := p.payableSession(w, r, palaro.PaymentQR); ok {
		p.completePayment(w, r, s, MethodQRPh)
	}
}

// authorizeWallet takes the e-wallet's answer: approve pays the session, decline reports a failed
// payment and leaves the session open for another try, expire ends it unpaid. Each sends the
// buyer back to the success URL, the order's page, which tells how it ended.
func (p *Provider) authorizeWallet(w http.ResponseWriter, r *http.Request) {
	s, ok := p.findSession(w, r)
	if !ok {
		return
	}
	if !palaro.WalletPayment(s.Checkout.PaymentType) {
		p.renderWrongMethod(w, r, s)
		return
	}
	r.Body = http.MaxBytesReader(w, r.Body, 4<<10)
	switch decision := r.PostFormValue("decision"); {
	case decision == "expire":
		if _, err := p.expire(r.Context(), s); err != nil {
			p.renderError(w, r, err)
			return
		}
		http.Redirect(w, r, s.Checkout.SuccessURL, http.StatusSeeOther)
	case decision != "approve" && decision != "decline":
		render(w, r, http.StatusBadRequest, messagePage(messageView{Title: "Bad request", Message: "Choose approve, decline or let it expire.",
			LinkURL: p.checkoutURL(s.ID), LinkLabel: "Back to the checkout"}))
	default:
		if s, ok = p.payableSession(w, r, s.Checkout.PaymentType); !ok {
			return
		}
		if decision == "approve" {
			p.completePayment(w, r, s, method(s.Checkout.PaymentType))
			return
		}
		if err := p.decline(r.Context(), s); err != nil {
			p.renderError(w, r, err)
			return
		}
		http.Redirect(w, r, s.Checkout.SuccessURL, http.StatusSeeOther)
	}
}

// payableSession loads the session of a payment request and answers the request itself unless
// the session takes payments of paymentType: a paid session sends the buyer on to the success
// URL, so a second submit changes nothing.
func (p *Provider) payableSession(w http.ResponseWriter, r *http.Request, paymentType string) (Session, bool) {
	s, ok := p.findSession(w, r)
	switch {
	case !ok:
	case s.Status == palaro.PaymentPaid:
		http.Redirect(w, r, s.Checkout.SuccessURL, http.StatusSeeOther)
	case s.Expired(p.cfg.Now()):
		p.renderExpired(w, r, s)
	case s.Checkout.PaymentType != paymentType:
		p.renderWrongMethod(w, r, s)
	default:
		return s, true
	}
	return Session{}, false
}

// completePayment pays the session and sends the buyer to the success URL.
func (p *Provider) completePayment(w http.ResponseWriter, r *http.Request, s Session, method string) {
	if _, err := p.pay(r.Context(), s.ID, method); isCode(err, palaro.ECONFLICT) {
		p.renderExpired(w, r, s)
		return
	} else if err != nil {
		p.renderError(w, r, err)
		return
	}
	http.Redirect(w, r, s.Checkout.SuccessURL, http.StatusSeeOther)
}

func (p *Provider) findSession(w http.ResponseWriter, r *http.Request) (Session, bool) {
	s, err := p.cfg.Store.FindSession(r.Context(), r.PathValue("id"))
	if err != nil {
		p.renderError(w, r, err)
		return Session{}, false
	}
	return s, true
}

func (p *Provider) renderQR(w http.ResponseWriter, r *http.Request, s Session, now time.Time) {
	payload, err := qrPayload(s.Checkout)
	if err != nil {
		p.renderError(w, r, err)
		return
	}
	image, err := qrDataURI(payload)
	if err != nil {
		p.renderError(w, r, err)
		return
	}
	left := s.ExpiresAt.Sub(now).Round(time.Second)
	render(w, r, http.StatusOK, qrPage(qrView{
		Summary:      newSummaryView(s.Checkout),
		Action:       PathPrefix + "checkout/" + s.ID + "/wallet",
		CancelURL:    s.Checkout.CancelURL,
		Image:        image,
		Payload:      payload,
		SecondsLeft:  int64(left / time.Second),
		Remaining:    fmt.Sprintf("%02d:%02d", int(left.Minutes()), int(left.Seconds())%60),
		ExpiresClock: s.ExpiresAt.In(palaro.Manila).Format("3:04 PM"),
	}))
}

func (p *Provider) renderWrongMethod(w http.ResponseWriter, r *http.Request, s Session) {
	render(w, r, http.StatusBadRequest, messagePage(messageView{
		Title: "Wrong payment method", Message: "This checkout does not take this payment method.",
		LinkURL: p.checkoutURL(s.ID), LinkLabel: "Back to the checkout",
	}))
}

func (p *Provider) renderExpired(w http.ResponseWriter, r *http.Request, s Session) {
	render(w, r, http.StatusGone, messagePage(messageView{
		Title: "Checkout expired", Message: "This checkout has expired and can no longer be paid.",
		LinkURL: s.Checkout.CancelURL, LinkLabel: "Return to Palaro",
	}))
}

func (p *Provider) renderError(w http.ResponseWriter, r *http.Request, err error) {
	status, title := http.StatusInternalServerError, "Something went wrong"
	if palaro.ErrorCode(err) == palaro.ENOTFOUND {
		status, title = http.StatusNotFound, "Checkout not found"
	} else {
		p.cfg.Logger.Error("sandbox checkout", "path", r.URL.Path, "err", err)
	}
	render(w, r, status, messagePage(messageView{Title: title, Message: palaro.ErrorMessage(err)}))
}

func render(w http.ResponseWriter, r *http.Request, status int, c templ.Component) {
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.WriteHeader(status)
	_ = c.Render(r.Context(), w)
}

// noStore keeps the pages out of every cache and out of frames, and confines them to their own
// nonced style and script elements and data images. The nonce is the app's when the app's
// middleware set one on the request, else a new one.
func noStore(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		nonce := templ.GetNonce(r.Context())
		if nonce == "" {
			b := make([]byte, 18)
			_, _ = rand.Read(b) // crypto/rand.Read never fails (Go 1.24+)
			nonce = base64.StdEncoding.EncodeToString(b)
			r = r.WithContext(templ.WithNonce(r.Context(), nonce))
		}
		h := w.Header()
		h.Set("Cache-Control", "no-store")
		h.Set("Referrer-Policy", "no-referrer")
		h.Set("X-Content-Type-Options", "nosniff")
		h.Set("X-Frame-Options", "DENY")
		h.Set("Content-Security-Policy", "default-src 'none'; img-src data:; style-src 'nonce-"+nonce+"'; script-src 'nonce-"+
			nonce+"'; base-uri 'none'; frame-ancestors 'none'")
		next.ServeHTTP(w, r)
	})
}
