package e2e

import (
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"palaro"
	"palaro/store"
)

// TestOrganizerPublish_NeedsTicketTypes: an event without ticket types cannot be published, from
// the console (its page warns and says why) or the API (a 400 naming the status field), nor be
// created published; with a ticket type it publishes.
func TestOrganizerPublish_NeedsTicketTypes(t *testing.T) {
	a := startApp(t)
	tok := organizerToken(t, a, store.DemoOrganizerEmail, "--organization", "1")
	v := newVisitor(t, a)
	api := orgAPI(t, v, tok)
	start := testEpoch.Add(26 * time.Hour)
	body := func(code, status string) string {
		return `{"code":"` + code + `","name":"Empty Cup","summary":"Nothing to sell yet.","startsAt":"` + start.Format(time.RFC3339) +
			`","endsAt":"` + start.Add(5*time.Hour).Format(time.RFC3339) + `","venue":{"name":"Test Arena","address":"1 Test Street",` +
			`"city":"Pasig","latitude":14.57,"longitude":121.06},"status":"` + status + `"}`
	}
	status, res := api(http.MethodPost, "/v1/organizer/events", body("empty-cup-live", "published"))
	require.Equal(t, http.StatusBadRequest, status, res)
	require.Equal(t, palaro.MsgPublishNeedsTicketTypes, res["fields"].(map[string]any)["status"])
	status, res = api(http.MethodPost, "/v1/organizer/events", body("empty-cup", "draft"))
	require.Equal(t, http.StatusCreated, status, res)
	status, res = api(http.MethodPatch, "/v1/organizer/events/empty-cup", `{"status":"published"}`)
	require.Equal(t, http.StatusBadRequest, status, res)
	require.Equal(t, palaro.MsgPublishNeedsTicketTypes, res["fields"].(map[string]any)["status"])

	owner := signedIn(t, a, store.DemoOrganizerEmail)
	_, page := owner.get("/organizer/events/empty-cup")
	require.Contains(t, page, palaro.MsgPublishNeedsTicketTypes, "the draft's page warns")
	status, page = owner.post("/organizer/events/empty-cup/status", url.Values{"status": {"published"}})
	require.Equal(t, http.StatusUnprocessableEntity, status)
	require.Contains(t, page, palaro.MsgPublishNeedsTicketTypes)
	status, _ = v.get("/e/empty-cup")
	require.Equal(t, http.StatusNotFound, status, "still a draft")

	status, res = api(http.MethodPost, "/v1/organizer/events/empty-cup/ticket-types", `{"code":"empty-cup-ga","name":"General",
		"price":0,"capacity":100,"maxPurchasable":4}`)
	require.Equal(t, http.StatusCreated, status, res)
	status, _ = owner.post("/organizer/events/empty-cup/status", url.Values{"status": {"published"}})
	require.Equal(t, http.StatusSeeOther, status)
	_, page = owner.get("/organizer/events/empty-cup")
	require.False(t, strings.Contains(page, palaro.MsgPublishNeedsTicketTypes), "no warning once it sells")
	status, _ = v.get("/e/empty-cup")
	require.Equal(t, http.StatusOK, status)
}
