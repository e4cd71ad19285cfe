package store

import (
	"context"
	"database/sql"
	"fmt"
	"strings"
	"time"

	"palaro"
)

// seedDates are a demo series' dates: every Weekday from Time (Manila, "15:04") for Hours, Weeks
// weeks in all, of which Played are over at the seed's time (so the first is Played-1 weeks before
// the last one over; with none played, the first is the next one that has not ended). Name, with
// %d for the date's number, names each date ("Match day %d").
type seedDates struct {
	Weekday string `json:"weekday"`
	Time    string `json:"time"`
	Hours   int    `json:"hours"`
	Weeks   int    `json:"weeks"`
	Played  int    `json:"played"`
	Name    string `json:"name"`
}

// inputs computes the dates for a seed at now, through the console's weekly rule (palaro.DateRule).
func (s seedDates) inputs(now time.Time) ([]palaro.DateInput, error) {
	weekday, ok := palaro.ParseWeekday(s.Weekday)
	clock, err := time.Parse("15:04", s.Time)
	if !ok || err != nil || s.Hours < 1 || s.Hours > 23 || s.Weeks < 1 || s.Played < 0 || s.Played > s.Weeks {
		return nil, fmt.Errorf("dates: give a weekday, a time (15:04), hours (1 to 23), weeks, and played (0 to weeks)")
	}
	length := time.Duration(s.Hours) * time.Hour
	local := now.In(palaro.Manila)
	last := time.Date(local.Year(), local.Month(), local.Day(), clock.Hour(), clock.Minute(), 0, 0, palaro.Manila)
	for last.Weekday() != weekday || last.Add(length).After(now) { // the last one over at now
		last = last.AddDate(0, 0, -1)
	}
	first := last.AddDate(0, 0, -7*(s.Played-1))
	dates, err := palaro.DateRule{Weekdays: []time.Weekday{weekday}, StartTime: s.Time, EndTime: clock.Add(length).Format("15:04"),
		From: palaro.ManilaDay(first), Weeks: s.Weeks}.Dates()
	if err != nil {
		return nil, fmt.Errorf("dates: %w", err)
	}
	inputs := make([]palaro.DateInput, len(dates))
	for i, d := range dates {
		inputs[i] = palaro.DateInput{StartsAt: d.StartsAt, EndsAt: d.EndsAt, Status: palaro.DateScheduled}
		if strings.Contains(s.Name, "%d") {
			inputs[i].Name = fmt.Sprintf(s.Name, i+1)
		}
	}
	return inputs, nil
}

// seedSeries is a demo series once inserted: its event and its dates, by start.
type seedSeries struct {
	eventID int64
	event   seedEvent
	dates   []palaro.EventDate
}

// seedSeriesType is a ticket type of a demo series: its id and, for a pass, its day type's.
type seedSeriesType struct {
	seedTicket
	id, passOf int64
}

// insertSeriesSales sells the demo series' tickets as paid orders, through the order's own steps
// (guarded places on each date, order_dates, seats per date, tickets, pass_uses; no invoice, no
// e-mail, as the other demo orders): first
// each pass's Sold passes, bought before the first date (so valid on every date, each keeping the
// best seats of its day type on all of them), then each day type's tickets on every date, Sold on
// the first and fewer on later ones. On the dates over at now, two in three day tickets and passes
// are checked in at the demo gates, as the gate does (checkInTx with the date).
func (d *seedData) insertSeriesSales(ctx context.Context, db *DB, tx *sql.Tx, now time.Time) error {
	sales := &PurchaseService{db: db}
	for _, s := range d.series {
		var types []seedSeriesType
		for _, t := range s.event.Tickets {
			st := seedSeriesType{seedTicket: t}
			if err := tx.QueryRowContext(ctx, `SELECT id, coalesce(pass_of, 0) FROM ticket_types WHERE code = ?`,
				s.event.Code+"-"+t.Code).Scan(&st.id, &st.passOf); err != nil {
				return err
			}
			types = append(types, st)
		}
		dateIDs := make([]int64, len(s.dates))
		for i, dt := range s.dates {
			dateIDs[i] = dt.ID
		}
		passSeats := map[int64]int{} // per day type, its best seats the passes took (on every date)
		n := 0                       // the series' orders so far
		sell := func(tt seedSeriesType, k int, date *palaro.EventDate, stock int64, on []int64, seats []string,
			paid time.Time) (*palaro.Order, error) {
			n++
			o := &palaro.Order{PublicID: newPublicID(), Kind: palaro.OrderKindTickets, EventID: s.eventID, TicketTypeID: tt.id,
				Quantity: 1, Email: fmt.Sprintf("fan%d.%s-%s@demo.palaro.ph", k, s.event.Code, tt.Code),
				Buyer: palaro.Buyer{FullName: d.orders.Holders[(n+int(tt.id))%len(d.orders.Holders)]}, Seats: seats,
				Source: d.orders.Sources[n%len(d.orders.Sources)], PaymentType: palaro.PaymentQR, UnitPrice: tt.Price,
				Total: tt.Price, Status: palaro.OrderPaid, PaidAt: paid, CreatedAt: paid, Date: date}
			plan := datePlan{date: date, dates: on, stockType: stock}
			if date == nil { // a pass counts on its own type too
				if err := reserve(ctx, tx, &palaro.TicketType{ID: tt.id, Name: tt.Name}, 1, true); err != nil {
					return nil, err
				}
			}
			if err := plan.take(ctx, tx, 1, true); err != nil {
				return nil, err
			}
			if err := sales.saveOrder(ctx, tx, o, nil, paid, plan); err != nil {
				return nil, err
			}
			if err := takeSeatsOn(ctx, tx, stock, on, o.ID, seats); err != nil {
				return nil, err
			}
			if err := insertOrderTickets(ctx, tx, o, paid, nil); err != nil {
				return nil, err
			}
			_, err := tx.ExecContext(ctx, `UPDATE orders SET provider = 'sandbox' WHERE id = ?`, o.ID)
			return o, err
		}
		checkIn := func(code string, date palaro.EventDate, k int) error {
			at := date.StartsAt.Add(time.Duration(k%40) * 3 * time.Minute)
			_, err := checkInTx(ctx, tx, palaro.CheckInRequest{EventID: s.eventID, Code: code, Date: date.Slug,
				Gate: d.orders.Gates[k%len(d.orders.Gates)], Actor: DemoGateEmail, At: at}, at, true)
			return err
		}
		for _, tt := range types {
			if tt.Pass == "" {
				continue
			}
			var seats []string
			if tt.Seated {
				labels, err := queryStrings(ctx, tx, `SELECT label FROM seats WHERE ticket_type_id = ? ORDER BY row_index, number`, tt.passOf)
				if err != nil {
					return err
				}
				if len(labels) < passSeats[tt.passOf]+tt.Sold {
					return fmt.Errorf("%s: %d seats for %d passes", tt.Code, len(labels), tt.Sold)
				}
				seats = labels[passSeats[tt.passOf] : passSeats[tt.passOf]+tt.Sold]
				passSeats[tt.passOf] += tt.Sold
			}
			for k := range tt.Sold {
				var seat []string
				if seats != nil {
					seat = seats[k : k+1]
				}
				o, err := sell(tt, k+1, nil, tt.passOf, dateIDs, seat, s.dates[0].StartsAt.Add(-time.Duration(24*(k%9+1))*time.Hour))
				if err != nil {
					return fmt.Errorf("%s pass %d: %w", tt.Code, k+1, err)
				}
				for i, dt := range s.dates {
					if dt.Past(now) && (k+i)%3 != 2 {
						if err := checkIn(o.Tickets[0].Code, dt, k+i); err != nil {
							return err
						}
					}
				}
			}
		}
		for _, tt := range types {
			if tt.Pass != "" {
				continue
			}
			var pool []string // the seats the passes left
			if tt.Seated {
				labels, err := queryStrings(ctx, tx, `SELECT label FROM seats WHERE ticket_type_id = ? ORDER BY row_index, number`, tt.id)
				if err != nil {
					return err
				}
				pool = labels[passSeats[tt.id]:]
			}
			k := 0
			for i := range s.dates {
				dt := &s.dates[i]
				sold := max(tt.Sold*(len(s.dates)-i)/len(s.dates), 1)
				used := map[int]bool{}
				for j := range sold {
					k++
					var seat []string
					if tt.Seated {
						p := (j*7 + i*11) % len(pool)
						for used[p] {
							p = (p + 1) % len(pool)
						}
						used[p], seat = true, []string{pool[p]}
					}
					paid := dt.StartsAt.Add(-time.Duration(24*(k%6+1)) * time.Hour)
					if !paid.Before(now) {
						paid = now.Add(-time.Duration(k%48+1) * time.Hour)
					}
					o, err := sell(tt, k, dt, tt.id, []int64{dt.ID}, seat, paid)
					if err != nil {
						return fmt.Errorf("%s on %s: %w", tt.Code, dt.Slug, err)
					}
					if dt.Past(now) && j%3 != 2 {
						if err := checkIn(o.Tickets[0].Code, *dt, j); err != nil {
							return err
						}
					}
				}
			}
		}
	}
	return nil
}
