package palaro

import "math/rand/v2"

// Scratch-card constants of SPEC.md section 9.
const (
	ScratchCells       = 9    // a 3×3 grid
	ScratchWinCells    = 3    // winning cells that end a win
	ScratchStrokePct   = 75   // a cell is revealed above this share scratched during the stroke
	ScratchLiftPct     = 30   // … or above this share at finger lift
	ScratchBrushPx     = 50   // brush diameter
	ScratchReloadMs    = 5000 // reload delay after the end
	ScratchTitle       = "Try your LUCK! Scratch & Win!"
	ScratchWonTitle    = "YOU WON"
	ScratchLostTitle   = "THANKS FOR PLAYING!"
	ScratchRedirecting = "Redirecting back in 5 seconds..."
	// ScratchNoClaim follows the name of a matched prize that is not claimable: the card won
	// nothing to collect, so it says THANKS FOR PLAYING!, marks no winning line and says this.
	ScratchNoClaim = "Nothing to claim: this one is not a prize to collect at the booth."
)

// ScratchRemarks is what the activity log says of a scratch card's outcome: the prize won only
// when it is claimable, so the log and the card say the same.
func ScratchRemarks(prizeName string, claimable bool) string {
	switch {
	case prizeName == "":
		return "No prize this time"
	case claimable:
		return "Won " + prizeName
	}
	return "Matched " + prizeName + ": nothing to claim"
}

// ScratchBlanks are the filler tiles used when an activity has too few prizes to fill a card
// without a line of three; they are no prize.
var ScratchBlanks = []ScratchPrize{
	{Code: "try-again", Name: "Try again", ImageURL: "img/prizes/try-again.svg"},
	{Code: "better-luck", Name: "Better luck next time", ImageURL: "img/prizes/better-luck.svg"},
}

// ScratchPrize is a prize as the scratch card shows it.
type ScratchPrize struct {
	Code     string `json:"code"`
	Name     string `json:"name"`
	ImageURL string `json:"imageUrl"`
}

// PrizeWon is the prize a scratch card won.
type PrizeWon struct {
	Code      string `json:"code"`
	Name      string `json:"name"`
	Claimable bool   `json:"claimable"`
}

// ScratchCell is one of the nine cells: its image and whether it is one of the winning three.
type ScratchCell struct {
	Winning bool   `json:"winning"`
	Src     string `json:"src"`
	// Code is the prize the cell shows, so a prize without a picture is shown by its name.
	Code string `json:"code,omitempty"`
}

// ScratchCard is the scratch data of SPEC.md section 3: decided and stored by the server.
type ScratchCard struct {
	RedirectURL string         `json:"redirectUrl"`
	Prizes      []ScratchPrize `json:"prizes"`
	PrizeWon    *PrizeWon      `json:"prizeWon,omitempty"`
	Cells       []ScratchCell  `json:"cells"`
}

// scratchLines are the eight lines of three of the 3×3 grid: rows, columns and diagonals.
var scratchLines = [8][3]int{{0, 1, 2}, {3, 4, 5}, {6, 7, 8}, {0, 3, 6}, {1, 4, 7}, {2, 5, 8}, {0, 4, 8}, {2, 4, 6}}

// DrawPrize decides a scratch card: with winPercent chance it wins one of the prizes still in
// stock, picked with weight equal to each one's remaining stock. It returns the index of the
// prize won, or -1.
func DrawPrize(rng *rand.Rand, winPercent int, prizes []Prize) int {
	left := 0
	for _, p := range prizes {
		left += max(p.Stock-p.Awarded, 0)
	}
	if left == 0 || rng.IntN(100) >= winPercent {
		return -1
	}
	n := rng.IntN(left)
	for i, p := range prizes {
		n -= max(p.Stock-p.Awarded, 0)
		if n < 0 {
			return i
		}
	}
	return -1
}

// ScratchLayout lays out the nine cells (SPEC.md section 4). A win (won ≥ 0, an index into
// prizes) puts the won prize's image on one random row, column or diagonal, marked winning, and
// fills the other six cells from the other prizes so that no other line of three matches. No win
// deals the prizes' images round the nine cells and shuffles them until no line of three shares
// a prize code. ScratchBlanks join the fillers when there are too few prizes for that.
func ScratchLayout(rng *rand.Rand, prizes []ScratchPrize, won int) []ScratchCell {
	var fillers []ScratchPrize
	for i, p := range prizes {
		if i != won {
			fillers = append(fillers, p)
		}
	}
	for _, b := range ScratchBlanks {
		if len(fillers) < 2 {
			fillers = append(fillers, b)
		}
	}
	codes := make([]string, ScratchCells)
	cells := make([]ScratchCell, ScratchCells)
	winLine := [3]int{-1, -1, -1}
	if won >= 0 {
		winLine = scratchLines[rng.IntN(len(scratchLines))]
		for _, i := range winLine {
			codes[i], cells[i] = prizes[won].Code, ScratchCell{Winning: true, Src: prizes[won].ImageURL, Code: prizes[won].Code}
		}
	}
	var free []int
	for i := range ScratchCells {
		if codes[i] == "" {
			free = append(free, i)
		}
	}
	deal := make([]ScratchPrize, len(free))
	for k := range deal {
		deal[k] = fillers[k%len(fillers)]
	}
	for attempt := 0; ; attempt++ {
		rng.Shuffle(len(deal), func(a, b int) { deal[a], deal[b] = deal[b], deal[a] })
		for k, i := range free {
			codes[i], cells[i] = deal[k].Code, ScratchCell{Src: deal[k].ImageURL, Code: deal[k].Code}
		}
		if matchingLines(codes) <= boolInt(won >= 0) || attempt > 10000 {
			return cells
		}
	}
}

// matchingLines counts the lines of three whose cells share one code.
func matchingLines(codes []string) int {
	n := 0
	for _, l := range scratchLines {
		if codes[l[0]] == codes[l[1]] && codes[l[1]] == codes[l[2]] {
			n++
		}
	}
	return n
}

// ScratchWinningLine returns the line of three winning cells of a layout, or false when there is none.
func ScratchWinningLine(cells []ScratchCell) ([3]int, bool) {
	for _, l := range scratchLines {
		if cells[l[0]].Winning && cells[l[1]].Winning && cells[l[2]].Winning {
			return l, true
		}
	}
	return [3]int{}, false
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}
