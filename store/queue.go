package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"palaro"
)

// QueueStore keeps events' queues: settings, rate changes, places and admissions. It is the
// source of truth that queue.Manager keeps in memory.
type QueueStore struct{ db *DB }

// NewQueueStore returns the queue store.
func NewQueueStore(db *DB) *QueueStore { return &QueueStore{db: db} }

// QueueVersions returns each queue's version by event ID.
func (s *QueueStore) QueueVersions(ctx context.Context) (_ map[int64]int64, err error) {
	defer wrapErr(&err, "store: QueueVersions")

	rows, err := s.db.read.QueryContext(ctx, `SELECT event_id, version FROM event_queues`)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := map[int64]int64{}
	for rows.Next() {
		var id, v int64
		if err := rows.Scan(&id, &v); err != nil {
			return nil, err
		}
		out[id] = v
	}
	return out, rows.Err()
}

// LoadQueue returns an event's queue with its rates and places, or nil when it has none. It reads
// in one transaction, so places and version agree.
func (s *QueueStore) LoadQueue(ctx context.Context, eventID int64) (_ *palaro.Queue, _ []palaro.QueuePlace, err error) {
	defer wrapErr(&err, "store: LoadQueue(%d)", eventID)

	tx, err := s.db.beginRead(ctx)
	if err != nil {
		return nil, nil, err
	}
	defer tx.Rollback()
	q := palaro.Queue{EventID: eventID}
	var opensAt string
	var seed int64
	err = tx.QueryRowContext(ctx, `SELECT e.code, e.name, q.opens_at, q.admit_per_minute, q.seed, q.opened, q.version
		FROM event_queues q JOIN events e ON e.id = q.event_id WHERE q.event_id = ?`, eventID).
		Scan(&q.EventCode, &q.EventName, &opensAt, &q.AdmitPerMinute, &seed, &q.Opened, &q.Version)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, nil, nil
	}
	if err != nil {
		return nil, nil, err
	}
	q.Seed = uint64(seed)
	if q.OpensAt, err = time.Parse(timeFormat, opensAt); err != nil {
		return nil, nil, err
	}
	if q.Rates, err = queueRates(ctx, tx, eventID); err != nil {
		return nil, nil, err
	}
	rows, err := tx.QueryContext(ctx, `SELECT id, place, date_id, joined_at, admitted_at FROM queue_places
		WHERE event_id = ? ORDER BY id`, eventID)
	if err != nil {
		return nil, nil, err
	}
	defer rows.Close()
	var places []palaro.QueuePlace
	for rows.Next() {
		var p palaro.QueuePlace
		var place, date sql.NullInt64
		var joined, admitted sql.NullString
		if err := rows.Scan(&p.ID, &place, &date, &joined, &admitted); err != nil {
			return nil, nil, err
		}
		p.Place, p.DateID = int(place.Int64), date.Int64
		if p.JoinedAt, err = parseTime(joined); err != nil {
			return nil, nil, err
		}
		if p.AdmittedAt, err = parseTime(admitted); err != nil {
			return nil, nil, err
		}
		places = append(places, p)
	}
	return &q, places, rows.Err()
}

// queueRates reads a queue's rates in order.
func queueRates(ctx context.Context, tx *sql.Tx, eventID int64) ([]palaro.QueueRate, error) {
	return queryRows(ctx, tx, `SELECT starts_at, admit_per_minute FROM event_queue_rates
		WHERE event_id = ? ORDER BY starts_at`, []any{eventID}, func(rows rowScanner) (r palaro.QueueRate, err error) {
		var from string
		if err := rows.Scan(&from, &r.AdmitPerMinute); err != nil {
			return r, err
		}
		r.From, err = time.Parse(timeFormat, from)
		return r, err
	})
}

// SaveQueue creates, changes or (nil settings) deletes an event's queue, with an audit entry.
// Before the opening a change replaces the opening and rate; after it, a new rate starts now.
func (s *QueueStore) SaveQueue(ctx context.Context, ev *palaro.Event, actor string, settings *palaro.QueueSettings, seed uint64, now time.Time) (err error) {
	defer wrapErr(&err, "store: SaveQueue")

	return s.db.inWrite(ctx, func(ctx context.Context, tx *sql.Tx) error {
		var opensAt string
		var opened bool
		err := tx.QueryRowContext(ctx, `SELECT opens_at, opened FROM event_queues WHERE event_id = ?`, ev.ID).Scan(&opensAt, &opened)
		exists := err == nil
		if err != nil && !errors.Is(err, sql.ErrNoRows) {
			return err
		}
		var action, detail string
		switch {
		case settings == nil && !exists:
			return nil
		case settings == nil:
			action = "queue off"
			if _, err := tx.ExecContext(ctx, `DELETE FROM queue_places WHERE event_id = ?`, ev.ID); err != nil {
				return err
			}
			if _, err := tx.ExecContext(ctx, `DELETE FROM event_queue_rates WHERE event_id = ?`, ev.ID); err != nil {
				return err
			}
			if _, err := tx.ExecContext(ctx, `DELETE FROM event_queues WHERE event_id = ?`, ev.ID); err != nil {
				return err
			}
		case !exists:
			action = "queue on"
			if _, err := tx.ExecContext(ctx, `INSERT INTO event_queues (event_id, opens_at, admit_per_minute, seed, created_at, updated_at)
			VALUES (?, ?, ?, ?, ?, ?)`, ev.ID, formatTime(settings.OpensAt), settings.AdmitPerMinute, int64(seed), formatTime(now), formatTime(now)); err != nil {
				return err
			}
			if err := setQueueRate(ctx, tx, ev.ID, settings.OpensAt, settings.AdmitPerMinute); err != nil {
				return err
			}
		default:
			action = "queue changed"
			started := opened || opensAt <= formatTime(now)
			if _, err := tx.ExecContext(ctx, `UPDATE event_queues SET opens_at = ?, admit_per_minute = ?, version = version + 1, updated_at = ?
			WHERE event_id = ?`, formatTime(settings.OpensAt), settings.AdmitPerMinute, formatTime(now), ev.ID); err != nil {
				return err
			}
			from := settings.OpensAt
			if started {
				from = now // the new rate starts now: turns already passed stay
			} else if _, err := tx.ExecContext(ctx, `DELETE FROM event_queue_rates WHERE event_id = ?`, ev.ID); err != nil {
				return err
			}
			if err := setQueueRate(ctx, tx, ev.ID, from, settings.AdmitPerMinute); err != nil {
				return err
			}
		}
		if settings != nil {
			detail = fmt.Sprintf("opens %s, %s let in a minute", settings.OpensAt.In(palaro.Manila).Format("2006-01-02 15:04"),
				palaro.Plural(settings.AdmitPerMinute, "visitor", "visitors"))
		}
		if err := audit(ctx, tx, ev.Organizer.ID, ev.ID, actor, action, detail, now); err != nil {
			return err
		}
		return nil
	})
}

// setQueueRate sets the rate from a time on (the same second's rate is replaced).
func setQueueRate(ctx context.Context, tx *sql.Tx, eventID int64, from time.Time, perMinute int) error {
	_, err := tx.ExecContext(ctx, `INSERT INTO event_queue_rates (event_id, starts_at, admit_per_minute) VALUES (?, ?, ?)
		ON CONFLICT (event_id, starts_at) DO UPDATE SET admit_per_minute = excluded.admit_per_minute`,
		eventID, formatTime(from), perMinute)
	return err
}

// JoinQueue stores a new place taken from a client's network address, for a date of the event's
// series (0: none): before the draw without a place number, after it the next one. The queue's row
// is updated first, which locks it: a join and the draw never interleave, and the address's places
// are counted under that lock, so an address never holds more than palaro.QueuePlacesPerAddress
// (ETOOMANY), on either engine.
func (s *QueueStore) JoinQueue(ctx context.Context, eventID, dateID int64, client string, now time.Time) (_ palaro.QueuePlace, _ int64, err error) {
	defer wrapErr(&err, "store: JoinQueue(%d)", eventID)

	p := palaro.QueuePlace{JoinedAt: now, DateID: dateID}
	var version int64
	err = s.db.inWrite(ctx, func(ctx context.Context, tx *sql.Tx) error {
		var opened bool
		var next int
		if err := lockQueue(ctx, tx, eventID, dateID, `UPDATE event_queues SET next_place = next_place + opened, version = version + 1
			WHERE event_id = ? RETURNING opened, next_place, version`, &opened, &next, &version); err != nil {
			return err
		}
		var taken int
		if err := tx.QueryRowContext(ctx, `SELECT count(*) FROM queue_places WHERE event_id = ? AND client = ?`,
			eventID, client).Scan(&taken); err != nil {
			return err
		}
		if taken >= palaro.QueuePlacesPerAddress {
			return palaro.Errorf(palaro.ETOOMANY, "%s", palaro.QueueAddressFullMessage)
		}
		var place any
		if opened {
			p.Place, place = next, next
		}
		return tx.QueryRowContext(ctx, `INSERT INTO queue_places (event_id, place, date_id, joined_at, client) VALUES (?, ?, ?, ?, ?) RETURNING id`,
			eventID, place, nullDate(dateID), formatTime(now), client).Scan(&p.ID)
	})
	return p, version, err
}

// lockQueue runs an UPDATE of an event's queue row (which locks it) with the event's ID and scans
// what it returns, then checks that a place's date is the event's (queueDateOf); ENOTFOUND when the
// event has no queue.
func lockQueue(ctx context.Context, tx *sql.Tx, eventID, dateID int64, update string, dest ...any) error {
	err := tx.QueryRowContext(ctx, update, eventID).Scan(dest...)
	if errors.Is(err, sql.ErrNoRows) {
		return palaro.Errorf(palaro.ENOTFOUND, "This event has no queue.")
	} else if err != nil {
		return err
	}
	return queueDateOf(ctx, tx, eventID, dateID)
}

// queueDateOf checks that a place's date (0: none) is one of the event's; ENOTFOUND otherwise.
func queueDateOf(ctx context.Context, tx *sql.Tx, eventID, dateID int64) error {
	if dateID == 0 {
		return nil
	}
	var one int
	err := tx.QueryRowContext(ctx, `SELECT 1 FROM event_dates WHERE id = ? AND event_id = ?`, dateID, eventID).Scan(&one)
	if errors.Is(err, sql.ErrNoRows) {
		return palaro.Errorf(palaro.ENOTFOUND, "%s", palaro.MsgDateUnknown)
	}
	return err
}

// MoveQueuePlace makes a place that has not been admitted one for another date of the series (0:
// none); its place in line stays. It locks the queue's row and moves its version like a join, so
// other servers load the change. ECONFLICT once the place was admitted, ENOTFOUND for a place or
// date not of the event.
func (s *QueueStore) MoveQueuePlace(ctx context.Context, eventID, placeID, dateID int64) (version int64, err error) {
	defer wrapErr(&err, "store: MoveQueuePlace(%d, %d)", eventID, placeID)

	err = s.db.inWrite(ctx, func(ctx context.Context, tx *sql.Tx) error {
		if err := lockQueue(ctx, tx, eventID, dateID, `UPDATE event_queues SET version = version + 1 WHERE event_id = ? RETURNING version`,
			&version); err != nil {
			return err
		}
		var admitted sql.NullString
		err := tx.QueryRowContext(ctx, `SELECT admitted_at FROM queue_places WHERE id = ? AND event_id = ?`, placeID, eventID).Scan(&admitted)
		switch {
		case errors.Is(err, sql.ErrNoRows):
			return palaro.Errorf(palaro.ENOTFOUND, "This place is not in the queue.")
		case err != nil:
			return err
		case admitted.Valid:
			return palaro.Errorf(palaro.ECONFLICT, "%s", palaro.QueueMoveAdmittedMessage)
		}
		_, err = tx.ExecContext(ctx, `UPDATE queue_places SET date_id = ? WHERE id = ?`, nullDate(dateID), placeID)
		return err
	})
	return version, err
}

// DrawQueue gives the browsers that arrived before the opening their places, drawn from the
// queue's seed (palaro.DrawPlaces), once: a second call finds the queue opened and does nothing.
func (s *QueueStore) DrawQueue(ctx context.Context, eventID int64) (err error) {
	defer wrapErr(&err, "store: DrawQueue(%d)", eventID)

	return s.db.inWrite(ctx, func(ctx context.Context, tx *sql.Tx) error {
		var seed int64
		err := tx.QueryRowContext(ctx, `UPDATE event_queues SET opened = 1, version = version + 1
		WHERE event_id = ? AND opened = 0 RETURNING seed`, eventID).Scan(&seed)
		if errors.Is(err, sql.ErrNoRows) {
			return nil
		} else if err != nil {
			return err
		}
		ids, err := queryRows(ctx, tx, `SELECT id FROM queue_places WHERE event_id = ? AND place IS NULL ORDER BY id`,
			[]any{eventID}, func(r rowScanner) (id int64, err error) {
				err = r.Scan(&id)
				return id, err
			})
		if err != nil {
			return err
		}
		for i, place := range palaro.DrawPlaces(uint64(seed), len(ids)) {
			if _, err := tx.ExecContext(ctx, `UPDATE queue_places SET place = ? WHERE id = ?`, place, ids[i]); err != nil {
				return err
			}
		}
		if _, err := tx.ExecContext(ctx, `UPDATE event_queues SET next_place = ? WHERE event_id = ?`, len(ids), eventID); err != nil {
			return err
		}
		return nil
	})
}

// AdmitPlace records a place's first admission and returns its time (the first one recorded).
func (s *QueueStore) AdmitPlace(ctx context.Context, placeID int64, now time.Time) (_ time.Time, err error) {
	defer wrapErr(&err, "store: AdmitPlace(%d)", placeID)

	var at sql.NullString
	err = s.db.inWrite(ctx, func(ctx context.Context, tx *sql.Tx) error {
		if _, err := tx.ExecContext(ctx, `UPDATE queue_places SET admitted_at = ? WHERE id = ? AND admitted_at IS NULL`,
			formatTime(now), placeID); err != nil {
			return err
		}
		return tx.QueryRowContext(ctx, `SELECT admitted_at FROM queue_places WHERE id = ?`, placeID).Scan(&at)
	})
	if errors.Is(err, sql.ErrNoRows) {
		return time.Time{}, palaro.Errorf(palaro.ENOTFOUND, "This place is not in the queue.")
	} else if err != nil {
		return time.Time{}, err
	}
	return parseTime(at)
}

// claimQueueEmail ties a buyer's (normalized) address to the queue place the order is bought
// with, inside the order's unit, so a purchase that fails ties nothing. An address belongs to one
// place of a queue and a place buys for one address, while that address has a live (paid or
// unexpired) order of the event: the tie of an address whose orders all lapsed moves on. ECONFLICT
// otherwise; the unique index settles two places claiming one address at once.
func claimQueueEmail(ctx context.Context, tx *sql.Tx, eventID, placeID int64, email string, now time.Time) error {
	email = palaro.NormalizeEmail(email)
	var owner int64
	err := tx.QueryRowContext(ctx, `SELECT id FROM queue_places WHERE event_id = ? AND email = ?`, eventID, email).Scan(&owner)
	switch {
	case err == nil && owner == placeID:
		return nil
	case err == nil:
		if live, err := liveOrderOf(ctx, tx, eventID, email, now); err != nil {
			return err
		} else if live {
			return palaro.Errorf(palaro.ECONFLICT, "%s", palaro.QueueEmailTakenMessage)
		}
		if _, err := tx.ExecContext(ctx, `UPDATE queue_places SET email = NULL WHERE id = ?`, owner); err != nil {
			return err
		}
	case !errors.Is(err, sql.ErrNoRows):
		return err
	}
	var current sql.NullString
	err = tx.QueryRowContext(ctx, `SELECT email FROM queue_places WHERE id = ? AND event_id = ?`+forUpdate, placeID, eventID).Scan(&current)
	if errors.Is(err, sql.ErrNoRows) {
		return palaro.Errorf(palaro.ECONFLICT, "Your place in the queue has ended. Please join the queue again.")
	} else if err != nil {
		return err
	}
	if current.Valid && current.String != email {
		if live, err := liveOrderOf(ctx, tx, eventID, current.String, now); err != nil {
			return err
		} else if live {
			return palaro.Errorf(palaro.ECONFLICT, "%s", palaro.QueuePlaceTakenMessage)
		}
	}
	if _, err := tx.ExecContext(ctx, `UPDATE queue_places SET email = ? WHERE id = ?`, email, placeID); err != nil {
		if isUniqueViolation(err) {
			return palaro.Errorf(palaro.ECONFLICT, "%s", palaro.QueueEmailTakenMessage)
		}
		return err
	}
	return nil
}

// liveOrderOf reports whether an address has a paid or unexpired ticket order of an event.
func liveOrderOf(ctx context.Context, tx *sql.Tx, eventID int64, email string, now time.Time) (bool, error) {
	var n int
	err := tx.QueryRowContext(ctx, `SELECT count(*) FROM orders WHERE email = ? AND event_id = ? AND kind = 'tickets'
		AND (status = 'paid' OR (status = 'pending' AND hold_expires_at > ?))`, email, eventID, formatTime(now)).Scan(&n)
	return n > 0, err
}
