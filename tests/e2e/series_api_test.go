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

// TestSeriesAPI_ChangeAndDeleteDate: PATCH changes one date (400 naming a bad field, 404 for an
// unknown date, 403 for a gate member), a cancelled date's .ics says CANCELLED with a higher
// SEQUENCE, and DELETE removes a date without sales but answers 409 for one with an order.
func TestSeriesAPI_ChangeAndDeleteDate(t *testing.T) {
	a := startApp(t)
	tok := organizerToken(t, a, store.DemoOrganizerEmail, "--organization", "1")
	v := newVisitor(t, a)
	api := orgAPI(t, v, tok)
	const base = "/v1/organizer/events/valorant-night-market-bgc"
	status, body := api(http.MethodPost, base+"/dates", `{"rule":{"weekdays":["sat"],"startTime":"19:00","endTime":"23:00",
		"from":"2027-01-09","weeks":3}}`)
	require.Equal(t, http.StatusCreated, status, body)
	_, raw := v.postJSON("/v1/ticket/buy", `{"ticketCode":"valorant-night-market-bgc-watch","quantity":1,`+
		`"email":"series@example.ph","fullName":"Series Buyer","mobileNumber":"0935-123-4567","date":"2027-01-16"}`)
	require.Contains(t, raw, `"responseCode":200`)

	status, body = api(http.MethodPatch, base+"/dates/2027-01-09", `{"endsAt":"2027-01-09T18:00:00+08:00"}`)
	require.Equal(t, http.StatusBadRequest, status, body)
	require.Contains(t, fmt.Sprint(body), "endsAt")
	status, body = api(http.MethodPatch, base+"/dates/2027-01-09", `{"status":"moved"}`)
	require.Equal(t, http.StatusBadRequest, status, body)
	require.Contains(t, fmt.Sprint(body), "status")
	status, body = api(http.MethodPatch, base+"/dates/2027-01-09", `{"venue":{"name":"Arena"}}`)
	require.Equal(t, http.StatusBadRequest, status, body)
	require.Contains(t, fmt.Sprint(body), "venue.city")
	status, body = api(http.MethodPatch, base+"/dates/2027-01-10", `{"status":"postponed"}`)
	require.Equal(t, http.StatusNotFound, status, body)

	gate := signedIn(t, a, store.DemoGateEmail) // a member of the organization without the right to manage events
	status, text := gate.send(http.MethodPatch, base+"/dates/2027-01-09", "application/json", `{"status":"cancelled"}`, "")
	require.Equal(t, http.StatusForbidden, status, text)
	status, text = gate.send(http.MethodDelete, base+"/dates/2027-01-23", "", "", "")
	require.Equal(t, http.StatusForbidden, status, text)

	status, body = api(http.MethodPatch, base+"/dates/2027-01-09", `{"name":"Match day 1","startsAt":"2027-01-09T18:00:00+08:00",
		"venue":{"name":"Filinvest Tent","address":"Alabang","city":"Muntinlupa"}}`)
	require.Equal(t, http.StatusOK, status, body)
	require.Equal(t, "Match day 1", body["name"])
	require.Equal(t, "Filinvest Tent", body["venue"])
	require.Equal(t, "2027-01-09", body["slug"])
	status, body = api(http.MethodPatch, base+"/dates/2027-01-09", `{"status":"cancelled"}`)
	require.Equal(t, http.StatusOK, status, body)
	require.Equal(t, "cancelled", body["status"])
	status, body = api(http.MethodPatch, base+"/dates/2027-01-09", `{"status":"scheduled"}`)
	require.Equal(t, http.StatusConflict, status, body)

	status, ics := v.get("/e/valorant-night-market-bgc/2027-01-09/calendar.ics")
	require.Equal(t, http.StatusOK, status)
	require.Contains(t, ics, "STATUS:CANCELLED")
	require.Regexp(t, `SEQUENCE:[2-9]`, ics, "two changes told about: the new time and place, then the cancellation")

	status, body = api(http.MethodDelete, base+"/dates/2027-01-16", "")
	require.Equal(t, http.StatusConflict, status, body)
	require.Contains(t, fmt.Sprint(body), "cancel it instead")
	status, _ = api(http.MethodDelete, base+"/dates/2027-01-23", "")
	require.Equal(t, http.StatusNoContent, status)
	status, _ = api(http.MethodDelete, base+"/dates/2027-01-23", "")
	require.Equal(t, http.StatusNotFound, status)
}
