package store

import (
	"bytes"
	"cmp"
	"context"
	"database/sql"
	"embed"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"
	"time"

	"palaro"
)

// IsEmpty reports whether the database has no events yet.
func (db *DB) IsEmpty(ctx context.Context) (bool, error) {
	var n int
	err := db.read.QueryRowContext(ctx, `SELECT COUNT(*) FROM events`).Scan(&n)
	return n == 0, err
}

// DemoOrganizerPassword is the password of the demo accounts.
const DemoOrganizerPassword = "Organizer2026"

// Demo accounts (demo mode only), as store/demo/organizers.json lists them.
const (
	DemoOrganizerEmail = "organizer@palaro.ph" // owns every demo organization and so every demo event
	DemoGateEmail      = "gate@palaro.ph"      // gate member of every demo organization
	DemoRivalEmail     = "rival@palaro.ph"     // owns one small organization and event of its own
	DemoOperatorEmail  = "operator@palaro.ph"  // an operator: the /operator console (news, partner pages)
	DemoCaptainEmail   = "captain@palaro.ph"   // captain of the demo tournament's teams
)

// demoFiles are the demo data set, described in store/demo/README.md.
//
//go:embed demo/*.json
var demoFiles embed.FS

// SeedDemo loads the demo data set (store/demo). Its dates are relative to now, so that 'today',
// 'this week' and 'this month' always have events. It refuses to run on a database that has events.
func (db *DB) SeedDemo(ctx context.Context, now time.Time) error {
	empty, err := db.IsEmpty(ctx)
	if err != nil {
		return err
	}
	if !empty {
		return palaro.Errorf(palaro.ECONFLICT, "The database already has events; demo data is only loaded into an empty database.")
	}
	data, err := readSeedData()
	if err != nil {
		return err
	}
	// Its own transaction, not a unit of the batching writer: loading the demo data set is a
	// one-off of thousands of rows (palaro seed, or a demo server's start on an empty database),
	// run before any request is served, with nothing to batch it with; as a unit it would hold up
	// every unit queued behind it for its whole length.
	tx, err := db.beginWrite(ctx)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	if err := data.insert(ctx, db, tx, now); err != nil {
		return err
	}
	if err := db.syncIDSequences(ctx, tx); err != nil {
		return fmt.Errorf("seed: %w", err)
	}
	return tx.Commit()
}

// seedData is the demo data set, one field a file of store/demo.
type seedData struct {
	organizers seedOrganizers
	venues     []seedVenue
	tags       map[string]string // slug: name
	events     seedEvents
	promos     []seedPromo
	orders     seedOrders
	activities seedActivities
	news       seedNews
	tourneys   seedTournaments
	series     []seedSeries // the series among events, with their dates, once inserted
}

// readSeedData reads the demo files; a field a file does not know is an error.
func readSeedData() (*seedData, error) {
	var d seedData
	for name, v := range map[string]any{"organizers.json": &d.organizers, "venues.json": &d.venues, "tags.json": &d.tags,
		"events.json": &d.events, "promo_codes.json": &d.promos, "orders.json": &d.orders,
		"activities.json": &d.activities, "news.json": &d.news, "tournaments.json": &d.tourneys} {
		b, err := demoFiles.ReadFile("demo/" + name)
		if err != nil {
			return nil, err
		}
		dec := json.NewDecoder(bytes.NewReader(b))
		dec.DisallowUnknownFields()
		if err := dec.Decode(v); err != nil {
			return nil, fmt.Errorf("demo data %s: %w", name, err)
		}
	}
	return &d, nil
}

// insert writes the data set in tx (db's writing transaction). Rows without ids of their own in the
// files get them in the files' order: events, ticket types and accounts are numbered as they are listed.
func (d *seedData) insert(ctx context.Context, db *DB, tx *sql.Tx, now time.Time) error {
	at := formatTime(now)
	for _, o := range d.organizers.Organizers {
		var approved any
		if o.Approved {
			approved = at
		}
		if _, err := tx.ExecContext(ctx, `INSERT INTO organizers (id, name, email, url, approved_at, registered_name, tin,
			registered_address, vat_registered) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
			o.ID, o.Name, o.Email, o.URL, approved, o.RegisteredName, o.TIN, o.RegisteredAddress, o.VATRegistered); err != nil {
			return fmt.Errorf("seed organizer %s: %w", o.Name, err)
		}
	}
	for _, v := range d.venues {
		if _, err := tx.ExecContext(ctx, `INSERT INTO venues (id, name, address, city, region, latitude, longitude)
			VALUES (?, ?, ?, ?, ?, ?, ?)`, v.ID, v.Name, v.Address, v.City, v.Region, v.Latitude, v.Longitude); err != nil {
			return fmt.Errorf("seed venue %s: %w", v.Name, err)
		}
	}
	for _, slug := range slices.Sorted(maps.Keys(d.tags)) {
		if _, err := tx.ExecContext(ctx, `INSERT INTO tags (slug, name) VALUES (?, ?)`, slug, d.tags[slug]); err != nil {
			return fmt.Errorf("seed tag %s: %w", slug, err)
		}
	}
	local := now.In(palaro.Manila)
	today := time.Date(local.Year(), local.Month(), local.Day(), 0, 0, 0, 0, palaro.Manila)
	for _, e := range d.events.Events {
		if err := d.insertEvent(ctx, tx, e, today, now); err != nil {
			return fmt.Errorf("seed event %s: %w", e.Code, err)
		}
	}
	for _, p := range d.promos {
		if err := insertSeedPromo(ctx, tx, p, now); err != nil {
			return fmt.Errorf("seed promo code %s: %w", p.Code, err)
		}
	}
	if err := d.insertAccounts(ctx, tx, at); err != nil {
		return fmt.Errorf("seed organizer accounts: %w", err)
	}
	if err := ensureSeatLayouts(ctx, tx); err != nil {
		return fmt.Errorf("seed seat layouts: %w", err)
	}
	if err := d.orders.insertCheckIns(ctx, tx, now); err != nil {
		return fmt.Errorf("seed demo orders and check-ins: %w", err)
	}
	if err := d.orders.insertSoldTickets(ctx, tx, now); err != nil {
		return fmt.Errorf("seed demo sold tickets: %w", err)
	}
	if err := db.syncIDSequences(ctx, tx); err != nil { // the rows above chose their ids; the orders below take the next
		return fmt.Errorf("seed: %w", err)
	}
	if err := d.insertSeriesSales(ctx, db, tx, now); err != nil {
		return fmt.Errorf("seed demo series sales: %w", err)
	}
	if err := d.activities.insert(ctx, tx, now); err != nil {
		return fmt.Errorf("seed demo activities: %w", err)
	}
	if err := d.news.insert(ctx, tx, now); err != nil {
		return fmt.Errorf("seed demo news: %w", err)
	}
	if err := d.tourneys.insert(ctx, tx, now); err != nil {
		return fmt.Errorf("seed demo tournaments: %w", err)
	}
	return nil
}

// seedOffset moves t by a relative time of the demo files: whole days, months or years ("-1d",
// "1mo", "1y": calendar ones, as time.AddDate) or a Go duration ("-2h", "90m").
func seedOffset(t time.Time, offset string) (time.Time, error) {
	for _, unit := range []struct {
		suffix string
		add    func(n int) time.Time
	}{
		{"d", func(n int) time.Time { return t.AddDate(0, 0, n) }},
		{"mo", func(n int) time.Time { return t.AddDate(0, n, 0) }},
		{"y", func(n int) time.Time { return t.AddDate(n, 0, 0) }},
	} {
		if n, ok := strings.CutSuffix(offset, unit.suffix); ok {
			count, err := strconv.Atoi(n)
			if err != nil {
				return t, fmt.Errorf("relative time %q: %w", offset, err)
			}
			return unit.add(count), nil
		}
	}
	d, err := time.ParseDuration(offset)
	if err != nil {
		return t, fmt.Errorf("relative time %q: %w", offset, err)
	}
	return t.Add(d), nil
}

// seedOrganizers is organizers.json: the organizations and the demo accounts.
type seedOrganizers struct {
	Organizers []seedOrganizer `json:"organizers"`
	Accounts   []seedAccount   `json:"accounts"`
}

// seedOrganizer is an organization, with the id it is inserted with.
type seedOrganizer struct {
	ID       int64  `json:"id"`
	Name     string `json:"name"`
	Email    string `json:"email"`
	URL      string `json:"url"`
	Approved bool   `json:"approved"` // approved at the seed's time (the others have no approval time)
	// RegisteredName, TIN and RegisteredAddress are the organization's details for its sales invoices.
	RegisteredName    string `json:"registeredName"`
	TIN               string `json:"tin"`
	RegisteredAddress string `json:"registeredAddress"`
	// VATRegistered is true for a VAT-registered organization.
	VATRegistered bool `json:"vatRegistered"`
}

// seedAccount is a demo account: active, its password DemoOrganizerPassword.
type seedAccount struct {
	Email     string `json:"email"`
	FirstName string `json:"firstName"`
	LastName  string `json:"lastName"`
	Mobile    string `json:"mobile"`
	Role      string `json:"role"`     // "organizer" or "user"
	Operator  bool   `json:"operator"` // may use the /operator console
	// Memberships lists, by member role, the names of the organizations the account belongs to.
	Memberships map[string][]string `json:"memberships"`
}

// organizerID returns the id of the organization of that name.
func (d *seedData) organizerID(name string) (int64, error) {
	for _, o := range d.organizers.Organizers {
		if o.Name == name {
			return o.ID, nil
		}
	}
	return 0, fmt.Errorf("no demo organizer %q", name)
}

// insertAccounts adds the demo accounts, the operator's grant and their memberships.
func (d *seedData) insertAccounts(ctx context.Context, tx *sql.Tx, at string) error {
	hash, err := palaro.HashPassword(DemoOrganizerPassword)
	if err != nil {
		return err
	}
	for _, a := range d.organizers.Accounts {
		userID, err := insertID(ctx, tx, `INSERT INTO users (email, password_hash, first_name, last_name, mobile_number, role,
			status, created_at, updated_at, activated_at) VALUES (?, ?, ?, ?, ?, ?, 'active', ?, ?, ?)`,
			a.Email, hash, a.FirstName, a.LastName, a.Mobile, a.Role, at, at, at)
		if err != nil {
			return fmt.Errorf("%s: %w", a.Email, err)
		}
		if a.Operator {
			if _, err := tx.ExecContext(ctx, `INSERT INTO operators (user_id, granted_at) VALUES (?, ?)`, userID, at); err != nil {
				return err
			}
		}
		for _, role := range slices.Sorted(maps.Keys(a.Memberships)) {
			for _, name := range a.Memberships[role] {
				orgID, err := d.organizerID(name)
				if err != nil {
					return fmt.Errorf("%s: %w", a.Email, err)
				}
				if _, err := tx.ExecContext(ctx, `INSERT INTO organizer_members (organizer_id, user_id, role, created_at)
					VALUES (?, ?, ?, ?)`, orgID, userID, role, at); err != nil {
					return fmt.Errorf("%s in %s: %w", a.Email, name, err)
				}
			}
		}
	}
	return nil
}

// seedVenue is a venue of venues.json, with the id it is inserted with.
type seedVenue struct {
	ID        int64   `json:"id"`
	Name      string  `json:"name"`
	Address   string  `json:"address"`
	City      string  `json:"city"`
	Region    string  `json:"region"`
	Latitude  float64 `json:"latitude"`
	Longitude float64 `json:"longitude"`
}

// seedEvents is events.json: the events, and the links and add-on sets they name.
type seedEvents struct {
	// SalesStart is when every ticket type goes on sale, relative to the seed's time; each sells
	// until its event ends.
	SalesStart string                 `json:"salesStart"`
	Links      map[string]seedLink    `json:"links"`
	AddOnSets  map[string][]seedAddOn `json:"addOnSets"`
	Events     []seedEvent            `json:"events"`
}

// seedLink is a link an event shows.
type seedLink struct {
	Label string `json:"label"`
	URL   string `json:"url"`
}

// seedAddOn is an add-on of an add-on set; its price is in centavos.
type seedAddOn struct {
	Name     string       `json:"name"`
	Price    palaro.Money `json:"price"`
	Category string       `json:"category"`
	Notes    string       `json:"notes"`
	Image    string       `json:"image"`
}

// seedEvent is an event: it starts on Day (days from the seed's day in Manila) at Time (Manila,
// "15:04"), or, with StartsIn, that long after the start of the seed's hour; it lasts Hours. A
// series has Dates instead, and runs from its first date's start to its last date's end. Venue
// and Organizer are names; Links and AddOns name entries of the file's links and add-on sets.
type seedEvent struct {
	Code           string       `json:"code"`
	Name           string       `json:"name"`
	Summary        string       `json:"summary"`
	Description    seedText     `json:"description"`
	Image          string       `json:"image"`
	StartsIn       string       `json:"startsIn"`
	Day            *int         `json:"day"`
	Time           string       `json:"time"`
	Hours          float64      `json:"hours"`
	Dates          *seedDates   `json:"dates"`
	Venue          string       `json:"venue"`
	Organizer      string       `json:"organizer"`
	Popularity     int          `json:"popularity"`
	Status         string       `json:"status"` // scheduled when left out
	Tags           []string     `json:"tags"`
	Links          []string     `json:"links"`
	AddOns         string       `json:"addOns"`
	RequiredFields []string     `json:"requiredFields"`
	SurveyQuestion string       `json:"surveyQuestion"`
	SurveyAnswers  []string     `json:"surveyAnswers"`
	Tickets        []seedTicket `json:"tickets"`
}

// seedTicket is a ticket type of an event (its code is the event's code, "-" and Code); its price
// is in centavos. Sold tickets of it are issued, each of a paid order (insertSoldTickets; for a
// series, insertSeriesSales: Sold is then a day ticket's sales on its first date, or the passes sold).
type seedTicket struct {
	Code         string       `json:"code"`
	Name         string       `json:"name"`
	Description  string       `json:"description"`
	Price        palaro.Money `json:"price"`
	Discount     float64      `json:"discount"`
	Max          int          `json:"max"`
	Capacity     int          `json:"capacity"`
	Sold         int          `json:"sold"`
	Promo        bool         `json:"promo"`
	Survey       bool         `json:"survey"`
	Seated       bool         `json:"seated"`
	Disclaimer   string       `json:"disclaimer"`
	PaymentTypes []string     `json:"paymentTypes"` // QR and CARD when left out, and GCASH and MAYA with a price
	// SeniorPWD is true for admission the senior citizen and PWD discount applies to.
	SeniorPWD bool `json:"seniorPwd"`
	// Pass makes the type a season pass of a series (palaro.PassEvery): valid on every date, it
	// takes a place (and its seat) of the day type PassOf (a Code of the same event) on each.
	Pass   string `json:"pass"`
	PassOf string `json:"passOf"`
}

// starts is when e starts, for a seed at now on the Manila day today.
func (e seedEvent) starts(today, now time.Time) (time.Time, error) {
	if e.StartsIn != "" {
		return seedOffset(now.Truncate(time.Hour), e.StartsIn)
	}
	clock, err := time.Parse("15:04", e.Time)
	if err != nil || e.Day == nil {
		return now, fmt.Errorf("give startsIn, or day and time (15:04)")
	}
	return today.AddDate(0, 0, *e.Day).Add(time.Duration(clock.Hour())*time.Hour + time.Duration(clock.Minute())*time.Minute), nil
}

// insertEvent adds an event with its tags, links, ticket types and add-ons.
func (d *seedData) insertEvent(ctx context.Context, tx *sql.Tx, e seedEvent, today, now time.Time) error {
	var starts, ends time.Time
	var dates []palaro.DateInput
	if e.Dates != nil {
		var err error
		if dates, err = e.Dates.inputs(now); err != nil {
			return err
		}
		starts, ends = dates[0].StartsAt, dates[len(dates)-1].EndsAt
	} else {
		var err error
		if starts, err = e.starts(today, now); err != nil {
			return err
		}
		ends = starts.Add(time.Duration(e.Hours * float64(time.Hour)))
	}
	salesStart, err := seedOffset(now, d.events.SalesStart)
	if err != nil {
		return err
	}
	venueID := int64(0)
	for _, v := range d.venues {
		if v.Name == e.Venue {
			venueID = v.ID
		}
	}
	if venueID == 0 {
		return fmt.Errorf("no demo venue %q", e.Venue)
	}
	organizerID, err := d.organizerID(e.Organizer)
	if err != nil {
		return err
	}
	required, _ := json.Marshal(palaro.NonNilStrings(e.RequiredFields))
	answers, _ := json.Marshal(palaro.NonNilStrings(e.SurveyAnswers))
	eventID, err := insertID(ctx, tx, `INSERT INTO events (code, name, summary, description, starts_at, ends_at,
		image_url, status, popularity, venue_id, organizer_id, required_fields, survey_question, survey_answers)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
		e.Code, e.Name, e.Summary, string(e.Description), formatTime(starts), formatTime(ends), e.Image,
		cmp.Or(e.Status, palaro.EventScheduled), e.Popularity, venueID, organizerID, string(required), e.SurveyQuestion,
		string(answers))
	if err != nil {
		return err
	}
	for _, tag := range e.Tags {
		if _, err := tx.ExecContext(ctx, `INSERT INTO event_tags (event_id, tag_slug) VALUES (?, ?)`, eventID, tag); err != nil {
			return fmt.Errorf("tag %s: %w", tag, err)
		}
	}
	for i, name := range e.Links {
		l, ok := d.events.Links[name]
		if !ok {
			return fmt.Errorf("no demo link %q", name)
		}
		if _, err := tx.ExecContext(ctx, `INSERT INTO event_links (event_id, position, label, url) VALUES (?, ?, ?, ?)`,
			eventID, i, l.Label, l.URL); err != nil {
			return err
		}
	}
	for i, t := range e.Tickets {
		paymentTypes := t.PaymentTypes
		if len(paymentTypes) == 0 {
			paymentTypes = []string{palaro.PaymentQR, palaro.PaymentCard}
			if t.Price > 0 {
				paymentTypes = append(paymentTypes, palaro.PaymentGCash, palaro.PaymentMaya)
			}
		}
		payments, _ := json.Marshal(paymentTypes)
		sold := t.Sold
		if dates != nil {
			sold = 0 // insertSeriesSales sells the series' tickets as orders do
		}
		var passOf any
		if t.Pass != "" {
			if dates == nil || t.Pass != palaro.PassEvery {
				return fmt.Errorf("ticket type %s: a demo pass is a series' pass for every date", t.Code)
			}
			if err := tx.QueryRowContext(ctx, `SELECT id FROM ticket_types WHERE code = ?`, e.Code+"-"+t.PassOf).Scan(&passOf); err != nil {
				return fmt.Errorf("ticket type %s: pass of %q: %w", t.Code, t.PassOf, err)
			}
		}
		if _, err := tx.ExecContext(ctx, `INSERT INTO ticket_types (event_id, code, name, description, position,
			price, discount, max_purchasable, capacity, sold, sales_start, sales_end, show_promo_field,
			with_survey, disclaimer, payment_types, seated, senior_pwd_discount, pass_kind, pass_of)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
			eventID, e.Code+"-"+t.Code, t.Name, t.Description, i, t.Price, t.Discount, t.Max, t.Capacity, sold,
			formatTime(salesStart), formatTime(ends), t.Promo, t.Survey, t.Disclaimer, string(payments), t.Seated,
			t.SeniorPWD, t.Pass, passOf); err != nil {
			return fmt.Errorf("ticket type %s: %w", t.Code, err)
		}
	}
	if dates != nil {
		created, err := insertDates(ctx, tx, eventID, dates, now)
		if err != nil {
			return err
		}
		d.series = append(d.series, seedSeries{eventID: eventID, event: e, dates: created})
	}
	if e.AddOns == "" {
		return nil
	}
	addOns, ok := d.events.AddOnSets[e.AddOns]
	if !ok {
		return fmt.Errorf("no demo add-on set %q", e.AddOns)
	}
	for _, a := range addOns {
		if _, err := tx.ExecContext(ctx, `INSERT INTO add_ons (event_id, name, price, category, notes, image_url)
			VALUES (?, ?, ?, ?, ?, ?)`, eventID, a.Name, a.Price, a.Category, a.Notes, a.Image); err != nil {
			return err
		}
	}
	return nil
}

// seedPromo is a promo code of promo_codes.json, valid from ValidFrom to ValidUntil (relative to
// the seed's time); its amount is in centavos.
type seedPromo struct {
	Code       string       `json:"code"`
	Kind       string       `json:"kind"`
	Percent    int          `json:"percent"`
	Amount     palaro.Money `json:"amount"`
	UsageLimit int          `json:"usageLimit"`
	ValidFrom  string       `json:"validFrom"`
	ValidUntil string       `json:"validUntil"`
}

// insertSeedPromo adds a promo code.
func insertSeedPromo(ctx context.Context, tx *sql.Tx, p seedPromo, now time.Time) error {
	from, err := seedOffset(now, p.ValidFrom)
	if err != nil {
		return err
	}
	until, err := seedOffset(now, p.ValidUntil)
	if err != nil {
		return err
	}
	return insertPromo(ctx, tx, &palaro.PromoCode{Code: p.Code, Kind: p.Kind, Percent: p.Percent, Amount: p.Amount,
		UsageLimit: p.UsageLimit, ValidFrom: from, ValidUntil: until})
}

// seedText is a text of the demo files: a string, or a list of lines joined with newlines.
type seedText string

// UnmarshalJSON reads a string or a list of lines.
func (t *seedText) UnmarshalJSON(b []byte) error {
	var lines []string
	if err := json.Unmarshal(b, &lines); err == nil {
		*t = seedText(strings.Join(lines, "\n"))
		return nil
	}
	var s string
	if err := json.Unmarshal(b, &s); err != nil {
		return err
	}
	*t = seedText(s)
	return nil
}

// seedActivities is activities.json: the activities each of a few events gets, open from Opens
// (after the start of the seed's hour) until CloseAfterEvent after the event's end, and the
// participants, registered Registered after the seed's time, who have visits worth points.
type seedActivities struct {
	Events          []string          `json:"events"`
	Opens           string            `json:"opens"`
	CloseAfterEvent string            `json:"closeAfterEvent"`
	Activities      []seedActivity    `json:"activities"`
	Registered      string            `json:"registered"`
	Participants    []seedParticipant `json:"participants"`
}

// seedActivity is an activity; the participants' visits to it (none to a scratch card) carry
// VisitRemark.
type seedActivity struct {
	Code        string      `json:"code"`
	Kind        string      `json:"kind"`
	Name        string      `json:"name"`
	Description string      `json:"description"`
	Points      int         `json:"points"`
	WinPercent  int         `json:"winPercent"`
	Quiz        string      `json:"quiz"`
	Prizes      []seedPrize `json:"prizes"`
	VisitRemark string      `json:"visitRemark"`
}

// seedPrize is a prize of a scratch card.
type seedPrize struct {
	Code      string `json:"code"`
	Name      string `json:"name"`
	Image     string `json:"image"`
	Stock     int    `json:"stock"`
	Claimable bool   `json:"claimable"`
}

// seedParticipant is a participant of the activities.
type seedParticipant struct {
	FirstName string `json:"firstName"`
	LastName  string `json:"lastName"`
	Mobile    string `json:"mobile"`
}

// insertActivity adds an activity and its prizes to an event; it returns the activity's id.
func insertActivity(ctx context.Context, tx *sql.Tx, eventID int64, a palaro.Activity, now time.Time) (int64, error) {
	id, err := insertID(ctx, tx, `INSERT INTO activities (event_id, code, kind, name, description, points, starts_at, ends_at,
		ticket_holders_only, win_percent, quiz, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
		eventID, a.Code, a.Kind, a.Name, a.Description, a.Points, formatTime(a.StartsAt), formatTime(a.EndsAt),
		a.TicketHoldersOnly, a.WinPercent, a.Quiz, formatTime(now))
	if err != nil {
		return 0, err
	}
	for i, p := range a.Prizes {
		if _, err := tx.ExecContext(ctx, `INSERT INTO prizes (activity_id, position, code, name, image_url, stock, claimable)
			VALUES (?, ?, ?, ?, ?, ?, ?)`, id, i, p.Code, p.Name, p.ImageURL, p.Stock, p.Claimable); err != nil {
			return 0, err
		}
	}
	return id, nil
}

// insert adds the participants, the activities of the events and the participants' visits.
func (s *seedActivities) insert(ctx context.Context, tx *sql.Tx, now time.Time) error {
	registered, err := seedOffset(now, s.Registered)
	if err != nil {
		return err
	}
	opens, err := seedOffset(now.Truncate(time.Hour), s.Opens)
	if err != nil {
		return err
	}
	var participants []int64
	for _, p := range s.Participants {
		id, err := insertID(ctx, tx, `INSERT INTO participants (public_id, first_name, last_name, mobile_number, created_at)
			VALUES (?, ?, ?, ?, ?)`, newPublicID(), p.FirstName, p.LastName, p.Mobile, formatTime(registered))
		if err != nil {
			return err
		}
		participants = append(participants, id)
	}
	for e, code := range s.Events {
		var eventID int64
		var endsAt string
		if err := tx.QueryRowContext(ctx, `SELECT id, ends_at FROM events WHERE code = ?`, code).Scan(&eventID, &endsAt); err != nil {
			return fmt.Errorf("demo activities of %s: %w", code, err)
		}
		ends, _ := time.Parse(timeFormat, endsAt)
		closes, err := seedOffset(ends, s.CloseAfterEvent)
		if err != nil {
			return err
		}
		for k, sa := range s.Activities {
			a := palaro.Activity{Code: sa.Code, Kind: sa.Kind, Name: sa.Name, Description: sa.Description, Points: sa.Points,
				StartsAt: opens, EndsAt: closes, WinPercent: sa.WinPercent, Quiz: sa.Quiz}
			for _, p := range sa.Prizes {
				a.Prizes = append(a.Prizes, palaro.Prize{Code: p.Code, Name: p.Name, ImageURL: p.Image, Stock: p.Stock,
					Claimable: p.Claimable})
			}
			id, err := insertActivity(ctx, tx, eventID, a, now)
			if err != nil {
				return fmt.Errorf("demo activity %s of %s: %w", a.Code, code, err)
			}
			if a.Kind == palaro.ActivityScratch {
				continue
			}
			// Participant i joins activity k of event e unless (i*7+k*3+e) is a multiple of 5 or
			// (i+k+e) one of 4: a spread of totals with some ties.
			for i, pid := range participants {
				if (i*7+k*3+e)%5 == 0 || (i+k+e)%4 == 0 {
					continue
				}
				at := now.Add(-time.Duration(1+(i*13+k*5+e*7)%20) * time.Hour)
				if _, err := tx.ExecContext(ctx, `INSERT INTO activity_visits (activity_id, participant_id, points, remarks, created_at)
					VALUES (?, ?, ?, ?, ?)`, id, pid, a.Points, sa.VisitRemark, formatTime(at)); err != nil {
					return err
				}
			}
		}
	}
	return nil
}

// seedNews is news.json: the articles and the partner bank's pages ("home" and "promo", in the
// shape the partner_pages table stores).
type seedNews struct {
	Articles     []seedArticle                 `json:"articles"`
	PartnerPages map[string]palaro.PartnerPage `json:"partnerPages"`
}

// seedArticle is a news article, published Published after the start of the seed's hour.
type seedArticle struct {
	Slug       string   `json:"slug"`
	Title      string   `json:"title"`
	Summary    string   `json:"summary"`
	EventCodes []string `json:"eventCodes"`
	Author     string   `json:"author"`
	Published  string   `json:"published"`
	Body       seedText `json:"body"`
}

// insert adds the articles and the partner pages.
func (s *seedNews) insert(ctx context.Context, tx *sql.Tx, now time.Time) error {
	for _, a := range s.Articles {
		published, err := seedOffset(now.Truncate(time.Hour), a.Published)
		if err != nil {
			return err
		}
		if err := saveArticle(ctx, tx, palaro.Article{Slug: a.Slug, Title: a.Title, Summary: a.Summary, Body: string(a.Body),
			EventCodes: a.EventCodes, Author: a.Author, PublishedAt: published}, now); err != nil {
			return err
		}
	}
	for _, name := range slices.Sorted(maps.Keys(s.PartnerPages)) {
		if err := savePartnerPage(ctx, tx, name, s.PartnerPages[name], now); err != nil {
			return err
		}
	}
	return nil
}
