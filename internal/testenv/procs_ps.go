package testenv

import (
	"fmt"
	"os/exec"
	"strconv"
	"strings"
)

// psProcesses asks ps(1), as a person on a Mac would: every process (-A),
// lines of any width (-ww), its id, state (Z for a zombie) and command
// line. ps is setuid root on macOS, which is why a sandboxed command
// cannot run it; the test process runs outside the sandbox.
func psProcesses() ([]Process, error) {
	out, err := exec.Command("ps", "-A", "-ww", "-o", "pid=,stat=,command=").Output()
	if err != nil {
		return nil, fmt.Errorf("ps -A: %w", err)
	}
	var ps []Process
	for _, line := range strings.Split(string(out), "\n") {
		fields := strings.Fields(line)
		if len(fields) < 2 {
			continue
		}
		pid, err := strconv.Atoi(fields[0])
		if err != nil {
			return nil, fmt.Errorf("ps -A printed %q, which does not start with a process id", line)
		}
		if strings.HasPrefix(fields[1], "Z") {
			continue
		}
		ps = append(ps, Process{PID: pid, Args: strings.Join(fields[2:], " ")})
	}
	return ps, nil
}
