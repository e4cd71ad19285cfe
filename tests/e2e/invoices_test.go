package e2e

import (
	"context"
	"encoding/json"
	"html"
	"net/http"
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"palaro"
	"palaro/internal/app"
	"palaro/store"
)

var invoiceLink = regexp.MustCompile(`href="(/invoice/[^"]+)"`)

// demoOwnedOrg returns the id (as a form value) of the organization of the demo owner's event.
func demoOwnedOrg(t *testing.T, a *testApp) string {
	t.Helper()
	ev, err := store.NewOrganizerService(a.DB(), nil).FindEvent(context.Background(), demoOwnedEvent)
	require.NoError(t, err)
	return strconv.FormatInt(ev.Organizer.ID, 10)
}

// TestInvoices_ConsoleDetailsAndThePrintableInvoice: the organization's invoice details are
// entered once in the console (a bad TIN is refused with a clear message; what is missing is
// said on the console home and the Invoices page); a paid order's page links its invoice, which
// shows the details, its serial, the VAT split and the total; "Mark refunded" adds a credit
// note; the register CSV and the admission receipts report list them.
func TestInvoices_ConsoleDetailsAndThePrintableInvoice(t *testing.T) {
	a := startApp(t)
	owner := signedIn(t, a, store.DemoOrganizerEmail)
	org := demoOwnedOrg(t, a)
	form := func(name, tin, address string, vat bool) url.Values {
		f := url.Values{"organization": {org}, palaro.FieldRegisteredName: {name}, palaro.FieldTIN: {tin},
			palaro.FieldRegisteredAddress: {address}}
		if vat {
			f.Set(palaro.FieldVATRegistered, "on")
		}
		return f
	}
	status, _ := owner.post("/organizer/organization", form("", "", "", false))
	require.Equal(t, http.StatusSeeOther, status)
	_, body := owner.get("/organizer")
	require.Contains(t, html.UnescapeString(body), "invoices do not show your registered name, TIN, registered address yet")
	_, body = owner.get("/organizer/organization?organization=" + org)
	require.Contains(t, html.UnescapeString(body), "Your invoices do not show your registered name, TIN, registered address yet")

	status, body = owner.post("/organizer/organization", form("Showdown Events Inc.", "123-456-78", "", true))
	require.Equal(t, http.StatusUnprocessableEntity, status)
	require.Contains(t, html.UnescapeString(body), "A TIN has 9 digits and a 5-digit branch code, as 000-000-000-00000")
	status, _ = owner.post("/organizer/organization", form("Showdown Events Inc.", "123 456 789", "5F Tower One, Ayala Ave., Makati City", true))
	require.Equal(t, http.StatusSeeOther, status)
	_, body = owner.get("/organizer/organization?organization=" + org)
	require.Contains(t, body, `value="123-456-789-00000"`, "the TIN is kept in its full form")
	require.NotContains(t, body, "Your invoices do not show")

	o := paidOrder(t, a, "invoice-buyer@example.ph", 2)
	require.Len(t, o.Invoices, 1)
	visitor := newVisitor(t, a)
	_, body = visitor.get(palaro.OrderPath(o.PublicID))
	m := invoiceLink.FindStringSubmatch(body)
	require.NotNil(t, m, "the order page links the invoice")
	status, body = visitor.get(m[1])
	require.Equal(t, http.StatusOK, status)
	text := html.UnescapeString(body)
	for _, want := range []string{"Showdown Events Inc.", "TIN 123-456-789-00000 · VAT-registered", "5F Tower One, Ayala Ave., Makati City",
		"Sales invoice", "No. " + o.Invoices[0].Number, "Ligaya Cruz", "VATable sales", "VAT (12%)", "VAT-exempt sales",
		palaro.VATExclusive(o.Total).String(), (o.Total - palaro.VATExclusive(o.Total)).String(), o.Total.String()} {
		require.Contains(t, text, want)
	}
	require.Regexp(t, `href="/static/css/invoice\.[0-9a-f]+\.css"`, body, "the invoice's print stylesheet")
	status, _ = visitor.get("/invoice/not-an-invoice")
	require.Equal(t, http.StatusNotFound, status)

	msgs, err := a.Outbox().ListOutbox(context.Background(), palaro.OutboxFilter{To: "invoice-buyer@example.ph"})
	require.NoError(t, err)
	require.NotEmpty(t, msgs)
	require.Contains(t, msgs[len(msgs)-1].Text, palaro.InvoicePath(o.Invoices[0].PublicID), "the confirmation e-mail links the invoice")

	// the console's order page links it too; Mark refunded issues the credit note
	base := "/organizer/events/" + demoOwnedEvent + "/orders/" + o.PublicID
	_, body = owner.get(base)
	require.Contains(t, body, palaro.InvoicePath(o.Invoices[0].PublicID))
	status, _ = owner.post(base+"/refunded", url.Values{"confirm": {"yes"}})
	require.Equal(t, http.StatusSeeOther, status)
	_, body = owner.get(base)
	require.Contains(t, body, "Credit note No. CN-")
	_, body = visitor.get(palaro.OrderPath(o.PublicID))
	links := invoiceLink.FindAllStringSubmatch(body, -1)
	require.Len(t, links, 2)
	_, body = visitor.get(links[1][1])
	text = html.UnescapeString(body)
	require.Contains(t, text, "Credit note")
	require.Contains(t, text, "Credits invoice")
	require.Contains(t, text, "No. "+o.Invoices[0].Number)

	// the register: the invoice and its credit note; the receipts: nothing left to tax
	day := a.Now().In(palaro.Manila).Format("2006-01-02")
	status, csv := owner.get("/organizer/organization/invoices.csv?organization=" + org + "&from=" + day + "&to=" + day)
	require.Equal(t, http.StatusOK, status)
	require.Contains(t, csv, "type,number,date,credits invoice")
	require.Contains(t, csv, "sales invoice,"+o.Invoices[0].Number+","+day)
	require.Contains(t, csv, "credit note,CN-")
	require.Equal(t, 3, strings.Count(strings.TrimSpace(csv), "\n")+1, "a header and two rows")

	paidOrder(t, a, "second-buyer@example.ph", 1)
	status, body = owner.get("/organizer/organization/admission-receipts?organization=" + org + "&from=" + day + "&to=" + day + "&rate=7.5")
	require.Equal(t, http.StatusOK, status)
	text = html.UnescapeString(body)
	require.Contains(t, text, "amusement tax rate 7.5%")
	status, csv = owner.get("/organizer/organization/admission-receipts.csv?organization=" + org + "&from=" + day + "&to=" + day + "&rate=7.5")
	require.Equal(t, http.StatusOK, status)
	require.Contains(t, csv, "province,city,invoices,gross admission receipts,amusement tax rate,amusement tax")
	status, body = owner.get("/organizer/organization/admission-receipts?organization=" + org + "&rate=12")
	require.Equal(t, http.StatusBadRequest, status)
	require.Contains(t, html.UnescapeString(body), "at most 10%")

	gate := signedIn(t, a, store.DemoGateEmail)
	status, _ = gate.get("/organizer/organization")
	require.Equal(t, http.StatusForbidden, status, "gate staff see no invoices")
}

// TestInvoices_VATStatusChangesTheSeniorPriceAtOnce: with the event reads cached for an hour,
// switching the organization's VAT status on the console changes the senior price of its ₱1,000
// ticket at once, on the buy page and in the purchase: ₱714.29 (VAT removed, then 20% off) while
// VAT-registered, ₱800.00 (20% off) when not.
func TestInvoices_VATStatusChangesTheSeniorPriceAtOnce(t *testing.T) {
	a := startApp(t, func(c *app.Config) { c.EventCache = time.Hour })
	owner := signedIn(t, a, store.DemoOrganizerEmail)
	ev, err := store.NewOrganizerService(a.DB(), nil).FindEvent(context.Background(), "kundiman-gala")
	require.NoError(t, err)
	require.True(t, ev.Organizer.VATRegistered, "the demo's VAT-registered organization")
	buyer := newVisitor(t, a)
	seniorTotal := func(n int) int64 {
		t.Helper()
		status, raw := buyer.postJSON("/v1/ticket/buy", `{"ticketCode":"kundiman-gala-orchestra","quantity":1,`+
			`"email":"lola`+strconv.Itoa(n)+`@example.ph","fullName":"Corazon Reyes","mobileNumber":"0917-000-0000","paymentType":"CARD",`+
			`"discounts":[{"type":"senior","holderName":"Corazon Reyes","idNumber":"OSCA-2024-8123`+strconv.Itoa(n)+`"}]}`)
		require.Equal(t, http.StatusOK, status, raw)
		var res struct {
			OrderID string `json:"orderId"`
		}
		require.NoError(t, json.Unmarshal([]byte(raw), &res))
		o, err := store.NewPurchaseService(a.DB(), nil, 0).FindOrderByPublicID(context.Background(), res.OrderID)
		require.NoError(t, err)
		return int64(o.Total)
	}
	page := func() string {
		t.Helper()
		status, body := buyer.get("/b/kundiman-gala-orchestra")
		require.Equal(t, http.StatusOK, status)
		return html.UnescapeString(body)
	}
	setVAT := func(vat bool) {
		t.Helper()
		form := url.Values{"organization": {strconv.FormatInt(ev.Organizer.ID, 10)},
			palaro.FieldRegisteredName: {"Kultura Live Productions, Inc."}, palaro.FieldTIN: {"009-876-543-00000"},
			palaro.FieldRegisteredAddress: {"12F Kultura Tower, 8 Jupiter Street, Bel-Air, Makati City 1209"}}
		if vat {
			form.Set(palaro.FieldVATRegistered, "on")
		}
		status, body := owner.post("/organizer/organization", form)
		require.Equal(t, http.StatusSeeOther, status, body)
	}

	require.Contains(t, page(), "pay ₱714.29 instead of ₱1,000.00")
	require.Equal(t, int64(71429), seniorTotal(1))
	setVAT(false)
	require.Contains(t, page(), "pay ₱800.00 instead of ₱1,000.00", "the cached read was dropped")
	require.Equal(t, int64(80000), seniorTotal(2))
	setVAT(true)
	require.Contains(t, page(), "pay ₱714.29 instead of ₱1,000.00")
	require.Equal(t, int64(71429), seniorTotal(3))
}
