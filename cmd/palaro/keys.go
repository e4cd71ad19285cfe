package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"time"

	"palaro"
	"palaro/store"
)

// keysCommand runs "palaro keys rotate-ticket-key": a new ticket signing key, the current one
// retired with its public key kept, so every QR code shown so far still verifies. Servers sign
// with the new key once restarted.
func keysCommand(ctx context.Context, w io.Writer, db *store.DB, now time.Time, args []string) error {
	if len(args) != 1 || args[0] != "rotate-ticket-key" {
		return errors.New("keys: usage: palaro keys rotate-ticket-key")
	}
	pub, err := db.RotateTicketKey(ctx, now)
	if err != nil {
		return err
	}
	_, err = fmt.Fprintf(w, "New ticket signing key %s. Restart every server to sign with it; QR codes signed before still verify.\n",
		palaro.TicketKeyID(pub))
	return err
}
