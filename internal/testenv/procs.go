package testenv

import (
	"os"
	"strings"
	"testing"
)

var self = os.Getpid()

// Process is a running process as the tests see it: its id and its
// command line, the arguments joined by spaces.
type Process struct {
	PID  int
	Args string
}

// Processes lists the running processes, leaving out zombies (ended, not
// yet waited for), from /proc on Linux and from ps(1) elsewhere. It fails
// t when it cannot read the list, or the list lacks the test's own
// process, so that "no process left" is never the answer of a listing
// that did not happen.
func Processes(t testing.TB) []Process {
	t.Helper()
	ps, err := processes()
	if err != nil {
		t.Fatalf("listing the running processes: %v", err)
	}
	for _, p := range ps {
		if p.PID == self {
			return ps
		}
	}
	t.Fatalf("the list of running processes (%d of them) lacks the test's own, %d", len(ps), self)
	return nil
}

// ProcessesWith lists the running processes whose command line holds s,
// leaving out the test's own process.
func ProcessesWith(t testing.TB, s string) []Process {
	t.Helper()
	var found []Process
	for _, p := range Processes(t) {
		if strings.Contains(p.Args, s) && p.PID != self {
			found = append(found, p)
		}
	}
	return found
}

// Running reports whether process pid runs (exists and is no zombie).
func Running(t testing.TB, pid int) bool {
	t.Helper()
	for _, p := range Processes(t) {
		if p.PID == pid {
			return true
		}
	}
	return false
}
