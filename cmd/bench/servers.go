package main

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"syscall"
	"time"
)

// palaroProcess is the server under test: `bin/palaro serve` as a subprocess on a loopback port with a
// fresh SQLite file (or a PostgreSQL database) and the demo data.
type palaroProcess struct {
	URL  string
	DB   string
	dir  string
	cmd  *exec.Cmd
	done chan error
}

// startPalaro starts bin serve on a fresh SQLite file with the demo data and waits, at most a
// minute, until it answers /.
func startPalaro(ctx context.Context, bin string) (*palaroProcess, error) {
	return startPalaroOn(ctx, bin, "")
}

// startPalaroOn starts bin serve on the database db (a fresh SQLite file in its folder when db is
// empty) with the demo data (loaded when the database is empty) and env, and waits, at most a
// minute, until it answers /.
func startPalaroOn(ctx context.Context, bin, db string, env ...string) (*palaroProcess, error) {
	if _, err := os.Stat(bin); err != nil {
		return nil, fmt.Errorf("%w (build it with `go tool task build`)", err)
	}
	addr, err := freeAddr()
	if err != nil {
		return nil, err
	}
	dir, err := os.MkdirTemp("", "palaro-bench-")
	if err != nil {
		return nil, err
	}
	if db == "" {
		db = filepath.Join(dir, "palaro.db")
	}
	p := &palaroProcess{URL: "http://" + addr, DB: db, dir: dir, done: make(chan error, 1)}
	logf, err := os.Create(filepath.Join(dir, "server.log"))
	if err != nil {
		return nil, errors.Join(err, os.RemoveAll(dir))
	}
	defer logf.Close()
	p.cmd = exec.Command(bin, "serve")
	p.cmd.Env = append(os.Environ(), "PALARO_ADDR="+addr, "PALARO_DB="+p.DB, "PALARO_DEMO=1", "PALARO_BASE_URL="+p.URL,
		"PALARO_TRUST_PROXY=1") // the purchase storm's buyers come from many addresses (X-Forwarded-For)
	p.cmd.Env = append(p.cmd.Env, env...)
	p.cmd.Stdout, p.cmd.Stderr = logf, logf
	if err := p.cmd.Start(); err != nil {
		return nil, errors.Join(err, os.RemoveAll(dir))
	}
	go func() { p.done <- p.cmd.Wait() }()

	client := &http.Client{Timeout: time.Second}
	deadline := time.Now().Add(time.Minute)
	for time.Now().Before(deadline) {
		select {
		case err := <-p.done:
			p.done <- err
			log, _ := os.ReadFile(logf.Name())
			p.Stop()
			return nil, fmt.Errorf("palaro serve exited (%v):\n%s", err, log)
		case <-ctx.Done():
			p.Stop()
			return nil, ctx.Err()
		case <-time.After(100 * time.Millisecond):
		}
		if resp, err := client.Get(p.URL + "/"); err == nil {
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				return p, nil
			}
		}
	}
	p.Stop()
	return nil, errors.New("palaro serve did not answer / within a minute")
}

// Stop ends the server (SIGTERM, then SIGKILL after 15 s) and removes its folder (with its log
// and its SQLite database).
func (p *palaroProcess) Stop() {
	_ = p.cmd.Process.Signal(syscall.SIGTERM)
	select {
	case <-p.done:
	case <-time.After(15 * time.Second):
		_ = p.cmd.Process.Kill()
		<-p.done
	}
	_ = os.RemoveAll(p.dir)
}

// freeAddr returns a loopback address with a port that was free a moment ago.
func freeAddr() (string, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return "", err
	}
	defer ln.Close()
	return ln.Addr().String(), nil
}

// startBare serves the captured responses from memory by path, with the same status, headers and
// (gzipped) body bytes, from a bare net/http handler on a loopback port. stop shuts it down.
func startBare(pages map[string]response) (url string, stop func(), err error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return "", nil, err
	}
	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		res, ok := pages[r.URL.Path]
		if !ok {
			http.NotFound(w, r)
			return
		}
		for k, v := range res.Header {
			switch k {
			case "Date", "Content-Length", "Transfer-Encoding":
			default:
				w.Header()[k] = v
			}
		}
		w.WriteHeader(res.Status)
		_, _ = w.Write(res.Wire)
	})
	srv := &http.Server{Handler: h, ReadHeaderTimeout: 5 * time.Second}
	go func() { _ = srv.Serve(ln) }()
	return "http://" + ln.Addr().String(), func() {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		_ = srv.Shutdown(ctx)
	}, nil
}
