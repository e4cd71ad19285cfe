package store

import (
	"context"
	"crypto/ed25519"
	"crypto/rand"
	"database/sql"
	"errors"
	"time"

	"palaro"
)

// ticketSigningSeed names the app secret that holds the Ed25519 seed of the current ticket
// signing key; the public keys of retired ones are in ticket_keys.
const ticketSigningSeed = "ticket-signing-seed"

// TicketSigningKeys returns the current ticket signing key (made and kept on first use) and the
// public keys of the signing keys it replaced, newest first, so that the QR codes they signed
// keep verifying.
func (db *DB) TicketSigningKeys(ctx context.Context) (_ ed25519.PrivateKey, _ []ed25519.PublicKey, err error) {
	defer wrapErr(&err, "store: TicketSigningKeys")
	seed, err := db.AppSecret(ctx, ticketSigningSeed, ed25519.SeedSize)
	if err != nil {
		return nil, nil, err
	}
	previous, err := queryRows(ctx, db.read, `SELECT public_key FROM ticket_keys ORDER BY retired_at DESC, kid`, nil,
		func(r rowScanner) (pub ed25519.PublicKey, err error) {
			var b []byte
			err = r.Scan(&b)
			return ed25519.PublicKey(b), err
		})
	if err != nil {
		return nil, nil, err
	}
	return ed25519.NewKeyFromSeed(seed), previous, nil
}

// RotateTicketKey retires the current ticket signing key, keeping its public key (so the QR codes
// it signed still verify), and makes a new one, which the servers sign with once restarted. It
// returns the new key's public key.
func (db *DB) RotateTicketKey(ctx context.Context, now time.Time) (_ ed25519.PublicKey, err error) {
	defer wrapErr(&err, "store: RotateTicketKey")
	seed, err := write(ctx, db, func(ctx context.Context, tx *sql.Tx) ([]byte, error) {
		var old []byte
		err := tx.QueryRowContext(ctx, `SELECT value FROM app_secrets WHERE name = ?`, ticketSigningSeed).Scan(&old)
		if err != nil && !errors.Is(err, sql.ErrNoRows) {
			return nil, err
		}
		if err == nil {
			pub := ed25519.NewKeyFromSeed(old).Public().(ed25519.PublicKey)
			if _, err := tx.ExecContext(ctx, `INSERT INTO ticket_keys (kid, public_key, retired_at) VALUES (?, ?, ?)
				ON CONFLICT (kid) DO NOTHING`, palaro.TicketKeyID(pub), []byte(pub), formatTime(now)); err != nil {
				return nil, err
			}
		}
		seed := make([]byte, ed25519.SeedSize)
		if _, err := rand.Read(seed); err != nil {
			return nil, err
		}
		_, err = tx.ExecContext(ctx, `INSERT INTO app_secrets (name, value, created_at) VALUES (?, ?, ?)
			ON CONFLICT (name) DO UPDATE SET value = excluded.value, created_at = excluded.created_at`,
			ticketSigningSeed, seed, formatTime(now))
		return seed, err
	})
	if err != nil {
		return nil, err
	}
	return ed25519.NewKeyFromSeed(seed).Public().(ed25519.PublicKey), nil
}
