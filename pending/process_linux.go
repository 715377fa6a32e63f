package pending

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"strconv"
	"syscall"
)

// processStartTime reads field 22 of /proc/<pid>/stat, the process's start
// time in clock ticks since boot. A zombie counts as gone: it has ended.
func processStartTime(pid int) (string, error) {
	data, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if errors.Is(err, fs.ErrNotExist) || errors.Is(err, syscall.ESRCH) {
		return "", errProcessGone
	}
	if err != nil {
		return "", fmt.Errorf("read the start time of process %d: %w", pid, err)
	}
	return startTimeFromStat(data)
}

// startTimeFromStat picks the state (field 3) and start time (field 22)
// out of a /proc/<pid>/stat line. Field 2, the command name, is in
// parentheses and may itself hold spaces and parentheses, so fields are
// counted from the last ')'.
func startTimeFromStat(stat []byte) (string, error) {
	end := bytes.LastIndexByte(stat, ')')
	if end < 0 {
		return "", fmt.Errorf("read a process's start time: /proc stat line %q has no command name", stat)
	}
	fields := bytes.Fields(stat[end+1:])
	// Fields are numbered from 1 in proc(5); these are counted after the
	// command name, field 2.
	const afterName = 3
	const state, start = 3 - afterName, 22 - afterName
	if len(fields) <= start {
		return "", fmt.Errorf("read a process's start time: /proc stat line %q is too short", stat)
	}
	if s := string(fields[state]); s == "Z" || s == "X" {
		return "", errProcessGone
	}
	return string(fields[start]), nil
}
