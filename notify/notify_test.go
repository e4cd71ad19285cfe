package notify

import (
	"bufio"
	"context"
	"errors"
	"io"
	"log/slog"
	"net"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"palaro"
	"palaro/internal/testdb"
	"palaro/store"
)

// smtpServer is a tiny loopback SMTP server that records the DATA of each message.
type smtpServer struct {
	ln   net.Listener
	mu   sync.Mutex
	data []string
	rcpt []string
}

func startSMTP(t *testing.T) *smtpServer {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	s := &smtpServer{ln: ln}
	t.Cleanup(func() { ln.Close() })
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			go s.serve(c)
		}
	}()
	return s
}

func (s *smtpServer) serve(c net.Conn) {
	defer c.Close()
	r := bufio.NewReader(c)
	say := func(line string) { io.WriteString(c, line+"\r\n") }
	say("220 palaro.test ESMTP")
	for {
		line, err := r.ReadString('\n')
		if err != nil {
			return
		}
		cmd := strings.ToUpper(strings.TrimSpace(line))
		switch {
		case strings.HasPrefix(cmd, "EHLO"), strings.HasPrefix(cmd, "HELO"):
			say("250-palaro.test")
			say("250 8BITMIME")
		case strings.HasPrefix(cmd, "MAIL FROM"):
			say("250 OK")
		case strings.HasPrefix(cmd, "RCPT TO"):
			s.mu.Lock()
			s.rcpt = append(s.rcpt, strings.TrimSpace(line[len("RCPT TO:"):]))
			s.mu.Unlock()
			say("250 OK")
		case cmd == "DATA":
			say("354 go ahead")
			var b strings.Builder
			for {
				l, err := r.ReadString('\n')
				if err != nil {
					return
				}
				if l == ".\r\n" {
					break
				}
				b.WriteString(l)
			}
			s.mu.Lock()
			s.data = append(s.data, b.String())
			s.mu.Unlock()
			say("250 queued")
		case cmd == "QUIT":
			say("221 bye")
			return
		default:
			say("250 OK")
		}
	}
}

func TestSMTPSender_Send(t *testing.T) {
	srv := startSMTP(t)
	host, port, _ := net.SplitHostPort(srv.ln.Addr().String())
	p, _ := strconv.Atoi(port)
	sender, err := NewSMTPSender(SMTPConfig{Host: host, Port: p, From: "Palaro <tickets@palaro.test>", TLS: "none", Timeout: 5 * time.Second})
	require.NoError(t, err)
	msg := NewComposer("https://palaro.test", "help@palaro.test").TicketsLink("fan@x.ph", "tok123", []*palaro.Ticket{{}})
	require.NoError(t, sender.Send(context.Background(), msg))
	srv.mu.Lock()
	defer srv.mu.Unlock()
	require.Len(t, srv.data, 1)
	require.Equal(t, []string{"<fan@x.ph>"}, srv.rcpt)
	require.Contains(t, srv.data[0], "Subject: Your Palaro tickets")
	require.Contains(t, srv.data[0], "text/plain")
	require.Contains(t, srv.data[0], "text/html")
	require.Contains(t, srv.data[0], "https://palaro.test/tickets/tok123")
	t.Run("ErrInvalid config", func(t *testing.T) {
		_, err := NewSMTPSender(SMTPConfig{Host: "x"})
		require.Equal(t, palaro.EINVALID, palaro.ErrorCode(err))
	})
	t.Run("Err unreachable server", func(t *testing.T) {
		dead, _ := NewSMTPSender(SMTPConfig{Host: "127.0.0.1", Port: 1, From: "a@b.ph", TLS: "none", Timeout: time.Second})
		require.Error(t, dead.Send(context.Background(), msg))
	})
}

func TestComposer_EscapesHTML(t *testing.T) {
	c := NewComposer("https://palaro.test", "help@palaro.test")
	ev := &palaro.Event{Name: `<script>alert("x")</script>`}
	m := c.OrderConfirmation(&palaro.Order{PublicID: "ord", Email: "a@b.ph", Event: ev, Quantity: 1,
		TicketType: &palaro.TicketType{Name: "Gen & <b>VIP</b>"}, Tickets: []palaro.Ticket{{PublicID: "tk1", Code: "ABC"}}})
	require.NotContains(t, m.HTML, "<script>")
	require.Contains(t, m.HTML, "&lt;script&gt;")
	require.Contains(t, m.HTML, "Gen &amp; &lt;b&gt;VIP&lt;/b&gt;")
	require.Contains(t, m.HTML, `href="https://palaro.test/t/tk1"`)
	require.Contains(t, m.Text, "https://palaro.test/payment/success/ord")
}

// newOutbox returns the real outbox on a fresh SQLite database, with one message due at now.
func newOutbox(t *testing.T, now time.Time) *store.OutboxService {
	t.Helper()
	db, err := store.Open(testdb.URL(t))
	require.NoError(t, err)
	t.Cleanup(func() { db.Close() })
	require.NoError(t, db.Migrate(context.Background()))
	box := store.NewOutboxService(db)
	require.NoError(t, box.Enqueue(context.Background(), palaro.Message{Kind: "test", To: "a@b.ph", Subject: "Hi", Text: "Hello"}, now))
	return box
}

func onlyMessage(t *testing.T, box *store.OutboxService) palaro.OutboxMessage {
	t.Helper()
	msgs, err := box.ListOutbox(context.Background(), palaro.OutboxFilter{})
	require.NoError(t, err)
	require.Len(t, msgs, 1)
	return msgs[0]
}

// flakySender fails its first n sends.
type flakySender struct {
	mu    sync.Mutex
	fails int
	sent  []palaro.Message
}

func (s *flakySender) Send(ctx context.Context, m palaro.Message) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.fails > 0 {
		s.fails--
		return errors.New("421 try later")
	}
	s.sent = append(s.sent, m)
	return nil
}

func TestWorker_RetriesWithBackoff(t *testing.T) {
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	box := newOutbox(t, now)
	sender := &flakySender{fails: 2}
	w := &Worker{Outbox: box, Sender: sender, Logger: slog.New(slog.NewTextHandler(io.Discard, nil)), MaxAttempts: 5,
		Now: func() time.Time { return now }}
	ctx := context.Background()
	n, err := w.Drain(ctx)
	require.NoError(t, err)
	require.Equal(t, 1, n)
	require.Equal(t, now.Add(30*time.Second), onlyMessage(t, box).NextAttemptAt)
	n, _ = w.Drain(ctx)
	require.Zero(t, n, "not due before its backoff")
	now = now.Add(30 * time.Second)
	w.Drain(ctx)
	require.Equal(t, now.Add(time.Minute), onlyMessage(t, box).NextAttemptAt, "the backoff doubles")
	now = now.Add(time.Minute)
	w.Drain(ctx)
	require.Equal(t, palaro.MessageSent, onlyMessage(t, box).Status)
	require.Len(t, sender.sent, 1)
	require.Equal(t, time.Hour, Backoff(20))
	t.Run("OK gives up after MaxAttempts", func(t *testing.T) {
		box := newOutbox(t, now)
		w := &Worker{Outbox: box, Sender: &flakySender{fails: 99}, Logger: w.Logger, MaxAttempts: 2, Now: func() time.Time { return now }}
		w.Drain(ctx)
		now = now.Add(time.Hour)
		w.Drain(ctx)
		m := onlyMessage(t, box)
		require.Equal(t, palaro.MessageFailed, m.Status)
		require.Equal(t, "421 try later", m.LastError)
		require.Equal(t, 2, m.Attempts)
	})
}

func TestWorker_StopsOnCancel(t *testing.T) {
	w := &Worker{Outbox: newOutbox(t, time.Now()), Sender: &flakySender{}, Logger: slog.New(slog.NewTextHandler(io.Discard, nil)), Interval: time.Hour}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error)
	go func() { done <- w.Run(ctx) }()
	cancel()
	select {
	case err := <-done:
		require.NoError(t, err)
	case <-time.After(5 * time.Second):
		t.Fatal("the worker did not stop")
	}
}

// chanSender hands each message it sends to a channel.
type chanSender chan palaro.Message

func (s chanSender) Send(ctx context.Context, m palaro.Message) error {
	s <- m
	return nil
}

// TestWorker_WaitsWhileTheWriterIsBusy proves the worker claims nothing while Busy reports the
// writer's rush (it keeps asking, and the message stays queued), sends as soon as the rush ends,
// and, in a rush that does not end, still sends once MaxWait has passed: nothing is held back for
// longer than that.
func TestWorker_WaitsWhileTheWriterIsBusy(t *testing.T) {
	box := newOutbox(t, time.Now())
	sent := make(chanSender, 1)
	var busy atomic.Bool
	var asked atomic.Int32
	busy.Store(true)
	w := &Worker{Outbox: box, Sender: sent, Logger: slog.New(slog.NewTextHandler(io.Discard, nil)), Interval: time.Hour,
		MaxWait: time.Hour, Busy: func() bool { asked.Add(1); return busy.Load() }}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error)
	go func() { done <- w.Run(ctx) }()
	t.Cleanup(func() { cancel(); <-done })
	require.Eventually(t, func() bool { return asked.Load() >= 3 }, 5*time.Second, 10*time.Millisecond)
	require.Empty(t, sent, "nothing is sent during the rush")
	require.Equal(t, palaro.MessagePending, onlyMessage(t, box).Status, "nor claimed")
	busy.Store(false)
	select {
	case m := <-sent:
		require.Equal(t, "a@b.ph", m.To)
	case <-time.After(5 * time.Second):
		t.Fatal("the message was not sent once the rush ended")
	}

	t.Run("OK a rush that does not end holds a message back at most MaxWait", func(t *testing.T) {
		box := newOutbox(t, time.Now())
		sent := make(chanSender, 1)
		w := &Worker{Outbox: box, Sender: sent, Logger: w.Logger, Interval: time.Hour, MaxWait: 20 * time.Millisecond,
			Busy: func() bool { return true }}
		ctx, cancel := context.WithCancel(context.Background())
		done := make(chan error)
		go func() { done <- w.Run(ctx) }()
		t.Cleanup(func() { cancel(); <-done })
		select {
		case <-sent:
		case <-time.After(5 * time.Second):
			t.Fatal("the message was held back past MaxWait")
		}
	})
}
