package store

import (
	"context"
	"database/sql"
	"fmt"
)

// Message channels.
const (
	ChannelEmail = "email"
	ChannelSMS   = "sms"
)

// OutMessage is an e-mail or SMS the account service sends through the outbox. Bodies are plain
// text: nothing a visitor typed is ever interpreted as markup.
type OutMessage struct {
	Channel string
	To      string
	Subject string
	Body    string
}

func (s *AccountService) queue(ctx context.Context, tx *sql.Tx, m OutMessage) error {
	if s.Outbox == nil {
		return nil
	}
	return s.Outbox(ctx, tx, m)
}

func welcomeEmail(to, firstName, link string) OutMessage {
	return OutMessage{Channel: ChannelEmail, To: to, Subject: "Welcome to Palaro: activate your account",
		Body: fmt.Sprintf("Hi %s,\n\nWelcome to Palaro! Confirm your e-mail address to activate your account:\n\n%s\n\n"+
			"The link works for 7 days. If you did not sign up, ignore this e-mail.\n\nPalaro", firstName, link)}
}

func emailChangeEmail(to, firstName, link string) OutMessage {
	return OutMessage{Channel: ChannelEmail, To: to, Subject: "Palaro: confirm your new e-mail address",
		Body: fmt.Sprintf("Hi %s,\n\nConfirm that your Palaro account should use this e-mail address from now on:\n\n%s\n\n"+
			"The link works for 24 hours. If you did not ask for this, ignore this e-mail.\n\nPalaro", firstName, link)}
}

func resetCodeSMS(to, code string) OutMessage {
	return OutMessage{Channel: ChannelSMS, To: to,
		Body: fmt.Sprintf("Your Palaro password reset code is %s. It expires in 10 minutes. Never share this code.", code)}
}
