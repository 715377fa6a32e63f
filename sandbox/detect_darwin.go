package sandbox

import (
	"os"
	"os/exec"
	"sync"
)

// Detect returns the backend a linked backend package registered
// (sandbox/seatbelt on macOS), or an *UnavailableError.
func Detect(exe string) (Backend, error) {
	if len(detectors) == 0 {
		return nil, &UnavailableError{Why: "this program links no Seatbelt backend", Err: ErrUnavailable,
			Fix: "import github.com/wisp-sh/wisp/sandbox/seatbelt in the program's main package"}
	}
	return detectors[0](exe)
}

var nested struct {
	once sync.Once
	is   bool
}

// Nested reports whether wisp itself runs inside another Seatbelt sandbox,
// which refuses a nested profile (docs/decisions.md, D2): found once per process by running
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
