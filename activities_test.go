package palaro

import (
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

func TestActivityInput_PrizePicture(t *testing.T) {
	in := func(image string) *ActivityInput {
		return &ActivityInput{Code: "card", Kind: ActivityScratch, Name: "Card", Points: 5, WinPercent: 50,
			StartsAt: time.Date(2026, 3, 18, 0, 0, 0, 0, time.UTC), EndsAt: time.Date(2026, 3, 19, 0, 0, 0, 0, time.UTC),
			Prizes: []PrizeInput{{Code: "mug", Name: "Mug", Stock: 1, ImageURL: image}}}
	}
	for _, ok := range []string{"", "img/prizes/headset.svg", "/prize-images/12.png", "https://cdn.example.ph/mug.png"} {
		require.NoError(t, in(ok).Validate(), ok)
	}
	for _, bad := range []string{"javascript:alert(1)", "//evil.example/x.png", "http://plain.example/x.png", "img/../secret.svg",
		"data:image/svg+xml,<svg/onload=alert(1)>"} {
		err := in(bad).Validate()
		require.Error(t, err, bad)
		require.Contains(t, ErrorMessage(err), "correct the activity", bad)
		require.Contains(t, err.(*Error).Fields["prizes"], "the picture is a built-in one", bad)
	}
}
