package store

import (
	"cmp"
	"context"
	"crypto/rand"
	"crypto/sha256"
	"database/sql"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"palaro"
)

// OrganizerService implements palaro.OrganizerService.
type OrganizerService struct {
	db       *DB
	composer palaro.OrganizerComposer
}

var _ palaro.OrganizerService = (*OrganizerService)(nil)

// NewOrganizerService returns the organizer service backed by db; composer writes the approval e-mail.
func NewOrganizerService(db *DB, composer palaro.OrganizerComposer) *OrganizerService {
	return &OrganizerService{db: db, composer: composer}
}

// DefaultEventImage is the picture of an event created without a cover image.
const DefaultEventImage = "img/events/expo.svg"

// createOrganization adds a pending organization owned by userID, inside the sign-up's transaction.
func createOrganization(ctx context.Context, tx *sql.Tx, userID int64, name, email string, now time.Time) error {
	orgID, err := insertID(ctx, tx, `INSERT INTO organizers (name, email, status) VALUES (?, ?, 'pending')`, name, email)
	if err != nil {
		return err
	}
	if err != nil {
		return err
	}
	_, err = tx.ExecContext(ctx, `INSERT INTO organizer_members (organizer_id, user_id, role, created_at)
		VALUES (?, ?, 'owner', ?)`, orgID, userID, formatTime(now))
	return err
}

// Memberships returns the organizations a user belongs to.
func (s *OrganizerService) Memberships(ctx context.Context, userID int64) (_ []palaro.Membership, err error) {
	defer wrapErr(&err, "store: Memberships(%d)", userID)

	return queryRows(ctx, s.db.read, `SELECT o.id, o.name, m.role, o.status = 'approved'
		FROM organizer_members m JOIN organizers o ON o.id = m.organizer_id WHERE m.user_id = ? ORDER BY o.name, o.id`,
		[]any{userID}, func(r rowScanner) (m palaro.Membership, err error) {
			err = r.Scan(&m.OrganizationID, &m.OrganizationName, &m.Role, &m.Approved)
			return m, err
		})
}

const organizationColumns = `o.id, o.name, o.email, o.status, o.created_at, o.approved_at,
	coalesce((SELECT u.email FROM organizer_members m JOIN users u ON u.id = m.user_id
		WHERE m.organizer_id = o.id AND m.role = 'owner' ORDER BY m.created_at LIMIT 1), '')`

func scanOrganization(r rowScanner) (palaro.Organization, error) {
	var o palaro.Organization
	var created, approved sql.NullString
	if err := r.Scan(&o.ID, &o.Name, &o.Email, &o.Status, &created, &approved, &o.OwnerEmail); err != nil {
		return o, err
	}
	o.CreatedAt, _ = parseTime(created)
	o.ApprovedAt, _ = parseTime(approved)
	return o, nil
}

func queryOrganizations(ctx context.Context, q querier, where string, args ...any) ([]palaro.Organization, error) {
	return queryRows(ctx, q, `SELECT `+organizationColumns+` FROM organizers o WHERE `+where+` ORDER BY o.id`, args,
		scanOrganization)
}

// ListOrganizations returns organizations with their owners.
func (s *OrganizerService) ListOrganizations(ctx context.Context, pendingOnly bool) (_ []palaro.Organization, err error) {
	defer wrapErr(&err, "store: ListOrganizations")

	return queryOrganizations(ctx, s.db.read, `(? = 0 OR o.status = 'pending')`, pendingOnly)
}

// ApproveOrganization approves the pending organizations the account owns and tells the owner.
func (s *OrganizerService) ApproveOrganization(ctx context.Context, ownerEmail string) (_ []palaro.Organization, err error) {
	defer wrapErr(&err, "store: ApproveOrganization")

	return write(ctx, s.db, func(ctx context.Context, tx *sql.Tx) ([]palaro.Organization, error) {
		orgs, err := queryOrganizations(ctx, tx, `o.status = 'pending' AND o.id IN (SELECT m.organizer_id FROM organizer_members m
		JOIN users u ON u.id = m.user_id WHERE m.role = 'owner' AND lower(u.email) = lower(?))`, strings.TrimSpace(ownerEmail))
		if err != nil {
			return nil, err
		}
		if len(orgs) == 0 {
			return nil, palaro.Errorf(palaro.ENOTFOUND, "No pending organization is owned by %s.", ownerEmail)
		}
		now := s.db.Now()
		for i := range orgs {
			if _, err := tx.ExecContext(ctx, `UPDATE organizers SET status = 'approved', approved_at = ? WHERE id = ?`,
				formatTime(now), orgs[i].ID); err != nil {
				return nil, err
			}
			orgs[i].Status, orgs[i].ApprovedAt = palaro.OrganizationApproved, now.UTC().Truncate(time.Second)
			if s.composer != nil {
				if err := enqueue(ctx, tx, s.composer.OrganizerApproved(orgs[i]), fmt.Sprintf("organizer-approved-%d", orgs[i].ID), now); err != nil {
					return nil, err
				}
			}
		}
		return orgs, nil
	})
}

// ListEvents returns the organizations' events, newest start first, with sold, capacity and revenue.
func (s *OrganizerService) ListEvents(ctx context.Context, orgIDs []int64) (_ []*palaro.OrganizerEvent, err error) {
	defer wrapErr(&err, "store: ListEvents")

	if len(orgIDs) == 0 {
		return nil, nil
	}
	args, marks := int64Args(orgIDs)
	tx, err := s.db.beginRead(ctx)
	if err != nil {
		return nil, err
	}
	defer tx.Rollback()
	events, err := queryEvents(ctx, tx, `SELECT `+eventColumns+` `+eventJoins+` WHERE e.organizer_id IN (`+marks+`)
		ORDER BY e.starts_at DESC, e.id DESC`, args...)
	if err != nil {
		return nil, err
	}
	if err := attachTicketTypes(ctx, tx, events); err != nil {
		return nil, err
	}
	revenue := map[int64]palaro.Money{}
	rows, err := tx.QueryContext(ctx, `SELECT event_id, sum(total) FROM orders WHERE status = 'paid'
		AND event_id IN (SELECT id FROM events WHERE organizer_id IN (`+marks+`)) GROUP BY event_id`, args...)
	if err != nil {
		return nil, err
	}
	for rows.Next() {
		var id int64
		var m palaro.Money
		if err := rows.Scan(&id, &m); err != nil {
			rows.Close()
			return nil, err
		}
		revenue[id] = m
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, err
	}
	series, err := seriesPlaces(ctx, tx, args, marks)
	if err != nil {
		return nil, err
	}
	out := make([]*palaro.OrganizerEvent, 0, len(events))
	for _, ev := range events {
		oe := &palaro.OrganizerEvent{Event: *ev, OrganizationName: ev.Organizer.Name, Revenue: revenue[ev.ID]}
		for _, tt := range ev.TicketTypes {
			oe.Sold += tt.Sold
			oe.Capacity += tt.Capacity
		}
		if p, ok := series[ev.ID]; ok { // as the dashboard counts a series: the places on its dates
			oe.Sold, oe.Capacity = p[0], p[1]
		}
		out = append(out, oe)
	}
	return out, nil
}

// seriesPlaces counts the series of the organizations orgIDs (args, marks: int64Args) in one
// grouped query, by event id: the places taken on their dates (passes' included) and the
// capacity there, over every date and day ticket (a date without a stock row for a type has the
// type's capacity), as palaro.SeriesTotals sums them for the console.
func seriesPlaces(ctx context.Context, tx *sql.Tx, args []any, marks string) (map[int64][2]int, error) {
	type row struct {
		eventID        int64
		sold, capacity int
	}
	rows, err := queryRows(ctx, tx, `SELECT d.event_id, coalesce(sum(s.sold), 0), coalesce(sum(coalesce(s.capacity, tt.capacity)), 0)
		FROM event_dates d JOIN events e ON e.id = d.event_id
		JOIN ticket_types tt ON tt.event_id = d.event_id AND tt.pass_kind = '' AND tt.tournament_id IS NULL
		LEFT JOIN date_stock s ON s.date_id = d.id AND s.ticket_type_id = tt.id
		WHERE e.organizer_id IN (`+marks+`) GROUP BY d.event_id`, args, func(r rowScanner) (x row, err error) {
		err = r.Scan(&x.eventID, &x.sold, &x.capacity)
		return x, err
	})
	out := make(map[int64][2]int, len(rows))
	for _, r := range rows {
		out[r.eventID] = [2]int{r.sold, r.capacity}
	}
	return out, err
}

// int64Args returns ids as query arguments and a matching "?, ?, …" list.
func int64Args(ids []int64) ([]any, string) {
	args := make([]any, len(ids))
	for i, id := range ids {
		args[i] = id
	}
	return args, strings.TrimSuffix(strings.Repeat("?, ", len(ids)), ", ")
}

// FindEvent returns an event of any status with everything the console shows.
func (s *OrganizerService) FindEvent(ctx context.Context, code string) (_ *palaro.Event, err error) {
	defer wrapErr(&err, "store: FindEvent(%q)", code)

	tx, err := s.db.beginRead(ctx)
	if err != nil {
		return nil, err
	}
	defer tx.Rollback()
	return findAnyEvent(ctx, tx, code)
}

// GateEvent returns the event as FindEvent reads it, kept in the catalog until event data changes
// (see palaro.OrganizerService). The slices inside are shared with other callers: read only.
func (s *OrganizerService) GateEvent(ctx context.Context, code string) (_ *palaro.Event, err error) {
	v, err := s.db.cached(catalogEvent+code, func() (any, error) {
		return s.FindEvent(context.WithoutCancel(ctx), code)
	})
	if err != nil {
		return nil, err
	}
	ev := *v.(*palaro.Event)
	return &ev, nil
}

func findAnyEvent(ctx context.Context, q *sql.Tx, code string) (*palaro.Event, error) {
	notFound := palaro.Errorf(palaro.ENOTFOUND, "Event not found.")
	if !palaro.ValidCode(code) {
		return nil, notFound
	}
	ev, err := scanEvent(q.QueryRowContext(ctx, `SELECT `+eventColumns+` `+eventJoins+` WHERE e.code = ?`, code))
	if errors.Is(err, sql.ErrNoRows) {
		return nil, notFound
	} else if err != nil {
		return nil, err
	}
	events := []*palaro.Event{ev}
	if err := attachTags(ctx, q, events); err != nil {
		return nil, err
	}
	if err := attachTicketTypes(ctx, q, events); err != nil {
		return nil, err
	}
	if ev.Links, err = eventLinks(ctx, q, ev.ID); err != nil {
		return nil, err
	}
	if ev.AddOns, err = eventAddOns(ctx, q, ev.ID); err != nil {
		return nil, err
	}
	return ev, nil
}

// audit writes one line of an event's audit log inside tx.
func audit(ctx context.Context, tx *sql.Tx, orgID, eventID int64, actor, action, detail string, now time.Time) error {
	_, err := tx.ExecContext(ctx, `INSERT INTO audit_log (organizer_id, event_id, actor, action, detail, created_at)
		VALUES (?, ?, ?, ?, ?, ?)`, orgID, eventID, actor, action, detail, formatTime(now))
	return err
}

// codeTaken is the error for an event or ticket type code already in use.
func codeTaken() error {
	return &palaro.Error{Code: palaro.EINVALID, Message: palaro.MsgEventCodeTaken,
		Fields: map[string]string{palaro.FieldCode: palaro.MsgEventCodeTaken}}
}

// errNoTicketTypes refuses to publish an event that has nothing to sell.
var errNoTicketTypes = &palaro.Error{Code: palaro.EINVALID, Message: palaro.MsgPublishNeedsTicketTypes,
	Fields: map[string]string{palaro.FieldStatus: palaro.MsgPublishNeedsTicketTypes}}

// CreateEvent adds an event to an organization, as a draft or postponed or cancelled: it is
// published once it has a ticket type.
func (s *OrganizerService) CreateEvent(ctx context.Context, orgID int64, actor string, in palaro.EventInput) (_ *palaro.Event, err error) {
	defer wrapErr(&err, "store: CreateEvent(%d)", orgID)

	in = in.Normalize()
	if err := in.Validate(); err != nil {
		return nil, err
	}
	if palaro.ParseOrganizerStatus(in.Status) == palaro.EventScheduled {
		return nil, errNoTicketTypes // a new event has none yet
	}
	return write(ctx, s.db, func(ctx context.Context, tx *sql.Tx) (*palaro.Event, error) {
		now := s.db.Now()
		venueID, err := saveVenue(ctx, tx, 0, in.Venue)
		if err != nil {
			return nil, err
		}
		required, _ := json.Marshal(in.RequiredFields)
		answers, _ := json.Marshal(in.SurveyAnswers)
		eventID, err := insertID(ctx, tx, `INSERT INTO events (code, name, summary, description, starts_at, ends_at, status,
		venue_id, organizer_id, required_fields, survey_question, survey_answers, created_at, updated_at, image_url)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`, in.Code, in.Name, in.Summary, in.Description,
			formatTime(in.StartsAt), formatTime(in.EndsAt), palaro.ParseOrganizerStatus(in.Status), venueID, orgID,
			string(required), in.SurveyQuestion, string(answers), formatTime(now), formatTime(now), DefaultEventImage)
		if isUniqueViolation(err) {
			return nil, codeTaken()
		} else if err != nil {
			return nil, err
		}
		if err := saveEventLists(ctx, tx, eventID, in); err != nil {
			return nil, err
		}
		if err := audit(ctx, tx, orgID, eventID, actor, "event created", palaro.AuditDetail(in), now); err != nil {
			return nil, err
		}
		ev, err := findAnyEvent(ctx, tx, in.Code)
		if err != nil {
			return nil, err
		}
		return ev, nil
	})
}

// UpdateEvent replaces an event's details; a draft is published only when it has a ticket type.
func (s *OrganizerService) UpdateEvent(ctx context.Context, eventID int64, actor string, in palaro.EventInput) (_ *palaro.Event, err error) {
	defer wrapErr(&err, "store: UpdateEvent(%d)", eventID)

	in = in.Normalize()
	if err := in.Validate(); err != nil {
		return nil, err
	}
	return write(ctx, s.db, func(ctx context.Context, tx *sql.Tx) (*palaro.Event, error) {
		var orgID, venueID int64
		var oldCode string
		err := tx.QueryRowContext(ctx, `SELECT organizer_id, venue_id, code FROM events WHERE id = ?`, eventID).Scan(&orgID, &venueID, &oldCode)
		if errors.Is(err, sql.ErrNoRows) {
			return nil, palaro.Errorf(palaro.ENOTFOUND, "Event not found.")
		} else if err != nil {
			return nil, err
		}
		before, err := findAnyEvent(ctx, tx, oldCode)
		if err != nil {
			return nil, err
		}
		if before.Status == palaro.EventDraft && palaro.ParseOrganizerStatus(in.Status) == palaro.EventScheduled {
			var types int
			if err := tx.QueryRowContext(ctx, `SELECT count(*) FROM ticket_types WHERE event_id = ? AND tournament_id IS NULL`, eventID).Scan(&types); err != nil {
				return nil, err
			}
			if types == 0 {
				return nil, errNoTicketTypes
			}
		}
		if venueID, err = saveVenue(ctx, tx, venueID, in.Venue); err != nil {
			return nil, err
		}
		now := s.db.Now()
		required, _ := json.Marshal(in.RequiredFields)
		answers, _ := json.Marshal(in.SurveyAnswers)
		_, err = tx.ExecContext(ctx, `UPDATE events SET code = ?, name = ?, summary = ?, description = ?, starts_at = ?,
		ends_at = ?, status = ?, venue_id = ?, required_fields = ?, survey_question = ?, survey_answers = ?, updated_at = ?
		WHERE id = ?`, in.Code, in.Name, in.Summary, in.Description, formatTime(in.StartsAt), formatTime(in.EndsAt),
			palaro.ParseOrganizerStatus(in.Status), venueID, string(required), in.SurveyQuestion, string(answers),
			formatTime(now), eventID)
		if isUniqueViolation(err) {
			return nil, codeTaken()
		} else if err != nil {
			return nil, err
		}
		if _, err := tx.ExecContext(ctx, `DELETE FROM event_tags WHERE event_id = ?`, eventID); err != nil {
			return nil, err
		}
		if _, err := tx.ExecContext(ctx, `DELETE FROM event_links WHERE event_id = ?`, eventID); err != nil {
			return nil, err
		}
		if err := saveEventLists(ctx, tx, eventID, in); err != nil {
			return nil, err
		}
		if err := audit(ctx, tx, orgID, eventID, actor, "event updated", changedFields(palaro.EventInputOf(before), in), now); err != nil {
			return nil, err
		}
		ev, err := findAnyEvent(ctx, tx, in.Code)
		if err != nil {
			return nil, err
		}
		if kind := palaro.EventChangeKind(palaro.ScheduleOf(before), palaro.ScheduleOf(ev)); kind != "" {
			if err := recordEventChange(ctx, tx, changeScope{ev: ev}, palaro.ScheduleOf(before), palaro.ScheduleOf(ev), kind, now); err != nil {
				return nil, err
			}
			ev.Sequence++
		}
		return ev, nil
	})
}

// saveVenue keeps the event's venue when nothing changed, else stores a new venue row (venues
// are shared by the demo events, so one event's edit never moves another's).
func saveVenue(ctx context.Context, tx *sql.Tx, current int64, v palaro.VenueInput) (int64, error) {
	if current != 0 {
		var same bool
		err := tx.QueryRowContext(ctx, `SELECT name = ? AND address = ? AND city = ? AND latitude = ? AND longitude = ?
			FROM venues WHERE id = ?`, v.Name, v.Address, v.City, v.Latitude, v.Longitude, current).Scan(&same)
		if err != nil {
			return 0, err
		}
		if same {
			return current, nil
		}
	}
	id, err := insertID(ctx, tx, `INSERT INTO venues (name, address, city, region, latitude, longitude)
		VALUES (?, ?, ?, '', ?, ?)`, v.Name, v.Address, v.City, v.Latitude, v.Longitude)
	if err != nil {
		return 0, err
	}
	return id, nil
}

// saveEventLists stores an event's tags (creating unknown ones) and links.
func saveEventLists(ctx context.Context, tx *sql.Tx, eventID int64, in palaro.EventInput) error {
	for _, slug := range in.Tags {
		name := strings.ReplaceAll(slug, "-", " ")
		if _, err := tx.ExecContext(ctx, `INSERT INTO tags (slug, name) VALUES (?, ?) ON CONFLICT (slug) DO NOTHING`,
			slug, strings.ToUpper(name[:1])+name[1:]); err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, `INSERT INTO event_tags (event_id, tag_slug) VALUES (?, ?)`, eventID, slug); err != nil {
			return err
		}
	}
	for i, l := range in.Links {
		if _, err := tx.ExecContext(ctx, `INSERT INTO event_links (event_id, position, label, url) VALUES (?, ?, ?, ?)`,
			eventID, i, l.Label, l.URL); err != nil {
			return err
		}
	}
	return nil
}

// eventOrg returns the organization of an event inside tx. Returns ENOTFOUND.
func eventOrg(ctx context.Context, tx *sql.Tx, eventID int64) (int64, error) {
	var orgID int64
	err := tx.QueryRowContext(ctx, `SELECT organizer_id FROM events WHERE id = ?`, eventID).Scan(&orgID)
	if errors.Is(err, sql.ErrNoRows) {
		return 0, palaro.Errorf(palaro.ENOTFOUND, "Event not found.")
	}
	return orgID, err
}

// CreateTicketType adds a ticket type to an event (with its seat map when seated).
func (s *OrganizerService) CreateTicketType(ctx context.Context, eventID int64, actor string, in palaro.TicketTypeInput) (_ *palaro.TicketType, err error) {
	defer wrapErr(&err, "store: CreateTicketType(%d)", eventID)

	in = in.Normalize()
	if err := in.Validate(); err != nil {
		return nil, err
	}
	return write(ctx, s.db, func(ctx context.Context, tx *sql.Tx) (*palaro.TicketType, error) {
		orgID, err := eventOrg(ctx, tx, eventID)
		if err != nil {
			return nil, err
		}
		passOf, err := checkPass(ctx, tx, eventID, nil, in)
		if err != nil {
			return nil, err
		}
		payments, _ := json.Marshal(in.PaymentTypes)
		_, err = tx.ExecContext(ctx, `INSERT INTO ticket_types (event_id, code, name, description, position, price, discount,
		max_purchasable, capacity, sales_start, sales_end, show_promo_field, with_survey, disclaimer, payment_types, seated,
		senior_pwd_discount, pass_kind, pass_dates, pass_of)
		VALUES (?, ?, ?, ?, (SELECT coalesce(max(position), -1) + 1 FROM ticket_types WHERE event_id = ?), ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
			eventID, in.Code, in.Name, in.Description, eventID, in.Price, in.Discount, in.MaxPurchasable, in.Capacity,
			nullTime(in.SalesStart), nullTime(in.SalesEnd), in.ShowPromoField, in.WithSurvey, in.Disclaimer, string(payments), in.Seated,
			in.AppliesSeniorPWD(), in.PassKind, in.PassDates, passOf)
		if isUniqueViolation(err) {
			return nil, codeTaken()
		} else if err != nil {
			return nil, err
		}
		if err := ensureSeatLayouts(ctx, tx); err != nil {
			return nil, err
		}
		now := s.db.Now()
		if err := audit(ctx, tx, orgID, eventID, actor, "ticket type created", palaro.AuditDetail(in), now); err != nil {
			return nil, err
		}
		tt, err := findTicketTypeTx(ctx, tx, eventID, in.Code)
		if err != nil {
			return nil, err
		}
		return tt, nil
	})
}

func findTicketTypeTx(ctx context.Context, tx *sql.Tx, eventID int64, code string) (*palaro.TicketType, error) {
	tt, err := scanTicketType(tx.QueryRowContext(ctx, `SELECT `+ticketTypeColumns+` FROM ticket_types tt
		WHERE tt.event_id = ? AND tt.code = ? AND tt.tournament_id IS NULL`, eventID, code)) // an entry fee's type is the tournament's
	if errors.Is(err, sql.ErrNoRows) {
		return nil, palaro.Errorf(palaro.ENOTFOUND, "Ticket type not found.")
	}
	return &tt, err
}

// UpdateTicketType changes a ticket type; capacity never goes below sold plus held, a seated
// ticket type's generated seat map is regenerated only while none of its seats is taken, and the
// capacity of one with a stored seat plan only changes with its plan (SetSeatPlan).
func (s *OrganizerService) UpdateTicketType(ctx context.Context, eventID int64, code, actor string, in palaro.TicketTypeInput) (_ *palaro.TicketType, err error) {
	defer wrapErr(&err, "store: UpdateTicketType(%d)", eventID)

	in = in.Normalize()
	if err := in.Validate(); err != nil {
		return nil, err
	}
	return write(ctx, s.db, func(ctx context.Context, tx *sql.Tx) (*palaro.TicketType, error) {
		orgID, err := eventOrg(ctx, tx, eventID)
		if err != nil {
			return nil, err
		}
		cur, err := findTicketTypeTx(ctx, tx, eventID, code)
		if err != nil {
			return nil, err
		}
		// a series' day ticket sells on its dates (its own counters stay 0): its capacity, which the
		// dates without their own follow, goes no lower than the busiest of them
		sold, held := cur.Sold, cur.Held
		err = tx.QueryRowContext(ctx, `SELECT sold, held FROM date_stock WHERE ticket_type_id = ? AND own_capacity = 0
			ORDER BY sold + held DESC LIMIT 1`, cur.ID).Scan(&sold, &held)
		if err != nil && !errors.Is(err, sql.ErrNoRows) {
			return nil, err
		}
		if err := palaro.CheckCapacity(in.Capacity, sold, held); err != nil {
			return nil, err
		}
		var onDates bool // places taken on any date, for the seat map
		if err := tx.QueryRowContext(ctx, `SELECT EXISTS (SELECT 1 FROM date_stock WHERE ticket_type_id = ? AND sold + held > 0)`,
			cur.ID).Scan(&onDates); err != nil {
			return nil, err
		}
		passOf, err := checkPass(ctx, tx, eventID, cur, in)
		if err != nil {
			return nil, err
		}
		var plan string
		if err := tx.QueryRowContext(ctx, `SELECT seat_plan FROM ticket_types WHERE id = ?`, cur.ID).Scan(&plan); err != nil {
			return nil, err
		}
		if plan != "" && cur.Seated && in.Seated && cur.Capacity != in.Capacity {
			msg := fmt.Sprintf("The capacity of a seated ticket type is its number of seats for sale (%d): change the seat map to change it.", cur.Capacity)
			return nil, &palaro.Error{Code: palaro.EINVALID, Message: msg, Fields: map[string]string{palaro.FieldCapacity: msg}}
		}
		relayout := cur.Seated != in.Seated || (in.Seated && cur.Capacity != in.Capacity)
		if relayout {
			var taken int
			if err := tx.QueryRowContext(ctx, `SELECT count(*) FROM seat_assignments WHERE ticket_type_id = ?`, cur.ID).Scan(&taken); err != nil {
				return nil, err
			}
			if taken > 0 || (cur.Seated != in.Seated && (cur.Sold+cur.Held > 0 || onDates)) {
				msg := "The seat map cannot change once seats are sold or held."
				return nil, &palaro.Error{Code: palaro.EINVALID, Message: msg, Fields: map[string]string{palaro.FieldCapacity: msg}}
			}
			if _, err := tx.ExecContext(ctx, `DELETE FROM seats WHERE ticket_type_id = ?`, cur.ID); err != nil {
				return nil, err
			}
			if _, err := tx.ExecContext(ctx, `UPDATE ticket_types SET seat_plan = '' WHERE id = ?`, cur.ID); err != nil {
				return nil, err
			}
		}
		payments, _ := json.Marshal(in.PaymentTypes)
		_, err = tx.ExecContext(ctx, `UPDATE ticket_types SET code = ?, name = ?, description = ?, price = ?, discount = ?,
		max_purchasable = ?, capacity = ?, sales_start = ?, sales_end = ?, show_promo_field = ?, with_survey = ?,
		disclaimer = ?, payment_types = ?, seated = ?, senior_pwd_discount = ?, pass_kind = ?, pass_dates = ?, pass_of = ? WHERE id = ?`,
			in.Code, in.Name, in.Description, in.Price,
			in.Discount, in.MaxPurchasable, in.Capacity, nullTime(in.SalesStart), nullTime(in.SalesEnd), in.ShowPromoField,
			in.WithSurvey, in.Disclaimer, string(payments), in.Seated, *cmp.Or(in.SeniorPWDDiscount, &cur.SeniorPWDDiscount), // left out: kept
			in.PassKind, in.PassDates, passOf, cur.ID)
		if isUniqueViolation(err) {
			return nil, codeTaken()
		} else if err != nil {
			return nil, err
		}
		// a series' dates share the type's capacity unless a date set its own; a pass has no places
		// of its own on dates (checkPass refused the change if any were taken)
		if _, err := tx.ExecContext(ctx, `UPDATE date_stock SET capacity = ? WHERE ticket_type_id = ? AND own_capacity = 0`,
			in.Capacity, cur.ID); err != nil {
			return nil, err
		}
		if in.PassKind != "" && cur.PassKind == "" {
			if _, err := tx.ExecContext(ctx, `DELETE FROM date_stock WHERE ticket_type_id = ?`, cur.ID); err != nil {
				return nil, err
			}
		}
		if relayout {
			if err := ensureSeatLayouts(ctx, tx); err != nil {
				return nil, err
			}
		}
		if err := audit(ctx, tx, orgID, eventID, actor, "ticket type "+code+" updated",
			changedFields(palaro.TicketTypeInputOf(*cur), in), s.db.Now()); err != nil {
			return nil, err
		}
		tt, err := findTicketTypeTx(ctx, tx, eventID, in.Code)
		if err != nil {
			return nil, err
		}
		return tt, nil
	})
}

// checkPass checks the pass settings of a ticket type being created (cur nil) or changed (cur)
// against the event's other types and its number of dates (palaro.ValidatePass), and refuses a
// change of them once the type has orders pending or paid; it returns the pass_of column's value
// (nil for a day ticket). EINVALID names the field.
func checkPass(ctx context.Context, tx *sql.Tx, eventID int64, cur *palaro.TicketType, in palaro.TicketTypeInput) (any, error) {
	fail := func(f map[string]string) error {
		return &palaro.Error{Code: palaro.EINVALID, Message: "Please correct the highlighted fields.", Fields: f}
	}
	if cur != nil && cur.PassKind == in.PassKind && cur.PassDates == in.PassDates && cur.PassOfCode == in.PassOf {
		if cur.PassOf == 0 {
			return nil, nil
		}
		return cur.PassOf, nil
	}
	if cur == nil && in.PassKind == "" && in.PassOf == "" {
		return nil, nil
	}
	types, err := queryRows(ctx, tx, `SELECT id, code, pass_kind, coalesce(pass_of, 0) FROM ticket_types WHERE event_id = ?`,
		[]any{eventID}, func(r rowScanner) (t palaro.TicketType, err error) {
			err = r.Scan(&t.ID, &t.Code, &t.PassKind, &t.PassOf)
			return t, err
		})
	if err != nil {
		return nil, err
	}
	t := palaro.TicketType{PassKind: in.PassKind, PassDates: in.PassDates}
	if cur != nil {
		t.ID = cur.ID
	}
	if in.PassOf != "" {
		i := slices.IndexFunc(types, func(o palaro.TicketType) bool { return o.Code == in.PassOf })
		if i < 0 {
			return nil, fail(map[string]string{palaro.FieldPassOf: palaro.MsgPassOfRequired})
		}
		t.PassOf = types[i].ID
	}
	var dates int
	if err := tx.QueryRowContext(ctx, `SELECT count(*) FROM event_dates WHERE event_id = ?`, eventID).Scan(&dates); err != nil {
		return nil, err
	}
	if f := palaro.ValidatePass(t, types, dates); len(f) > 0 {
		return nil, fail(f)
	}
	if cur != nil {
		var orders int
		if err := tx.QueryRowContext(ctx, `SELECT count(*) FROM orders WHERE ticket_type_id = ? AND kind = 'tickets'
			AND status IN ('pending', 'paid', 'refund')`, cur.ID).Scan(&orders); err != nil {
			return nil, err
		}
		if orders > 0 || cur.Sold+cur.Held > 0 {
			field := palaro.FieldPassKind
			switch {
			case cur.PassKind != in.PassKind:
			case cur.PassDates != in.PassDates:
				field = palaro.FieldPassDates
			default:
				field = palaro.FieldPassOf
			}
			return nil, fail(map[string]string{field: palaro.MsgPassSold})
		}
	}
	if t.PassOf == 0 {
		return nil, nil
	}
	return t.PassOf, nil
}

// changedFields describes, for the audit log, the fields that differ between two values of the
// same type, each as {"from": before, "to": after} (a field one of them leaves out is null there).
func changedFields[T any](before, after T) string {
	var a, b map[string]any
	_ = json.Unmarshal([]byte(palaro.AuditDetail(before)), &b)
	_ = json.Unmarshal([]byte(palaro.AuditDetail(after)), &a)
	changed := map[string]any{}
	for _, m := range []map[string]any{a, b} {
		for k := range m {
			if palaro.AuditDetail(a[k]) != palaro.AuditDetail(b[k]) {
				changed[k] = map[string]any{"from": b[k], "to": a[k]}
			}
		}
	}
	return palaro.AuditDetail(changed)
}

// SearchOrders returns an event's orders matching an e-mail, order id or ticket code (and with
// places on f.DateID's date of a series, when set, orderOnDate), newest first: the event's orders are walked by orders_event (newest first, so an empty search stops at
// its limit), and the tickets matching the code or e-mail are found by their own indexes (ticket
// codes are stored in capitals), not looked up order by order.
func (s *OrganizerService) SearchOrders(ctx context.Context, f palaro.OrderSearch) (_ []*palaro.Order, err error) {
	defer wrapErr(&err, "store: SearchOrders")

	if f.Limit <= 0 {
		f.Limit = 100
	}
	q := strings.TrimSpace(f.Query)
	tx, err := s.db.beginRead(ctx)
	if err != nil {
		return nil, err
	}
	defer tx.Rollback()
	return loadOrders(ctx, tx, `o.event_id = ? AND (? = '' OR o.status = ?) AND (? = ''
		OR o.email LIKE '%' || lower(?) || '%' ESCAPE '\' OR o.public_id = ?
		OR o.id IN (SELECT t.order_id FROM tickets t WHERE t.code = upper(?) OR t.email = lower(?)))
		AND `+orderOnDate+` ORDER BY o.id DESC LIMIT ?`, f.EventID, f.Status, f.Status, q, likeEscape(q), q, q, q,
		f.DateID, f.DateID, f.DateID, f.Limit)
}

// likeEscape escapes LIKE's wildcards in s.
func likeEscape(s string) string {
	return strings.NewReplacer(`\`, `\\`, `%`, `\%`, `_`, `\_`).Replace(s)
}

// tokenPrefix starts every API token, so a leaked one is easy to recognise.
const tokenPrefix = "plr_"

func tokenHash(secret string) string {
	sum := sha256.Sum256([]byte(secret))
	return hex.EncodeToString(sum[:])
}

// CreateToken creates an API token tied to its creator (creatorID, 0 for the operator) and returns
// its secret, which is not stored.
func (s *OrganizerService) CreateToken(ctx context.Context, orgID int64, role, name, createdBy string, creatorID int64) (_ string, _ *palaro.APIToken, err error) {
	defer wrapErr(&err, "store: CreateToken(%d)", orgID)

	if !palaro.ValidTokenRole(role) {
		return "", nil, &palaro.Error{Code: palaro.EINVALID, Message: "A token's role is manager or gate.",
			Fields: map[string]string{palaro.FieldRole: "A token's role is manager or gate."}}
	}
	name = strings.TrimSpace(name)
	if len(name) > 100 {
		return "", nil, &palaro.Error{Code: palaro.EINVALID, Message: "The name must be at most 100 characters.",
			Fields: map[string]string{palaro.FieldName: "The name must be at most 100 characters."}}
	}
	b := make([]byte, 32)
	_, _ = rand.Read(b)
	secret := tokenPrefix + base64.RawURLEncoding.EncodeToString(b)
	tok, err := write(ctx, s.db, func(ctx context.Context, tx *sql.Tx) (*palaro.APIToken, error) {
		now := s.db.Now()
		var creator any
		if creatorID != 0 {
			creator = creatorID
		}
		id, err := insertID(ctx, tx, `INSERT INTO api_tokens (token_hash, organizer_id, role, name, created_by, created_by_user_id, created_at)
		VALUES (?, ?, ?, ?, ?, ?, ?)`, tokenHash(secret), orgID, role, name, createdBy, creator, formatTime(now))
		if err != nil {
			return nil, err
		}
		tokens, err := queryTokens(ctx, tx, `t.id = ?`, id)
		if err != nil || len(tokens) != 1 {
			return nil, cmpErr(err, "token not stored")
		}
		return &tokens[0], nil
	})
	if err != nil {
		return "", nil, err
	}
	return secret, tok, nil
}

func cmpErr(err error, msg string) error {
	if err != nil {
		return err
	}
	return errors.New(msg)
}

func queryTokens(ctx context.Context, q querier, where string, args ...any) ([]palaro.APIToken, error) {
	rows, err := q.QueryContext(ctx, `SELECT t.id, t.organizer_id, o.name, t.role, t.name, t.created_by, t.created_at,
		t.last_used_at, t.revoked_at FROM api_tokens t JOIN organizers o ON o.id = t.organizer_id WHERE `+where+`
		ORDER BY t.id DESC`, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []palaro.APIToken
	for rows.Next() {
		var t palaro.APIToken
		var created, used, revoked sql.NullString
		if err := rows.Scan(&t.ID, &t.OrganizationID, &t.OrganizationName, &t.Role, &t.Name, &t.CreatedBy, &created,
			&used, &revoked); err != nil {
			return nil, err
		}
		t.CreatedAt, _ = parseTime(created)
		t.LastUsedAt, _ = parseTime(used)
		t.RevokedAt, _ = parseTime(revoked)
		out = append(out, t)
	}
	return out, rows.Err()
}

// ListTokens returns the organizations' tokens, newest first.
func (s *OrganizerService) ListTokens(ctx context.Context, orgIDs []int64) (_ []palaro.APIToken, err error) {
	defer wrapErr(&err, "store: ListTokens")

	if len(orgIDs) == 0 {
		return nil, nil
	}
	args, marks := int64Args(orgIDs)
	return queryTokens(ctx, s.db.read, `t.organizer_id IN (`+marks+`)`, args...)
}

// RevokeToken revokes a token of one of the organizations.
func (s *OrganizerService) RevokeToken(ctx context.Context, orgIDs []int64, tokenID int64) (err error) {
	defer wrapErr(&err, "store: RevokeToken(%d)", tokenID)

	if len(orgIDs) == 0 {
		return palaro.Errorf(palaro.ENOTFOUND, "Token not found.")
	}
	args, marks := int64Args(orgIDs)
	return s.db.inWrite(ctx, func(ctx context.Context, tx *sql.Tx) error {
		res, err := tx.ExecContext(ctx, `UPDATE api_tokens SET revoked_at = coalesce(revoked_at, ?) WHERE id = ?
		AND organizer_id IN (`+marks+`)`, append([]any{formatTime(s.db.Now()), tokenID}, args...)...)
		if err != nil {
			return err
		}
		if n, _ := res.RowsAffected(); n == 0 {
			return palaro.Errorf(palaro.ENOTFOUND, "Token not found.")
		}
		return nil
	})
}

// AuthenticateToken returns the caller a live token of an approved organization stands for: a
// member's token only while they are a member of its organization, with its role narrowed to theirs.
// The token's row is read once and kept in the catalog (every gate scan is authenticated) until a
// token, membership or organization changes, so a revocation counts from its commit; for at most
// catalogTTL where the writer connection cannot see it (another server of a PostgreSQL database).
func (s *OrganizerService) AuthenticateToken(ctx context.Context, secret string) (_ *palaro.Caller, err error) {
	defer wrapErr(&err, "store: AuthenticateToken")

	unauthorized := palaro.Errorf(palaro.EUNAUTHORIZED, "The API token is missing, unknown or revoked.")
	if !strings.HasPrefix(secret, tokenPrefix) || len(secret) > 100 {
		return nil, unauthorized
	}
	v, err := s.db.cached(catalogToken+tokenHash(secret), func() (any, error) {
		var t liveToken
		var creator sql.NullInt64
		var creatorRole sql.NullString
		err := s.db.read.QueryRowContext(context.WithoutCancel(ctx), `SELECT t.id, t.created_by, o.id, o.name, t.role,
		o.status = 'approved', t.last_used_at, t.created_by_user_id, m.role
		FROM api_tokens t JOIN organizers o ON o.id = t.organizer_id
		LEFT JOIN organizer_members m ON m.organizer_id = t.organizer_id AND m.user_id = t.created_by_user_id
		WHERE t.token_hash = ? AND t.revoked_at IS NULL`,
			tokenHash(secret)).Scan(&t.id, &t.email, &t.m.OrganizationID, &t.m.OrganizationName, &t.m.Role, &t.m.Approved, &t.used,
			&creator, &creatorRole)
		if creator.Valid {
			t.m.Role = palaro.TokenRole(t.m.Role, creatorRole.String)
			t.refused = t.m.Role == "" // its creator left the organization, or holds no role the token may act with
		}
		return t, err
	})
	if errors.Is(err, sql.ErrNoRows) {
		return nil, unauthorized
	} else if err != nil {
		return nil, err
	}
	t := v.(liveToken)
	if t.refused {
		return nil, unauthorized
	}
	c := palaro.Caller{TokenID: t.id, Email: t.email, Memberships: []palaro.Membership{t.m}}
	// The console shows when a token was last used, to the hour: one write per token and hour at most.
	now := s.db.Now()
	if last, _ := parseTime(t.used); now.Sub(last) >= tokenUseResolution {
		if err := s.markTokenUsed(ctx, c.TokenID, now); err != nil {
			return nil, err
		}
	}
	return &c, nil
}

// liveToken is a live token as AuthenticateToken reads it (and the catalog keeps it): its id,
// creator's e-mail, last use, and its organization with the role it acts with; refused when its
// creator's membership no longer lets it act.
type liveToken struct {
	id      int64
	email   string
	used    sql.NullString
	m       palaro.Membership
	refused bool
}

// tokenUseResolution is how precisely a token's last use is recorded.
const tokenUseResolution = time.Hour

func (s *OrganizerService) markTokenUsed(ctx context.Context, tokenID int64, now time.Time) error {
	return s.db.inWrite(ctx, func(ctx context.Context, tx *sql.Tx) error {
		if _, err := tx.ExecContext(ctx, `UPDATE api_tokens SET last_used_at = ? WHERE id = ?`, formatTime(now), tokenID); err != nil {
			return err
		}
		return nil
	})
}

// ListAudit returns an event's audit log, newest first.
func (s *OrganizerService) ListAudit(ctx context.Context, eventID int64, limit int) (_ []palaro.AuditEntry, err error) {
	defer wrapErr(&err, "store: ListAudit(%d)", eventID)

	if limit <= 0 || limit > 500 {
		limit = 100
	}
	return queryRows(ctx, s.db.read, `SELECT actor, action, detail, created_at FROM audit_log
		WHERE event_id = ? ORDER BY id DESC LIMIT ?`, []any{eventID, limit}, func(r rowScanner) (a palaro.AuditEntry, err error) {
		var at sql.NullString
		if err := r.Scan(&a.Actor, &a.Action, &a.Detail, &at); err != nil {
			return a, err
		}
		a.CreatedAt, _ = parseTime(at)
		return a, nil
	})
}
