package views

import (
	"context"
	"io"
	"strings"
	"testing"

	"github.com/PuerkitoBio/goquery"
	"github.com/stretchr/testify/require"
)

// TestCheckbox_Attributes renders the server-side checkbox (sign-up, the organizer's forms) with an
// error, a hint and neither: its input carries only real attributes, described by the error,
// else the hint.
func TestCheckbox_Attributes(t *testing.T) {
	for name, tc := range map[string]struct {
		box       FormCheckbox
		described string
		invalid   bool
	}{
		"Error": {FormCheckbox{Name: "terms", Label: "I agree", Error: "Please agree.", Hint: "Thanks"}, "f-terms-error", true},
		"Hint":  {FormCheckbox{Name: "public", Label: "Public", Hint: "Shown to everyone"}, "f-public-hint", false},
		"None":  {FormCheckbox{Name: "news", Label: "News"}, "", false},
	} {
		t.Run(name, func(t *testing.T) {
			var b strings.Builder
			require.NoError(t, checkbox(tc.box).Render(context.Background(), &b))
			doc, err := goquery.NewDocumentFromReader(strings.NewReader(b.String()))
			require.NoError(t, err)
			input := doc.Find("input[type=checkbox]")
			require.Equal(t, 1, input.Length(), b.String())
			for _, a := range input.Nodes[0].Attr {
				require.Contains(t, []string{"type", "id", "name", "value", "checked", "aria-invalid", "aria-describedby"}, a.Key, b.String())
			}
			described, ok := input.Attr("aria-describedby")
			require.Equal(t, tc.described != "", ok, b.String())
			require.Equal(t, tc.described, described)
			if described != "" {
				require.Equal(t, 1, doc.Find("#"+described).Length(), "the described text is on the page")
			}
			_, invalid := input.Attr("aria-invalid")
			require.Equal(t, tc.invalid, invalid)
		})
	}
}

// TestField_AttributesByType renders fields of every type the forms use: placeholder and maxlength
// appear only where HTML allows them (not on date, datetime-local; no maxlength on number).
func TestField_AttributesByType(t *testing.T) {
	for typ, want := range map[string][2]bool{ // placeholder, maxlength
		"text": {true, true}, "email": {true, true}, "password": {true, true}, "tel": {true, true},
		"number": {true, false}, "date": {false, false}, "datetime-local": {false, false},
	} {
		t.Run(typ, func(t *testing.T) {
			for name, c := range map[string]interface {
				Render(context.Context, io.Writer) error
			}{
				"field":     field(FormField{Name: "x", Label: "X", Type: typ, MaxLength: 20}),
				"textField": textField(textFieldView{ID: "x", Label: "X", Type: typ, MaxLength: 20}),
			} {
				var b strings.Builder
				require.NoError(t, c.Render(context.Background(), &b))
				doc, err := goquery.NewDocumentFromReader(strings.NewReader(b.String()))
				require.NoError(t, err)
				input := doc.Find("input")
				_, placeholder := input.Attr("placeholder")
				_, maxlength := input.Attr("maxlength")
				require.Equal(t, want, [2]bool{placeholder, maxlength}, "%s: %s", name, b.String())
			}
		})
	}
}
