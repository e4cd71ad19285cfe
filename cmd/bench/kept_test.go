package main

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestKeptSection proves rewriting the benchmark document keeps the recorded runs and the
// Lighthouse section, each up to the next heading, and nothing of the generated part.
func TestKeptSection(t *testing.T) {
	path := filepath.Join(t.TempDir(), "BENCHMARKS.md")
	require.NoError(t, os.WriteFile(path, []byte("# Benchmarks\n\n## Latest output\n\nold\n\n## Recorded runs\n\nbusy run\n\n"+
		"## Lighthouse\n\nscores\n"), 0o644))
	require.Equal(t, "\n## Recorded runs\n\nbusy run\n", keptSection(path, "Recorded runs"))
	require.Equal(t, "\n## Lighthouse\n\nscores\n", keptSection(path, "Lighthouse"))
	require.Empty(t, keptSection(path, "Nothing"))
	require.Empty(t, keptSection(filepath.Join(t.TempDir(), "none.md"), "Lighthouse"))
}
