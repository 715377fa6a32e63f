//go:build !linux && !darwin

package tty

import "errors"

// errFlushUnsupported is what dropping type-ahead returns on a system
// wisp has no call for.
var errFlushUnsupported = errors.New("dropping what was typed ahead is not supported on this system")

func flushInput(int) error { return errFlushUnsupported }

func queued(int) (int, error) { return 0, errFlushUnsupported }
