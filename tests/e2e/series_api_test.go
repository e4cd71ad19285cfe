package e2e

import (
	"encoding/json"
	"fmt"
	"net/http"
	"testing"

	"github.com/stretchr/testify/require"

	"palaro/store"
)

// TestSeriesAPI_DatesAndBuyingPerDate: the organizer API creates a series' dates from a weekly
// rule, lists them with their places, and the JSON buy body then needs one of them.
func TestSeriesAPI_DatesAndBuyingPerDate(t *testing.T) {
	a := startApp(t)
	tok := organizerToken(t, a, store.DemoOrganizerEmail, "--organization", "1")
	v := newVisitor(t, a)
	api := orgAPI(t, v, tok)
	const base = "/v1/organizer/events/valorant-night-market-bgc"

	status, body := api(http.MethodPost, base+"/dates", `{"rule":{"weekdays":["fri","saturday"],"startTime":"19:00",
		"endTime":"23:00","from":"2027-01-09","weeks":2,"capacities":{"valorant-night-market-bgc-watch":1}}}`)
	require.Equal(t, http.StatusCreated, status, body)
	dates := body["dates"].([]any)
	require.Len(t, dates, 4, "every Friday and Saturday for two weeks from Saturday 9 January")
	require.Equal(t, "2027-01-09", dates[0].(map[string]any)["slug"])

	status, body = api(http.MethodPost, base+"/dates", `{"rule":{"weekdays":["someday"],"startTime":"7 PM","endTime":"23:00","from":"2027-01-09","weeks":2}}`)
	require.Equal(t, http.StatusBadRequest, status, body)
	require.Contains(t, fmt.Sprint(body), "weekdays")

	buy := func(date string) (int, map[string]any) {
		_, raw := v.postJSON("/v1/ticket/buy", `{"ticketCode":"valorant-night-market-bgc-watch","quantity":1,`+
			`"email":"series@example.ph","fullName":"Series Buyer","mobileNumber":"0935-123-4567","date":"`+date+`"}`)
		var res map[string]any
		require.NoError(t, json.Unmarshal([]byte(raw), &res), raw)
		return int(res["responseCode"].(float64)), res
	}
	code, res := buy("")
	require.Equal(t, http.StatusBadRequest, code, res)
	require.Contains(t, fmt.Sprint(res), "Pick a date.")
	code, res = buy("2027-01-11")
	require.Equal(t, http.StatusBadRequest, code, res)
	require.Contains(t, fmt.Sprint(res), "This event has no such date.")
	code, res = buy("2027-01-15")
	require.Equal(t, http.StatusOK, code, res)

	status, body = api(http.MethodGet, base+"/dates", "")
	require.Equal(t, http.StatusOK, status, body)
	var listed []struct {
		Slug  string `json:"slug"`
		Stock []struct {
			TicketType string `json:"ticketType"`
			Sold       int    `json:"sold"`
			Held       int    `json:"held"`
			Available  int    `json:"available"`
		} `json:"stock"`
	}
	raw, _ := json.Marshal(body["dates"])
	require.NoError(t, json.Unmarshal(raw, &listed))
	require.Len(t, listed, 4)
	for _, d := range listed {
		for _, st := range d.Stock {
			if st.TicketType != "valorant-night-market-bgc-watch" {
				continue
			}
			if d.Slug == "2027-01-15" {
				require.Equal(t, 1, st.Sold+st.Held, "the buyer's ticket is on the 15th")
				require.Equal(t, 0, st.Available)
			} else {
				require.Equal(t, 1, st.Available, d.Slug)
			}
		}
	}
}
