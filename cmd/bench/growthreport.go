package main

import (
	"fmt"
	"strings"
	"time"

	"palaro/store"
)

// budgetOrganizerP99 is issue 24's budget for the organizer views of a 55,000-ticket event (and
// the gate's answers): p99 ≤ 100 ms on this machine's class (2 cores).
const budgetOrganizerP99 = 100 * time.Millisecond

// growthViews are the organizer views the budget holds; the CSV exports are held by the time to
// their first bytes (they stream: the whole download grows with the rows, by design).
var growthViews = map[string]bool{"dashboard": true, "orders search": true, "check-in counts": true}

// growthExports are the streamed CSV exports.
var growthExports = map[string]bool{"attendees CSV": true, "orders CSV": true}

// op returns the run's operation by name.
func (r GrowthRun) op(name string) (GrowthOp, bool) {
	for _, o := range r.Ops {
		if o.Name == name {
			return o, true
		}
	}
	return GrowthOp{}, false
}

// growthChecks holds the organizer views of the largest size to the budget, and the seat page's
// first view to the island budget at the largest size and to not growing at all.
func (r *report) growthChecks() []check {
	if len(r.Growth) == 0 {
		return nil
	}
	first, last := r.Growth[0], r.Growth[len(r.Growth)-1]
	var out []check
	for _, name := range growthOpNames {
		g, ok := last.op(name)
		if !ok || g.Skipped != "" {
			continue
		}
		event := fmt.Sprintf("a %s-ticket event (the sold-out arena)", thousands(g.Tickets))
		switch {
		case growthViews[name]:
			out = append(out, check{fmt.Sprintf("%s of %s: p99 ≤ %s", name, event, ms(budgetOrganizerP99)),
				ms(g.P99), g.P99 <= budgetOrganizerP99 && g.Failures == 0})
		case growthExports[name]:
			out = append(out, check{fmt.Sprintf("%s of %s: first bytes p99 ≤ %s (streamed; the whole download in the scale table)",
				name, event, ms(budgetOrganizerP99)), ms(g.FirstP99), g.FirstP99 <= budgetOrganizerP99 && g.Failures == 0})
		}
	}
	a, okA := first.op(growthSeatPage)
	z, okZ := last.op(growthSeatPage)
	if okA && okZ && a.Weight != nil && z.Weight != nil {
		js := z.Weight.Bytes("js")
		out = append(out,
			check{fmt.Sprintf("Seat page's first view, arena of %s places: JS ≤ %s gz (an island page)", thousands(last.Places), kbs(budgetIslandJS)),
				kbs(js), js <= budgetIslandJS && z.Failures == 0},
			check{fmt.Sprintf("Seat page's first view does not grow: HTML + CSS + JS gz at %s places ≤ %.0f%% above %s places'",
				thousands(last.Places), (firstViewSlack-1)*100, thousands(first.Places)),
				fmt.Sprintf("%s → %s", kbs(firstViewBytes(a)), kbs(firstViewBytes(z))), !firstViewGrows(a, z) && a.Failures+z.Failures == 0})
	}
	return out
}

// growthSeatPage is the first view the scale section measures.
const growthSeatPage = "seat page, first view"

// firstViewSlack is how much a first view may weigh more at the largest size before it counts as
// growing: a count of free seats written with more digits is not growth.
const firstViewSlack = 1.05

// firstViewBytes is what a first view downloads: its whole weight when measured, else its HTML.
func firstViewBytes(g GrowthOp) int {
	if g.Weight != nil {
		return g.Weight.Bytes("html", "css", "js")
	}
	return g.Bytes
}

// firstViewGrows reports whether a first view's HTML or whole weight grew beyond firstViewSlack
// from a (the smallest size) to z (the largest).
func firstViewGrows(a, z GrowthOp) bool {
	grows := func(x, y int) bool { return x > 0 && float64(y) > firstViewSlack*float64(x) }
	return grows(a.Bytes, z.Bytes) || grows(firstViewBytes(a), firstViewBytes(z))
}

// growthMarkdown is the scale section: each operation at each size, and how it grows.
func (r *report) growthMarkdown() string {
	if len(r.Growth) == 0 {
		return ""
	}
	var b strings.Builder
	var sizes []string
	for _, run := range r.Growth {
		sizes = append(sizes, thousands(run.Places))
	}
	fmt.Fprintf(&b, "\n#### Cost growth: the stadium seed's arena of %s places, on sale and sold out, each on its own server\n\n", strings.Join(sizes, ", "))
	fmt.Fprintf(&b, "Each size is `bin/palaro seed --demo --stadium --places N` (the event `%s`: lower and upper box seats in "+
		"sections, two standing areas) on a fresh database, in two states: **on sale**, `--sold %g` (the seed sells about that share "+
		"of each price zone), for the seat page, best available and the queue storm; **sold out**, `--sold 1` and then every seat the "+
		"seed left sold by the bench (one seat per order, straight into the database) and %d%% of the tickets checked in, for the "+
		"gate list and the organizer's views: an event of exactly N tickets. The column headers give each state's tickets.\n\n",
		store.StadiumEventCode, growthSoldShare, growthCheckedIn)
	b.WriteString("Each cell: p50 / p99 of the operation's repetitions (one after the other; a storm: its whole time and its " +
		"requests' p99); then the server's peak resident memory during it (VmHWM after a reset through " +
		"`/proc/<pid>/clear_refs`) and, in brackets, how far it rose above the resident memory just before; then the answer's size on the wire.\n\n")
	b.WriteString("| Operation | Measured on |")
	for _, run := range r.Growth {
		fmt.Fprintf(&b, " %s places (on sale: %s tickets; sold out: %s tickets in %s orders) |", thousands(run.Places),
			thousands(run.OnSale.Tickets), thousands(run.SoldOut.Tickets), thousands(run.SoldOut.Orders))
	}
	b.WriteString(" Growth, smallest → largest |\n|---|---|")
	for range r.Growth {
		b.WriteString("---|")
	}
	b.WriteString("---|\n")
	first, last := r.Growth[0], r.Growth[len(r.Growth)-1]
	var notes []string
	for _, name := range growthOpNames {
		state := "sold out"
		if growthOnSale[name] {
			state = "on sale"
		}
		fmt.Fprintf(&b, "| %s | %s |", name, state)
		for _, run := range r.Growth {
			g, _ := run.op(name)
			b.WriteString(" " + growthCell(g) + " |")
			if g.Note != "" && run.Places == last.Places {
				notes = append(notes, fmt.Sprintf("%s (%s places, %s): %s.", name, thousands(run.Places), state, g.Note))
			}
		}
		a, _ := first.op(name)
		z, _ := last.op(name)
		fmt.Fprintf(&b, " %s |\n", growthVerdict(name, a, z, ticketRatio(a, z)))
	}
	fmt.Fprintf(&b, "\nFrom %s to %s places the tickets grow ×%.1f on sale and ×%.1f sold out; each row's growth is held to its "+
		"state's. ", thousands(first.Places), thousands(last.Places), float64(last.OnSale.Tickets)/float64(max(first.OnSale.Tickets, 1)),
		float64(last.SoldOut.Tickets)/float64(max(first.SoldOut.Tickets, 1)))
	b.WriteString("\"Faster than the tickets\" flags a time or memory rise larger than the tickets' (the rule: nothing may grow " +
		"faster than the number of tickets); a first view flags any growth of its bytes, its HTML or all it downloads (it must not grow at all).\n\n")
	for _, n := range notes {
		b.WriteString("- " + n + "\n")
	}
	for _, run := range r.Growth {
		fmt.Fprintf(&b, "- %s places: on sale seeded in %s (%s tickets in %s orders); sold out seeded in %s (%s tickets in %s orders, "+
			"%s of them sold by the bench after the seed; %s checked in).\n", thousands(run.Places),
			run.OnSale.Seed.Round(time.Millisecond), thousands(run.OnSale.Tickets), thousands(run.OnSale.Orders),
			run.SoldOut.Seed.Round(time.Millisecond), thousands(run.SoldOut.Tickets), thousands(run.SoldOut.Orders),
			thousands(run.SoldOut.Rest), thousands(run.SoldOut.CheckedIn))
	}
	return b.String()
}

// ticketRatio is how many times more tickets the event of z had than that of a (1 when unknown).
func ticketRatio(a, z GrowthOp) float64 {
	if a.Tickets <= 0 || z.Tickets <= 0 {
		return 1
	}
	return float64(z.Tickets) / float64(a.Tickets)
}

// growthCell is one operation at one size.
func growthCell(g GrowthOp) string {
	if g.Skipped != "" {
		return "not measured: " + g.Skipped
	}
	cell := fmt.Sprintf("%s / %s", ms(g.P50), ms(g.P99))
	if g.Name == "queue storm" {
		cell = fmt.Sprintf("%s (p99 %s)", g.Total.Round(100*time.Millisecond), ms(g.P99))
	}
	if growthExports[g.Name] {
		cell += fmt.Sprintf(", first bytes %s", ms(g.FirstP99))
	}
	cell += fmt.Sprintf("; %s (+%s)", mb(g.Peak), mb(max(g.Peak-g.RSSBefore, 0)))
	if g.Bytes > 0 {
		cell += "; " + kbs(g.Bytes)
	}
	if g.Weight != nil {
		cell += fmt.Sprintf(" (first view in all %s)", kbs(firstViewBytes(g)))
	}
	if g.Failures > 0 {
		cell += fmt.Sprintf("; **%d failures**", g.Failures)
	}
	return cell
}

// growthVerdict says how an operation grew between the smallest and the largest size, the event's
// tickets having grown ticketRatio times.
func growthVerdict(name string, a, z GrowthOp, ticketRatio float64) string {
	if a.Skipped != "" || z.Skipped != "" || a.P50 <= 0 {
		return "—"
	}
	timeRatio := float64(z.P50) / float64(a.P50)
	if name == "queue storm" {
		timeRatio = float64(z.Total) / float64(max(a.Total, 1))
	}
	memA, memZ := max(a.Peak-a.RSSBefore, 1<<20), max(z.Peak-z.RSSBefore, 1<<20) // below 1 MB counts as 1 MB: noise
	memRatio := float64(memZ) / float64(memA)
	out := fmt.Sprintf("time ×%.1f, memory rise ×%.1f", timeRatio, memRatio)
	if a.Bytes > 0 {
		out += fmt.Sprintf(", bytes ×%.1f", float64(z.Bytes)/float64(a.Bytes))
	}
	var flags []string
	if timeRatio > ticketRatio {
		flags = append(flags, "time grows faster than the tickets")
	}
	if memRatio > ticketRatio {
		flags = append(flags, "memory grows faster than the tickets")
	}
	if strings.Contains(name, "first view") && firstViewGrows(a, z) {
		flags = append(flags, "a first view that grows")
	}
	if len(flags) > 0 {
		out += " — **" + strings.Join(flags, "; ") + "**"
	}
	return out
}
