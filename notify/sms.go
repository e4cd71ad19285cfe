package notify

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"time"

	"palaro"
)

// SemaphoreURL is the message endpoint of Semaphore, the Philippine SMS gateway.
const SemaphoreURL = "https://api.semaphore.co/api/v4/messages"

// SemaphoreSender delivers SMS through Semaphore's API.
type SemaphoreSender struct {
	APIKey     string // SEMAPHORE_API_KEY
	SenderName string // SEMAPHORE_SENDER_NAME; the account's default sender name when empty
	// URL is the API endpoint; SemaphoreURL when empty (tests point it at a local fake).
	URL    string
	Client *http.Client
}

// NewSemaphoreSender returns an SMS sender for Semaphore. Returns EINVALID without an API key.
func NewSemaphoreSender(apiKey, senderName string) (*SemaphoreSender, error) {
	if apiKey == "" {
		return nil, palaro.Errorf(palaro.EINVALID, "Semaphore needs an API key (SEMAPHORE_API_KEY).")
	}
	return &SemaphoreSender{APIKey: apiKey, SenderName: senderName}, nil
}

// Send posts one SMS. Semaphore takes Philippine numbers without the plus (639171234567).
func (s *SemaphoreSender) Send(ctx context.Context, m palaro.Message) error {
	if m.Channel != palaro.ChannelSMS {
		return fmt.Errorf("semaphore sender cannot send %s messages", m.Channel)
	}
	form := url.Values{"apikey": {s.APIKey}, "number": {strings.TrimPrefix(m.To, "+")}, "message": {m.Text}}
	if s.SenderName != "" {
		form.Set("sendername", s.SenderName)
	}
	endpoint := s.URL
	if endpoint == "" {
		endpoint = SemaphoreURL
	}
	client := s.Client
	if client == nil {
		client = &http.Client{Timeout: 20 * time.Second}
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, endpoint, strings.NewReader(form.Encode()))
	if err != nil {
		return err
	}
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	resp, err := client.Do(req)
	if err != nil {
		return fmt.Errorf("semaphore: %w", redactKey(err, s.APIKey))
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(io.LimitReader(resp.Body, 64<<10))
	if resp.StatusCode/100 != 2 {
		return fmt.Errorf("semaphore: status %d: %.200s", resp.StatusCode, strings.ReplaceAll(string(body), s.APIKey, "***"))
	}
	// A success is a list of queued messages; anything else (such as a validation object) is a failure.
	var sent []struct {
		MessageID json.Number `json:"message_id"`
		Status    string      `json:"status"`
	}
	if err := json.Unmarshal(body, &sent); err != nil || len(sent) == 0 {
		return fmt.Errorf("semaphore: unexpected answer: %.200s", strings.ReplaceAll(string(body), s.APIKey, "***"))
	}
	if st := strings.ToLower(sent[0].Status); st == "failed" || st == "refunded" {
		return fmt.Errorf("semaphore: message %s %s", sent[0].MessageID, st)
	}
	return nil
}

// redactKey hides the API key in an error (a URL error may quote the request).
func redactKey(err error, key string) error {
	if key == "" || !strings.Contains(err.Error(), key) {
		return err
	}
	return fmt.Errorf("%s", strings.ReplaceAll(err.Error(), key, "***"))
}

// ByChannel sends each message with the sender of its channel: e-mail (the default) or SMS.
type ByChannel struct {
	Email Sender
	SMS   Sender
}

// Send delivers m with the sender of m's channel.
func (b ByChannel) Send(ctx context.Context, m palaro.Message) error {
	switch m.Channel {
	case palaro.ChannelSMS:
		return b.SMS.Send(ctx, m)
	case palaro.ChannelEmail, "":
		return b.Email.Send(ctx, m)
	}
	return fmt.Errorf("no sender for channel %q", m.Channel)
}
