package e2e

import (
	"context"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"palaro"
	"palaro/store"
)

// siteURL is the site's address the commands of these tests are given in PALARO_BASE_URL.
const siteURL = "https://tickets.example.ph"

// TestOutboxCommand_EveryKind runs `palaro outbox` (and --raw) over an outbox holding an order's
// confirmation, a tickets-link job and its e-mail and an event change's e-mails (all stored as
// rows composed when read): it prints each, composed with PALARO_BASE_URL's links, and the raw
// form is the MIME message with a Message-ID at the site's domain.
func TestOutboxCommand_EveryKind(t *testing.T) {
	a := startApp(t)
	ctx := context.Background()
	const email = "outbox.reader@example.ph"
	buyer := newVisitor(t, a)
	buyer.get("/")
	code, raw := buyer.postJSON("/v1/ticket/buy", `{"ticketCode":"valorant-night-market-bgc-watch","quantity":1,`+
		`"email":"`+email+`","fullName":"Ria Santos","mobileNumber":"0917-555-0101"}`)
	require.Equal(t, http.StatusOK, code, raw)
	require.NoError(t, a.Purchases().SendTicketsLink(ctx, email, a.Now()))
	require.NoError(t, a.Purchases().RunJob(ctx, palaro.Message{Kind: palaro.JobTicketsLink, To: email}, a.Now()))
	owner := signedIn(t, a, store.DemoOrganizerEmail)
	status, body := owner.post("/organizer/events/valorant-night-market-bgc/status", url.Values{"status": {"postponed"}})
	require.Equal(t, http.StatusSeeOther, status, body)

	out, err := runCommand(t, a.DBPath, siteURL, "outbox", "--to", email)
	require.NoError(t, err)
	for _, want := range []string{
		palaro.MessageOrderConfirmation, "Subject: Your tickets for Valorant Night Market",
		palaro.JobTicketsLink, "work for the outbox worker",
		palaro.MessageTicketsLink, "Subject: Your Palaro tickets", "/tickets/", // stored as the server wrote it
		palaro.MessageEventChanged, "is postponed",
		siteURL + "/t/",
	} {
		require.Contains(t, out, want)
	}

	out, err = runCommand(t, a.DBPath, siteURL, "outbox")
	require.NoError(t, err, "every message of the outbox, demo ones included")
	require.Contains(t, out, palaro.MessageEventChanged)

	out, err = runCommand(t, a.DBPath, siteURL, "outbox", "--to", email, "--raw")
	require.NoError(t, err)
	ids := regexp.MustCompile(`(?m)^Message-ID: <[^@>]+@([^>]+)>$`).FindAllStringSubmatch(out, -1)
	require.Len(t, ids, 3, "the three e-mails, each with a Message-ID:\n%s", out)
	for _, id := range ids {
		require.Equal(t, "tickets.example.ph", id[1], "Message-IDs name the site's domain, not the machine")
	}
	require.Contains(t, out, "Content-Type: multipart/alternative")
	require.Contains(t, out, "Content-Type: text/html")
	require.Contains(t, out, "To: <"+email+">")
	require.Equal(t, 4, strings.Count(out, "==== #"), "the job too, as a header line and its text")
}

// TestOrganizersApprove_BaseURL: `palaro organizers approve` refuses without PALARO_BASE_URL
// (its e-mail would link to the development address) and links to the site with it.
func TestOrganizersApprove_BaseURL(t *testing.T) {
	a := startApp(t)
	v := newVisitor(t, a)
	v.get("/register/organizer")
	status, body := v.post("/register/organizer", url.Values{"email": {"ana@kalaro.ph"}, "username": {"ana"},
		"name": {"Ana Santos"}, "organization": {"Kalaro Events"}, "mobileNumber": {"09171234999"},
		"password": {"Kalaro2026"}, "repeatPassword": {"Kalaro2026"}})
	require.Equal(t, http.StatusSeeOther, status, body)

	_, err := runCommand(t, a.DBPath, "", "organizers", "approve", "ana@kalaro.ph")
	require.ErrorContains(t, err, "PALARO_BASE_URL is not set")
	pending, err := runCommand(t, a.DBPath, "", "organizers", "--pending")
	require.NoError(t, err)
	require.Contains(t, pending, "Kalaro Events", "nothing was approved")

	out, err := runCommand(t, a.DBPath, siteURL, "organizers", "approve", "ana@kalaro.ph")
	require.NoError(t, err)
	require.Contains(t, out, "Approved Kalaro Events")
	msgs, err := a.Outbox().ListOutbox(context.Background(), palaro.OutboxFilter{To: "ana@kalaro.ph"})
	require.NoError(t, err)
	require.Equal(t, palaro.MessageOrganizerApproved, msgs[0].Kind)
	require.Contains(t, msgs[0].Text, siteURL+"/organizer")
	require.NotContains(t, msgs[0].Text, "localhost")
}
