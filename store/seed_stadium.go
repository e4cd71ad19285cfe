package store

import (
	"cmp"
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"time"

	"palaro"
)

// StadiumEventCode is the event the stadium seed adds.
const StadiumEventCode = "arena-grand-finals"

// Who and where the stadium seed's event is, found by name or added.
const (
	stadiumOrganizer = "Palaro Arena Live"
	stadiumVenue     = "Philippine Arena"
)

// StadiumOptions sizes the stadium seed: Places in all (seats and standing places; 0 means
// 55,000) and the share of each price zone sold (0 means one half).
type StadiumOptions struct {
	Places    int
	SoldShare float64
}

// StadiumSeed is what SeedStadium added: the event, its ticket types' codes (lower box, upper box,
// the two standing areas, in that order), and how many places, seats, tickets and orders it has.
type StadiumSeed struct {
	EventID     int64
	EventCode   string
	TicketTypes []string
	Places      int
	Seats       int
	Sold        int
	Orders      int
}

// SeedStadium adds the arena event arena-grand-finals (palaro.ArenaLayout of opts.Places) and
// sells opts.SoldShare of each of its price zones as paid orders of one to four tickets (adjacent
// seats, the nearer sections selling better), written many rows per INSERT: the rows a real sale
// leaves (orders, tickets, seat assignments, sold counters), without invoices or e-mails. It is
// its own transaction outside the batching writer, like SeedDemo, and works on an empty database
// or beside the demo data (the demo organizer account then manages the event). Returns
// ECONFLICT when the event exists.
func (db *DB) SeedStadium(ctx context.Context, now time.Time, opts StadiumOptions) (_ *StadiumSeed, err error) {
	defer wrapErr(&err, "store: SeedStadium(%d)", opts.Places)

	opts.Places = cmp.Or(opts.Places, 55000)
	if opts.SoldShare == 0 {
		opts.SoldShare = 0.5
	}
	if opts.SoldShare < 0 || opts.SoldShare > 1 {
		return nil, palaro.Errorf(palaro.EINVALID, "The share sold is 0 to 1, not %g.", opts.SoldShare)
	}
	tx, err := db.beginWrite(ctx)
	if err != nil {
		return nil, err
	}
	defer tx.Rollback()
	var exists int
	if err := tx.QueryRowContext(ctx, `SELECT COUNT(*) FROM events WHERE code = ?`, StadiumEventCode).Scan(&exists); err != nil {
		return nil, err
	}
	if exists > 0 {
		return nil, palaro.Errorf(palaro.ECONFLICT, "The event %s is already in the database.", StadiumEventCode)
	}
	seed, err := insertStadium(ctx, tx, now, opts)
	if err != nil {
		return nil, err
	}
	if err := db.syncIDSequences(ctx, tx); err != nil {
		return nil, err
	}
	return seed, tx.Commit()
}

// insertStadium writes the stadium's organizer and venue (when missing), its event, ticket types,
// seats and sales in tx.
func insertStadium(ctx context.Context, tx *sql.Tx, now time.Time, opts StadiumOptions) (*StadiumSeed, error) {
	at := formatTime(now)
	orgID, err := findOrInsert(ctx, tx, `SELECT id FROM organizers WHERE name = ?`, []any{stadiumOrganizer},
		`INSERT INTO organizers (name, email, url, approved_at, created_at) VALUES (?, ?, ?, ?, ?)`,
		stadiumOrganizer, "tickets@arena.palaro.ph", "https://palaro.ph", at, at)
	if err != nil {
		return nil, fmt.Errorf("stadium organizer: %w", err)
	}
	for email, role := range map[string]string{DemoOrganizerEmail: "owner", DemoGateEmail: "gate"} {
		if _, err := tx.ExecContext(ctx, `INSERT INTO organizer_members (organizer_id, user_id, role, created_at)
			SELECT ?, id, ?, ? FROM users WHERE email = ? ON CONFLICT DO NOTHING`, orgID, role, at, email); err != nil {
			return nil, fmt.Errorf("stadium organizer's members: %w", err)
		}
	}
	venueID, err := findOrInsert(ctx, tx, `SELECT id FROM venues WHERE name = ?`, []any{stadiumVenue},
		`INSERT INTO venues (name, address, city, region, latitude, longitude) VALUES (?, ?, ?, ?, ?, ?)`,
		stadiumVenue, "Ciudad de Victoria", "Bocaue", "Bulacan", 14.7937, 120.9543)
	if err != nil {
		return nil, fmt.Errorf("stadium venue: %w", err)
	}
	local := now.In(palaro.Manila)
	starts := time.Date(local.Year(), local.Month(), local.Day(), 18, 0, 0, 0, palaro.Manila).AddDate(0, 0, 30)
	ends := starts.Add(5 * time.Hour)
	eventID, err := insertID(ctx, tx, `INSERT INTO events (code, name, summary, description, starts_at, ends_at, image_url,
		status, popularity, venue_id, organizer_id, required_fields, created_at, updated_at)
		VALUES (?, ?, ?, ?, ?, ?, ?, 'scheduled', 99, ?, ?, ?, ?, ?)`,
		StadiumEventCode, "Arena Grand Finals", "The season's grand finals in front of 55,000 fans at the Philippine Arena.",
		"Best-of-seven grand finals on the stage end of the Philippine Arena: lower and upper box seats in sections around the bowl, and two standing areas on the floor.\n\nGates open three hours before the first game. Bring a valid ID.",
		formatTime(starts), formatTime(ends), "img/events/moba.svg", venueID, orgID,
		`["firstName","lastName","mobileNumber","email"]`, at, at)
	if err != nil {
		return nil, fmt.Errorf("stadium event: %w", err)
	}
	seed := &StadiumSeed{EventID: eventID, EventCode: StadiumEventCode}
	rng := rand.New(rand.NewPCG(uint64(opts.Places), 0x57ad))
	var sales []seedSale
	payments, _ := json.Marshal([]string{palaro.PaymentQR, palaro.PaymentCard, palaro.PaymentGCash, palaro.PaymentMaya})
	for i, z := range palaro.ArenaLayout(opts.Places) {
		code := StadiumEventCode + "-" + z.Code
		plan := ""
		if z.Plan != nil {
			b, _ := json.Marshal(z.Plan)
			plan = string(b)
		}
		typeID, err := insertID(ctx, tx, `INSERT INTO ticket_types (event_id, code, name, description, position, price,
			max_purchasable, capacity, sales_start, sales_end, payment_types, seated, seat_plan)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
			eventID, code, z.Name, z.Description, i, z.Price, z.Max, z.Capacity, formatTime(now.AddDate(0, 0, -14)),
			formatTime(ends), string(payments), z.Plan != nil, plan)
		if err != nil {
			return nil, fmt.Errorf("stadium ticket type %s: %w", code, err)
		}
		zone := stadiumZone{eventID: eventID, typeID: typeID, code: code, price: int64(z.Price), now: now}
		var zoneSales []seedSale
		if z.Plan != nil {
			if err := insertPlanSeats(ctx, tx, typeID, *z.Plan); err != nil {
				return nil, fmt.Errorf("stadium seats of %s: %w", code, err)
			}
			zoneSales = zone.seatedSales(rng, *z.Plan, opts.SoldShare)
			seed.Seats += z.Capacity
		} else {
			zoneSales = zone.standingSales(rng, int(float64(z.Capacity)*opts.SoldShare+0.5))
		}
		sold := 0
		for _, s := range zoneSales {
			sold += s.quantity
		}
		if _, err := tx.ExecContext(ctx, `UPDATE ticket_types SET sold = ? WHERE id = ?`, sold, typeID); err != nil {
			return nil, err
		}
		sales = append(sales, zoneSales...)
		seed.TicketTypes = append(seed.TicketTypes, code)
		seed.Places += z.Capacity
		seed.Sold += sold
	}
	seed.Orders = len(sales)
	if err := insertSeedSales(ctx, tx, sales); err != nil {
		return nil, fmt.Errorf("stadium sales: %w", err)
	}
	return seed, nil
}

// findOrInsert returns the id the find query finds, else the id of the row insert adds.
func findOrInsert(ctx context.Context, tx *sql.Tx, find string, findArgs []any, insert string, args ...any) (int64, error) {
	var id int64
	err := tx.QueryRowContext(ctx, find, findArgs...).Scan(&id)
	if errors.Is(err, sql.ErrNoRows) {
		return insertID(ctx, tx, insert, args...)
	}
	return id, err
}

// insertPlanSeats writes every seat of a plan (blocked ones included) for a ticket type, many rows
// per INSERT.
func insertPlanSeats(ctx context.Context, tx *sql.Tx, typeID int64, p palaro.SeatPlan) error {
	var args []any
	n := 0
	flush := func() error {
		if n == 0 {
			return nil
		}
		_, err := tx.ExecContext(ctx, `INSERT INTO seats (ticket_type_id, label, row_index, row_label, number, section) VALUES `+
			valuesList(n, "(?, ?, ?, ?, ?, ?)"), args...)
		args, n = args[:0], 0
		return err
	}
	index := map[string]int{} // the next row index of each section
	for _, row := range p.Seats() {
		i := index[row.Section]
		index[row.Section] = i + 1
		for _, s := range row.Seats {
			args = append(args, typeID, s.Label, i, s.Row, s.Number, row.Section)
			if n++; n == seedRowsPerInsert {
				if err := flush(); err != nil {
					return err
				}
			}
		}
	}
	return flush()
}

// stadiumZone is one price zone of the stadium seed being sold.
type stadiumZone struct {
	eventID, typeID int64
	code            string
	price           int64
	now             time.Time
}

// sale is the zone's k-th order, of the given seats (or quantity standing places).
func (z stadiumZone) sale(rng *rand.Rand, k, quantity int, seats []string) seedSale {
	holder := stadiumHolders[k%len(stadiumHolders)]
	return seedSale{eventID: z.eventID, typeID: z.typeID, price: z.price, quantity: quantity, seats: seats, holder: holder,
		email: fmt.Sprintf("fan%d.%s@demo.palaro.ph", k, z.code), source: "",
		paid: z.now.Add(-time.Duration(1+rng.IntN(14*24*60)) * time.Minute)}
}

// seatedSales sells about share of a sectioned plan's seats: groups of one to four adjacent seats
// (never across an aisle), each taken with a chance that falls from 1.4 × share in the section
// nearest the stage to 0.6 × share in the furthest, so the good seats go first as in a real sale.
func (z stadiumZone) seatedSales(rng *rand.Rand, p palaro.SeatPlan, share float64) []seedSale {
	byDistance := slices.Clone(p.Sections)
	slices.SortStableFunc(byDistance, func(a, b palaro.SeatSection) int { return a.Distance - b.Distance })
	var sales []seedSale
	for rank, sec := range byDistance {
		chance := share
		if len(byDistance) > 1 {
			chance = min(share*(1.4-0.8*float64(rank)/float64(len(byDistance)-1)), 1)
		}
		for r := range sec.Rows {
			row := palaro.RowLabel(r)
			for k := 1; k <= sec.SeatsPerRow; {
				end := min(k+rng.IntN(4), sec.SeatsPerRow) // the group's last seat, not past an aisle
				for _, a := range sec.AisleAfter {
					if a >= k && a < end {
						end = a
					}
				}
				if rng.Float64() < chance {
					var seats []string
					for s := k; s <= end; s++ {
						seats = append(seats, palaro.SeatLabel(sec.Name, row, s))
					}
					sales = append(sales, z.sale(rng, len(sales)+1, len(seats), seats))
				}
				k = end + 1
			}
		}
	}
	return sales
}

// standingSales sells sold standing places in orders of one to four.
func (z stadiumZone) standingSales(rng *rand.Rand, sold int) []seedSale {
	var sales []seedSale
	for left := sold; left > 0; {
		n := min(1+rng.IntN(4), left)
		sales = append(sales, z.sale(rng, len(sales)+1, n, nil))
		left -= n
	}
	return sales
}

// stadiumHolders are the names on the stadium seed's tickets, taken in turn.
var stadiumHolders = []string{"Andrea Reyes", "Miguel Santos", "Bea Cruz", "Paolo Garcia", "Kristine Mendoza",
	"Joshua Bautista", "Camille Villanueva", "Rafael Aquino", "Patricia Ramos", "Carlo Dela Cruz", "Nicole Navarro",
	"Gabriel Torres", "Jasmine Flores", "Mark Gonzales", "Angelica Castillo", "Vincent Lim"}
