package handlers

import (
	"fmt"
	"net/http"
	"strconv"
	"time"

	"github.com/labstack/echo/v5"

	"palaro"
	"palaro/views"
)

// Chart geometry, in viewBox units: bars stand on an axis above a strip for the date labels.
const (
	chartWidth   = 600
	chartHeight  = 200
	chartLabels  = 20
	chartMaxDays = 60
)

// barChart draws one value per day as bars scaled to the largest value.
func barChart(title, class string, days []palaro.SalesDay, value func(palaro.SalesDay) float64, format func(palaro.SalesDay) string) views.OrgChart {
	ch := views.OrgChart{Title: title, Class: class, Width: chartWidth, Height: chartHeight}
	top := 0.0
	for _, d := range days {
		top = max(top, value(d))
	}
	if len(days) == 0 {
		ch.Summary = title + ": no sales yet."
		ch.Labels = []views.SVGLabel{{X: chartWidth / 2, Y: chartHeight / 2, Text: "No sales yet", Anchor: "middle"}}
		return ch
	}
	slot := float64(chartWidth) / float64(len(days))
	plot := float64(chartHeight - chartLabels - 4)
	for i, d := range days {
		h := 0.0
		if top > 0 {
			h = value(d) / top * plot
		}
		w := min(slot*0.7, 40)
		ch.Bars = append(ch.Bars, views.SVGBar{X: float64(i)*slot + (slot-w)/2, W: w, Y: float64(chartHeight-chartLabels) - h, H: h,
			Title: d.Date.Format("2 Jan") + ": " + format(d)})
	}
	label := func(i int, anchor string) views.SVGLabel {
		x := float64(i)*slot + slot/2
		switch anchor {
		case "start":
			x = 0
		case "end":
			x = chartWidth
		}
		return views.SVGLabel{X: x, Y: chartHeight - 4, Text: days[i].Date.Format("2 Jan"), Anchor: anchor}
	}
	ch.Labels = append(ch.Labels, label(0, "start"))
	if len(days) > 2 {
		ch.Labels = append(ch.Labels, label(len(days)/2, "middle"))
	}
	if len(days) > 1 {
		ch.Labels = append(ch.Labels, label(len(days)-1, "end"))
	}
	peak := days[0]
	for _, d := range days {
		if value(d) > value(peak) {
			peak = d
		}
	}
	ch.Summary = fmt.Sprintf("%s from %s to %s; highest on %s: %s.", title, days[0].Date.Format("2 Jan"),
		days[len(days)-1].Date.Format("2 Jan"), peak.Date.Format("2 Jan"), format(peak))
	return ch
}

// filledDays returns one entry per Manila day from the first sale to the last (at most the last
// chartMaxDays days), with zero for days without sales.
func filledDays(days []palaro.SalesDay) []palaro.SalesDay {
	if len(days) == 0 {
		return nil
	}
	byDate := map[string]palaro.SalesDay{}
	for _, d := range days {
		byDate[d.Date.Format(time.DateOnly)] = d
	}
	last := days[len(days)-1].Date
	first := days[0].Date
	if limit := last.AddDate(0, 0, -(chartMaxDays - 1)); first.Before(limit) {
		first = limit
	}
	var out []palaro.SalesDay
	for d := first; !d.After(last); d = d.AddDate(0, 0, 1) {
		day, ok := byDate[d.Format(time.DateOnly)]
		if !ok {
			day = palaro.SalesDay{Date: d}
		}
		out = append(out, day)
	}
	return out
}

func salesRows(lines []palaro.SalesLine) []views.OrgSalesRow {
	rows := make([]views.OrgSalesRow, len(lines))
	for i, l := range lines {
		rows[i] = views.OrgSalesRow{Label: l.Label, Tickets: strconv.Itoa(l.Tickets), Revenue: l.Revenue.String()}
	}
	return rows
}

func (s *Server) orgDashboardPage(c *echo.Context, caller *palaro.Caller) error {
	ev, err := s.orgEvent(c, caller)
	if err != nil {
		return err
	}
	r, err := s.services.Organizers.SalesReport(c.Request().Context(), ev.ID)
	if err != nil {
		return err
	}
	dates, totals, err := s.seriesSales(c, ev)
	if err != nil {
		return err
	}
	sold, capacity := 0, 0
	for _, tt := range ev.TicketTypes {
		sold += tt.Sold
		capacity += tt.Capacity
	}
	soldLabel := "Tickets sold"
	if len(dates) > 0 { // a series: the places taken on its dates (passes' included) against its dates' capacity
		sold, capacity, soldLabel = 0, 0, "Places taken on the dates"
		for _, t := range totals {
			sold += t.Sold
			capacity += t.Capacity
		}
	}
	days := filledDays(r.Days)
	v := views.OrgDashboardView{Frame: eventFrame(c, caller, ev, "Sales · "+ev.Name), Dates: dates,
		Totals: [][2]string{{soldLabel, fmt.Sprintf("%d of %d", sold, capacity)}, {"Revenue", r.Revenue.String()},
			{"Checked in", strconv.Itoa(r.CheckedIn)}},
		Charts: []views.OrgChart{
			barChart("Tickets sold per day", "chart-tickets", days, func(d palaro.SalesDay) float64 { return float64(d.Tickets) },
				func(d palaro.SalesDay) string { return palaro.Plural(d.Tickets, "ticket", "tickets") }),
			barChart("Revenue per day", "chart-revenue", days, func(d palaro.SalesDay) float64 { return float64(d.Revenue) },
				func(d palaro.SalesDay) string { return d.Revenue.String() }),
		},
		ByType:   append(salesRows(r.ByType), views.OrgSalesRow{Label: "Add-ons", Tickets: "—", Revenue: r.AddOnRevenue.String()}),
		BySource: salesRows(r.BySource),
		CheckIns: checkInsText(r.CheckedIn, r.Issued),
	}
	if r.SeniorPWDTickets > 0 {
		v.Totals = append(v.Totals, [2]string{"Senior citizen / PWD tickets",
			fmt.Sprintf("%d (%s off)", r.SeniorPWDTickets, r.SeniorPWDDiscount)})
	}
	if r.Issued > 0 {
		v.CheckInBar.W = float64(r.CheckedIn) / float64(r.Issued) * 100
	}
	return render(c, http.StatusOK, views.OrgDashboard(s.orgPage(c, "Sales · "+ev.Name), v))
}

// checkInsText says how many of the tickets issued are checked in, such as "Checked in: 1 of the 3 tickets issued."
func checkInsText(checkedIn, issued int) string {
	return fmt.Sprintf("Checked in: %d of the %s issued.", checkedIn, palaro.Plural(issued, "ticket", "tickets"))
}
