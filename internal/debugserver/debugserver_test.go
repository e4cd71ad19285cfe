package debugserver

import (
	"context"
	"io"
	"log/slog"
	"net"
	"net/http"
	"strings"
	"testing"
)

func TestStart_RefusesAddressesBeyondLoopback(t *testing.T) {
	logger := slog.New(slog.NewTextHandler(io.Discard, nil))
	for _, addr := range []string{"0.0.0.0:0", ":0", "192.0.2.1:0", "example:0", "nonsense"} {
		if err := Start(context.Background(), addr, logger); err == nil {
			t.Errorf("Start(%q) accepted a non-loopback address", addr)
		}
	}
}

func TestStart_ServesProfilesOnLoopback(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	if err := Start(ctx, addr, slog.New(slog.NewTextHandler(io.Discard, nil))); err != nil {
		t.Fatal(err)
	}
	res, err := http.Get("http://" + addr + "/debug/pprof/")
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	body, _ := io.ReadAll(res.Body)
	if res.StatusCode != 200 || !strings.Contains(string(body), "goroutine") {
		t.Fatalf("index: %d %q", res.StatusCode, body[:min(len(body), 200)])
	}
}
