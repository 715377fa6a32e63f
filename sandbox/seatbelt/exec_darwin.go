package seatbelt

import (
	"os"
	"strconv"
	"syscall"

	"github.com/wisp-sh/wisp/sandbox"
)

// init registers Seatbelt as macOS's backend: sandbox.Detect finds it in
// every binary that links this package.
func init() { sandbox.Register(Detect) }

// Detect returns the Seatbelt backend, or an *UnavailableError when
// sandbox-exec is missing. exe is unused: macOS needs no helper.
func Detect(exe string) (sandbox.Backend, error) {
	if _, err := os.Stat(sandbox.SeatbeltExec); err != nil {
		return nil, &sandbox.UnavailableError{Why: sandbox.SeatbeltExec + " is missing", Err: err,
			Fix: "sandbox-exec ships with macOS; check that /usr/bin is intact"}
	}
	return Backend{}, nil
}

// closeInheritedOnExec marks every descriptor above stderr close-on-exec.
// Go opens its own so already; what it changes are those wisp inherited
// (`wisp mcp 9>>/outside/leak`, a shell's). The command's own descriptors
// are set up by exec after this, and are not touched.
func closeInheritedOnExec() error {
	entries, err := os.ReadDir("/dev/fd")
	if err != nil {
		return err
	}
	for _, e := range entries {
		fd, err := strconv.Atoi(e.Name())
		if err != nil || fd <= 2 {
			continue
		}
		syscall.CloseOnExec(fd) // a descriptor closed since the listing only fails this call
	}
	return nil
}
