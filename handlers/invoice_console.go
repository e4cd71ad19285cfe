package handlers

import (
	"encoding/csv"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/labstack/echo/v5"

	"palaro"
	"palaro/views"
)

// The console's organization page (/organizer/organization): the invoice details an organization
// enters once, what is still missing, and its reports for the BIR and the local treasurer. Owners
// and managers (palaro.ActionOrders) use it; with several organizations ?organization= picks one.

// invoiceDetailsForm is the form of an organization's invoice details.
func invoiceDetailsForm(caller *palaro.Caller, orgID int64, in palaro.InvoiceSeller, err error) views.OrgForm {
	sec := views.OrgFormSection{Fields: []views.FormField{
		{Name: palaro.FieldRegisteredName, Label: "Registered name", Type: "text", Value: in.RegisteredName, MaxLength: 200,
			Error: fieldError(err, palaro.FieldRegisteredName), Autocomplete: "organization",
			Hint: "As on the BIR Certificate of Registration (Form 2303)."},
		{Name: palaro.FieldTIN, Label: "TIN", Type: "text", Value: in.TIN, MaxLength: 20, InputMode: "numeric",
			Error: fieldError(err, palaro.FieldTIN), Hint: "000-000-000-00000: 9 digits and the branch code (00000 for the head office)."},
		{Name: palaro.FieldRegisteredAddress, Label: "Registered address", Type: "textarea", Value: in.Address, MaxLength: 300,
			Error: fieldError(err, palaro.FieldRegisteredAddress)},
	}, Booleans: []views.FormCheckbox{{Name: palaro.FieldVATRegistered, Label: "VAT-registered (invoices show 12% VAT)",
		Checked: in.VATRegistered, Error: fieldError(err, palaro.FieldVATRegistered)}},
		Selects: orgSelect(caller, palaro.ActionOrders, orgID)}
	return views.OrgForm{Action: "/organizer/organization", Submit: "Save the invoice details", Error: formError(err),
		Sections: []views.OrgFormSection{sec}}
}

// invoiceNotices are the console home's notices of the caller's organizations (where they may see
// orders) whose invoices lack registered details.
func (s *Server) invoiceNotices(c *echo.Context, caller *palaro.Caller) ([]views.Link, error) {
	ids := caller.OrganizationIDs(palaro.ActionOrders)
	if len(ids) == 0 {
		return nil, nil
	}
	sellers, err := s.services.Organizers.InvoiceSellers(c.Request().Context(), ids)
	if err != nil {
		return nil, err
	}
	var out []views.Link
	for _, sel := range sellers {
		if missing := sel.Missing(); len(missing) > 0 {
			out = append(out, views.Link{Label: sel.Name + ": invoices do not show your " + strings.Join(missing, ", ") + " yet. Enter them.",
				Href: "/organizer/organization?organization=" + strconv.FormatInt(sel.OrganizationID, 10)})
		}
	}
	return out, nil
}

// invoiceOrg is the organization a console invoice page or report is for: ?organization= or the
// caller's first one where they may see orders.
func invoiceOrg(c *echo.Context, caller *palaro.Caller) (int64, string, error) {
	orgID, err := chosenOrg(c, caller, palaro.ActionOrders)
	if err != nil {
		return 0, "", err
	}
	for _, m := range caller.Approved() {
		if m.OrganizationID == orgID {
			return orgID, m.OrganizationName, nil
		}
	}
	return orgID, "", nil
}

func (s *Server) orgOrganizationPage(c *echo.Context, caller *palaro.Caller) error {
	orgID, _, err := invoiceOrg(c, caller)
	if err != nil {
		return err
	}
	sellers, err := s.services.Organizers.InvoiceSellers(c.Request().Context(), []int64{orgID})
	if err != nil {
		return err
	}
	if len(sellers) == 0 {
		return palaro.Errorf(palaro.ENOTFOUND, "Organization not found.")
	}
	return s.renderOrganization(c, caller, sellers[0], invoiceDetailsForm(caller, orgID, sellers[0], nil), http.StatusOK)
}

func (s *Server) renderOrganization(c *echo.Context, caller *palaro.Caller, seller palaro.InvoiceSeller, form views.OrgForm, status int) error {
	v := views.OrgOrganizationView{Frame: orgFrame(c, caller, seller.Name+": invoices"), Form: form,
		Organization: strconv.FormatInt(seller.OrganizationID, 10)}
	if missing := seller.Missing(); len(missing) > 0 {
		v.Missing = "Your invoices do not show your " + strings.Join(missing, ", ") + " yet. Sales go on; enter them below so that the next invoices carry them."
	}
	from, to := defaultPeriod(s.Now())
	v.From, v.To = from.Format(time.DateOnly), to.AddDate(0, 0, -1).Format(time.DateOnly)
	return render(c, status, views.OrgOrganization(s.orgPage(c, "Invoices"), v))
}

func (s *Server) orgSaveOrganization(c *echo.Context, caller *palaro.Caller) error {
	orgID, err := chosenOrg(c, caller, palaro.ActionOrders)
	if err != nil {
		return err
	}
	in := palaro.InvoiceSeller{RegisteredName: c.FormValue(palaro.FieldRegisteredName), TIN: c.FormValue(palaro.FieldTIN),
		Address: c.FormValue(palaro.FieldRegisteredAddress), VATRegistered: c.FormValue(palaro.FieldVATRegistered) != ""}
	saved, err := s.services.Organizers.SaveInvoiceSeller(c.Request().Context(), orgID, caller.Actor(), in)
	if _, ok := userFacing(err); ok {
		sellers, rerr := s.services.Organizers.InvoiceSellers(c.Request().Context(), []int64{orgID})
		if rerr != nil || len(sellers) == 0 {
			return cmpErr(rerr, err)
		}
		return s.renderOrganization(c, caller, sellers[0], invoiceDetailsForm(caller, orgID, in, err), statusOfForm(err))
	} else if err != nil {
		return err
	}
	// The VAT status sets the senior and PWD price (with or without VAT removed) that the buy pages
	// show and the purchase charges: the cached event reads carry it.
	s.eventsChanged()
	return c.Redirect(http.StatusSeeOther, "/organizer/organization?notice=saved&organization="+strconv.FormatInt(saved.OrganizationID, 10))
}

// cmpErr returns the first error that is not nil.
func cmpErr(errs ...error) error {
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}

// defaultPeriod is the current month in Manila: [first day, first day of next month).
func defaultPeriod(now time.Time) (from, to time.Time) {
	m := now.In(palaro.Manila)
	from = time.Date(m.Year(), m.Month(), 1, 0, 0, 0, 0, palaro.Manila)
	return from, from.AddDate(0, 1, 0)
}

// reportPeriod reads ?from= and ?to= (dates in Manila, both days included) as [from, to+1 day);
// missing, the current month.
func (s *Server) reportPeriod(c *echo.Context) (from, to time.Time, err error) {
	from, to = defaultPeriod(s.Now())
	bad := func(field, msg string) error {
		return &palaro.Error{Code: palaro.EINVALID, Message: msg, Fields: map[string]string{field: msg}}
	}
	if v := c.QueryParam("from"); v != "" {
		if from, err = time.ParseInLocation(time.DateOnly, v, palaro.Manila); err != nil {
			return from, to, bad("from", "Enter the first day as a date, such as 2026-11-01.")
		}
	}
	if v := c.QueryParam("to"); v != "" {
		day, err := time.ParseInLocation(time.DateOnly, v, palaro.Manila)
		if err != nil {
			return from, to, bad("to", "Enter the last day as a date, such as 2026-11-30.")
		}
		to = day.AddDate(0, 0, 1)
	}
	if !to.After(from) {
		return from, to, bad("to", "The last day cannot be before the first day.")
	}
	if to.Sub(from) > 400*24*time.Hour {
		return from, to, bad("to", "A report covers at most a year and a month.")
	}
	return from, to, nil
}

// orgInvoiceRegisterCSV streams the invoice register of an organization and period: every
// invoice and credit note, row by row as the store reads them.
func (s *Server) orgInvoiceRegisterCSV(c *echo.Context, caller *palaro.Caller) error {
	orgID, name, err := invoiceOrg(c, caller)
	if err != nil {
		return err
	}
	from, to, err := s.reportPeriod(c)
	if err != nil {
		return err
	}
	h := c.Response().Header()
	h.Set("Content-Type", "text/csv; charset=utf-8")
	h.Set("Content-Disposition", `attachment; filename="`+csvName(name)+`-invoices-`+from.Format("20060102")+`-`+
		to.AddDate(0, 0, -1).Format("20060102")+`.csv"`)
	h.Set("Cache-Control", "no-store")
	w := csv.NewWriter(c.Response())
	w.UseCRLF = true
	started := false
	start := func() error {
		if started {
			return nil
		}
		started = true
		c.Response().WriteHeader(http.StatusOK)
		if _, err := c.Response().Write([]byte(utf8BOM)); err != nil {
			return err
		}
		return w.Write([]string{"type", "number", "date", "credits invoice", "order", "event", "buyer", "buyer e-mail",
			"seller TIN", "vatable sales", "vat", "vat-exempt sales", "discounts", "total", "senior/pwd id numbers"})
	}
	err = s.services.Organizers.EachInvoice(c.Request().Context(), orgID, from, to, func(inv *palaro.Invoice) error {
		if err := start(); err != nil {
			return err
		}
		kind := "sales invoice"
		if inv.Kind == palaro.InvoiceKindCreditNote {
			kind = "credit note"
		}
		ids := make([]string, len(inv.Exemptions))
		for i, e := range inv.Exemptions {
			ids[i] = e.Type + " " + e.IDNumber
		}
		a := inv.Amounts
		row := []string{kind, inv.Number(), inv.IssuedAt.In(palaro.Manila).Format(time.DateOnly), inv.CreditsNumber,
			inv.OrderPublicID, inv.EventName, inv.BuyerName, inv.BuyerEmail, inv.Seller.TIN, a.VATableSales.Decimal(),
			a.VAT.Decimal(), a.VATExemptSales.Decimal(), (a.PromoDiscount + a.SCPWDDiscount).Decimal(), a.Total.Decimal(),
			strings.Join(ids, "; ")}
		for i := range row {
			row[i] = safeCell(row[i])
		}
		if err := w.Write(row); err != nil {
			return err
		}
		w.Flush()
		return w.Error()
	})
	if err != nil && !started {
		return err // nothing sent yet: the error page or JSON answers
	} else if err != nil {
		return nil // the client sees a cut file; the request log has the status
	}
	if err := start(); err != nil {
		return nil
	}
	w.Flush()
	return nil
}

// csvName makes an organization's name fit a file name.
func csvName(name string) string {
	f := strings.FieldsFunc(strings.ToLower(name), func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= '0' && r <= '9')
	})
	if len(f) == 0 {
		return "organization"
	}
	return strings.Join(f, "-")
}

// admissionReport reads the period and the rate of the gross admission receipts report.
func (s *Server) admissionReport(c *echo.Context, caller *palaro.Caller) (name string, from, to time.Time, r palaro.AdmissionReport, err error) {
	orgID, name, err := invoiceOrg(c, caller)
	if err != nil {
		return
	}
	if from, to, err = s.reportPeriod(c); err != nil {
		return
	}
	rate, err := palaro.ParseAmusementTaxRate(c.QueryParam("rate"))
	if err != nil {
		return
	}
	rows, err := s.services.Organizers.AdmissionReceipts(c.Request().Context(), orgID, from, to)
	if err != nil {
		return
	}
	return name, from, to, palaro.NewAdmissionReport(rows, rate), nil
}

// orgAdmissionReceiptsPage renders the gross admission receipts per venue city and province, with
// the amusement tax at the rate the organizer enters (at most 10%, RA 9640), for the treasurer.
func (s *Server) orgAdmissionReceiptsPage(c *echo.Context, caller *palaro.Caller) error {
	name, from, to, r, err := s.admissionReport(c, caller)
	if err != nil {
		return err
	}
	q := url.Values{"organization": {c.QueryParam("organization")}, "from": {from.Format(time.DateOnly)},
		"to": {to.AddDate(0, 0, -1).Format(time.DateOnly)}, "rate": {c.QueryParam("rate")}}
	if q.Get("organization") == "" {
		q.Del("organization")
	}
	v := views.OrgAdmissionView{Frame: orgFrame(c, caller, "Gross admission receipts"), Organization: name,
		Period: from.Format("2 January 2006") + " to " + to.AddDate(0, 0, -1).Format("2 January 2006"),
		Rate:   palaro.FormatTaxRate(r.Rate), Gross: r.Gross.String(), Tax: r.Tax.String(),
		CSVHref: "/organizer/organization/admission-receipts.csv?" + q.Encode()}
	v.Frame.Back = views.Link{Label: "Invoices", Href: "/organizer/organization"}
	for _, row := range r.Rows {
		v.Rows = append(v.Rows, views.OrgAdmissionRow{City: row.City, Province: row.Province, Invoices: palaro.Plural(row.Invoices, "invoice", "invoices"),
			Gross: row.Gross.String(), Tax: row.Tax.String()})
	}
	return render(c, http.StatusOK, views.OrgAdmission(s.orgPage(c, "Gross admission receipts"), v))
}

// orgAdmissionReceiptsCSV is the same report as a CSV file.
func (s *Server) orgAdmissionReceiptsCSV(c *echo.Context, caller *palaro.Caller) error {
	name, from, to, r, err := s.admissionReport(c, caller)
	if err != nil {
		return err
	}
	rows := make([][]string, 0, len(r.Rows)+1)
	rate := palaro.FormatTaxRate(r.Rate)
	for _, row := range r.Rows {
		rows = append(rows, []string{row.Province, row.City, strconv.Itoa(row.Invoices), row.Gross.Decimal(), rate, row.Tax.Decimal()})
	}
	rows = append(rows, []string{"Total", "", "", r.Gross.Decimal(), rate, r.Tax.Decimal()})
	return writeCSV(c, s.logger, csvName(name)+"-admission-receipts-"+from.Format("20060102")+"-"+to.AddDate(0, 0, -1).Format("20060102")+".csv",
		[]string{"province", "city", "invoices", "gross admission receipts", "amusement tax rate", "amusement tax"}, rows)
}
