package handlers

import (
	"fmt"
	"net/http"
	"net/url"
	"strconv"

	"github.com/labstack/echo/v5"

	"palaro"
	"palaro/views"
)

// quizOf returns the quiz and the event of the request, or ENOTFOUND.
func (s *Server) quizOf(c *echo.Context) (*palaro.Quiz, *palaro.Event, error) {
	q, ok := palaro.FindQuiz(c.Param("quiz"))
	if !ok {
		return nil, nil, palaro.Errorf(palaro.ENOTFOUND, "No such quiz.")
	}
	ev, err := s.services.Events.FindEventByCode(c.Request().Context(), c.Param("code"))
	return q, ev, err
}

// quizView is the form of a quiz with the answers given so far.
func quizView(q *palaro.Quiz, ev *palaro.Event, answers []int) views.QuizView {
	v := views.QuizView{Title: q.Title, Intro: q.Intro, EventName: ev.Name, Action: "/quiz/" + q.Slug + "/" + ev.Code}
	for i, qq := range q.Questions {
		qv := views.QuizQuestionView{Name: "q" + strconv.Itoa(i), Number: i + 1, Text: qq.Text}
		for k, o := range qq.Options {
			qv.Options = append(qv.Options, views.QuizOptionView{Value: strconv.Itoa(k), Text: o.Text, Checked: i < len(answers) && answers[i] == k})
		}
		v.Questions = append(v.Questions, qv)
	}
	return v
}

// quizPage renders a quiz's questions; ?result= (persona code) or ?score= is a shared result.
func (s *Server) quizPage(c *echo.Context) error {
	q, ev, err := s.quizOf(c)
	if err != nil {
		return err
	}
	v := quizView(q, ev, nil)
	v.StepURL = v.Action + "/step"
	p := s.engagePage(c, q.Title, q.Intro)
	p.NoIndex = false
	for _, persona := range q.Personas {
		if c.QueryParam("result") == persona.Code {
			v.Shared = "A friend is " + persona.Name + ". Which investor are you?"
			p.Title, p.Description = "I am "+persona.Name+" · Palaro", persona.Description
		}
	}
	if n, err := strconv.Atoi(c.QueryParam("score")); err == nil && q.Scored && n >= 0 && n <= len(q.Questions) {
		v.Shared = fmt.Sprintf("A friend scored %d out of %d. Can you beat that?", n, len(q.Questions))
		p.Title = fmt.Sprintf("I scored %d/%d on the investment power quiz · Palaro", n, len(q.Questions))
	}
	return render(c, http.StatusOK, views.QuizPage(p, v))
}

// quizAnswers reads the answers of a quiz's form (query or body): -1 where there is none.
func quizAnswers(c *echo.Context, q *palaro.Quiz) []int {
	answers := make([]int, len(q.Questions))
	for i := range answers {
		answers[i] = -1
		if n, err := strconv.Atoi(c.FormValue("q" + strconv.Itoa(i))); err == nil && n >= 0 && n < len(q.Questions[i].Options) {
			answers[i] = n
		}
	}
	return answers
}

// quizStep answers htmx with one question of a quiz (GET …/step?n=N with the answers so far and
// from, the step it came from): going forward needs an answer to that step's question.
func (s *Server) quizStep(c *echo.Context) error {
	q, ev, err := s.quizOf(c)
	if err != nil {
		return err
	}
	answers := quizAnswers(c, q)
	n, err := strconv.Atoi(c.QueryParam("n"))
	if err != nil || n < 0 || n >= len(q.Questions) {
		n = 0
	}
	msg := ""
	if from, err := strconv.Atoi(c.QueryParam("from")); err == nil && from >= 0 && from < n && answers[from] < 0 {
		n, msg = from, "Choose an answer to go on."
	}
	full := quizView(q, ev, answers)
	v := views.QuizStepView{Action: full.Action, StepURL: full.Action + "/step", Index: n, Count: len(q.Questions),
		Question: full.Questions[n], Error: msg}
	for i, a := range answers {
		if i != n && a >= 0 {
			v.Hidden = append(v.Hidden, [2]string{"q" + strconv.Itoa(i), strconv.Itoa(a)})
		}
	}
	c.Response().Header().Set("Cache-Control", "no-store")
	return render(c, http.StatusOK, views.QuizStep(v))
}

// submitQuiz grades a quiz, awards the event's quiz points once to this browser's participant,
// and renders the result with each right answer explained and share links.
func (s *Server) submitQuiz(c *echo.Context) error {
	q, ev, err := s.quizOf(c)
	if err != nil {
		return err
	}
	answers := quizAnswers(c, q)
	res, err := q.Grade(answers)
	if err != nil {
		v := quizView(q, ev, answers)
		v.Error = palaro.ErrorMessage(err)
		return render(c, http.StatusUnprocessableEntity, views.QuizPage(s.engagePage(c, q.Title, q.Intro), v))
	}
	v := quizView(q, ev, answers)
	v.Graded = true
	share := s.config.BaseURL + v.Action
	if q.Scored {
		for i := range v.Questions {
			qq := q.Questions[i]
			v.Questions[i].Correct, v.Questions[i].Explanation = res.Correct[i], qq.Explanation
			v.Questions[i].Options[qq.Answer].Right = true
			if !res.Correct[i] {
				v.Questions[i].Options[answers[i]].Wrong = true
			}
		}
		v.ResultTitle = fmt.Sprintf("You scored %d out of %d", res.Score, res.Total)
		v.ResultText = "Each answer is explained below."
		share += "?score=" + strconv.Itoa(res.Score)
	} else {
		v.ResultTitle, v.ResultText, v.NextSteps = "You are "+res.Persona.Name, res.Persona.Description, res.Persona.NextSteps
		share += "?result=" + res.Persona.Code
	}
	text := v.ResultTitle + " on Palaro's " + q.Title
	v.ShareLinks = []views.Link{
		{Label: "Facebook", Href: "https://www.facebook.com/sharer/sharer.php?u=" + url.QueryEscape(share)},
		{Label: "X", Href: "https://twitter.com/intent/tweet?text=" + url.QueryEscape(text) + "&url=" + url.QueryEscape(share)},
		{Label: "Messenger", Href: "fb-messenger://share/?link=" + url.QueryEscape(share)},
	}
	if err := s.awardQuiz(c, q, ev, res, &v); err != nil {
		return err
	}
	p := s.engagePage(c, v.ResultTitle, v.ResultText)
	c.Response().Header().Set("Cache-Control", "no-store")
	return render(c, http.StatusOK, views.QuizPage(p, v))
}

// awardQuiz records the quiz as the event's quiz activity for this browser's participant (once:
// a repeat keeps the first result) and says so on the result page.
func (s *Server) awardQuiz(c *echo.Context, q *palaro.Quiz, ev *palaro.Event, res *palaro.QuizResult, v *views.QuizView) error {
	p, err := s.participantOf(c)
	if err != nil {
		return err
	}
	if p == nil {
		v.RegisterHref = "/register?next=" + url.QueryEscape(v.Action)
		return nil
	}
	acts, err := s.services.Activities.ListActivities(c.Request().Context(), ev.Code)
	if err != nil {
		return err
	}
	for _, a := range acts {
		if a.Kind != palaro.ActivityQuiz || a.Quiz != q.Slug {
			continue
		}
		r, err := s.scan(c, palaro.ScanRequest{ActivityCode: a.Code, EventCode: ev.Code, ParticipantID: p.PublicID, Remarks: res.Remarks})
		switch {
		case echo.StatusCode(err) == http.StatusUnprocessableEntity:
			v.PointsNote = err.(*echo.HTTPError).Message
		case err != nil:
			return err
		case r.Repeat:
			v.PointsNote = "You earned the points of this quiz before. You have " + palaro.Plural(r.TotalPoints, "point", "points") + " in total."
		default:
			v.PointsNote = "+" + palaro.Plural(r.Points, "point", "points") + fmt.Sprintf(" · %d in total", r.TotalPoints)
		}
		return nil
	}
	return nil
}
