package main

import (
	"os"
	"strconv"
	"strings"
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
