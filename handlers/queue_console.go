package handlers

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/labstack/echo/v5"

	"palaro"
	"palaro/views"
)

// queueJSON is an event's queue in the organizer API.
type queueJSON struct {
	OpensAt        time.Time `json:"opensAt"`
	AdmitPerMinute int       `json:"admitPerMinute"`
	Opened         bool      `json:"opened"`
	Waiting        int       `json:"waiting"`
	Admitted       int       `json:"admitted"`
	// Dates splits waiting and admitted by the series date the places are for (date "" for a
	// series' passes); absent when no place is for a date.
	Dates []queueDateJSON `json:"dates,omitempty"`
}

// queueDateJSON is a queue's figures for one date of a series.
type queueDateJSON struct {
	Date     string `json:"date"`
	Waiting  int    `json:"waiting"`
	Admitted int    `json:"admitted"`
}

// queueOut is an event's queue for the organizer API, nil when it has none.
func (s *Server) queueOut(ctx context.Context, ev *palaro.Event) (*queueJSON, error) {
	st, ok := s.services.Queues.Stats(ev.ID, s.Now())
	if !ok {
		return nil, nil
	}
	out := &queueJSON{OpensAt: st.OpensAt.In(palaro.Manila), AdmitPerMinute: st.AdmitPerMinute, Opened: st.Opened,
		Waiting: st.Waiting, Admitted: st.Admitted}
	err := s.eachQueueDate(ctx, ev, st, func(d *dated, n palaro.QueueCount) {
		out.Dates = append(out.Dates, queueDateJSON{Date: d.slug(), Waiting: n.Waiting, Admitted: n.Admitted})
	})
	return out, err
}

// eachQueueDate calls each with the queue's figures of every series date a place is for, in the
// order of the dates, then those of the places for no date (d nil: a series' passes) if any.
func (s *Server) eachQueueDate(ctx context.Context, ev *palaro.Event, st palaro.QueueStats, each func(d *dated, n palaro.QueueCount)) error {
	if st.Dates == nil {
		return nil
	}
	dates, err := s.seriesDates(ctx, ev)
	if err != nil {
		return err
	}
	for i := range dates {
		if n, ok := st.Dates[dates[i].Date.ID]; ok {
			each(&dates[i], n)
		}
	}
	if n := st.Dates[0]; n.Waiting+n.Admitted > 0 {
		each(nil, n)
	}
	return nil
}

// queueSettingsJSON reads the "queue" member of PATCH /v1/organizer/events/{code}: null turns the
// queue off; absent (nil raw) leaves it as it is (set false).
func queueSettingsJSON(raw json.RawMessage) (settings *palaro.QueueSettings, set bool, err error) {
	if raw == nil {
		return nil, false, nil
	}
	if bytes.Equal(bytes.TrimSpace(raw), []byte("null")) {
		return nil, true, nil
	}
	var in palaro.QueueSettings
	if err := unmarshalRequest(raw, &in, true); err != nil {
		e := err.(*palaro.Error)
		if len(e.Fields) > 0 { // named as members of queue
			fields := make(map[string]string, len(e.Fields))
			for k, v := range e.Fields {
				fields["queue."+k] = v
			}
			return nil, true, &palaro.Error{Code: e.Code, Message: e.Message, Fields: fields}
		}
		msg := strings.ReplaceAll(e.Message, "The request body", "queue")
		return nil, true, &palaro.Error{Code: e.Code, Message: "queue: " + strings.TrimPrefix(msg, "queue "), Fields: e.Fields}
	}
	return &in, true, nil
}

// configureQueue applies the organizer's queue settings (nil: off) and refreshes the public pages.
func (s *Server) configureQueue(c *echo.Context, caller *palaro.Caller, ev *palaro.Event, settings *palaro.QueueSettings) error {
	if err := s.services.Queues.Configure(c.Request().Context(), ev, caller.Actor(), settings, s.Now()); err != nil {
		return err
	}
	s.eventsChanged() // the event page says when the sale opens
	return nil
}

func (s *Server) orgQueuePage(c *echo.Context, caller *palaro.Caller) error {
	ev, err := s.orgEvent(c, caller)
	if err != nil {
		return err
	}
	return s.renderOrgQueue(c, caller, ev, nil, nil, http.StatusOK)
}

// renderOrgQueue renders the console's queue page; in and err are a refused form's values and error.
func (s *Server) renderOrgQueue(c *echo.Context, caller *palaro.Caller, ev *palaro.Event, in *palaro.QueueSettings, err error, status int) error {
	base := "/organizer/events/" + ev.Code
	v := views.OrgQueueView{Frame: eventFrame(c, caller, ev, "Queue · "+ev.Name)}
	q := s.queueOf(ev.ID)
	values := palaro.QueueSettings{AdmitPerMinute: 100}
	submit := "Turn the queue on"
	if q != nil {
		values = q.QueueSettings
		submit = "Save"
		v.Off = &views.OrgAction{Label: "Turn the queue off", Action: base + "/queue/off", Secondary: true}
		st, err := s.orgQueueStats(c.Request().Context(), ev)
		if err != nil {
			return err
		}
		v.Stats = &st
	}
	raw := map[string]string{}
	if in != nil {
		values = *in
	}
	if e, ok := err.(*palaro.Error); ok {
		raw = e.Fields
	}
	opens := localTime(values.OpensAt)
	if v := c.FormValue("opensAt"); in != nil && v != "" {
		opens = v
	}
	rate := strconv.Itoa(values.AdmitPerMinute)
	if v := c.FormValue("admitPerMinute"); in != nil && v != "" {
		rate = v
	}
	v.Form = views.OrgForm{Action: base + "/queue", Submit: submit, Error: formError(err), Sections: []views.OrgFormSection{{
		Title: "Sale and admission",
		Fields: []views.FormField{
			{Name: "opensAt", Label: "Sale opens (Manila time)", Type: "datetime-local", Value: opens, Error: raw[palaro.FieldQueueOpensAt],
				Hint: "Visitors before this time wait in a waiting room and get places drawn at random.", Required: true},
			{Name: "admitPerMinute", Label: "Visitors let in a minute", Type: "text", InputMode: "numeric", Value: rate, MaxLength: 5,
				Error: raw[palaro.FieldQueueAdmitPerMinute], Hint: "1 to " + strconv.Itoa(palaro.MaxAdmitPerMinute) + "; change it any time.", Required: true},
		},
	}}}
	return render(c, status, views.OrgQueue(s.orgPage(c, "Queue · "+ev.Name), v))
}

// orgQueueStats are an event's live queue figures for the console, per date for a series.
func (s *Server) orgQueueStats(ctx context.Context, ev *palaro.Event) (views.OrgQueueStats, error) {
	now := s.Now()
	st, _ := s.services.Queues.Stats(ev.ID, now)
	out := views.OrgQueueStats{URL: "/organizer/events/" + ev.Code + "/queue/figures", State: "waiting for the opening",
		OpensAt: manilaTime(st.OpensAt), Waiting: st.Waiting, Admitted: st.Admitted, Rate: st.AdmitPerMinute}
	if st.Opened || !now.Before(st.OpensAt) {
		out.State = "open"
	}
	if st.Waiting > 0 && st.AdmitPerMinute > 0 {
		out.Drain = "in " + waitText(st.Waiting*60/st.AdmitPerMinute)
	}
	err := s.eachQueueDate(ctx, ev, st, func(d *dated, n palaro.QueueCount) {
		row := views.OrgQueueDate{Label: "Season passes", Waiting: n.Waiting, Admitted: n.Admitted}
		if d != nil {
			row.Label = palaro.GateDateLabel(d.Date)
			row.Left, _ = dateAvailability(d.Event, now)
		}
		out.Dates = append(out.Dates, row)
	})
	return out, err
}

func (s *Server) orgQueueFigures(c *echo.Context, caller *palaro.Caller) error {
	ev, err := s.orgEvent(c, caller)
	if err != nil {
		return err
	}
	if s.queueOf(ev.ID) == nil {
		return c.NoContent(http.StatusNoContent) // turned off elsewhere: htmx keeps the last figures
	}
	st, err := s.orgQueueStats(c.Request().Context(), ev)
	if err != nil {
		return err
	}
	return render(c, http.StatusOK, views.OrgQueueFigures(st))
}

func (s *Server) orgSaveQueue(c *echo.Context, caller *palaro.Caller) error {
	ev, err := s.orgEvent(c, caller)
	if err != nil {
		return err
	}
	fe := formErrors{}
	in := palaro.QueueSettings{OpensAt: fe.time(c, "opensAt", "Sale opens"), AdmitPerMinute: fe.int(c, "admitPerMinute", "Visitors let in a minute")}
	if len(fe) > 0 {
		fields := map[string]string{}
		for k, msg := range fe {
			fields["queue."+k] = msg
		}
		err = &palaro.Error{Code: palaro.EINVALID, Message: "Please check the queue settings.", Fields: fields}
	} else {
		err = s.configureQueue(c, caller, ev, &in)
	}
	if err != nil {
		if palaro.ErrorCode(err) != palaro.EINVALID {
			return err
		}
		return s.renderOrgQueue(c, caller, ev, &in, err, http.StatusUnprocessableEntity)
	}
	return c.Redirect(http.StatusSeeOther, "/organizer/events/"+ev.Code+"/queue")
}

func (s *Server) orgQueueOff(c *echo.Context, caller *palaro.Caller) error {
	ev, err := s.orgEvent(c, caller)
	if err != nil {
		return err
	}
	if err := s.configureQueue(c, caller, ev, nil); err != nil {
		return err
	}
	return c.Redirect(http.StatusSeeOther, "/organizer/events/"+ev.Code+"/queue")
}
