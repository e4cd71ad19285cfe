package handlers

import (
	"net/http"
	"strings"

	"github.com/labstack/echo/v5"

	"palaro"
	"palaro/views"
)

// invoicePage renders /invoice/{id}: a sales invoice or credit note, printable. Its id is
// unguessable and it is linked from the order page, the confirmation e-mail and the console's
// order page: whoever holds the order's link may open it, as the order page, and so may the
// organization's owners and managers.
func (s *Server) invoicePage(c *echo.Context) error {
	inv, err := s.services.Organizers.FindInvoice(c.Request().Context(), c.Param("id"))
	if err != nil {
		return err
	}
	v := invoiceView(inv)
	p := s.privatePage(c, v.Title+" "+v.Number)
	p.Styles = append(p.Styles, "css/invoice.css")
	c.Response().Header().Set("Referrer-Policy", "no-referrer") // the id is in the path
	return render(c, http.StatusOK, views.InvoicePage(p, v))
}

// invoiceLinks are the links of an order's sales invoice and credit notes.
func invoiceLinks(o *palaro.Order) []views.Link {
	var links []views.Link
	for _, ref := range o.Invoices {
		label := "Sales invoice No. " + ref.Number
		if ref.Kind == palaro.InvoiceKindCreditNote {
			label = "Credit note No. " + ref.Number
		}
		links = append(links, views.Link{Label: label, Href: palaro.InvoicePath(ref.PublicID)})
	}
	return links
}

// invoiceView lays out an invoice for its page: the lines, then from the gross to the total, then
// (VAT-registered sellers) the VAT analysis of the total.
func invoiceView(inv *palaro.Invoice) views.InvoiceView {
	a, seller := inv.Amounts, inv.Seller
	v := views.InvoiceView{Title: "Sales invoice", Number: inv.Number(), Date: inv.IssuedAt.In(palaro.Manila).Format("2 January 2006, 3:04 PM"),
		Seller: seller.DisplayName(), TIN: seller.TIN, Address: seller.Address, VATStatus: "Non-VAT registered",
		NonVAT: !seller.VATRegistered, Buyer: cmpStr(inv.BuyerName, inv.BuyerEmail), Email: inv.BuyerEmail,
		EventName: inv.EventName, OrderHref: palaro.OrderPath(inv.OrderPublicID), Total: a.Total.String(), TotalLabel: "Total amount due"}
	if seller.VATRegistered {
		v.VATStatus = "VAT-registered"
	}
	if seller.RegisteredName != "" && seller.Name != "" && seller.RegisteredName != seller.Name {
		v.TradeName = seller.Name
	}
	v.Missing = strings.Join(seller.Missing(), ", ")
	if inv.Kind == palaro.InvoiceKindCreditNote {
		v.Title, v.TotalLabel = "Credit note", "Total credited"
		v.Credits = views.Link{Label: inv.CreditsNumber, Href: palaro.InvoicePath(inv.CreditsPublicID)}
	}
	for _, l := range inv.Lines {
		v.Lines = append(v.Lines, views.InvoiceLineView{Description: l.Description, Quantity: l.Quantity,
			UnitPrice: l.UnitPrice.String(), Amount: l.Amount.String()})
	}
	for _, e := range inv.Exemptions {
		v.Exemptions = append(v.Exemptions, views.InvoiceExemptionView{Type: e.TypeLabel(), Holder: e.Holder,
			IDNumber: e.IDNumber, ExemptSale: e.ExemptSale.String(), Discount: e.Discount.String()})
	}
	less := func(label string, m palaro.Money) {
		if m > 0 {
			v.Summary = append(v.Summary, views.LineView{Label: label, Value: (-m).String()})
		}
	}
	v.Summary = append(v.Summary, views.LineView{Label: "Total sales", Value: a.Gross.String()})
	if seller.VATRegistered {
		v.Summary[0].Label = "Total sales (VAT inclusive)"
	}
	less("Less: VAT on senior citizen and PWD tickets", a.VATRemoved)
	less("Less: promo discount", a.PromoDiscount)
	less("Less: senior citizen and PWD discount (20%)", a.SCPWDDiscount)
	if seller.VATRegistered {
		v.Breakdown = []views.LineView{{Label: "VATable sales", Value: a.VATableSales.String()},
			{Label: "VAT (12%)", Value: a.VAT.String()}, {Label: "VAT-exempt sales", Value: a.VATExemptSales.String()},
			{Label: "Zero-rated sales", Value: palaro.Money(0).String()}}
	} else if a.VATExemptSales > 0 {
		v.Breakdown = []views.LineView{{Label: "VAT-exempt sales (senior citizen and PWD)", Value: a.VATExemptSales.String()}}
	}
	return v
}
