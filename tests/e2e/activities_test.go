package e2e

import (
	"bytes"
	"context"
	"encoding/json"
	"image"
	"image/color"
	"image/png"
	"mime/multipart"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"palaro"
	"palaro/store"
)

// demoScratchEvent is a demo event with a booth, a scratch card and both quizzes.
const demoScratchEvent = "mlbb-manila-showdown"

// registerParticipant registers a participant at /register with the visitor and returns their id.
func registerParticipant(t *testing.T, v *httpVisitor, first, last, mobile string) string {
	t.Helper()
	status, _ := v.get("/register")
	require.Equal(t, http.StatusOK, status)
	status, _ = v.post("/register", url.Values{"firstName": {first}, "lastName": {last}, "mobileNumber": {mobile}})
	require.Equal(t, http.StatusSeeOther, status)
	var pid string
	require.NoError(t, v.app.DB().Writer().QueryRow(`SELECT public_id FROM participants ORDER BY id DESC LIMIT 1`).Scan(&pid))
	return pid
}

// smsCodeTo returns the code of the newest SMS sent to number (E.164).
func smsCodeTo(t *testing.T, a *testApp, number string) string {
	t.Helper()
	msgs, err := a.Outbox().ListOutbox(context.Background(), palaro.OutboxFilter{To: number})
	require.NoError(t, err)
	for _, m := range msgs {
		if m.Channel == palaro.ChannelSMS {
			if code := regexp.MustCompile(`[0-9]{6}`).FindString(m.Text); code != "" {
				return code
			}
		}
	}
	t.Fatalf("no SMS code sent to %s", number)
	return ""
}

// confirmParticipant confirms the number of the visitor's participant with the SMS code, as a
// person does on /activities.
func confirmParticipant(t *testing.T, v *httpVisitor, number string) {
	t.Helper()
	status, _ := v.post("/activities/confirm", url.Values{})
	require.Equal(t, http.StatusSeeOther, status)
	status, body := v.post("/activities/confirm/code", url.Values{"code": {smsCodeTo(t, v.app, number)}})
	require.Equal(t, http.StatusSeeOther, status, body)
}

// registerConfirmed registers a participant and confirms their number (mobile in E.164).
func registerConfirmed(t *testing.T, v *httpVisitor, first, last, mobile string) string {
	t.Helper()
	pid := registerParticipant(t, v, first, last, mobile)
	confirmParticipant(t, v, mobile)
	return pid
}

// boothCode returns the code a booth's screen shows now for an activity.
func boothCode(t *testing.T, a *testApp, event, activity string) string {
	t.Helper()
	key, err := a.DB().AppSecret(context.Background(), "booth-code-key", 32)
	require.NoError(t, err)
	return palaro.BoothCode(key, event, activity, a.Now())
}

// boothScanPath is the scan path a booth's screen shows now (with its current code).
func boothScanPath(t *testing.T, a *testApp, event, activity string) string {
	return "/scan?" + url.Values{"activityCode": {activity}, "eventCode": {event}, "boothCode": {boothCode(t, a, event, activity)}}.Encode()
}

// scanAPI calls GET /v1/scan with the booth screen's current code and decodes the answer.
func scanAPI(t *testing.T, v *httpVisitor, activity, event, participant string) (int, map[string]any) {
	t.Helper()
	q := url.Values{"activityCode": {activity}, "eventCode": {event}, "participantId": {participant},
		"boothCode": {boothCode(t, v.app, event, activity)}}
	status, body := v.get("/v1/scan?" + q.Encode())
	var answer map[string]any
	require.NoError(t, json.Unmarshal([]byte(body), &answer), body)
	return status, answer
}

func TestScanAPI(t *testing.T) {
	a := startApp(t)
	v := newVisitor(t, a)
	pid := registerConfirmed(t, v, "Scan", "Tester", "+639175550001")
	t.Run("OK booth", func(t *testing.T) {
		status, answer := scanAPI(t, v, "booth", demoScratchEvent, pid)
		require.Equal(t, http.StatusOK, status, answer)
		require.Equal(t, float64(10), answer["points"])
		require.Equal(t, float64(10), answer["totalPoints"])
		require.NotContains(t, answer, "scratch")
	})
	t.Run("OK scratch, idempotent", func(t *testing.T) {
		status, first := scanAPI(t, v, "scratch", demoScratchEvent, pid)
		require.Equal(t, http.StatusOK, status, first)
		card := first["scratch"].(map[string]any)
		require.Len(t, card["cells"], 9)
		require.Len(t, card["prizes"], 3)
		for _, c := range card["cells"].([]any) {
			require.True(t, strings.HasPrefix(c.(map[string]any)["src"].(string), "/static/img/prizes/"), c)
		}
		require.Equal(t, float64(30), first["totalPoints"])
		for range 3 {
			status, again := scanAPI(t, v, "scratch", demoScratchEvent, pid)
			require.Equal(t, http.StatusOK, status)
			require.Equal(t, first["scratch"], again["scratch"], "a repeat answers the stored card")
			require.Equal(t, float64(30), again["totalPoints"], "no more points")
		}
		var visits int
		require.NoError(t, a.DB().Writer().QueryRow(`SELECT COUNT(*) FROM activity_visits v JOIN participants p ON p.id = v.participant_id
			WHERE p.public_id = ?`, pid).Scan(&visits))
		require.Equal(t, 2, visits)
	})
	t.Run("ErrNotFound", func(t *testing.T) {
		for _, q := range [][3]string{{"nope", demoScratchEvent, pid}, {"booth", "no-event", pid}, {"booth", demoScratchEvent, "nobody"}} {
			status, answer := scanAPI(t, v, q[0], q[1], q[2])
			require.Equal(t, http.StatusNotFound, status, q)
			require.NotEmpty(t, answer["message"])
		}
	})
	t.Run("ErrTicketHoldersOnly", func(t *testing.T) {
		_, err := a.DB().Writer().Exec(`UPDATE activities SET ticket_holders_only = 1 WHERE code = 'booth'
			AND event_id = (SELECT id FROM events WHERE code = 'valorant-night-market-bgc')`)
		require.NoError(t, err)
		status, answer := scanAPI(t, v, "booth", "valorant-night-market-bgc", pid)
		require.Equal(t, http.StatusUnprocessableEntity, status)
		require.Contains(t, answer["message"], "ticket holders only")
	})
	t.Run("ErrOutsideWindow", func(t *testing.T) {
		_, err := a.DB().Writer().Exec(`UPDATE activities SET starts_at = '2026-03-16T00:00:00Z', ends_at = '2026-03-17T00:00:00Z' WHERE code = 'booth'
			AND event_id = (SELECT id FROM events WHERE code = 'tekken-tuesdays-cubao')`)
		require.NoError(t, err)
		status, answer := scanAPI(t, v, "booth", "tekken-tuesdays-cubao", pid)
		require.Equal(t, http.StatusUnprocessableEntity, status)
		require.Equal(t, "Partner booth has ended.", answer["message"])
	})
}

// TestOrganizerActivities: an organizer creates a scratch activity through the API, cannot cut a
// prize's stock below what was won, booth staff register a visit by the participant's id and
// hand the prize over, and the participant sees it claimed in the log.
func TestOrganizerActivities(t *testing.T) {
	a := startApp(t)
	tok := organizerToken(t, a, store.DemoOrganizerEmail, "--organization", "2")
	owner := signedIn(t, a, store.DemoOrganizerEmail)
	body := `{"code": "lucky", "kind": "scratch", "name": "Lucky card", "points": 5, "winPercent": 100,
		"startsAt": "2026-03-18T00:00:00Z", "endsAt": "2026-03-20T00:00:00Z",
		"prizes": [{"code": "mug", "name": "Mug", "imageUrl": "img/prizes/stickers.svg", "stock": 1, "claimable": true}]}`
	status, out := owner.send(http.MethodPost, "/v1/organizer/events/"+demoOwnedEvent+"/activities", "application/json", body, tok)
	require.Equal(t, http.StatusCreated, status, out)
	status, _ = owner.send(http.MethodPost, "/v1/organizer/events/"+demoOwnedEvent+"/activities", "application/json", body, tok)
	require.Equal(t, http.StatusConflict, status, "a second create of one code")
	status, out = owner.send(http.MethodGet, "/v1/organizer/events/"+demoOwnedEvent+"/activities", "", "", tok)
	require.Equal(t, http.StatusOK, status)
	require.Contains(t, out, `"code":"lucky"`)

	visitor := newVisitor(t, a)
	pid := registerConfirmed(t, visitor, "Claire", "Claimer", "+639175550002")

	// Booth staff register the visit from the participant's QR (a URL of the participant page).
	owner.get("/organizer/events/" + demoOwnedEvent + "/activities/lucky/scan")
	status, page := owner.post("/organizer/events/"+demoOwnedEvent+"/activities/lucky/scan", url.Values{"participantId": {a.URL + "/register/success/" + pid}})
	require.Equal(t, http.StatusOK, status)
	require.Contains(t, page, "Prize won: Mug.")
	require.Contains(t, page, "Claire Claimer: visit registered", "booth staff see whom they scanned")

	status, out = owner.send(http.MethodPatch, "/v1/organizer/events/"+demoOwnedEvent+"/activities/lucky", "application/json",
		`{"prizes": [{"code": "mug", "name": "Mug", "stock": 0, "claimable": true}]}`, tok)
	require.Equal(t, http.StatusConflict, status, out)
	status, out = owner.send(http.MethodPatch, "/v1/organizer/events/"+demoOwnedEvent+"/activities/lucky", "application/json", `{"points": 7}`, tok)
	require.Equal(t, http.StatusOK, status, out)
	require.Contains(t, out, `"points":7`)

	_, log := visitor.get("/activities")
	require.Contains(t, log, "Scratch your card", "the outcome stays hidden until the visitor scratches the card")
	require.NotContains(t, log, "Mug")
	status, _ = visitor.post("/activities/revealed?activityCode=lucky&eventCode="+demoOwnedEvent, url.Values{})
	require.Equal(t, http.StatusNoContent, status)
	_, log = visitor.get("/activities")
	require.Contains(t, log, "To claim at the booth")
	var visit string
	require.NoError(t, a.DB().Writer().QueryRow(`SELECT v.id FROM activity_visits v JOIN activities ac ON ac.id = v.activity_id WHERE ac.code = 'lucky'`).Scan(&visit))
	status, _ = owner.post("/organizer/events/"+demoOwnedEvent+"/activities/lucky/claims/"+visit, url.Values{})
	require.Equal(t, http.StatusSeeOther, status)
	_, log = visitor.get("/activities")
	require.Contains(t, log, "Claimed")
	_, poster := owner.get("/organizer/events/" + demoOwnedEvent + "/activities/lucky/poster")
	require.Contains(t, poster, "/scan?activityCode=lucky&amp;eventCode="+demoOwnedEvent)
}

// TestParticipantQR: a signed-in account gets a participant QR only once an SMS code confirmed its
// number (the record found or created by that number, one per account); before, and for a
// browser without a participant, /activities/qr sends to register.
func TestParticipantQR(t *testing.T) {
	a := startApp(t)
	org := signedIn(t, a, store.DemoOrganizerEmail)
	_, profile := org.get("/profile")
	require.Contains(t, profile, `href="/activities/qr"`)
	count := func() int {
		var n int
		require.NoError(t, a.DB().Writer().QueryRow(`SELECT COUNT(*) FROM participants p JOIN users u ON u.mobile_number = p.mobile_number
			WHERE u.email = ?`, store.DemoOrganizerEmail).Scan(&n))
		return n
	}
	status, _ := org.get("/activities/qr")
	require.Equal(t, http.StatusSeeOther, status)
	require.Zero(t, count(), "an unconfirmed number links the account to nobody")
	require.Contains(t, profile, "is not confirmed yet")
	status, _ = org.post("/profile/mobile/code", url.Values{})
	require.Equal(t, http.StatusSeeOther, status)
	var number string
	require.NoError(t, a.DB().Writer().QueryRow(`SELECT mobile_number FROM users WHERE email = ?`, store.DemoOrganizerEmail).Scan(&number))
	status, _ = org.post("/profile/mobile", url.Values{"code": {smsCodeTo(t, a, number)}})
	require.Equal(t, http.StatusSeeOther, status)
	org.get("/activities/qr")
	require.Equal(t, 1, count())
	org.get("/activities/qr")
	require.Equal(t, 1, count(), "one record per account")
	status, _ = newVisitor(t, a).get("/activities/qr")
	require.Equal(t, http.StatusSeeOther, status)
}

// TestActivities_CameraIsland: /activities and the booth staff page carry the camera-scan island
// with props that name no visitor (the same for every browser).
func TestActivities_CameraIsland(t *testing.T) {
	a := startApp(t)
	props := regexp.MustCompile(`<script id="camerascan-props" type="application/json">([^<]*)</script>`)
	_, anon := newVisitor(t, a).get("/activities")
	player := newVisitor(t, a)
	registerParticipant(t, player, "Cam", "Era", "09175550777")
	_, own := player.get("/activities")
	require.Contains(t, anon, `data-island="camerascan"`)
	require.Equal(t, props.FindStringSubmatch(anon), props.FindStringSubmatch(own))
	require.Contains(t, props.FindStringSubmatch(anon)[1], `"mode":"booth"`)
	org := signedIn(t, a, store.DemoOrganizerEmail)
	_, booth := org.get("/organizer/events/" + demoOwnedEvent + "/activities/booth/scan")
	require.Contains(t, props.FindStringSubmatch(booth)[1], `"mode":"participant"`)
	require.Contains(t, booth, `id="booth-form"`)
}

// TestScanPage_GetChangesNothing: the page a booth's QR opens (GET /scan) registers nothing; its
// form POSTs the visit with the CSRF token and redirects to /activities, which shows the result
// once and opens the stored scratch card until the island reports the end of the game; the log
// offers the unplayed card again, with the same cells (no second draw).
func TestScanPage_GetChangesNothing(t *testing.T) {
	a := startApp(t)
	v := newVisitor(t, a)
	pid := registerConfirmed(t, v, "Post", "Only", "+639175550003")
	visits := func() int {
		var n int
		require.NoError(t, a.DB().Writer().QueryRow(`SELECT COUNT(*) FROM activity_visits v JOIN participants p ON p.id = v.participant_id
			WHERE p.public_id = ?`, pid).Scan(&n))
		return n
	}
	status, page := v.get(boothScanPath(t, a, demoScratchEvent, "scratch"))
	require.Equal(t, http.StatusOK, status)
	require.Contains(t, page, `<form method="post" action="/scan" data-autosubmit>`)
	require.Contains(t, page, `name="_csrf"`)
	require.Zero(t, visits(), "a GET registers no visit")

	status, _ = v.get("/scan?activityCode=nope&eventCode=" + demoScratchEvent)
	require.Equal(t, http.StatusNotFound, status)

	form := url.Values{"activityCode": {"scratch"}, "eventCode": {demoScratchEvent}}
	req, _ := http.NewRequest(http.MethodPost, a.URL+"/scan", strings.NewReader(form.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	status, _ = v.do(req)
	require.Equal(t, http.StatusForbidden, status, "no CSRF token")
	require.Zero(t, visits())

	status, _ = v.post("/scan", form)
	require.Equal(t, http.StatusSeeOther, status)
	require.Equal(t, 1, visits())
	cardURL := "/activities?activityCode=scratch&eventCode=" + demoScratchEvent
	_, first := v.get(cardURL)
	require.Contains(t, first, `class="scan-banner`)
	require.Contains(t, first, `data-island="scratch"`)
	cells := regexp.MustCompile(`"cells":\[[^\]]*\]`)
	stored := cells.FindString(first)
	require.NotEmpty(t, stored)

	// The visitor closed the page before scratching: the log offers the card, the same one.
	_, log := v.get("/activities")
	require.NotContains(t, log, `class="scan-banner`, "the result shows once")
	require.Contains(t, log, `href="/activities?activityCode=scratch&amp;eventCode=`+demoScratchEvent+`"`)
	require.Contains(t, log, "Scratch your card")
	require.Contains(t, log, "Your card is not scratched yet.")
	require.NotContains(t, log, "Prize:", "the outcome stays hidden until scratched")
	status, _ = v.post("/scan", form) // a second scan: the stored visit, no second draw
	require.Equal(t, http.StatusSeeOther, status)
	_, again := v.get(cardURL)
	require.Equal(t, stored, cells.FindString(again))
	require.Equal(t, 1, visits())

	// The end of the game is recorded; the card is not opened again.
	status, _ = v.post("/activities/revealed?activityCode=scratch&eventCode="+demoScratchEvent, url.Values{})
	require.Equal(t, http.StatusNoContent, status)
	_, after := v.get(cardURL)
	require.NotContains(t, after, `data-island="scratch"`)
	require.NotContains(t, after, "Scratch your card")

	// Outside the window: 422 with the message, nothing stored.
	_, err := a.DB().Writer().Exec(`UPDATE activities SET starts_at = '2026-03-16T00:00:00Z', ends_at = '2026-03-17T00:00:00Z' WHERE code = 'booth'
		AND event_id = (SELECT id FROM events WHERE code = ?)`, demoScratchEvent)
	require.NoError(t, err)
	status, page = v.post("/scan", url.Values{"activityCode": {"booth"}, "eventCode": {demoScratchEvent}})
	require.Equal(t, http.StatusUnprocessableEntity, status)
	require.Contains(t, page, "has ended.")
	require.Equal(t, 1, visits())

	// Another browser without a participant is sent to register and back to the GET page.
	status, _ = newVisitor(t, a).post("/scan", form)
	require.Equal(t, http.StatusSeeOther, status)
}

// pngUpload returns a multipart body with a PNG picture of w×h pixels as the field "picture":
// a disc of a colour set by shade on white.
func pngUpload(t *testing.T, w, h int, shade byte) (string, string) {
	t.Helper()
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	r := min(w, h) / 3
	for y := range h {
		for x := range w {
			c := color.RGBA{255, 255, 255, 255}
			if dx, dy := x-w/2, y-h/2; dx*dx+dy*dy < r*r {
				c = color.RGBA{shade, 255 - shade, 160, 255}
			}
			img.SetRGBA(x, y, c)
		}
	}
	var pic bytes.Buffer
	require.NoError(t, png.Encode(&pic, img))
	var body bytes.Buffer
	mw := multipart.NewWriter(&body)
	fw, err := mw.CreateFormFile("picture", "prize.png")
	require.NoError(t, err)
	_, _ = fw.Write(pic.Bytes())
	require.NoError(t, mw.Close())
	return mw.FormDataContentType(), body.String()
}

// TestPrizeImages: in the console an organizer uploads a prize picture (cut square, stored as a
// 240 px PNG, served with a year's cache) or chooses a built-in one; a file that is no picture is
// refused with a message; saving the activity form keeps the pictures; a card drawn afterwards
// shows the uploaded picture.
func TestPrizeImages(t *testing.T) {
	a := startApp(t)
	owner := signedIn(t, a, store.DemoOrganizerEmail)
	base := "/organizer/events/" + demoScratchEvent + "/activities"
	_, page := owner.get(base)
	action := base + "/scratch/prizes/gaming-headset/image"
	require.Contains(t, page, `action="`+action+`"`)

	ct, body := pngUpload(t, 800, 500, 40)
	status, _ := owner.send(http.MethodPost, action, ct, body, "")
	require.Equal(t, http.StatusSeeOther, status)
	var imageURL string
	require.NoError(t, a.DB().Writer().QueryRow(`SELECT p.image_url FROM prizes p JOIN activities ac ON ac.id = p.activity_id
		JOIN events e ON e.id = ac.event_id WHERE e.code = ? AND ac.code = 'scratch' AND p.code = 'gaming-headset'`, demoScratchEvent).Scan(&imageURL))
	require.Regexp(t, `^/prize-images/[a-z0-9]{24}\.png$`, imageURL, "a random name, not a sequential id")
	seq, err := http.Get(a.URL + "/prize-images/1.png")
	require.NoError(t, err)
	seq.Body.Close()
	require.Equal(t, http.StatusNotFound, seq.StatusCode, "no picture at a sequential URL")
	resp, err := http.Get(a.URL + imageURL)
	require.NoError(t, err)
	stored, err := png.Decode(resp.Body)
	resp.Body.Close()
	require.NoError(t, err)
	require.Equal(t, image.Rect(0, 0, 240, 240), stored.Bounds())
	require.Equal(t, "public, max-age=31536000, immutable", resp.Header.Get("Cache-Control"))

	// Not a picture: refused, the picture stays.
	var bad bytes.Buffer
	mw := multipart.NewWriter(&bad)
	fw, _ := mw.CreateFormFile("picture", "x.svg")
	_, _ = fw.Write([]byte(`<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>`))
	require.NoError(t, mw.Close())
	status, page = owner.send(http.MethodPost, action, mw.FormDataContentType(), bad.String(), "")
	require.Equal(t, http.StatusUnsupportedMediaType, status)
	require.Contains(t, page, "SVG images are not accepted.")
	// Neither a file nor a choice.
	status, page = owner.post(action, url.Values{})
	require.Equal(t, http.StatusUnprocessableEntity, status)
	require.Contains(t, page, "Choose a picture or upload")
	// A choice not on the list.
	status, _ = owner.post(action, url.Values{"builtin": {"https://evil.example/x.png"}})
	require.Equal(t, http.StatusUnprocessableEntity, status)

	// Saving the activity form keeps the pictures.
	owner.get(base)
	status, _ = owner.post(base, url.Values{"code": {"scratch"}, "kind": {"scratch"}, "name": {"Scratch & Win"}, "points": {"20"},
		"startsAt": {"2026-03-18T08:00"}, "endsAt": {"2026-03-21T22:00"}, "winPercent": {"100"},
		"prizes": {"gaming-headset, Gaming headset, 10\nsticker-pack, Sticker pack, 200"}})
	require.Equal(t, http.StatusSeeOther, status)
	var after string
	require.NoError(t, a.DB().Writer().QueryRow(`SELECT p.image_url FROM prizes p JOIN activities ac ON ac.id = p.activity_id
		JOIN events e ON e.id = ac.event_id WHERE e.code = ? AND ac.code = 'scratch' AND p.code = 'gaming-headset'`, demoScratchEvent).Scan(&after))
	require.Equal(t, imageURL, after)

	// A built-in choice.
	status, _ = owner.post(base+"/scratch/prizes/sticker-pack/image", url.Values{"builtin": {"img/prizes/jersey.svg"}})
	require.Equal(t, http.StatusSeeOther, status)

	// A new card shows the uploaded picture.
	v := newVisitor(t, a)
	pid := registerConfirmed(t, v, "Pic", "Ture", "+639175550004")
	status, answer := scanAPI(t, v, "scratch", demoScratchEvent, pid)
	require.Equal(t, http.StatusOK, status, answer)
	var srcs []string
	for _, p := range answer["scratch"].(map[string]any)["prizes"].([]any) {
		srcs = append(srcs, p.(map[string]any)["imageUrl"].(string))
	}
	require.Contains(t, srcs, imageURL)
}

// TestQuizStep: the fragment htmx swaps in shows one question with the other answers kept as
// hidden fields; going forward without an answer stays with a message; going back needs none;
// the full page offers it only where JavaScript runs (an htmx element, not the form itself).
func TestQuizStep(t *testing.T) {
	a := startApp(t)
	v := newVisitor(t, a)
	base := "/quiz/investment-power/" + demoScratchEvent
	_, page := v.get(base)
	require.Contains(t, page, `data-hx-get="`+base+`/step?n=0" data-hx-trigger="load" data-hx-target="#quiz-form"`)
	require.Equal(t, 10, strings.Count(page, `<fieldset class="quiz-question"`), "the full form without JavaScript")

	status, step := v.get(base + "/step?n=1&from=0")
	require.Equal(t, http.StatusOK, status)
	require.Contains(t, step, "Question 1 of 10")
	require.Contains(t, step, "Choose an answer to go on.")
	require.Equal(t, 1, strings.Count(step, "<fieldset"))

	_, step = v.get(base + "/step?n=1&from=0&q0=1&q5=2")
	require.Contains(t, step, "Question 2 of 10")
	require.NotContains(t, step, "Choose an answer")
	require.Contains(t, step, `<input type="hidden" name="q0" value="1">`)
	require.Contains(t, step, `<input type="hidden" name="q5" value="2">`)
	require.Contains(t, step, `data-hx-get="`+base+`/step?n=2"`)
	require.Contains(t, step, `data-hx-get="`+base+`/step?n=0"`, "Back")

	_, step = v.get(base + "/step?n=0&from=1&q0=1")
	require.Contains(t, step, "Question 1 of 10")
	require.Regexp(t, `name="q0" value="1" checked`, step)

	_, step = v.get(base + "/step?n=9&from=8&q8=0")
	require.Contains(t, step, "See my result")
	require.NotContains(t, step, `/step?n=10`)
	status, _ = v.get("/quiz/no-such-quiz/" + demoScratchEvent + "/step?n=0")
	require.Equal(t, http.StatusNotFound, status)
}
