package handlers_test

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/PuerkitoBio/goquery"
	"github.com/stretchr/testify/require"

	"palaro"
	"palaro/store"
	"palaro/views"
)

// seatsWith returns up to n seats of a ticket type in the given state, in map order.
func seatsWith(t *testing.T, f *apiFixture, code, status string, n int) []string {
	t.Helper()
	ctx := context.Background()
	tt, _, err := store.NewEventService(f.db).FindTicketType(ctx, code)
	require.NoError(t, err)
	rows, err := store.NewSeatService(f.db).SeatMap(ctx, tt.ID)
	require.NoError(t, err)
	var out []string
	for _, r := range rows {
		for _, s := range r.Seats {
			if s.Status == status && len(out) < n {
				out = append(out, s.Label)
			}
		}
	}
	require.Len(t, out, n)
	return out
}

// freeSeats returns the first n available seats of a ticket type.
func freeSeats(t *testing.T, f *apiFixture, code string, n int) []string {
	return seatsWith(t, f, code, palaro.SeatAvailable, n)
}

// takenSeat returns a seat of a ticket type sold with the demo data.
func takenSeat(t *testing.T, f *apiFixture, code string) string {
	return seatsWith(t, f, code, palaro.SeatSold, 1)[0]
}

// page gets a page without following redirects and returns its status, Location and document.
func (f *apiFixture) page(t *testing.T, path string) (int, string, *goquery.Document) {
	t.Helper()
	client := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	resp, err := client.Get(f.http.URL + path)
	require.NoError(t, err)
	defer resp.Body.Close()
	raw, err := io.ReadAll(resp.Body)
	require.NoError(t, err)
	doc, err := goquery.NewDocumentFromReader(strings.NewReader(string(raw)))
	require.NoError(t, err)
	return resp.StatusCode, resp.Header.Get("Location"), doc
}

// seatProps reads the seat island's props of a seat page.
func seatProps(t *testing.T, doc *goquery.Document) views.SeatsProps {
	t.Helper()
	var p views.SeatsProps
	require.NoError(t, json.Unmarshal([]byte(doc.Find("#seats-props").Text()), &p))
	return p
}

func TestSeatsPage(t *testing.T) {
	f := newAPIFixture(t)
	const code = "mlbb-manila-showdown-lower"
	t.Run("OK seat map with sold seats and the limit", func(t *testing.T) {
		status, _, doc := f.page(t, "/s/"+code+"?source=PALARO10")
		require.Equal(t, 200, status)
		require.Equal(t, "seats", doc.Find(`[data-island]`).AttrOr("data-island", ""))
		p := seatProps(t, doc)
		require.Equal(t, code, p.Code)
		require.Equal(t, 6, p.Max)
		require.Equal(t, "Maximum ticket limit per user is 6.", p.MaxMessage)
		require.Equal(t, "PALARO10", p.Source)
		require.Len(t, p.Rows, palaro.SeatRows)
		require.Equal(t, "A", p.Rows[0].Row)
		require.Len(t, p.Rows[0].Status, 50)
		sold := 0
		for _, r := range p.Rows {
			sold += strings.Count(r.Status, "s")
			require.Equal(t, "", strings.Trim(r.Status, "ahs"), "one of available, held or sold per seat")
		}
		require.Positive(t, sold)
		require.Empty(t, p.Selected)
		require.Zero(t, doc.Find(".seat-notice").Length())
	})
	t.Run("OK a best-available hold's seats are its buyer's, any of them, until the job gives them back", func(t *testing.T) {
		ctx := context.Background()
		tt, _, err := store.NewEventService(f.db).FindTicketType(ctx, code)
		require.NoError(t, err)
		seats := store.NewSeatService(f.db)
		hold, err := seats.HoldBestSeats(ctx, palaro.BestSeatsRequest{TicketTypeID: tt.ID, Quantity: 2}, f.now)
		require.NoError(t, err)
		status, to, _ := f.page(t, "/b/"+code+"?seats="+hold.Seats[0])
		require.Equal(t, http.StatusSeeOther, status, "held for someone else")
		require.Contains(t, to, "/s/"+code)
		status, _, _ = f.page(t, "/b/"+code+"?seats="+hold.Seats[0]+"&hold="+hold.ID)
		require.Equal(t, 200, status, "the buyer keeps one of the two held seats")
		_, err = f.db.Writer().Exec(`UPDATE seat_holds SET expires_at = ? WHERE public_id = ?`,
			f.now.Add(-time.Minute).UTC().Format("2006-01-02T15:04:05Z"), hold.ID)
		require.NoError(t, err)
		status, _, _ = f.page(t, "/b/"+code+"?seats="+strings.Join(hold.Seats, ",")+"&hold="+hold.ID)
		require.Equal(t, 200, status, "past its end, before the job runs, the seats are not 'just taken' from their own buyer")
		_, err = f.purchases.ExpireHolds(ctx, f.now)
		require.NoError(t, err)
		status, _, _ = f.page(t, "/b/"+code+"?seats="+strings.Join(hold.Seats, ","))
		require.Equal(t, 200, status, "given back, they are free for anyone")
	})
	t.Run("OK seats chosen before come back, a taken one is named", func(t *testing.T) {
		free, taken := freeSeats(t, f, code, 1)[0], takenSeat(t, f, code)
		_, _, doc := f.page(t, "/s/"+code+"?seats="+free+","+taken)
		require.Equal(t, []string{free}, seatProps(t, doc).Selected)
		require.Equal(t, "Seat "+taken+" was just taken. Please choose another seat.", doc.Find(".seat-notice").Text())
		_, _, doc = f.page(t, "/s/"+code+"?seats=Q77")
		require.Equal(t, "Seat Q77 does not exist. Please choose a seat on the map.", doc.Find(".seat-notice").Text())
	})
	t.Run("OK buy page sends seated tickets without free seats to the map", func(t *testing.T) {
		taken := takenSeat(t, f, code)
		for path, want := range map[string]string{
			"/b/" + code:                                  "/s/" + code,
			"/b/" + code + "?source=FIRST5":               "/s/" + code + "?source=FIRST5",
			"/b/" + code + "?seats=" + taken:              "/s/" + code + "?seats=" + taken,
			"/b/" + code + "?seats=A1,B1,C1,D1,E1,F1,G1":  "/s/" + code + "?seats=A1%2CB1%2CC1%2CD1%2CE1%2CF1%2CG1",
			"/b/" + code + "?seats=not-a-seat":            "/s/" + code,
			"/s/mlbb-manila-showdown-gen?source=PALARO10": "/b/mlbb-manila-showdown-gen?source=PALARO10",
		} {
			status, location, _ := f.page(t, path)
			require.Equal(t, http.StatusSeeOther, status, path)
			require.Equal(t, want, location, path)
		}
		seats := freeSeats(t, f, code, 2)
		status, _, doc := f.page(t, "/b/"+code+"?seats="+strings.ToLower(strings.Join(seats, ",")))
		require.Equal(t, 200, status)
		var p views.PurchaseProps
		require.NoError(t, json.Unmarshal([]byte(doc.Find("#purchase-props").Text()), &p))
		require.Equal(t, seats, p.Seats)
	})
	t.Run("ErrNotFound unknown ticket type", func(t *testing.T) {
		status, _, _ := f.page(t, "/s/no-such-ticket")
		require.Equal(t, 404, status)
	})
}

func TestAPI_BuySeats(t *testing.T) {
	f, _ := withSandbox(t, "")
	const code = "mlbb-manila-showdown-lower"
	seats := freeSeats(t, f, code, 2)
	buy := func(email string, seats ...string) (int, map[string]any) {
		return f.call(t, "POST", "/v1/ticket/buy", map[string]any{"ticketCode": code, "email": email, "seats": seats,
			"firstName": "Ana", "lastName": "Reyes", "mobileNumber": "09171234567", "paymentType": "QR"})
	}
	status, body := buy("first@x.ph", strings.ToLower(seats[0]), seats[1])
	require.Equal(t, 200, status, body)
	checkout := body["redirectUrl"].(string)

	status, body = buy("second@x.ph", seats[1])
	require.Equal(t, 409, status, "the first order holds its seats while it waits for payment")
	require.Contains(t, body["message"], "Seat "+seats[1]+" was just taken. Seat ", "the nearest free seat is offered")
	require.Contains(t, body["message"], " is free nearby. Take them, or choose again on the seat map.")
	fields := body["fields"].(map[string]any)
	require.Equal(t, seats[1], fields["seatsTaken"])
	require.Equal(t, "/s/"+code+"?seats="+seats[1], fields["seatMap"])
	require.Regexp(t, `^/b/`+code+`\?seats=[A-Z]+[0-9]+$`, fields["seatsInstead"])
	status, body = buy("third@x.ph")
	require.Equal(t, 400, status)
	require.Equal(t, "Please choose your seats.", body["message"])

	payByWallet(t, checkout)
	tickets, err := f.purchases.ListTicketsByEmail(context.Background(), "first@x.ph")
	require.NoError(t, err)
	require.Len(t, tickets, 2)
	got := []string{tickets[0].Seat, tickets[1].Seat}
	require.ElementsMatch(t, seats, got, "each ticket carries its seat")
	err = store.NewSeatService(f.db).CheckSeats(context.Background(), tickets[0].TicketType.ID, seats)
	require.Equal(t, palaro.ECONFLICT, palaro.ErrorCode(err), "the paid order keeps its seats")
}

// TestSeatsPage_SeasonPass: the seat page of the demo league's seated season pass shows its day
// type's (the box's) seats at the pass's price, a seat free only when it is free on every coming
// match day: a box seat bought for the third coming match day only is taken on the pass's map
// (and refused by its buy page and its order) while it stays free on the first match day's map.
func TestSeatsPage_SeasonPass(t *testing.T) {
	f := newAPIFixture(t)
	ctx := context.Background()
	const league = "palaro-league-season-1"
	const pass, box = league + "-season", league + "-box"
	ev, err := store.NewEventService(f.db).FindEventByCode(ctx, league)
	require.NoError(t, err)
	dates, err := store.NewSeriesService(f.db).ListEventDates(ctx, ev.ID)
	require.NoError(t, err)
	var coming []palaro.EventDate
	for _, d := range dates {
		if !d.Past(f.now) && d.Status != palaro.DateCancelled {
			coming = append(coming, d)
		}
	}
	require.GreaterOrEqual(t, len(coming), 3)
	passType, _, err := store.NewEventService(f.db).FindTicketType(ctx, pass)
	require.NoError(t, err)

	// the pass's map: the box's seats, one character a seat; pick a free one
	status, _, doc := f.page(t, "/s/"+pass)
	require.Equal(t, http.StatusOK, status)
	p := seatProps(t, doc)
	require.Equal(t, pass, p.Code)
	require.Equal(t, int64(passType.FinalPrice()), p.FinalPrice, "the pass's own price")
	require.NotEmpty(t, p.Rows)
	row, at := -1, -1
	for i, r := range p.Rows {
		if j := strings.IndexByte(r.Status, 'a'); j >= 0 && row < 0 {
			row, at = i, j
		}
	}
	require.GreaterOrEqual(t, row, 0, "the pass's map has a free seat")
	boxRows, err := store.NewSeatService(f.db).SeatMapOn(ctx, passType.PassOf, nil)
	require.NoError(t, err)
	seat := boxRows[row].Seats[at].Label

	// that seat is bought for the third coming match day only (its order pending: held there)
	_, err = f.purchases.CreateOrder(ctx, palaro.PurchaseRequest{TicketCode: box, Date: coming[2].Slug, Quantity: 1,
		Email: "day3@x.ph", FullName: "Ana Reyes", MobileNumber: "09171234567", Seats: []string{seat}}, f.now)
	require.NoError(t, err)
	_, _, doc = f.page(t, "/s/"+pass)
	require.NotEqual(t, byte('a'), seatProps(t, doc).Rows[row].Status[at], "taken on one coming date: taken for the pass")
	_, _, doc = f.page(t, "/s/"+box+"?date="+coming[0].Slug)
	require.Equal(t, byte('a'), seatProps(t, doc).Rows[row].Status[at], "still free on the first match day")
	_, _, doc = f.page(t, "/s/"+box+"?date="+coming[2].Slug)
	require.NotEqual(t, byte('a'), seatProps(t, doc).Rows[row].Status[at], "taken on the third")

	// the pass's buy page sends the taken seat back to the pass's map, and its order refuses it
	status, to, _ := f.page(t, "/b/"+pass+"?seats="+seat)
	require.Equal(t, http.StatusSeeOther, status)
	require.Contains(t, to, "/s/"+pass)
	_, err = f.purchases.CreateOrder(ctx, palaro.PurchaseRequest{TicketCode: pass, Quantity: 1,
		Email: "pass@x.ph", FullName: "Ana Reyes", MobileNumber: "09171234567", Seats: []string{seat}}, f.now)
	require.Equal(t, palaro.ECONFLICT, palaro.ErrorCode(err), "%v", err)
}

// TestSeatsPage_SectionedSeasonPass: on a stadium made a series, a seated pass of its lower zone
// shows the overview with its own zone only, and a section's seats (page and API) free only when
// free on every coming date: a seat bought for the third date only is taken for the pass.
func TestSeatsPage_SectionedSeasonPass(t *testing.T) {
	f := newAPIFixture(t)
	ctx := context.Background()
	seed, err := f.db.SeedStadium(ctx, f.now, store.StadiumOptions{Places: 1000})
	require.NoError(t, err)
	lower := seed.TicketTypes[0]
	var inputs []palaro.DateInput
	for i := range 3 {
		at := f.now.AddDate(0, 0, 7*(i+1))
		inputs = append(inputs, palaro.DateInput{StartsAt: at, EndsAt: at.Add(5 * time.Hour), Status: palaro.DateScheduled})
	}
	dates, err := store.NewSeriesService(f.db).CreateDates(ctx, seed.EventID, inputs, f.now)
	require.NoError(t, err)
	const pass = "arena-finals-pass"
	_, err = f.db.Writer().Exec(`INSERT INTO ticket_types (event_id, code, name, price, max_purchasable, capacity,
		payment_types, pass_kind, pass_dates, pass_of, seated) SELECT event_id, ?, 'Finals pass', 300000, 4, 50, '["QR","CARD"]',
		'every', 0, id, 1 FROM ticket_types WHERE code = ?`, pass, lower)
	require.NoError(t, err)
	f.server.EventsChanged()
	lowerType, _, err := store.NewEventService(f.db).FindTicketType(ctx, lower)
	require.NoError(t, err)
	plan, err := store.NewSeatService(f.db).SeatPlan(ctx, lowerType.ID)
	require.NoError(t, err)
	section := plan.Sections[0].Name
	rows, err := store.NewSeatService(f.db).SectionSeats(ctx, lowerType.ID, []int64{dates[0].ID, dates[1].ID, dates[2].ID}, section)
	require.NoError(t, err)
	row, at := -1, -1
	for i, r := range rows {
		for j, s := range r.Seats {
			if s.Status == palaro.SeatAvailable && row < 0 {
				row, at = i, j
			}
		}
	}
	require.GreaterOrEqual(t, row, 0)
	seat := rows[row].Seats[at].Label
	_, err = f.purchases.CreateOrder(ctx, palaro.PurchaseRequest{TicketCode: lower, Date: dates[2].Slug, Quantity: 1,
		Email: "day3@x.ph", FirstName: "Ana", LastName: "Reyes", MobileNumber: "09171234567", Seats: []string{seat}}, f.now)
	require.NoError(t, err)

	status, _, doc := f.page(t, "/s/"+pass)
	require.Equal(t, http.StatusOK, status, strings.Join(strings.Fields(doc.Text()), " "))
	require.Equal(t, "arena", doc.Find(`[data-island]`).AttrOr("data-island", ""))
	sectionStatus := func(path string) byte {
		t.Helper()
		resp, err := http.Get(f.http.URL + path)
		require.NoError(t, err)
		defer resp.Body.Close()
		require.Equal(t, http.StatusOK, resp.StatusCode, path)
		var out struct {
			Rows []views.SeatRowJSON `json:"rows"`
		}
		require.NoError(t, json.NewDecoder(resp.Body).Decode(&out))
		return out.Rows[row].Status[at]
	}
	require.NotEqual(t, byte('a'), sectionStatus("/v1/seats/"+pass+"/sections/"+section), "taken on the third date: taken for the pass")
	require.Equal(t, byte('a'), sectionStatus("/v1/seats/"+lower+"/sections/"+section+"?date="+dates[0].Slug), "free on the first date")
	require.NotContains(t, doc.Text(), `"code":"`+seed.TicketTypes[1]+`"`, "the pass's overview has its zone only")
	status, _, doc = f.page(t, "/s/"+pass+"?section="+section) // without JavaScript: the section's seats on the page
	require.Equal(t, http.StatusOK, status)
	input := doc.Find(`input[name="seats"][value="` + seat + `"]`)
	require.Equal(t, 1, input.Length())
	_, disabled := input.Attr("disabled")
	require.True(t, disabled, "taken for the pass on the no-JS section page too")
}
