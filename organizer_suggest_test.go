package palaro

import "testing"

func TestSuggestEventCode(t *testing.T) {
	for name, want := range map[string]string{
		"  Dasmariñas Peña Cup: 2026!! ": "dasmarinas-pena-cup-2026",
		"MLBB Manila Showdown":           "mlbb-manila-showdown",
		"":                               "",
	} {
		if got := SuggestEventCode(name); got != want {
			t.Errorf("SuggestEventCode(%q) = %q, want %q", name, got, want)
		}
	}
}
