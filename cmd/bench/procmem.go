package main

import (
	"os"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// resetPeakRSS resets the process's peak resident memory (VmHWM) to its resident memory now, by
// writing 5 to Linux's /proc/{pid}/clear_refs, and returns that, in bytes: VmHWM read after some
// work (procMemory) is then the peak of that work. ok is false where clear_refs is not available.
func resetPeakRSS(pid int) (int64, bool) {
	if err := os.WriteFile("/proc/"+strconv.Itoa(pid)+"/clear_refs", []byte("5"), 0); err != nil {
		return 0, false
	}
	return procMemory(pid, "VmRSS")
}

// procMemory reads a memory figure ("VmRSS", "VmHWM") of the process from /proc/{pid}/status, in
// bytes; ok is false where it cannot be read.
func procMemory(pid int, field string) (int64, bool) {
	data, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/status")
	if err != nil {
		return 0, false
	}
	for line := range strings.Lines(string(data)) {
		if rest, ok := strings.CutPrefix(line, field+":"); ok {
			kb, err := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(rest), " kB"), 10, 64)
			return kb * 1024, err == nil
		}
	}
	return 0, false
}

// userHZ is the unit of the processor times in /proc/{pid}/stat: Linux exports them in ticks of
// 1/100 s on every architecture (USER_HZ).
const userHZ = 100

// procCPU reads the processor time the process has used so far (user and system, every thread)
// from /proc/{pid}/stat, to 10 ms; ok is false where it cannot be read.
func procCPU(pid int) (time.Duration, bool) {
	data, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return 0, false
	}
	return parseStatCPU(string(data))
}

// parseStatCPU reads utime and stime (the 14th and 15th fields) from a /proc/{pid}/stat line. The
// command name, the second field, is in parentheses and may hold spaces, so fields are counted
// from its closing parenthesis.
func parseStatCPU(stat string) (time.Duration, bool) {
	i := strings.LastIndexByte(stat, ')')
	if i < 0 {
		return 0, false
	}
	fields := strings.Fields(stat[i+1:]) // from the 3rd field (state) on
	if len(fields) < 13 {
		return 0, false
	}
	utime, err1 := strconv.ParseInt(fields[11], 10, 64)
	stime, err2 := strconv.ParseInt(fields[12], 10, 64)
	if err1 != nil || err2 != nil {
		return 0, false
	}
	return time.Duration(utime+stime) * time.Second / userHZ, true
}

// selfCPU is the processor time the bench's own process has used so far (user and system, every
// thread), to the microsecond.
func selfCPU() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
