package handlers

import (
	"bytes"
	"encoding/csv"
	"math"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/labstack/echo/v5"

	"palaro"
)

// utf8BOM starts every CSV export, so spreadsheet programs read Filipino names (ñ, é) as UTF-8.
const utf8BOM = "\uFEFF"

// safeCell makes a CSV cell safe against formula injection: a cell that a spreadsheet would
// read as a formula (starting with =, +, -, @, a tab or a carriage return) is prefixed with an
// apostrophe, so it shows as the text it is.
func safeCell(s string) string {
	if s != "" && strings.ContainsRune("=+-@\t\r", rune(s[0])) {
		return "'" + s
	}
	return s
}

// writeCSV answers a CSV download: BOM, RFC 4180 quoting with CRLF line ends, every cell made safe.
func writeCSV(c *echo.Context, filename string, header []string, rows [][]string) error {
	var buf bytes.Buffer
	buf.WriteString(utf8BOM)
	w := csv.NewWriter(&buf)
	w.UseCRLF = true
	_ = w.Write(header)
	for _, r := range rows {
		for i := range r {
			r[i] = safeCell(r[i])
		}
		_ = w.Write(r)
	}
	w.Flush()
	if err := w.Error(); err != nil {
		return err
	}
	h := c.Response().Header()
	h.Set("Content-Disposition", `attachment; filename="`+filename+`"`)
	h.Set("Cache-Control", "no-store")
	return c.Blob(http.StatusOK, "text/csv; charset=utf-8", buf.Bytes())
}

// csvTime formats a time for the exports: RFC 3339 in Manila, empty when unset.
func csvTime(t time.Time) string {
	if t.IsZero() {
		return ""
	}
	return t.In(palaro.Manila).Format(time.RFC3339)
}

func (s *Server) orgOrdersCSV(c *echo.Context, caller *palaro.Caller) error {
	ev, err := s.orgEvent(c, caller)
	if err != nil {
		return err
	}
	orders, err := s.services.Organizers.SearchOrders(c.Request().Context(), palaro.OrderSearch{EventID: ev.ID, Limit: math.MaxInt32})
	if err != nil {
		return err
	}
	header := []string{"order", "created", "status", "email", "first name", "last name", "full name", "mobile number",
		"ticket type", "quantity", "seats", "source", "promo code", "payment type", "unit price", "add-ons", "promo discount",
		"total", "paid", "tickets", "senior/PWD discount", "senior/PWD tickets"}
	rows := make([][]string, 0, len(orders))
	for _, o := range orders {
		codes := make([]string, len(o.Tickets))
		for i, t := range o.Tickets {
			codes[i] = t.Code
		}
		typeName := ""
		if o.TicketType != nil {
			typeName = o.TicketType.Name
		}
		rows = append(rows, []string{o.PublicID, csvTime(o.CreatedAt), o.Status, o.Email, o.Buyer.FirstName, o.Buyer.LastName,
			o.Buyer.FullName, o.Buyer.MobileNumber, typeName, strconv.Itoa(o.Quantity), strings.Join(o.Seats, " "), o.Source,
			o.PromoCode, o.PaymentType, o.UnitPrice.Decimal(), o.AddOnsTotal.Decimal(), o.PromoDiscount.Decimal(),
			o.Total.Decimal(), csvTime(o.PaidAt), strings.Join(codes, " "), o.SeniorPWDDiscount.Decimal(), discountedTickets(o.Tickets)})
	}
	return writeCSV(c, ev.Code+"-orders.csv", header, rows)
}

func (s *Server) orgAttendeesCSV(c *echo.Context, caller *palaro.Caller) error {
	ev, err := s.orgEvent(c, caller)
	if err != nil {
		return err
	}
	attendees, err := s.services.Organizers.ListAttendees(c.Request().Context(), ev.ID)
	if err != nil {
		return err
	}
	header := []string{"ticket", "status", "holder", "email", "ticket type", "seat", "order", "first name", "last name",
		"full name", "mobile number", "company", "designation", "survey answer", "paid", "checked in",
		"discount", "discount holder", "discount ID number", "discount amount"}
	rows := make([][]string, 0, len(attendees))
	for _, a := range attendees {
		b := a.Buyer
		rows = append(rows, []string{a.Code, a.Status, a.HolderName, a.Email, a.TypeName, a.Seat, a.OrderID, b.FirstName,
			b.LastName, b.FullName, b.MobileNumber, b.CompanyName, b.Designation, b.SurveyAnswer, csvTime(a.PaidAt),
			csvTime(a.CheckedInAt), a.Discount.Type, a.Discount.HolderName, a.Discount.IDNumber, discountAmount(a.Discount)})
	}
	return writeCSV(c, ev.Code+"-attendees.csv", header, rows)
}

// discountedTickets lists an order's senior citizen and PWD tickets for the orders export: "CODE
// senior Corazon Reyes OSCA-1" each, separated by "; ". The exports need the orders right (owners
// and managers), who see ID numbers in full.
func discountedTickets(tickets []palaro.Ticket) string {
	var out []string
	for _, t := range tickets {
		if d := t.Discount; d.Type != "" {
			out = append(out, t.Code+" "+d.Type+" "+d.HolderName+" "+d.IDNumber)
		}
	}
	return strings.Join(out, "; ")
}

// discountAmount is a ticket's senior citizen or PWD discount in pesos, "" for a ticket without.
func discountAmount(d palaro.TicketDiscount) string {
	if d.Type == "" {
		return ""
	}
	return d.Amount.Decimal()
}
