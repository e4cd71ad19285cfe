package main

import (
	"os"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// TestParseStatCPU_CountsFromTheCommandsParenthesis: utime and stime are read after the command
// name, which may hold spaces and parentheses of its own; a short or broken line is not read.
func TestParseStatCPU_CountsFromTheCommandsParenthesis(t *testing.T) {
	line := "4242 (pal (a) ro) S 1 4242 4242 0 -1 4194560 1 0 0 0 250 37 0 0 20 0 9 0 100 1000000 500 18446744073709551615\n"
	got, ok := parseStatCPU(line)
	require.True(t, ok)
	require.Equal(t, 2870*time.Millisecond, got, "(250 + 37) ticks of 10 ms")

	_, ok = parseStatCPU("4242 (palaro) S 1 4242")
	require.False(t, ok, "too few fields")
	_, ok = parseStatCPU(strings.Replace(line, " 250 ", " x ", 1))
	require.False(t, ok, "utime not a number")
	_, ok = parseStatCPU("no parenthesis at all")
	require.False(t, ok)
}

// TestProcCPU_GrowsWithWork: the process's own /proc figure and its rusage both count a busy
// loop's processor time.
func TestProcCPU_GrowsWithWork(t *testing.T) {
	before, ok := procCPU(os.Getpid())
	require.True(t, ok)
	self := selfCPU()
	sum := 0
	for work := selfCPU(); selfCPU()-work < 150*time.Millisecond; {
		for i := range 100000 {
			sum += i
		}
	}
	require.NotZero(t, sum)
	after, ok := procCPU(os.Getpid())
	require.True(t, ok)
	require.GreaterOrEqual(t, selfCPU()-self, 150*time.Millisecond)
	require.GreaterOrEqual(t, after-before, 100*time.Millisecond, "150 ms of work, read to 10 ms")
}

// TestStorm_ProcessorTimePerAnswer: the bare order server's share is the bench's time per answer in
// the bare rounds less the load generator's in Palaro's rounds, never below zero; the report
// gives the figures only when Palaro's could be read.
func TestStorm_ProcessorTimePerAnswer(t *testing.T) {
	st := &Storm{Buy: Load{Requests: 500, Refused: 1500, Elapsed: time.Second},
		BareOrders: Load{Requests: 500, Refused: 1400, Failures: 100, Elapsed: time.Second},
		CPU: stormCPU{Palaro: 400 * time.Millisecond, Generator: 100 * time.Millisecond, Bare: 260 * time.Millisecond,
			PalaroAside: 1500 * time.Millisecond, Known: true}}
	require.Equal(t, 200*time.Microsecond, perAnswer(st.CPU.Palaro, st.Buy))
	require.Equal(t, 80*time.Microsecond, st.BareServerPerAnswer(), "130 µs − 50 µs")
	require.Zero(t, perAnswer(time.Second, Load{}), "no answers")

	md := (&report{Storm: st}).Markdown()
	require.Contains(t, md, "Palaro's server **200 µs**; the bare order server about **80 µs** (the bench's process in the bare rounds, 130 µs, less the load generator's share, 50 µs")
	require.Contains(t, md, "Palaro's process used 1.5s between the end of its loads and the end of the bare rounds that followed")

	st.CPU.Bare = 50 * time.Millisecond
	require.Zero(t, st.BareServerPerAnswer(), "never below zero")
	st.CPU.Known = false
	require.NotContains(t, (&report{Storm: st}).Markdown(), "Processor time per answer")
}
