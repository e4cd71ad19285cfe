package palaro

import (
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"
)

var testScratchPrizes = []ScratchPrize{
	{Code: "cap", Name: "Cap", ImageURL: "/cap.svg"},
	{Code: "shirt", Name: "Shirt", ImageURL: "/shirt.svg"},
	{Code: "pad", Name: "Mouse pad", ImageURL: "/pad.svg"},
}

func codesOf(cells []ScratchCell, prizes []ScratchPrize) []string {
	byURL := map[string]string{}
	for _, b := range ScratchBlanks {
		byURL[b.ImageURL] = b.Code
	}
	for _, p := range prizes {
		byURL[p.ImageURL] = p.Code
	}
	out := make([]string, len(cells))
	for i, c := range cells {
		out[i] = byURL[c.Src]
	}
	return out
}

func TestScratchLayout_Win(t *testing.T) {
	lines := map[[3]int]bool{}
	for seed := range uint64(200) {
		rng := rand.New(rand.NewPCG(seed, 7))
		cells := ScratchLayout(rng, testScratchPrizes, 1)
		require.Len(t, cells, ScratchCells)
		line, ok := ScratchWinningLine(cells)
		require.True(t, ok, "seed %d: a win has a line of three winning cells", seed)
		lines[line] = true
		winning := 0
		for i, c := range cells {
			if c.Winning {
				winning++
				require.Equal(t, "/shirt.svg", c.Src)
			} else {
				require.NotEqual(t, "/shirt.svg", c.Src, "seed %d cell %d: fillers come from the other prizes", seed, i)
			}
		}
		require.Equal(t, ScratchWinCells, winning)
		require.Equal(t, 1, matchingLines(codesOf(cells, testScratchPrizes)), "seed %d: only the winning line matches", seed)
	}
	require.Len(t, lines, 8, "every row, column and diagonal comes up")
	t.Run("OK same seed same card", func(t *testing.T) {
		a := ScratchLayout(rand.New(rand.NewPCG(1, 2)), testScratchPrizes, 0)
		b := ScratchLayout(rand.New(rand.NewPCG(1, 2)), testScratchPrizes, 0)
		require.Equal(t, a, b)
	})
	t.Run("OK single prize uses blanks", func(t *testing.T) {
		cells := ScratchLayout(rand.New(rand.NewPCG(3, 4)), testScratchPrizes[:1], 0)
		_, ok := ScratchWinningLine(cells)
		require.True(t, ok)
	})
}

func TestScratchLayout_NoWin(t *testing.T) {
	for _, prizes := range [][]ScratchPrize{testScratchPrizes, testScratchPrizes[:2], testScratchPrizes[:1], nil} {
		for seed := range uint64(100) {
			cells := ScratchLayout(rand.New(rand.NewPCG(seed, 9)), prizes, -1)
			require.Len(t, cells, ScratchCells)
			for _, c := range cells {
				require.False(t, c.Winning)
			}
			require.Zero(t, matchingLines(codesOf(cells, prizes)), "%d prizes, seed %d: no line of three shares a code", len(prizes), seed)
		}
	}
}

func TestDrawPrize(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 5))
	t.Run("OK only prizes in stock", func(t *testing.T) {
		prizes := []Prize{{Code: "a", Stock: 3, Awarded: 3}, {Code: "b", Stock: 5, Awarded: 1}}
		for range 100 {
			require.Equal(t, 1, DrawPrize(rng, 100, prizes))
		}
	})
	t.Run("OK none left", func(t *testing.T) {
		require.Equal(t, -1, DrawPrize(rng, 100, []Prize{{Code: "a", Stock: 2, Awarded: 2}}))
	})
	t.Run("OK zero chance", func(t *testing.T) {
		for range 100 {
			require.Equal(t, -1, DrawPrize(rng, 0, []Prize{{Code: "a", Stock: 2}}))
		}
	})
}
