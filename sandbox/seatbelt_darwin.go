package sandbox

import (
	"errors"
	"os"
	"os/exec"
	"strconv"
	"sync"
	"syscall"
)

// Detect returns the Seatbelt backend, or an *UnavailableError when
// sandbox-exec is missing. exe is unused: macOS needs no helper.
func Detect(exe string) (Backend, error) {
	if _, err := os.Stat(SeatbeltExec); err != nil {
		return nil, &UnavailableError{Why: SeatbeltExec + " is missing", Err: err,
			Fix: "sandbox-exec ships with macOS; check that /usr/bin is intact"}
	}
	return Seatbelt{}, nil
}

var nested struct {
	once sync.Once
	is   bool
}

// Nested reports whether wisp itself runs inside another Seatbelt sandbox,
// which refuses a nested profile (0009): found once per process by running
// a profile that allows everything, never from a user command's output.
// Nested, commands run plainly under the outer sandbox.
func Nested() bool {
	nested.once.Do(func() {
		if _, err := os.Stat(SeatbeltExec); err != nil {
			return
		}
		err := exec.Command(SeatbeltExec, "-p", "(version 1)(allow default)", "/usr/bin/true").Run()
		nested.is = err != nil
	})
	return nested.is
}

// HelperMain refuses: the helper is Linux's way of confining a command.
func HelperMain(args []string) int {
	return helperFailed(errors.New("the sandbox helper runs only on Linux; on macOS wisp uses sandbox-exec"))
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
