package e2e

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/cdproto/input"
	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/require"

	"palaro/store"
)

// scratchCell rubs one cell of the scratch card with the mouse: pointer down at its top left, a
// zigzag of moves over the whole cell, pointer up.
func scratchCell(i int) chromedp.Action {
	return chromedp.ActionFunc(func(ctx context.Context) error {
		var box struct{ X, Y, W, H float64 }
		if err := chromedp.Evaluate(fmt.Sprintf(`(() => { const r = document.querySelector('[data-cell="%d"] canvas').getBoundingClientRect();
			return {X: r.left, Y: r.top, W: r.width, H: r.height}; })()`, i), &box).Do(ctx); err != nil {
			return err
		}
		at := func(kind input.MouseType, x, y float64) error {
			return input.DispatchMouseEvent(kind, box.X+x, box.Y+y).WithButton(input.Left).WithButtons(1).WithClickCount(1).Do(ctx)
		}
		if err := at(input.MousePressed, 4, 4); err != nil {
			return err
		}
		row := 0
		for y := 4.0; y < box.H; y += 18 {
			for s := 0; s <= 6; s++ {
				x := 4 + (box.W-8)*float64(s)/6
				if row%2 == 1 {
					x = box.W - x
				}
				if err := at(input.MouseMoved, x, y); err != nil {
					return err
				}
			}
			row++
		}
		return input.DispatchMouseEvent(input.MouseReleased, box.X+box.W/2, box.Y+box.H-4).WithButton(input.Left).WithClickCount(1).Do(ctx)
	})
}

// TestActivities_NewVisitorPlays: a new visitor registers at /register, opens a booth's scratch
// card by its scan URL, scratches cells with the mouse until the game ends, sees the result and
// the reload, then finds the points in the activity log and on the leaderboard.
func TestActivities_NewVisitorPlays(t *testing.T) {
	a := startApp(t)
	ctx := newBrowser(t)
	// The booth screen's QR code first: registering, then confirming the number (prizes need it)
	// on the way, lead back to the booth, which then plays.
	var refusal string
	require.NoError(t, chromedp.Run(ctx,
		chromedp.Navigate(a.URL+boothScanPath(t, a, demoScratchEvent, "scratch")),
		chromedp.WaitVisible("#register", chromedp.ByQuery),
		chromedp.SendKeys("#f-firstName", "Nina", chromedp.ByQuery),
		chromedp.SendKeys("#f-lastName", "Scratcher", chromedp.ByQuery),
		chromedp.SendKeys("#f-mobileNumber", "09175559876", chromedp.ByQuery),
		chromedp.Click(`#register button[type="submit"]`, chromedp.ByQuery),
		chromedp.WaitVisible("#confirm", chromedp.ByQuery),
		chromedp.Text(".scan-banner", &refusal, chromedp.ByQuery),
		chromedp.Click(`#confirm form[action^="/activities/confirm"] button`, chromedp.ByQuery),
		chromedp.WaitVisible("#confirm-form", chromedp.ByQuery),
	))
	require.Contains(t, refusal, "Confirm your mobile number to play for prizes")
	screenshot(t, ctx, "scratch-confirm-first")

	var title string
	require.NoError(t, chromedp.Run(ctx,
		chromedp.SendKeys("#f-code", smsCodeTo(t, a, "+639175559876"), chromedp.ByQuery),
		chromedp.Click(`#confirm-form button[type="submit"]`, chromedp.ByQuery),
		chromedp.WaitVisible(".scratch-popup canvas", chromedp.ByQuery),
		chromedp.Text("#scratch-title", &title, chromedp.ByQuery),
	))
	require.Equal(t, "Try your LUCK! Scratch & Win!", title)
	screenshot(t, ctx, "scratch-start")

	ended := false
	for i := 0; i < 9 && !ended; i++ {
		var revealed bool
		require.NoError(t, chromedp.Run(ctx,
			scratchCell(i),
			chromedp.Evaluate(fmt.Sprintf(`document.querySelector('[data-cell="%d"]').classList.contains('revealed')`, i), &revealed),
		))
		require.True(t, revealed, "cell %d is revealed after being scratched all over", i)
		if i == 1 {
			screenshot(t, ctx, "scratch-mid-game")
		}
		require.NoError(t, chromedp.Run(ctx, chromedp.Evaluate(`!!document.querySelector('.scratch-close')`, &ended)))
	}
	require.True(t, ended, "the game ends by three winning cells or nine revealed")
	var note string
	var covered int
	require.NoError(t, chromedp.Run(ctx,
		chromedp.Text("#scratch-title", &title, chromedp.ByQuery),
		chromedp.Text(".scratch-note", &note, chromedp.ByQuery),
		chromedp.Evaluate(`document.querySelectorAll('.scratch-cell:not(.revealed)').length`, &covered),
	))
	require.Contains(t, []string{"YOU WON", "THANKS FOR PLAYING!"}, title)
	require.Equal(t, "Redirecting back in 5 seconds...", note)
	require.Zero(t, covered, "the remaining covers reveal themselves")
	screenshot(t, ctx, "scratch-end")

	var played string
	require.NoError(t, chromedp.Run(ctx,
		chromedp.WaitNotPresent(".scratch-popup", chromedp.ByQuery), // the page reloads after 5 s
		chromedp.Text(".activity-log", &played, chromedp.ByQuery),
	))
	require.Contains(t, played, "Scratch & Win")
	require.NotContains(t, played, "Scratch your card", "a card played to the end is not offered again")

	// The power quiz, one question at a time: the first option of every question, then the result
	// with explanations.
	var result, points string
	require.NoError(t, chromedp.Run(ctx,
		chromedp.Navigate(a.URL+"/quiz/investment-power/"+demoScratchEvent),
		chromedp.WaitVisible(".quiz-step", chromedp.ByQuery),
	))
	screenshot(t, ctx, "quiz-power")
	require.NoError(t, chromedp.Run(ctx, answerQuizSteps(make([]int, 10))))
	require.NoError(t, chromedp.Run(ctx,
		chromedp.WaitVisible(".quiz-result", chromedp.ByQuery),
		chromedp.Text(".quiz-result h2", &result, chromedp.ByQuery),
		chromedp.Text(".quiz-result .scan-points", &points, chromedp.ByQuery),
	))
	require.Equal(t, "You scored 2 out of 10", result)
	require.Equal(t, "+30 points · 50 in total", points)
	screenshot(t, ctx, "quiz-power-result")

	var log string
	require.NoError(t, chromedp.Run(ctx,
		chromedp.Navigate(a.URL+"/activities"),
		chromedp.WaitVisible(".activity-log", chromedp.ByQuery),
		chromedp.Text(".activity-log", &log, chromedp.ByQuery),
	))
	require.Contains(t, log, "Scratch & Win")
	require.Contains(t, log, "+20")
	require.Contains(t, log, "Score 2/10")
	screenshot(t, ctx, "activities-log")

	var own string
	require.NoError(t, chromedp.Run(ctx,
		chromedp.Navigate(a.URL+"/leaderboard?event="+demoScratchEvent),
		chromedp.WaitVisible(".leaderboard li.own", chromedp.ByQuery),
		chromedp.Text(".leaderboard li.own", &own, chromedp.ByQuery),
	))
	require.Contains(t, own, "Nina S.")
	require.True(t, strings.HasSuffix(strings.TrimSpace(own), "50"), own)
	screenshot(t, ctx, "leaderboard")
}

// TestEngagePages_Browser opens every engagement page at phone size: each renders, has no touch
// target under 44 px, and is captured for a person to look at (PALARO_SCREENSHOTS=1).
func TestEngagePages_Browser(t *testing.T) {
	a := startApp(t)
	ctx := newBrowser(t)
	public := map[string]string{
		"news":                "/news",
		"news-article":        "/news/mlbb-manila-showdown-booths",
		"pnk":                 "/pnk",
		"pnk-promo":           "/pnk/promo",
		"quiz-persona":        "/quiz/investment-persona/" + demoScratchEvent,
		"activities-visitor":  "/activities",
		"leaderboard-overall": "/leaderboard",
	}
	for name, path := range public {
		require.NoError(t, chromedp.Run(ctx, chromedp.Navigate(a.URL+path), chromedp.WaitVisible("main h1", chromedp.ByQuery)), path)
		screenshot(t, ctx, name)
		assertTouchTargets(t, ctx)
	}
	// The persona quiz's result.
	require.NoError(t, chromedp.Run(ctx, chromedp.Navigate(a.URL+"/quiz/investment-persona/"+demoScratchEvent), chromedp.WaitVisible(".quiz-step", chromedp.ByQuery)))
	screenshot(t, ctx, "quiz-persona-step")
	assertTouchTargets(t, ctx)
	var result string
	require.NoError(t, chromedp.Run(ctx,
		answerQuizSteps([]int{0, 1, 2, 3, 0, 1, 2}),
		chromedp.WaitVisible(".quiz-result", chromedp.ByQuery),
		chromedp.Text(".quiz-result h2", &result, chromedp.ByQuery),
	))
	require.True(t, strings.HasPrefix(result, "You are The "), result)
	screenshot(t, ctx, "quiz-persona-result")
	assertTouchTargets(t, ctx)

	// The console: activities, the booth scanner and the poster.
	require.NoError(t, chromedp.Run(ctx, chromedp.Navigate(a.URL+"/sign-in?next=/organizer/events/"+demoOwnedEvent+"/activities"),
		setField("email", store.DemoOrganizerEmail), setField("password", store.DemoOrganizerPassword), submitAndLoad()))
	waitPath(t, ctx, "/organizer/events/"+demoOwnedEvent+"/activities")
	for name, path := range map[string]string{
		"console-activities": "/organizer/events/" + demoOwnedEvent + "/activities",
		"console-booth":      "/organizer/events/" + demoOwnedEvent + "/activities/scratch/scan",
		"console-poster":     "/organizer/events/" + demoOwnedEvent + "/activities/scratch/poster",
		"console-screen":     "/organizer/events/" + demoOwnedEvent + "/activities/scratch/screen",
	} {
		require.NoError(t, chromedp.Run(ctx, chromedp.Navigate(a.URL+path), chromedp.WaitVisible("main h1", chromedp.ByQuery)), path)
		screenshot(t, ctx, name)
		assertTouchTargets(t, ctx) // the console pages are walked at both phone widths in TestTouchTargets_Console_Browser
	}
	// The prize pictures of the scratch card (a thumbnail, a choice and an upload per prize).
	require.NoError(t, chromedp.Run(ctx, chromedp.Navigate(a.URL+"/organizer/events/"+demoOwnedEvent+"/activities"),
		chromedp.ScrollIntoView(".prize-row", chromedp.ByQuery)))
	screenshot(t, ctx, "console-prize-images")

	// News in the console, and the operator's console (the organizer made an operator).
	require.NoError(t, store.NewOperatorService(a.DB()).SetOperator(context.Background(), store.DemoOrganizerEmail, true))
	for name, path := range map[string]string{
		"console-news":       "/organizer/news",
		"operator-news":      "/operator/news",
		"operator-news-edit": "/operator/news/mlbb-manila-showdown-booths",
		"operator-pnk":       "/operator/pnk/home",
	} {
		require.NoError(t, chromedp.Run(ctx, chromedp.Navigate(a.URL+path), chromedp.WaitVisible("main h1", chromedp.ByQuery)), path)
		screenshot(t, ctx, name)
	}
}

// TestActivities_ReopenCard: a participant who opened a scratch card and left before finishing
// finds "Scratch your card" in the log on /activities; it opens the same stored card (same cells),
// which "Reveal all" plays to the end; after the reload it is no longer offered.
func TestActivities_ReopenCard(t *testing.T) {
	a := startApp(t)
	ctx := newBrowser(t)
	registerInBrowser(t, ctx, a, "09175554321")
	confirmInBrowser(t, ctx, a, "+639175554321")
	var first, again string
	cellsJS := `Array.from(document.querySelectorAll('.scratch-cell img')).map(i => i.getAttribute('src')).join(',')`
	require.NoError(t, chromedp.Run(ctx,
		chromedp.Navigate(a.URL+boothScanPath(t, a, demoScratchEvent, "scratch")),
		chromedp.WaitVisible(".scratch-popup canvas", chromedp.ByQuery),
		chromedp.Evaluate(cellsJS, &first),
		scratchCell(0),
		chromedp.Navigate(a.URL+"/activities"), // left mid-game
		chromedp.WaitVisible(".activity-log", chromedp.ByQuery),
	))
	screenshot(t, ctx, "activities-card-to-scratch")
	require.NoError(t, chromedp.Run(ctx,
		chromedp.Click(`//a[normalize-space()="Scratch your card"]`, chromedp.BySearch),
		chromedp.WaitVisible(".scratch-popup canvas", chromedp.ByQuery),
		chromedp.Evaluate(cellsJS, &again),
	))
	require.Equal(t, first, again, "the stored card, no second draw")
	require.NoError(t, chromedp.Run(ctx,
		chromedp.Click(".scratch-reveal", chromedp.ByQuery),
		chromedp.WaitVisible(".scratch-close", chromedp.ByQuery),
		chromedp.Click(".scratch-close", chromedp.ByQuery), // reloads once the end is recorded
		chromedp.WaitNotPresent(".scratch-popup", chromedp.ByQuery),
		chromedp.WaitVisible(".activity-log", chromedp.ByQuery),
	))
	var log string
	require.NoError(t, chromedp.Run(ctx, chromedp.Text(".activity-log", &log, chromedp.ByQuery)))
	require.NotContains(t, log, "Scratch your card")
	require.Contains(t, log, "Scratch & Win")
}

// TestScan_WithoutJavaScript: with scripts off, a booth's /scan page shows a "Join" button (one
// tap) that posts the visit; the result and the log show without the island.
func TestScan_WithoutJavaScript(t *testing.T) {
	a := startApp(t)
	ctx := newBrowser(t)
	registerInBrowser(t, ctx, a, "09175554322")
	var banner string
	require.NoError(t, chromedp.Run(ctx,
		emulation.SetScriptExecutionDisabled(true),
		chromedp.Navigate(a.URL+"/scan?activityCode=booth&eventCode="+demoScratchEvent),
		chromedp.WaitVisible(`form[action="/scan"] button`, chromedp.ByQuery),
	))
	screenshot(t, ctx, "scan-confirm-nojs")
	assertTouchTargets(t, ctx)
	require.NoError(t, chromedp.Run(ctx,
		chromedp.Click(`form[action="/scan"] button`, chromedp.ByQuery),
		chromedp.WaitVisible(".scan-banner", chromedp.ByQuery),
		chromedp.Text(".scan-banner", &banner, chromedp.ByQuery),
	))
	require.Contains(t, banner, "+10 points")
}

// answerQuizSteps answers a quiz shown one question at a time (htmx): a tap on option values[i]
// of question i, then Next, and on the last question "See my result".
func answerQuizSteps(values []int) chromedp.Action { return answerQuizStepsFrom(0, values) }

// TestQuiz_OneQuestionAtATime: where JavaScript runs, the power quiz shows one question at a time:
// Next without an answer asks for one, Back keeps the answers given, and the last step posts
// every answer to the same result page as the full form. Without JavaScript the full form shows
// every question and gives that same result.
func TestQuiz_OneQuestionAtATime(t *testing.T) {
	a := startApp(t)
	t.Run("WithJavaScript", func(t *testing.T) {
		ctx := newBrowser(t)
		var fieldsets int
		var progress, errMsg string
		require.NoError(t, chromedp.Run(ctx,
			chromedp.Navigate(a.URL+"/quiz/investment-power/"+demoScratchEvent),
			chromedp.WaitVisible(".quiz-step", chromedp.ByQuery),
			chromedp.Evaluate(`document.querySelectorAll('.quiz-form fieldset').length`, &fieldsets),
			chromedp.Text(".quiz-progress", &progress, chromedp.ByQuery),
		))
		require.Equal(t, 1, fieldsets)
		require.Equal(t, "Question 1 of 10", progress)
		assertTouchTargets(t, ctx)
		require.NoError(t, chromedp.Run(ctx,
			quizStepSettled(0),
			chromedp.Click(`.quiz-step .quiz-nav button[type="submit"]`, chromedp.ByQuery), // no answer yet
			chromedp.WaitVisible(".quiz-step .form-error", chromedp.ByQuery),
			quizStepSettled(0),
			chromedp.Text(".quiz-step .form-error", &errMsg, chromedp.ByQuery),
			chromedp.Text(".quiz-progress", &progress, chromedp.ByQuery),
		))
		require.Equal(t, "Choose an answer to go on.", errMsg)
		require.Equal(t, "Question 1 of 10", progress)
		screenshot(t, ctx, "quiz-step-error")

		// Answer 1 and 2, go back to 1: its answer is still chosen, and 2's comes back too.
		var checked1, checked2 bool
		require.NoError(t, chromedp.Run(ctx,
			chromedp.Click(`.quiz-step input[name="q0"][value="1"] + span`, chromedp.ByQuery),
			chromedp.Click(`.quiz-step .quiz-nav button[type="submit"]`, chromedp.ByQuery),
			quizStepSettled(1),
			chromedp.Click(`.quiz-step input[name="q1"][value="2"] + span`, chromedp.ByQuery),
			chromedp.Click(`.quiz-step .quiz-nav button[type="button"]`, chromedp.ByQuery), // Back
			quizStepSettled(0),
			chromedp.Evaluate(`document.querySelector('.quiz-step input[name="q0"][value="1"]').checked`, &checked1),
		))
		require.True(t, checked1, "Back shows the answer given")
		screenshot(t, ctx, "quiz-step-back")
		require.NoError(t, chromedp.Run(ctx,
			chromedp.Click(`.quiz-step .quiz-nav button[type="submit"]`, chromedp.ByQuery),
			quizStepSettled(1),
			chromedp.Evaluate(`document.querySelector('.quiz-step input[name="q1"][value="2"]').checked`, &checked2),
		))
		require.True(t, checked2, "the answer to a later question is kept too")
		// The rest: the first option each; then the result.
		var result string
		require.NoError(t, chromedp.Run(ctx,
			chromedp.Click(`.quiz-step .quiz-nav button[type="submit"]`, chromedp.ByQuery),
			answerQuizStepsFrom(2, make([]int, 8)),
			chromedp.WaitVisible(".quiz-result", chromedp.ByQuery),
			chromedp.Text(".quiz-result h2", &result, chromedp.ByQuery),
		))
		want := quizResultWithoutJS(t, a, append([]int{1, 2}, make([]int, 8)...))
		require.Equal(t, want, result, "the same result as the full form")
		screenshot(t, ctx, "quiz-step-result")
	})
	t.Run("WithoutJavaScript", func(t *testing.T) {
		ctx := newBrowser(t)
		var fieldsets int
		require.NoError(t, chromedp.Run(ctx,
			emulation.SetScriptExecutionDisabled(true),
			chromedp.Navigate(a.URL+"/quiz/investment-power/"+demoScratchEvent),
			chromedp.WaitVisible(".quiz-form", chromedp.ByQuery),
			chromedp.Evaluate(`document.querySelectorAll('.quiz-form fieldset').length`, &fieldsets),
		))
		require.Equal(t, 10, fieldsets, "every question on one page")
		for i := range 10 {
			require.NoError(t, chromedp.Run(ctx, chromedp.Click(fmt.Sprintf(`input[name="q%d"][value="0"] + span`, i), chromedp.ByQuery)))
		}
		var result string
		require.NoError(t, chromedp.Run(ctx,
			chromedp.Click(`.quiz-form button[type="submit"]`, chromedp.ByQuery),
			chromedp.WaitVisible(".quiz-result", chromedp.ByQuery),
			chromedp.Text(".quiz-result h2", &result, chromedp.ByQuery),
		))
		require.Equal(t, "You scored 2 out of 10", result)
		screenshot(t, ctx, "quiz-nojs-result")
	})
}

// answerQuizStepsFrom answers questions first, first+1, … one at a time (see answerQuizSteps).
func answerQuizStepsFrom(first int, values []int) chromedp.Action {
	return chromedp.ActionFunc(func(ctx context.Context) error {
		// The notice is tapped once the first step has settled: a tap while htmx swaps the step in
		// lands where the button was, not where it is.
		if err := chromedp.Run(ctx, quizStepSettled(first), answerCookieNoticeIfShown()); err != nil {
			return fmt.Errorf("cookie notice: %w", err)
		}
		for k, v := range values {
			i := first + k
			step, cancel := context.WithTimeout(ctx, 30*time.Second)
			err := chromedp.Run(step,
				quizStepSettled(i),
				chromedp.Click(fmt.Sprintf(`.quiz-step input[name="q%d"][value="%d"] + span`, i, v), chromedp.ByQuery),
				chromedp.Click(`.quiz-step .quiz-nav button[type="submit"]`, chromedp.ByQuery),
			)
			cancel()
			if err != nil {
				return fmt.Errorf("question %d: %w", i+1, err)
			}
		}
		return nil
	})
}

// quizResultWithoutJS posts the power quiz's full form with the answers and returns the result's title.
func quizResultWithoutJS(t *testing.T, a *testApp, answers []int) string {
	t.Helper()
	v := newVisitor(t, a)
	v.get("/quiz/investment-power/" + demoScratchEvent)
	form := url.Values{}
	for i, ans := range answers {
		form.Set(fmt.Sprintf("q%d", i), fmt.Sprint(ans))
	}
	status, page := v.post("/quiz/investment-power/"+demoScratchEvent, form)
	require.Equal(t, http.StatusOK, status)
	m := regexp.MustCompile(`<div class="quiz-result" role="status"><h2>([^<]+)</h2>`).FindStringSubmatch(page)
	require.NotNil(t, m, page)
	return m[1]
}

// quizStepSettled waits until question i is shown on its own and htmx has finished swapping and
// settling it (the page script has moved the focus and scrolled), so a tap lands where it aims.
func quizStepSettled(i int) chromedp.Action {
	return waitFor(fmt.Sprintf(`!!document.querySelector('.quiz-step input[name="q%d"]') &&
		!document.querySelector('.htmx-request, .htmx-swapping, .htmx-settling, .htmx-added')`, i))
}

// answerCookieNoticeIfShown taps "Only necessary" on the cookie notice when it shows, as a visitor
// would before tapping what it covers at the bottom of the screen.
func answerCookieNoticeIfShown() chromedp.Action {
	return chromedp.ActionFunc(func(ctx context.Context) error {
		var shown bool
		if err := chromedp.Evaluate(`(() => { const n = document.getElementById('cookie-notice'); return !!n && !n.hidden && n.offsetHeight > 0; })()`, &shown).Do(ctx); err != nil || !shown {
			return err
		}
		return chromedp.Run(ctx, chromedp.Click(`#cookie-notice [data-consent="declined"]`, chromedp.ByQuery),
			chromedp.WaitNotVisible("#cookie-notice", chromedp.ByQuery))
	})
}

// TestActivities_UploadedPrizePictures: prizes given uploaded pictures in the console show them on
// a new scratch card.
func TestActivities_UploadedPrizePictures(t *testing.T) {
	a := startApp(t)
	owner := signedIn(t, a, store.DemoOrganizerEmail)
	owner.get("/organizer/events/" + demoScratchEvent + "/activities")
	for i, prize := range []string{"gaming-headset", "team-jersey", "sticker-pack"} {
		ct, body := pngUpload(t, 300, 200, byte(30+i*100))
		status, _ := owner.send(http.MethodPost, "/organizer/events/"+demoScratchEvent+"/activities/scratch/prizes/"+prize+"/image", ct, body, "")
		require.Equal(t, http.StatusSeeOther, status, prize)
	}
	ctx := newBrowser(t)
	registerInBrowser(t, ctx, a, "09175554323")
	confirmInBrowser(t, ctx, a, "+639175554323")
	var uploaded int
	require.NoError(t, chromedp.Run(ctx,
		chromedp.Navigate(a.URL+boothScanPath(t, a, demoScratchEvent, "scratch")),
		chromedp.WaitVisible(".scratch-popup canvas", chromedp.ByQuery),
		chromedp.Click(".scratch-reveal", chromedp.ByQuery),
		chromedp.WaitVisible(".scratch-close", chromedp.ByQuery),
		waitFor(`Array.from(document.querySelectorAll('.scratch-cell img')).every(i => i.complete && i.naturalWidth === 240)`),
		chromedp.Evaluate(`document.querySelectorAll('.scratch-cell img[src^="/prize-images/"]').length`, &uploaded),
	))
	require.Equal(t, 9, uploaded, "every cell shows an uploaded picture")
	screenshot(t, ctx, "scratch-uploaded-pictures")
}
