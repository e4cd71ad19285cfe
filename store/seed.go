package store

import (
	"cmp"
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"time"

	"palaro"
)

// IsEmpty reports whether the database has no events yet.
func (db *DB) IsEmpty(ctx context.Context) (bool, error) {
	var n int
	err := db.read.QueryRowContext(ctx, `SELECT COUNT(*) FROM events`).Scan(&n)
	return n == 0, err
}

// SeedDemo loads the demo data set. Event dates are relative to now, so that 'today',
// 'this week' and 'this month' always have events. It refuses to run on a database that has events.
func (db *DB) SeedDemo(ctx context.Context, now time.Time) error {
	empty, err := db.IsEmpty(ctx)
	if err != nil {
		return err
	}
	if !empty {
		return palaro.Errorf(palaro.ECONFLICT, "The database already has events; demo data is only loaded into an empty database.")
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

	for _, o := range demoOrganizers {
		if _, err := tx.ExecContext(ctx, `INSERT INTO organizers (id, name, email, url) VALUES (?, ?, ?, ?)`,
			o.ID, o.Name, o.Email, o.URL); err != nil {
			return fmt.Errorf("seed organizer %s: %w", o.Name, err)
		}
	}
	for _, v := range demoVenues {
		if _, err := tx.ExecContext(ctx, `INSERT INTO venues (id, name, address, city, region, latitude, longitude)
			VALUES (?, ?, ?, ?, ?, ?, ?)`, v.ID, v.Name, v.Address, v.City, v.Region, v.Latitude, v.Longitude); err != nil {
			return fmt.Errorf("seed venue %s: %w", v.Name, err)
		}
	}
	for slug, name := range demoTags {
		if _, err := tx.ExecContext(ctx, `INSERT INTO tags (slug, name) VALUES (?, ?)`, slug, name); err != nil {
			return fmt.Errorf("seed tag %s: %w", slug, err)
		}
	}
	local := now.In(palaro.Manila)
	today := time.Date(local.Year(), local.Month(), local.Day(), 0, 0, 0, 0, palaro.Manila)
	for _, d := range demoEvents() {
		if err := insertDemoEvent(ctx, tx, d, today, now); err != nil {
			return fmt.Errorf("seed event %s: %w", d.code, err)
		}
	}
	if err := seedDemoPromoCodes(ctx, tx, now); err != nil {
		return err
	}
	if err := seedDemoOrganizers(ctx, tx, today, now); err != nil {
		return fmt.Errorf("seed organizer accounts: %w", err)
	}
	if err := ensureSeatLayouts(ctx, tx); err != nil {
		return fmt.Errorf("seed seat layouts: %w", err)
	}
	if err := seedDemoCheckIns(ctx, tx, now); err != nil {
		return fmt.Errorf("seed demo orders and check-ins: %w", err)
	}
	if err := seedDemoSoldTickets(ctx, tx, now); err != nil {
		return fmt.Errorf("seed demo sold tickets: %w", err)
	}
	if err := seedDemoActivities(ctx, tx, now); err != nil {
		return fmt.Errorf("seed demo activities: %w", err)
	}
	if err := seedDemoNews(ctx, tx, now); err != nil {
		return fmt.Errorf("seed demo news: %w", err)
	}
	if err := db.syncIDSequences(ctx, tx); err != nil {
		return fmt.Errorf("seed: %w", err)
	}
	return tx.Commit()
}

func insertDemoEvent(ctx context.Context, tx *sql.Tx, d demoEvent, today, now time.Time) error {
	starts := today.AddDate(0, 0, d.day).Add(time.Duration(d.hour * float64(time.Hour)))
	if d.fromNow {
		starts = now.Truncate(time.Hour).Add(time.Duration(d.hour * float64(time.Hour)))
	}
	ends := starts.Add(time.Duration(d.hours * float64(time.Hour)))
	required, _ := json.Marshal(orEmpty(d.required))
	answers, _ := json.Marshal(orEmpty(d.surveyAnswers))
	eventID, err := insertID(ctx, tx, `INSERT INTO events (code, name, summary, description, starts_at, ends_at,
		image_url, status, popularity, venue_id, organizer_id, required_fields, survey_question, survey_answers)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
		d.code, d.name, d.summary, d.description, formatTime(starts), formatTime(ends),
		"img/events/"+d.image+".svg", cmp.Or(d.status, palaro.EventScheduled), d.popularity,
		d.venue, d.organizer, string(required), d.surveyQuestion, string(answers))
	if err != nil {
		return err
	}
	if err != nil {
		return err
	}
	for _, tag := range d.tags {
		if _, err := tx.ExecContext(ctx, `INSERT INTO event_tags (event_id, tag_slug) VALUES (?, ?)`, eventID, tag); err != nil {
			return fmt.Errorf("tag %s: %w", tag, err)
		}
	}
	for i, l := range d.links {
		if _, err := tx.ExecContext(ctx, `INSERT INTO event_links (event_id, position, label, url) VALUES (?, ?, ?, ?)`,
			eventID, i, l.Label, l.URL); err != nil {
			return err
		}
	}
	for i, t := range d.tickets {
		payments, _ := json.Marshal(t.paymentTypes())
		salesEnd := ends // walk-ins can buy until the event ends
		if _, err := tx.ExecContext(ctx, `INSERT INTO ticket_types (event_id, code, name, description, position,
			price, discount, max_purchasable, capacity, sold, sales_start, sales_end, show_promo_field,
			with_survey, disclaimer, payment_types, seated)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
			eventID, d.code+"-"+t.suffix, t.name, t.description, i, t.price, t.discount, t.max, t.capacity,
			demoSold(t.sold, t.capacity), formatTime(now.AddDate(0, -1, 0)), formatTime(salesEnd), t.promo,
			t.survey, t.disclaimer, string(payments), t.seated); err != nil {
			return fmt.Errorf("ticket type %s: %w", t.suffix, err)
		}
	}
	for _, a := range d.addOns {
		if _, err := tx.ExecContext(ctx, `INSERT INTO add_ons (event_id, name, price, category, notes, image_url)
			VALUES (?, ?, ?, ?, ?, ?)`, eventID, a.Name, a.Price, a.Category, a.Notes, a.ImageURL); err != nil {
			return err
		}
	}
	return nil
}

func orEmpty(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}
