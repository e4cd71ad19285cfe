package views

import (
	"fmt"
	"net/url"
	"slices"
	"strconv"
	"strings"

	"palaro"
)

// seatBlock is one block of at most seatBlockSize seats of the seat map: its first seat index
// (0-based) and how many seats wide it is.
type seatBlock struct{ Start, Cols int }

// Legend is the block's legend, as in 'Seats 1–5'.
func (b seatBlock) Legend() string {
	if b.Cols > 1 {
		return fmt.Sprintf("Seats %d–%d", b.Start+1, b.Start+b.Cols)
	}
	return "Seats " + strconv.Itoa(b.Start+1)
}

// seatSection is the seats between two aisles, cut into blocks; Width is its seat count.
type seatSection struct {
	Blocks []seatBlock
	Width  int
}

// seatBlockSize is the most seats a block holds, so a phone shows a whole block of 44 px seats.
const seatBlockSize = 5

// seatSections cuts the seat map's width at the aisles, then into blocks, as the island's
// sections() does (islands/seats.tsx).
func (p SeatsProps) seatSections() []seatSection {
	width := 0
	for _, r := range p.Rows {
		width = max(width, len(r.Status))
	}
	var cuts []int
	for _, a := range p.Aisles {
		if a > 0 && a < width && !slices.Contains(cuts, a) {
			cuts = append(cuts, a)
		}
	}
	slices.Sort(cuts)
	var out []seatSection
	from := 0
	for _, end := range append(cuts, width) {
		var sec seatSection
		for s := from; s < end; s += seatBlockSize {
			sec.Blocks = append(sec.Blocks, seatBlock{Start: s, Cols: min(seatBlockSize, end-s)})
		}
		if len(sec.Blocks) > 0 {
			sec.Width = end - from
			out = append(out, sec)
		}
		from = end
	}
	return out
}

// seatTile is one seat of a block's row: its label and status ('available', 'held', 'sold'), or
// an empty place of the layout when Status is "".
type seatTile struct{ Label, Status string }

var seatStatus = map[byte]string{'a': "available", 'h': "held", 's': "sold"}

// tiles are the seats of row r in block b.
func (p SeatsProps) tiles(r SeatRowJSON, b seatBlock) []seatTile {
	out := make([]seatTile, 0, b.Cols)
	for i := b.Start; i < b.Start+b.Cols; i++ {
		t := seatTile{Label: palaro.SeatLabel(p.Section, r.Row, i+1)}
		if i < len(r.Status) {
			t.Status = seatStatus[r.Status[i]]
		}
		out = append(out, t)
	}
	return out
}

func (p SeatsProps) gapAfter(row string) bool { return slices.Contains(p.RowGaps, row) }

func (p SeatsProps) chosen(label string) bool { return slices.Contains(p.Selected, label) }

// choiceTitle is the seat bar's line for the chosen seats, as in 'Seats A1, A2'.
func (p SeatsProps) choiceTitle() string {
	if len(p.Selected) == 1 {
		return "Seat " + p.Selected[0]
	}
	return "Seats " + strings.Join(p.Selected, ", ")
}

func (p SeatsProps) choiceTotal() string {
	return palaro.Money(p.FinalPrice * int64(len(p.Selected))).Display()
}

// choosePrompt is the seat bar's line before a seat is chosen.
func (p SeatsProps) choosePrompt() string {
	if p.Max == 1 {
		return "Choose up to 1 seat."
	}
	return "Choose up to " + palaro.Plural(p.Max, "seat", "seats") + "."
}

// buyHref is the buy page for the chosen seats, as the island links it.
func (p SeatsProps) buyHref() string {
	href := "/b/" + p.Code + "?seats=" + strings.Join(p.Selected, ",")
	if p.Hold != "" {
		href += "&hold=" + url.QueryEscape(p.Hold)
	}
	if p.Source != "" {
		href += "&source=" + url.QueryEscape(p.Source)
	}
	return href
}

// sectionHref is the seat page of one of the zone's sections, on the series date slug names ("" for
// an event of one date).
func (z ArenaZoneJSON) sectionHref(section, source, slug string) string {
	q := url.Values{"section": {section}}
	if source != "" {
		q.Set("source", source)
	}
	if slug != "" {
		q.Set("date", slug)
	}
	return "/s/" + z.Code + "?" + q.Encode()
}

// freeLine is a section's or standing area's line of the overview, as in '312 of 1,000 free'.
func freeLine(free, seats int) string {
	if free == 0 {
		return "Sold out"
	}
	if seats == 0 {
		return palaro.Plural(free, "place", "places") + " left"
	}
	return fmt.Sprintf("%s of %s free", palaro.FormatCount(free), palaro.FormatCount(seats))
}
