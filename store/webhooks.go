package store

import (
	"context"
	"crypto/rand"
	"database/sql"
	"encoding/hex"
	"encoding/json"
	"errors"
	"strings"
	"time"

	"palaro"
)

// WebhookService implements palaro.WebhookService and the job runner's side of deliveries.
type WebhookService struct {
	db       *DB
	composer palaro.WebhookComposer
}

// NewWebhookService returns the webhooks backed by db; composer writes the e-mail to the owners
// of an endpoint paused after three days of failures (none is sent when it is nil).
func NewWebhookService(db *DB, composer palaro.WebhookComposer) *WebhookService {
	return &WebhookService{db: db, composer: composer}
}

var _ palaro.WebhookService = (*WebhookService)(nil)

const endpointColumns = `id, public_id, organization_id, url, events, secret, active, failing_since, created_at`

func scanEndpoint(r rowScanner) (*palaro.WebhookEndpoint, error) {
	var e palaro.WebhookEndpoint
	var events string
	var active int
	var failing, created sql.NullString
	if err := r.Scan(&e.ID, &e.PublicID, &e.OrganizationID, &e.URL, &events, &e.Secret, &active, &failing, &created); err != nil {
		return nil, err
	}
	e.Events = strings.Split(strings.Trim(events, ","), ",")
	e.Active = active == 1
	e.FailingSince, _ = parseTime(failing)
	e.CreatedAt, _ = parseTime(created)
	return &e, nil
}

// CreateEndpoint saves an endpoint of organization orgID with a new secret. The URL is checked
// by the caller (palaro.CheckWebhookURL: it resolves the host); the event types here.
func (s *WebhookService) CreateEndpoint(ctx context.Context, orgID int64, rawURL string, events []string, actor string, now time.Time) (_ *palaro.WebhookEndpoint, err error) {
	defer wrapErr(&err, "store: CreateEndpoint(%d)", orgID)

	events, err = palaro.NormalizeWebhookEvents(events)
	if err != nil {
		return nil, err
	}
	b := make([]byte, 24)
	_, _ = rand.Read(b)
	e := &palaro.WebhookEndpoint{PublicID: "we_" + newPublicID(), OrganizationID: orgID, URL: strings.TrimSpace(rawURL),
		Events: events, Secret: "whsec_" + hex.EncodeToString(b), Active: true, CreatedAt: now}
	e.ID, err = write(ctx, s.db, func(ctx context.Context, tx *sql.Tx) (id int64, err error) {
		var n int
		if err := tx.QueryRowContext(ctx, `SELECT count(*) FROM webhook_endpoints WHERE organization_id = ?`, orgID).Scan(&n); err != nil {
			return 0, err
		}
		if n >= maxEndpoints {
			return 0, palaro.Errorf(palaro.ECONFLICT, "An organization can have at most %d webhook endpoints; remove one first.", maxEndpoints)
		}
		err = tx.QueryRowContext(ctx, `INSERT INTO webhook_endpoints (public_id, organization_id, url, events, secret, active,
			created_by, created_at) VALUES (?, ?, ?, ?, ?, 1, ?, ?) RETURNING id`, e.PublicID, orgID, e.URL,
			","+strings.Join(events, ",")+",", e.Secret, actor, formatTime(now)).Scan(&id)
		return id, err
	})
	if err != nil {
		return nil, err
	}
	return e, nil
}

// maxEndpoints is how many endpoints an organization may have.
const maxEndpoints = 20

// ListEndpoints returns the endpoints of the organizations, oldest first.
func (s *WebhookService) ListEndpoints(ctx context.Context, orgIDs []int64) (_ []*palaro.WebhookEndpoint, err error) {
	defer wrapErr(&err, "store: ListEndpoints")

	if len(orgIDs) == 0 {
		return nil, nil
	}
	args, in := int64Args(orgIDs)
	return queryRows(ctx, s.db.read, `SELECT `+endpointColumns+` FROM webhook_endpoints WHERE organization_id IN (`+in+`) ORDER BY id`,
		args, scanEndpoint)
}

// Endpoint returns the endpoint publicID if it belongs to one of the organizations.
func (s *WebhookService) Endpoint(ctx context.Context, orgIDs []int64, publicID string) (_ *palaro.WebhookEndpoint, err error) {
	defer wrapErr(&err, "store: Endpoint(%q)", publicID)

	found, err := s.ListEndpoints(ctx, orgIDs)
	if err != nil {
		return nil, err
	}
	for _, e := range found {
		if e.PublicID == publicID {
			return e, nil
		}
	}
	return nil, palaro.Errorf(palaro.ENOTFOUND, "Webhook endpoint not found.")
}

// SetEndpointActive pauses or resumes an endpoint; resuming forgets its failures, so its
// deliveries get three more days.
func (s *WebhookService) SetEndpointActive(ctx context.Context, orgIDs []int64, publicID string, active bool) (err error) {
	defer wrapErr(&err, "store: SetEndpointActive(%q)", publicID)

	e, err := s.Endpoint(ctx, orgIDs, publicID)
	if err != nil {
		return err
	}
	return s.db.inWrite(ctx, func(ctx context.Context, tx *sql.Tx) error {
		_, err := tx.ExecContext(ctx, `UPDATE webhook_endpoints SET active = ?, failing_since = NULL WHERE id = ?`, boolInt(active), e.ID)
		return err
	})
}

// DeleteEndpoint removes an endpoint and its deliveries.
func (s *WebhookService) DeleteEndpoint(ctx context.Context, orgIDs []int64, publicID string) (err error) {
	defer wrapErr(&err, "store: DeleteEndpoint(%q)", publicID)

	e, err := s.Endpoint(ctx, orgIDs, publicID)
	if err != nil {
		return err
	}
	return s.db.inWrite(ctx, func(ctx context.Context, tx *sql.Tx) error {
		if _, err := tx.ExecContext(ctx, `DELETE FROM webhook_deliveries WHERE endpoint_id = ?`, e.ID); err != nil {
			return err
		}
		_, err := tx.ExecContext(ctx, `DELETE FROM webhook_endpoints WHERE id = ?`, e.ID)
		return err
	})
}

const deliveryColumns = `id, endpoint_id, event_id, type, subject_id, note, status, attempts, answer_code,
	last_error, next_attempt_at, last_attempt_at, created_at`

// deliveryRow is a stored delivery, with what its body is composed from.
type deliveryRow struct {
	*palaro.WebhookDelivery
	subjectID int64
	note      string // a player's event: the player's e-mail
}

func (r deliveryRow) rowID() int64 { return r.ID }

func scanDelivery(r rowScanner) (deliveryRow, error) {
	d := deliveryRow{WebhookDelivery: &palaro.WebhookDelivery{}}
	var next, last, created sql.NullString
	err := r.Scan(&d.ID, &d.EndpointID, &d.EventID, &d.Type, &d.subjectID, &d.note, &d.Status, &d.Attempts, &d.AnswerCode,
		&d.LastError, &next, &last, &created)
	d.NextAttemptAt, _ = parseTime(next)
	d.LastAttemptAt, _ = parseTime(last)
	d.CreatedAt, _ = parseTime(created)
	return d, err
}

// Deliveries returns an endpoint's most recent deliveries, newest first.
func (s *WebhookService) Deliveries(ctx context.Context, endpointID int64, limit int) (_ []*palaro.WebhookDelivery, err error) {
	defer wrapErr(&err, "store: Deliveries(%d)", endpointID)

	rows, err := queryRows(ctx, s.db.read, `SELECT `+deliveryColumns+` FROM webhook_deliveries
		WHERE endpoint_id = ? ORDER BY id DESC LIMIT ?`, []any{endpointID, limit}, scanDelivery)
	out := make([]*palaro.WebhookDelivery, len(rows))
	for i, r := range rows {
		out[i] = r.WebhookDelivery
	}
	return out, err
}

// Redeliver queues a delivery again, due now, with the same event id and three more days of retries.
func (s *WebhookService) Redeliver(ctx context.Context, endpointID, deliveryID int64, now time.Time) (err error) {
	defer wrapErr(&err, "store: Redeliver(%d)", deliveryID)

	return s.db.inWrite(ctx, func(ctx context.Context, tx *sql.Tx) error {
		res, err := tx.ExecContext(ctx, `UPDATE webhook_deliveries SET status = 'pending', next_attempt_at = ?, retry_until = ?,
			claimed_until = NULL WHERE id = ? AND endpoint_id = ?`, formatTime(now), formatTime(now.Add(palaro.WebhookRetryFor)),
			deliveryID, endpointID)
		if err != nil {
			return err
		}
		if n, _ := res.RowsAffected(); n == 0 {
			return palaro.Errorf(palaro.ENOTFOUND, "Delivery not found.")
		}
		return nil
	})
}

// SendTest queues a webhook.test event for the endpoint, due now (even when the endpoint is paused).
func (s *WebhookService) SendTest(ctx context.Context, endpointID int64, now time.Time) (err error) {
	defer wrapErr(&err, "store: SendTest(%d)", endpointID)

	return s.db.inWrite(ctx, func(ctx context.Context, tx *sql.Tx) error {
		_, err := tx.ExecContext(ctx, `INSERT INTO webhook_deliveries (endpoint_id, event_id, type, subject_id, next_attempt_at,
			retry_until, created_at) VALUES (?, ?, ?, 0, ?, ?, ?)`, endpointID, "evt_"+newPublicID(), palaro.WebhookTest,
			formatTime(now), formatTime(now.Add(palaro.WebhookRetryFor)), formatTime(now))
		return err
	})
}

// webhookOrgOf is, per event type, the SQL that finds the organization of the event's subject
// (the order, ticket or waiting-list offer whose id is the one argument).
var webhookOrgOf = map[string]string{
	palaro.WebhookOrderPaid:         `SELECT e.organizer_id FROM orders o JOIN events e ON e.id = o.event_id WHERE o.id = ?`,
	palaro.WebhookOrderRefunded:     `SELECT e.organizer_id FROM orders o JOIN events e ON e.id = o.event_id WHERE o.id = ?`,
	palaro.WebhookOrderCancelled:    `SELECT e.organizer_id FROM orders o JOIN events e ON e.id = o.event_id WHERE o.id = ?`,
	palaro.WebhookTicketTransferred: `SELECT e.organizer_id FROM tickets t JOIN events e ON e.id = t.event_id WHERE t.id = ?`,
	palaro.WebhookTicketCheckedIn:   `SELECT e.organizer_id FROM tickets t JOIN events e ON e.id = t.event_id WHERE t.id = ?`,
	palaro.WebhookWaitlistOffered: `SELECT e.organizer_id FROM waitlist_offers f JOIN ticket_types tt ON tt.id = f.ticket_type_id
		JOIN events e ON e.id = tt.event_id WHERE f.id = ?`,
}

// teamOrgOf finds the organization of a team (its id the one argument): the subject of every team event.
const teamOrgOf = `SELECT e.organizer_id FROM teams m JOIN tournaments t ON t.id = m.tournament_id JOIN events e ON e.id = t.event_id WHERE m.id = ?`

func init() {
	for _, typ := range []string{palaro.WebhookTeamRegistered, palaro.WebhookTeamApproved, palaro.WebhookTeamRefused,
		palaro.WebhookTeamDisqualified, palaro.WebhookTeamCheckedIn, palaro.WebhookTeamDropped, palaro.WebhookTeamMovedUp,
		palaro.WebhookPlayerJoined, palaro.WebhookPlayerRemoved} {
		webhookOrgOf[typ] = teamOrgOf
	}
}

// enqueueWebhook queues event typ about subjectID (an order's, ticket's or waiting-list offer's
// id) for every active endpoint of the subject's organization that chose the type, inside tx:
// the change and its deliveries commit together, or neither does. One INSERT … SELECT, cheap when
// the organization has no endpoint.
func enqueueWebhook(ctx context.Context, tx *sql.Tx, typ string, subjectID int64, now time.Time) error {
	return enqueueWebhookNote(ctx, tx, typ, subjectID, "", now)
}

// enqueueTeamWebhooks queues event typ about each team (team events: the subject is the team;
// player, the e-mail of the player a player's event is about, or "").
func enqueueTeamWebhooks(ctx context.Context, tx *sql.Tx, typ string, teams []*palaro.Team, player string, now time.Time) error {
	for _, team := range teams {
		if err := enqueueWebhookNote(ctx, tx, typ, team.ID, player, now); err != nil {
			return err
		}
	}
	return nil
}

// enqueueWebhookNote is enqueueWebhook keeping note with the deliveries (a player's e-mail).
func enqueueWebhookNote(ctx context.Context, tx *sql.Tx, typ string, subjectID int64, note string, now time.Time) error {
	org, ok := webhookOrgOf[typ]
	if !ok {
		return errors.New("webhook: unknown event type " + typ)
	}
	// Whether there is an active endpoint at all, first: one read, where the INSERT … SELECT below
	// costs several times more even when it inserts nothing (every paid order runs this). No LIKE
	// here: SQLite prepares a statement again each time a LIKE's bound pattern is bound afresh.
	var any bool
	if err := tx.QueryRowContext(ctx, `SELECT EXISTS (SELECT 1 FROM webhook_endpoints WHERE active = 1)`).Scan(&any); err != nil || !any {
		return err
	}
	at := formatTime(now)
	_, err := tx.ExecContext(ctx, `INSERT INTO webhook_deliveries (endpoint_id, event_id, type, subject_id, note, next_attempt_at,
		retry_until, created_at) SELECT id, ?, ?, ?, ?, ?, ?, ? FROM webhook_endpoints
		WHERE organization_id = (`+org+`) AND active = 1 AND events LIKE ?`,
		"evt_"+newPublicID(), typ, subjectID, note, at, formatTime(now.Add(palaro.WebhookRetryFor)), at, subjectID, "%,"+typ+",%")
	return err
}

// EnqueueRefundWebhook queues order.refunded for an order inside tx: the refund job calls it in
// the write that ends a refund as refunded. orderID is the order's internal id.
func EnqueueRefundWebhook(ctx context.Context, tx *sql.Tx, orderID int64, now time.Time) error {
	return enqueueWebhook(ctx, tx, palaro.WebhookOrderRefunded, orderID, now)
}

// ClaimDeliveries claims up to limit due deliveries of active endpoints for lease, as the
// outbox claims its messages (claimDue: one server per delivery), and returns them with their
// bodies composed from their subjects as they are now. A delivery whose subject is gone is sent
// with the data it still has (its id).
func (s *WebhookService) ClaimDeliveries(ctx context.Context, now time.Time, limit int, lease time.Duration) (_ []*palaro.WebhookDelivery, err error) {
	defer wrapErr(&err, "store: ClaimDeliveries(%d)", limit)

	var claimed []deliveryRow
	err = s.db.inWrite(ctx, func(ctx context.Context, tx *sql.Tx) (err error) {
		claimed, err = claimDue(ctx, tx, "webhook_deliveries", deliveryColumns, `(type = '`+palaro.WebhookTest+
			`' OR endpoint_id IN (SELECT id FROM webhook_endpoints WHERE active = 1))`, scanDelivery, now, limit, lease)
		return err
	})
	if err != nil || len(claimed) == 0 {
		return nil, err
	}
	ids := make([]any, len(claimed))
	for i, d := range claimed {
		ids[i] = d.EndpointID
	}
	type target struct{ url, secret string }
	targets := map[int64]target{}
	if _, err := queryRows(ctx, s.db.read, `SELECT id, url, secret FROM webhook_endpoints WHERE id IN (`+placeholders(len(ids))+`)`, ids,
		func(r rowScanner) (id int64, err error) {
			var t target
			err = r.Scan(&id, &t.url, &t.secret)
			targets[id] = t
			return id, err
		}); err != nil {
		return nil, err
	}
	out := make([]*palaro.WebhookDelivery, len(claimed))
	for i, d := range claimed {
		d.Attempts++
		d.URL, d.Secret = targets[d.EndpointID].url, targets[d.EndpointID].secret
		data, err := s.webhookData(ctx, d)
		if err != nil {
			return nil, err
		}
		d.Body, err = json.Marshal(struct {
			ID        string          `json:"id"`
			Type      string          `json:"type"`
			CreatedAt time.Time       `json:"createdAt"`
			Data      json.RawMessage `json:"data"`
		}{d.EventID, d.Type, d.CreatedAt.In(palaro.Manila), data})
		if err != nil {
			return nil, err
		}
		out[i] = d.WebhookDelivery
	}
	return out, nil
}

// webhookData is a delivery's object as the organizer API shows it, read now from the read pool.
func (s *WebhookService) webhookData(ctx context.Context, d deliveryRow) (json.RawMessage, error) {
	var v any
	switch d.Type {
	case palaro.WebhookOrderPaid, palaro.WebhookOrderRefunded, palaro.WebhookOrderCancelled:
		orders, err := loadOrders(ctx, s.db.read, `o.id = ?`, d.subjectID)
		if err != nil {
			return nil, err
		}
		if len(orders) == 0 {
			return json.RawMessage(`{}`), nil
		}
		ov := palaro.NewOrderView(orders[0])
		if orders[0].Event != nil {
			ov.Event = orders[0].Event.Code
		}
		v = ov
	case palaro.WebhookTicketTransferred, palaro.WebhookTicketCheckedIn:
		tickets, err := queryTickets(ctx, s.db.read, newRefCache(), `t.id = ?`, d.subjectID)
		if err != nil {
			return nil, err
		}
		if len(tickets) == 0 {
			return json.RawMessage(`{}`), nil
		}
		t := tickets[0]
		tv := palaro.TicketView{Code: t.Code, Status: t.Status, Email: t.Email, Holder: t.HolderName, Seat: t.Seat}
		if t.Event != nil {
			tv.Event = t.Event.Code
		}
		if err := s.db.read.QueryRowContext(ctx, `SELECT public_id FROM orders WHERE id = ?`, t.OrderID).Scan(&tv.Order); err != nil &&
			!errors.Is(err, sql.ErrNoRows) {
			return nil, err
		}
		v = tv
	case palaro.WebhookWaitlistOffered:
		offers, err := queryOffers(ctx, s.db.read, `f.id = ?`, d.subjectID)
		if err != nil {
			return nil, err
		}
		if len(offers) == 0 {
			return json.RawMessage(`{}`), nil
		}
		f := offers[0]
		ov := palaro.WaitlistOfferView{Email: f.Email, Quantity: f.Quantity, Seats: palaro.NonNilStrings(f.Seats), Status: f.Status,
			OfferedAt: f.OfferedAt.In(palaro.Manila), ExpiresAt: f.ExpiresAt.In(palaro.Manila)}
		if err := s.db.read.QueryRowContext(ctx, `SELECT e.code, tt.code FROM waitlist_offers f JOIN ticket_types tt ON tt.id = f.ticket_type_id
			JOIN events e ON e.id = tt.event_id WHERE f.id = ?`,
			d.subjectID).Scan(&ov.Event, &ov.TicketType); err != nil && !errors.Is(err, sql.ErrNoRows) {
			return nil, err
		}
		v = ov
	case palaro.WebhookTeamRegistered, palaro.WebhookTeamApproved, palaro.WebhookTeamRefused, palaro.WebhookTeamDisqualified,
		palaro.WebhookTeamCheckedIn, palaro.WebhookTeamDropped, palaro.WebhookTeamMovedUp, palaro.WebhookPlayerJoined, palaro.WebhookPlayerRemoved:
		tv := palaro.TeamWebhookView{Player: d.note}
		var publicID string
		err := s.db.read.QueryRowContext(ctx, `SELECT m.public_id, t.code, e.code FROM teams m JOIN tournaments t ON t.id = m.tournament_id
			JOIN events e ON e.id = t.event_id WHERE m.id = ?`, d.subjectID).Scan(&publicID, &tv.Tournament, &tv.Event)
		if errors.Is(err, sql.ErrNoRows) {
			return json.RawMessage(`{}`), nil
		} else if err != nil {
			return nil, err
		}
		team, err := findTeam(ctx, s.db.read, publicID)
		if err != nil {
			return nil, err
		}
		view := palaro.NewTeamView(*team)
		tv.Team = &view
		v = tv
	default: // webhook.test
		v = map[string]string{"message": "A test event from Palaro."}
	}
	return json.Marshal(v)
}

// RecordDeliveries stores the outcomes of attempts in one unit of the writer. A success clears
// its endpoint's failures; a failure is retried at its RetryAt unless that is past the delivery's
// three days (then it fails for good), and marks its endpoint failing since then. An active
// endpoint failing for palaro.WebhookRetryFor is paused and its organization's owners e-mailed,
// in the same write.
func (s *WebhookService) RecordDeliveries(ctx context.Context, outcomes []palaro.WebhookOutcome) (err error) {
	defer wrapErr(&err, "store: RecordDeliveries")

	return s.db.inWrite(ctx, func(ctx context.Context, tx *sql.Tx) error {
		for _, o := range outcomes {
			at := formatTime(o.At)
			var endpointID int64
			if err := tx.QueryRowContext(ctx, `SELECT endpoint_id FROM webhook_deliveries WHERE id = ?`, o.ID).Scan(&endpointID); errors.Is(err, sql.ErrNoRows) {
				continue // its endpoint was removed meanwhile
			} else if err != nil {
				return err
			}
			errText := o.Error
			if len(errText) > 500 {
				errText = errText[:500]
			}
			if o.Error == "" {
				if _, err := tx.ExecContext(ctx, `UPDATE webhook_deliveries SET status = 'sent', answer_code = ?, last_error = '',
					last_attempt_at = ?, claimed_until = NULL WHERE id = ?`, o.AnswerCode, at, o.ID); err != nil {
					return err
				}
				if _, err := tx.ExecContext(ctx, `UPDATE webhook_endpoints SET failing_since = NULL WHERE id = ?`, endpointID); err != nil {
					return err
				}
				continue
			}
			retry := formatTime(o.RetryAt)
			if o.RetryAt.IsZero() {
				retry = at
			}
			if _, err := tx.ExecContext(ctx, `UPDATE webhook_deliveries SET answer_code = ?, last_error = ?, last_attempt_at = ?,
				claimed_until = NULL, next_attempt_at = ?, status = CASE WHEN ? = 1 OR ? > retry_until THEN 'failed' ELSE 'pending' END
				WHERE id = ?`, o.AnswerCode, errText, at, retry, boolInt(o.RetryAt.IsZero()), retry, o.ID); err != nil {
				return err
			}
			if _, err := tx.ExecContext(ctx, `UPDATE webhook_endpoints SET failing_since = ? WHERE id = ? AND failing_since IS NULL`,
				at, endpointID); err != nil {
				return err
			}
			if err := s.pauseIfFailing(ctx, tx, endpointID, o.At); err != nil {
				return err
			}
		}
		return nil
	})
}

// pauseIfFailing pauses an active endpoint that has failed since palaro.WebhookRetryFor before
// now, and queues the e-mail to its organization's owners, once (the guarded UPDATE pauses it once).
func (s *WebhookService) pauseIfFailing(ctx context.Context, tx *sql.Tx, endpointID int64, now time.Time) error {
	res, err := tx.ExecContext(ctx, `UPDATE webhook_endpoints SET active = 0 WHERE id = ? AND active = 1 AND failing_since <= ?`,
		endpointID, formatTime(now.Add(-palaro.WebhookRetryFor)))
	if err != nil {
		return err
	}
	if n, err := res.RowsAffected(); err != nil || n == 0 || s.composer == nil {
		return err
	}
	e, err := scanEndpoint(tx.QueryRowContext(ctx, `SELECT `+endpointColumns+` FROM webhook_endpoints WHERE id = ?`, endpointID))
	if err != nil {
		return err
	}
	owners, err := queryStrings(ctx, tx, `SELECT u.email FROM organizer_members m JOIN users u ON u.id = m.user_id
		WHERE m.organizer_id = ? AND m.role = 'owner' ORDER BY u.email`, e.OrganizationID)
	if err != nil {
		return err
	}
	for _, to := range owners {
		if err := enqueue(ctx, tx, s.composer.WebhookPaused(to, e), "", now); err != nil {
			return err
		}
	}
	return nil
}

// DeliveryCounts counts the webhook deliveries waiting to be sent (pending: the queue's depth)
// and given up on (failed), for the metrics.
func (s *WebhookService) DeliveryCounts(ctx context.Context) (pending, failed int, err error) {
	defer wrapErr(&err, "store: DeliveryCounts")

	return pendingFailed(ctx, s.db.read, "webhook_deliveries")
}
