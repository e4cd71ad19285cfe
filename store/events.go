package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"strings"
	"time"

	"palaro"
)

// EventService implements palaro.EventService.
type EventService struct{ db *DB }

// NewEventService returns the event service backed by db.
func NewEventService(db *DB) *EventService { return &EventService{db: db} }

var _ palaro.EventService = (*EventService)(nil)

// DefaultPageSize is the number of events in one page of a list when the filter sets none.
const DefaultPageSize = 12

const eventColumns = `e.id, e.code, e.name, e.summary, e.description, e.starts_at, e.ends_at, e.image_url,
	e.status, e.popularity, e.required_fields, e.survey_question, e.survey_answers, e.created_at, e.updated_at,
	v.id, v.name, v.address, v.city, v.region, v.latitude, v.longitude,
	o.id, o.name, o.email, o.url, e.sequence, o.vat_registered != 0, e.widget_origins`

const eventJoins = `FROM events e JOIN venues v ON v.id = e.venue_id JOIN organizers o ON o.id = e.organizer_id`

// FindEventByCode returns a public event with everything its page shows.
func (s *EventService) FindEventByCode(ctx context.Context, code string) (_ *palaro.Event, err error) {
	defer wrapErr(&err, "store: FindEventByCode(%q)", code)

	if !palaro.ValidCode(code) {
		return nil, palaro.Errorf(palaro.ENOTFOUND, "Event not found.")
	}
	tx, err := s.db.beginRead(ctx)
	if err != nil {
		return nil, err
	}
	defer tx.Rollback()
	row := tx.QueryRowContext(ctx, `SELECT `+eventColumns+` `+eventJoins+` WHERE e.code = ? AND e.status != 'draft'`, code)
	ev, err := scanEvent(row)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, palaro.Errorf(palaro.ENOTFOUND, "Event not found.")
	} else if err != nil {
		return nil, err
	}
	events := []*palaro.Event{ev}
	if err := attachTags(ctx, tx, events); err != nil {
		return nil, err
	}
	if err := attachTicketTypes(ctx, tx, events); err != nil {
		return nil, err
	}
	if ev.Links, err = eventLinks(ctx, tx, ev.ID); err != nil {
		return nil, err
	}
	if ev.AddOns, err = eventAddOns(ctx, tx, ev.ID); err != nil {
		return nil, err
	}
	return ev, nil
}

// ListEvents returns one page of public events that have not ended, matching the filter.
func (s *EventService) ListEvents(ctx context.Context, f palaro.EventFilter) (_ palaro.EventPage, err error) {
	defer wrapErr(&err, "store: ListEvents")

	if !palaro.ValidWhen(f.When) {
		return palaro.EventPage{}, palaro.Errorf(palaro.EINVALID, "Unknown date filter.")
	}
	if f.Now.IsZero() {
		f.Now = s.db.Now()
	}
	if f.Limit <= 0 || f.Limit > 100 {
		f.Limit = DefaultPageSize
	}
	if f.Offset < 0 {
		f.Offset = 0
	}
	from, to := palaro.DateWindow(f.When, f.Now)
	where := []string{"e.status != 'draft'", "e.ends_at > ?", seriesIn(!to.IsZero())}
	args := []any{formatTime(from), formatTime(from)}
	if !to.IsZero() {
		where = append(where, "e.starts_at < ?")
		args = []any{formatTime(from), formatTime(from), formatTime(to), formatTime(to)}
	}
	if f.Tag != "" {
		where = append(where, "EXISTS (SELECT 1 FROM event_tags et WHERE et.event_id = e.id AND et.tag_slug = ?)")
		args = append(args, f.Tag)
	}
	order := listStart + ", e.id"
	switch {
	case f.Near != nil:
		// Equirectangular distance: accurate enough to rank venues within the country.
		k := math.Cos(f.Near.Latitude * math.Pi / 180)
		order = "((v.latitude - ?) * (v.latitude - ?) + (v.longitude - ?) * (v.longitude - ?) * ?), " + order
		args = append(args, f.Near.Latitude, f.Near.Latitude, f.Near.Longitude, f.Near.Longitude, k*k)
	case f.Popular:
		order = "e.popularity DESC, " + order
	}
	args = append(args, formatTime(from)) // listStart's
	args = append(args, f.Limit+1, f.Offset)
	query := `SELECT ` + eventColumns + ` ` + eventJoins + ` WHERE ` + strings.Join(where, " AND ") +
		` ORDER BY ` + order + ` LIMIT ? OFFSET ?`

	tx, err := s.db.beginRead(ctx)
	if err != nil {
		return palaro.EventPage{}, err
	}
	defer tx.Rollback()
	events, err := queryEvents(ctx, tx, query, args...)
	if err != nil {
		return palaro.EventPage{}, err
	}
	page := palaro.EventPage{Events: events}
	if len(events) > f.Limit {
		page.Events, page.HasMore = events[:f.Limit], true
	}
	if err := attachTags(ctx, tx, page.Events); err != nil {
		return palaro.EventPage{}, err
	}
	if err := attachTicketTypes(ctx, tx, page.Events); err != nil {
		return palaro.EventPage{}, err
	}
	return page, nil
}

// seriesIn is a list's condition that an event is in its window: an event without dates, or a
// series with a date ending after the first placeholder (the window's start) and, with withEnd,
// starting before the second (its end); a series is listed by its dates, not by the span from its
// first to its last.
func seriesIn(withEnd bool) string {
	cond := `(NOT EXISTS (SELECT 1 FROM event_dates d WHERE d.event_id = e.id)
		OR EXISTS (SELECT 1 FROM event_dates d WHERE d.event_id = e.id AND d.ends_at > ?`
	if withEnd {
		cond += ` AND d.starts_at < ?`
	}
	return cond + `))`
}

// listStart is the start a list orders an event by: a series' first date not ended at the
// placeholder (the window's start), else the event's own start.
const listStart = `coalesce((SELECT min(d.starts_at) FROM event_dates d WHERE d.event_id = e.id AND d.ends_at > ?), e.starts_at)`

// ListEventsBetween returns public events overlapping [from, to) (a series: with a date there),
// ordered by start (a series: by its first date not over at from).
func (s *EventService) ListEventsBetween(ctx context.Context, from, to time.Time) (_ []*palaro.Event, err error) {
	defer wrapErr(&err, "store: ListEventsBetween")

	if !to.After(from) || to.Sub(from) > 400*24*time.Hour {
		return nil, palaro.Errorf(palaro.EINVALID, "Invalid date range.")
	}
	tx, err := s.db.beginRead(ctx)
	if err != nil {
		return nil, err
	}
	defer tx.Rollback()
	events, err := queryEvents(ctx, tx, `SELECT `+eventColumns+` `+eventJoins+`
		WHERE e.status != 'draft' AND e.starts_at < ? AND e.ends_at > ? AND `+seriesIn(true)+` ORDER BY `+listStart+`, e.id`,
		formatTime(to), formatTime(from), formatTime(from), formatTime(to), formatTime(from))
	if err != nil {
		return nil, err
	}
	return events, attachTags(ctx, tx, events)
}

// FindTag returns the tag with the given slug.
func (s *EventService) FindTag(ctx context.Context, slug string) (_ *palaro.Tag, err error) {
	defer wrapErr(&err, "store: FindTag(%q)", slug)

	if !palaro.ValidCode(slug) {
		return nil, palaro.Errorf(palaro.ENOTFOUND, "Tag not found.")
	}
	var t palaro.Tag
	err = s.db.read.QueryRowContext(ctx, `SELECT slug, name FROM tags WHERE slug = ?`, slug).Scan(&t.Slug, &t.Name)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, palaro.Errorf(palaro.ENOTFOUND, "Tag not found.")
	}
	return &t, err
}

// ListTags returns every tag that has at least one public event, by name.
func (s *EventService) ListTags(ctx context.Context) (_ []palaro.Tag, err error) {
	defer wrapErr(&err, "store: ListTags")

	return queryRows(ctx, s.db.read, `SELECT DISTINCT t.slug, t.name FROM tags t
		JOIN event_tags et ON et.tag_slug = t.slug JOIN events e ON e.id = et.event_id
		WHERE e.status != 'draft' ORDER BY t.name`, nil, func(r rowScanner) (t palaro.Tag, err error) {
		err = r.Scan(&t.Slug, &t.Name)
		return t, err
	})
}

type rowScanner interface{ Scan(dest ...any) error }

func scanEvent(r rowScanner) (*palaro.Event, error) {
	var ev palaro.Event
	var starts, ends, created, updated sql.NullString
	var required, answers, origins string
	err := r.Scan(&ev.ID, &ev.Code, &ev.Name, &ev.Summary, &ev.Description, &starts, &ends, &ev.ImageURL,
		&ev.Status, &ev.Popularity, &required, &ev.SurveyQuestion, &answers, &created, &updated,
		&ev.Venue.ID, &ev.Venue.Name, &ev.Venue.Address, &ev.Venue.City, &ev.Venue.Region,
		&ev.Venue.Latitude, &ev.Venue.Longitude,
		&ev.Organizer.ID, &ev.Organizer.Name, &ev.Organizer.Email, &ev.Organizer.URL, &ev.Sequence,
		&ev.Organizer.VATRegistered, &origins)
	if err != nil {
		return nil, err
	}
	for _, t := range []struct {
		dst *time.Time
		src sql.NullString
	}{{&ev.StartsAt, starts}, {&ev.EndsAt, ends}, {&ev.CreatedAt, created}, {&ev.UpdatedAt, updated}} {
		if *t.dst, err = parseTime(t.src); err != nil {
			return nil, fmt.Errorf("event %s: %w", ev.Code, err)
		}
	}
	if err := json.Unmarshal([]byte(required), &ev.RequiredFields); err != nil {
		return nil, fmt.Errorf("event %s required fields: %w", ev.Code, err)
	}
	if err := json.Unmarshal([]byte(answers), &ev.SurveyAnswers); err != nil {
		return nil, fmt.Errorf("event %s survey answers: %w", ev.Code, err)
	}
	ev.WidgetOrigins = strings.Fields(origins)
	return &ev, nil
}

func queryEvents(ctx context.Context, tx *sql.Tx, query string, args ...any) ([]*palaro.Event, error) {
	return queryRows(ctx, tx, query, args, scanEvent)
}

// idList returns the events' ids as query arguments and a matching "?, ?, …" placeholder list.
func idList(events []*palaro.Event) ([]any, string, map[int64]*palaro.Event) {
	args := make([]any, len(events))
	byID := make(map[int64]*palaro.Event, len(events))
	for i, ev := range events {
		args[i] = ev.ID
		byID[ev.ID] = ev
	}
	return args, strings.TrimSuffix(strings.Repeat("?, ", len(events)), ", "), byID
}

func attachTags(ctx context.Context, tx *sql.Tx, events []*palaro.Event) error {
	if len(events) == 0 {
		return nil
	}
	args, marks, byID := idList(events)
	rows, err := tx.QueryContext(ctx, `SELECT et.event_id, t.slug, t.name FROM event_tags et
		JOIN tags t ON t.slug = et.tag_slug WHERE et.event_id IN (`+marks+`) ORDER BY t.name`, args...)
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
		var id int64
		var t palaro.Tag
		if err := rows.Scan(&id, &t.Slug, &t.Name); err != nil {
			return err
		}
		byID[id].Tags = append(byID[id].Tags, t)
	}
	return rows.Err()
}

// TicketTypeColumns lists the ticket_types columns in the order scanTicketType reads them.
const ticketTypeColumns = `tt.id, tt.event_id, tt.code, tt.name, tt.description, tt.price, tt.discount,
	tt.max_purchasable, tt.capacity, tt.sold, tt.sales_start, tt.sales_end, tt.show_promo_field,
	tt.with_survey, tt.disclaimer, tt.payment_types, tt.seated, tt.held, tt.senior_pwd_discount != 0,
	tt.pass_kind, tt.pass_dates, coalesce(tt.pass_of, 0), coalesce((SELECT p.code FROM ticket_types p WHERE p.id = tt.pass_of), ''),
	coalesce(tt.tournament_id, 0)`

func scanTicketType(r rowScanner) (palaro.TicketType, error) {
	var tt palaro.TicketType
	var start, end sql.NullString
	var payments string
	err := r.Scan(&tt.ID, &tt.EventID, &tt.Code, &tt.Name, &tt.Description, &tt.Price, &tt.Discount,
		&tt.MaxPurchasable, &tt.Capacity, &tt.Sold, &start, &end, &tt.ShowPromoField,
		&tt.WithSurvey, &tt.Disclaimer, &payments, &tt.Seated, &tt.Held, &tt.SeniorPWDDiscount,
		&tt.PassKind, &tt.PassDates, &tt.PassOf, &tt.PassOfCode, &tt.TournamentID)
	if err != nil {
		return tt, err
	}
	if tt.SalesStart, err = parseTime(start); err != nil {
		return tt, err
	}
	if tt.SalesEnd, err = parseTime(end); err != nil {
		return tt, err
	}
	return tt, json.Unmarshal([]byte(payments), &tt.PaymentTypes)
}

func attachTicketTypes(ctx context.Context, tx *sql.Tx, events []*palaro.Event) error {
	if len(events) == 0 {
		return nil
	}
	args, marks, byID := idList(events)
	rows, err := tx.QueryContext(ctx, `SELECT `+ticketTypeColumns+` FROM ticket_types tt
		WHERE tt.event_id IN (`+marks+`) AND tt.tournament_id IS NULL ORDER BY tt.position, tt.id`, args...)
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
		tt, err := scanTicketType(rows)
		if err != nil {
			return err
		}
		byID[tt.EventID].TicketTypes = append(byID[tt.EventID].TicketTypes, tt)
	}
	return rows.Err()
}

func eventLinks(ctx context.Context, tx *sql.Tx, eventID int64) ([]palaro.Link, error) {
	return queryRows(ctx, tx, `SELECT label, url FROM event_links WHERE event_id = ? ORDER BY position, id`, []any{eventID},
		func(r rowScanner) (l palaro.Link, err error) {
			err = r.Scan(&l.Label, &l.URL)
			return l, err
		})
}

func eventAddOns(ctx context.Context, tx *sql.Tx, eventID int64) ([]palaro.AddOn, error) {
	return queryAddOns(ctx, tx, `SELECT id, event_id, name, price, category, notes, image_url
		FROM add_ons WHERE event_id = ? AND hidden = 0 ORDER BY category, name, id`, eventID)
}
