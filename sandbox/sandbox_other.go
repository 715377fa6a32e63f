//go:build !linux && !darwin

package sandbox

import (
	"runtime"
)

// Detect has no backend to offer on this system: its error wraps
// ErrUnavailable and ErrUnsupportedOS, and callers fail closed.
func Detect(exe string) (Backend, error) {
	return nil, &UnavailableError{Why: "wisp confines commands on Linux and macOS, not " + runtime.GOOS, Err: ErrUnsupportedOS}
}

// Nested is false: there is no sandbox here to be nested in.
func Nested() bool { return false }
