package testenv

import (
	"bytes"
	"os"
	"strconv"
	"strings"
)

// processes reads /proc: each process's cmdline, and its state from stat
// (after the command name's closing parenthesis), Z for a zombie.
func processes() ([]Process, error) {
	entries, err := os.ReadDir("/proc")
	if err != nil {
		return nil, err
	}
	var out []Process
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		stat, err := os.ReadFile("/proc/" + e.Name() + "/stat")
		if err != nil {
			continue // ended since the listing
		}
		if i := bytes.LastIndexByte(stat, ')'); i < 0 || bytes.HasPrefix(stat[i+1:], []byte(" Z")) {
			continue
		}
		cmdline, err := os.ReadFile("/proc/" + e.Name() + "/cmdline")
		if err != nil {
			continue
		}
		args := strings.TrimRight(strings.ReplaceAll(string(cmdline), "\x00", " "), " ")
		out = append(out, Process{PID: pid, Args: args})
	}
	return out, nil
}
