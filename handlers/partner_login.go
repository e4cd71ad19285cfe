package handlers

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/labstack/echo/v5"

	"palaro"
	"palaro/views"
)

// PartnerClient calls the partner bank's API (POST {BaseURL}/v1/user/login/create) for login
// sessions. The API key stays on the server.
type PartnerClient struct {
	BaseURL   string
	APIKey    string
	PartnerID int
	Client    *http.Client
	Logger    *slog.Logger
}

var _ palaro.PartnerLogin = (*PartnerClient)(nil)

// partnerLoginRequest is the login session payload of SPEC.md section 3.
type partnerLoginRequest struct {
	APIKey              string `json:"apiKey"`
	PartnerID           int    `json:"partnerID"`
	PartnerUserUniqueID string `json:"partnerUserUniqueID"`
	Username            string `json:"username"`
}

// LoginSession asks the partner for a session of the ticket code and returns its URL.
func (p *PartnerClient) LoginSession(ctx context.Context, ticketCode string) (string, error) {
	fail := func(reason string, args ...any) (string, error) {
		if p.Logger != nil {
			p.Logger.Warn("partner login failed: "+reason, args...)
		}
		return "", palaro.Errorf(palaro.EINVALID, palaro.MsgPartnerUnavailable)
	}
	body, _ := json.Marshal(partnerLoginRequest{APIKey: p.APIKey, PartnerID: p.PartnerID, PartnerUserUniqueID: ticketCode, Username: ticketCode})
	ctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, strings.TrimRight(p.BaseURL, "/")+"/v1/user/login/create", bytes.NewReader(body))
	if err != nil {
		return fail("request", "error", err)
	}
	req.Header.Set("Content-Type", "application/json")
	client := p.Client
	if client == nil {
		client = http.DefaultClient
	}
	resp, err := client.Do(req)
	if err != nil {
		return fail("call", "error", err)
	}
	defer resp.Body.Close()
	raw, _ := io.ReadAll(io.LimitReader(resp.Body, 64<<10))
	if resp.StatusCode/100 != 2 {
		return fail("status", "status", resp.StatusCode)
	}
	if u := sessionURL(raw); u != "" {
		return u, nil
	}
	return fail("no session URL in the answer")
}

// sessionURL finds the session URL in the partner's answer: a field url, sessionUrl, loginUrl or
// redirectUrl, at the top or under data; only http and https links count.
func sessionURL(raw []byte) string {
	var answer map[string]any
	if json.Unmarshal(raw, &answer) != nil {
		return ""
	}
	for _, m := range []any{answer, answer["data"]} {
		obj, _ := m.(map[string]any)
		for _, k := range []string{"url", "sessionUrl", "loginUrl", "redirectUrl"} {
			s, _ := obj[k].(string)
			if u, err := url.Parse(s); err == nil && (u.Scheme == "https" || u.Scheme == "http") && u.Host != "" {
				return s
			}
		}
	}
	return ""
}

// partnerLogin answers "Open in partner app" on a ticket page: it asks the partner for a session
// of the ticket code and sends the visitor there, or says clearly that it failed.
func (s *Server) partnerLogin(c *echo.Context) error {
	if s.services.PartnerLogin == nil {
		return errPageNotFound
	}
	t, _, err := s.findTicket(c, 120)
	if err != nil {
		return err
	}
	u, err := s.services.PartnerLogin.LoginSession(c.Request().Context(), t.Code)
	if err != nil {
		return render(c, http.StatusBadGateway, views.Message(s.accountPage(c, "Partner app", false), views.MessagePage{
			Heading: "The partner app did not open", Message: palaro.ErrorMessage(err),
			Links: []views.Link{{Label: "Back to your ticket", Href: "/t/" + t.PublicID}},
		}))
	}
	return c.Redirect(http.StatusSeeOther, u)
}
