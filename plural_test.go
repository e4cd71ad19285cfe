package palaro

import "testing"

// TestPlural_Messages says one thing in the singular and others in the plural, in the domain's messages.
func TestPlural_Messages(t *testing.T) {
	for got, want := range map[string]string{
		Plural(1, "ticket", "tickets"):          "1 ticket",
		Plural(0, "ticket", "tickets"):          "0 tickets",
		Plural(2, "ticket", "tickets"):          "2 tickets",
		ErrorMessage(CheckCapacity(0, 1, 0)):    "Capacity cannot be below 1: 1 ticket is sold and 0 are held by pending orders.",
		ErrorMessage(CheckCapacity(10, 350, 1)): "Capacity cannot be below 351: 350 tickets are sold and 1 is held by pending orders.",
	} {
		if got != want {
			t.Errorf("got %q, want %q", got, want)
		}
	}
}
