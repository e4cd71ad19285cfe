package palaro

import (
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

func TestValidText(t *testing.T) {
	for kind, cases := range map[string]map[string]bool{
		TextName:  {"Ana María O'Brien-Reyes Jr.": true, "Nguyễn Thị Ánh": true, "李小龍": true, "Ana2": false, "Ana\r\nB": false, "<b>": false},
		TextLine:  {"Acme, Inc. (PH) <3": true, "a\tb": false, "a\nb": false, "a\u2028b": false, "a\u202eb": false, "a\x7fb": false, "\xff": false},
		TextBlock: {"one\r\ntwo\n": true, "a\tb": false, "a\x00b": false, "a\u202eb": false},
	} {
		for s, want := range cases {
			require.Equal(t, want, ValidText(kind, s), "%s %q", kind, s)
		}
	}
}

// TestOrganizerInputs_CharacterRules checks that the organizer's event and ticket type inputs
// follow the character rules: one line for names and places, free text for descriptions.
func TestOrganizerInputs_CharacterRules(t *testing.T) {
	start := time.Date(2026, 6, 1, 10, 0, 0, 0, Manila)
	event := func() EventInput {
		return EventInput{Code: "cup-2026", Name: "Cup", StartsAt: start, EndsAt: start.Add(time.Hour), Status: "draft",
			Venue: VenueInput{Name: "Hall", Address: "1 Road", City: "Cebu"}, Description: "Line one\r\nLine two"}
	}
	require.NoError(t, event().Validate(), "the control: line breaks in the description are fine")
	for name, change := range map[string]func(*EventInput){
		"name":           func(in *EventInput) { in.Name = "Cup\r\nBcc: x" },
		FieldVenueCity:   func(in *EventInput) { in.Venue.City = "Cebu\x1b[31m" },
		"description":    func(in *EventInput) { in.Description = "x\x00y" },
		"surveyAnswers":  func(in *EventInput) { in.SurveyQuestion, in.SurveyAnswers = "Team?", []string{"A\nB", "C"} },
		"surveyQuestion": func(in *EventInput) { in.SurveyQuestion, in.SurveyAnswers = "Team\u202e?", []string{"A", "C"} },
	} {
		in := event()
		change(&in)
		err := in.Validate()
		require.Error(t, err, name)
		require.Contains(t, err.(*Error).Fields, name, name)
	}
	tt := TicketTypeInput{Code: "cup-ga", Name: "GA\r\nx", MaxPurchasable: 1}
	err := tt.Validate()
	require.Error(t, err)
	require.Contains(t, err.(*Error).Fields, FieldName)
}

func TestNormalizeGate_OneLine(t *testing.T) {
	require.Equal(t, "North [31mgate", NormalizeGate(" North\r\n\x1b[31m\u202egate\xff "), "the escape character and the override are dropped")
	require.Equal(t, "Box office", NormalizeGate("Box office"), "the control")
}
