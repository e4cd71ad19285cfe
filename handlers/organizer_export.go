package handlers

import (
	"bufio"
	"encoding/csv"
	"log/slog"
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

// csvFlushRows is how many rows a streamed CSV export writes between flushes to the client: the
// download starts at once and goes on as the rows are read, whatever the event's size.
const csvFlushRows = 500

// csvStream is a CSV download written as its rows come (BOM, RFC 4180 quoting with CRLF line
// ends, every cell made safe): nothing but csv.Writer's small buffer holds rows, so an export of
// 55,000 tickets takes the memory of one. Nothing reaches the client before the first buffer
// fills, so an error in the first rows still answers an error page; a later one aborts the
// download (the client sees a broken transfer, not a file that looks whole).
type csvStream struct {
	c       *echo.Context
	w       *csv.Writer
	rows    int
	started bool // bytes went out: the status and headers are sent
}

// startCSV begins a CSV download: its headers (sent with the first bytes), the BOM and the header row.
func startCSV(c *echo.Context, filename string, header []string) *csvStream {
	h := c.Response().Header()
	h.Set(echo.HeaderContentType, "text/csv; charset=utf-8")
	h.Set("Content-Disposition", `attachment; filename="`+filename+`"`)
	h.Set("Cache-Control", "no-store")
	st := &csvStream{c: c}
	buf := bufio.NewWriter(st)
	_, _ = buf.WriteString(utf8BOM)
	st.w = csv.NewWriter(buf) // the same buffer (bufio.NewWriter keeps one of enough size): after the BOM
	st.w.UseCRLF = true
	_ = st.w.Write(header)
	return st
}

// Write sends CSV bytes to the client, the status line with the first of them.
func (st *csvStream) Write(b []byte) (int, error) {
	if !st.started {
		st.started = true
		st.c.Response().WriteHeader(http.StatusOK)
	}
	return st.c.Response().Write(b)
}

// Row writes one row, its cells made safe, and flushes every csvFlushRows rows.
func (st *csvStream) Row(r []string) error {
	for i := range r {
		r[i] = safeCell(r[i])
	}
	if err := st.w.Write(r); err != nil {
		return err
	}
	if st.rows++; st.rows%csvFlushRows == 0 {
		return st.flush()
	}
	return nil
}

func (st *csvStream) flush() error {
	st.w.Flush()
	if err := st.w.Error(); err != nil {
		return err
	}
	return http.NewResponseController(st.c.Response()).Flush()
}

// End finishes the download after the rows were read with err: the last rows go out; an error
// before anything went out is returned (an error page), after it the download is aborted.
func (st *csvStream) End(logger *slog.Logger, err error) error {
	if err == nil {
		if err = st.flush(); err == nil {
			return nil
		}
	}
	if !st.started {
		h := st.c.Response().Header()
		h.Del("Content-Disposition")
		h.Del(echo.HeaderContentType)
		return err
	}
	logger.Error("CSV export aborted", "path", st.c.Request().URL.Path, "rows", st.rows, "error", err)
	panic(http.ErrAbortHandler) // net/http closes the connection: the download ends incomplete
}

// writeCSV answers a CSV download of rows already in memory (the small reports).
func writeCSV(c *echo.Context, logger *slog.Logger, filename string, header []string, rows [][]string) error {
	st := startCSV(c, filename, header)
	for _, r := range rows {
		if err := st.Row(r); err != nil {
			return st.End(logger, err)
		}
	}
	return st.End(logger, nil)
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
	date, err := s.orgDateFilter(c, ev)
	if err != nil {
		return err
	}
	st := startCSV(c, ev.Code+dateFileSuffix(date)+"-orders.csv", []string{"order", "created", "status", "email", "first name", "last name",
		"full name", "mobile number", "ticket type", "date", "quantity", "seats", "source", "promo code", "payment type", "unit price",
		"add-ons", "promo discount", "total", "paid", "tickets", "senior/PWD discount", "senior/PWD tickets"})
	var codes []string
	err = s.services.Organizers.EachOrder(c.Request().Context(), ev.ID, dateID(date), func(o *palaro.Order) error {
		codes = codes[:0]
		for _, t := range o.Tickets {
			codes = append(codes, t.Code)
		}
		typeName, passKind, slug := "", "", ""
		if o.TicketType != nil {
			typeName, passKind = o.TicketType.Name, o.TicketType.PassKind
		}
		if o.Date != nil {
			slug = o.Date.Slug
		}
		return st.Row([]string{o.PublicID, csvTime(o.CreatedAt), o.Status, o.Email, o.Buyer.FirstName, o.Buyer.LastName,
			o.Buyer.FullName, o.Buyer.MobileNumber, typeName, dateColumn(slug, passKind), strconv.Itoa(o.Quantity), strings.Join(o.Seats, " "), o.Source,
			o.PromoCode, o.PaymentType, o.UnitPrice.Decimal(), o.AddOnsTotal.Decimal(), o.PromoDiscount.Decimal(),
			o.Total.Decimal(), csvTime(o.PaidAt), strings.Join(codes, " "), o.SeniorPWDDiscount.Decimal(), discountedTickets(o.Tickets)})
	})
	return st.End(s.logger, err)
}

func (s *Server) orgAttendeesCSV(c *echo.Context, caller *palaro.Caller) error {
	ev, err := s.orgEvent(c, caller)
	if err != nil {
		return err
	}
	date, err := s.orgDateFilter(c, ev)
	if err != nil {
		return err
	}
	st := startCSV(c, ev.Code+dateFileSuffix(date)+"-attendees.csv", []string{"ticket", "status", "holder", "email", "ticket type", "date", "seat", "order",
		"first name", "last name", "full name", "mobile number", "company", "designation", "survey answer", "paid", "checked in",
		"discount", "discount holder", "discount ID number", "discount amount"})
	err = s.services.Organizers.EachAttendee(c.Request().Context(), ev.ID, dateID(date), func(a *palaro.Attendee) error {
		b := a.Buyer
		slug := ""
		if a.Date != nil {
			slug = a.Date.Slug
		}
		return st.Row([]string{a.Code, a.Status, a.HolderName, a.Email, a.TypeName, dateColumn(slug, a.PassKind), a.Seat, a.OrderID, b.FirstName,
			b.LastName, b.FullName, b.MobileNumber, b.CompanyName, b.Designation, b.SurveyAnswer, csvTime(a.PaidAt),
			csvTime(a.CheckedInAt), a.Discount.Type, a.Discount.HolderName, a.Discount.IDNumber, discountAmount(a.Discount)})
	})
	return st.End(s.logger, err)
}

// orgDateFilter reads the console's and the API's date filter (the query's date, a date's slug):
// nil when there is none; EINVALID naming the field for a slug that is not one of the event's dates.
func (s *Server) orgDateFilter(c *echo.Context, ev *palaro.Event) (*palaro.EventDate, error) {
	slug := strings.TrimSpace(c.QueryParam(palaro.FieldDate))
	if slug == "" {
		return nil, nil
	}
	d, err := s.services.Series.FindEventDate(c.Request().Context(), ev.ID, slug)
	if palaro.ErrorCode(err) == palaro.ENOTFOUND {
		return nil, &palaro.Error{Code: palaro.EINVALID, Message: palaro.MsgDateUnknown,
			Fields: map[string]string{palaro.FieldDate: palaro.MsgDateUnknown}}
	}
	return d, err
}

// dateID is a date filter's id, 0 for none.
func dateID(d *palaro.EventDate) int64 {
	if d == nil {
		return 0
	}
	return d.ID
}

// dateFileSuffix names a date filter in an export's file name ("-2027-01-09"), "" for none.
func dateFileSuffix(d *palaro.EventDate) string {
	if d == nil {
		return ""
	}
	return "-" + d.Slug
}

// dateColumn is the exports' and order lists' date of a row: a day ticket's date slug, "Season
// pass" for a pass, "" for a single-date event's.
func dateColumn(slug, passKind string) string {
	if passKind != "" {
		return palaro.PassRowLabel
	}
	return slug
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
