package e2e

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/require"
)

// binDir holds bin/palaro, built once for the package's tests (buildPalaro) and removed by TestMain.
var binDir string

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "palaro-e2e-bin-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	binDir = dir
	code := m.Run()
	_ = os.RemoveAll(dir)
	os.Exit(code)
}

var (
	buildOnce sync.Once
	buildOut  []byte
	buildErr  error
)

// buildPalaro builds bin/palaro (with the static files embedded) once for the package's tests and
// returns its path.
func buildPalaro(t *testing.T) string {
	t.Helper()
	bin := filepath.Join(binDir, "palaro")
	buildOnce.Do(func() {
		buildOut, buildErr = exec.Command("go", "build", "-o", bin, "../../cmd/palaro").CombinedOutput()
	})
	require.NoError(t, buildErr, "go build: %s", buildOut)
	return bin
}

// runCommand runs `bin/palaro args…` on the database dbPath with PALARO_BASE_URL set to baseURL
// ("" leaves it unset), as an operator runs it beside the serving app, and returns what it printed;
// when it fails, the error carries its log.
func runCommand(t *testing.T, dbPath, baseURL string, args ...string) (string, error) {
	t.Helper()
	cmd := exec.Command(buildPalaro(t), args...)
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "PALARO_") {
			cmd.Env = append(cmd.Env, kv)
		}
	}
	cmd.Env = append(cmd.Env, "PALARO_DB="+dbPath, "PALARO_LOG=text")
	if baseURL != "" {
		cmd.Env = append(cmd.Env, "PALARO_BASE_URL="+baseURL)
	}
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		return stdout.String(), fmt.Errorf("palaro %s: %w: %s", strings.Join(args, " "), err, stderr.String())
	}
	return stdout.String(), nil
}

// command runs `bin/palaro args…` on the test app's database with the app's address as
// PALARO_BASE_URL, and returns what it printed.
func command(t *testing.T, a *testApp, args ...string) (string, error) {
	t.Helper()
	return runCommand(t, a.DBPath, a.URL, args...)
}
