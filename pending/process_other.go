//go:build !linux && !darwin

package pending

import (
	"fmt"
	"runtime"
)

// processStartTime is not available here: without it a reused pid cannot
// be told apart, so no request can name its requester.
func processStartTime(pid int) (string, error) {
	return "", fmt.Errorf("%w (%s): a reused process id cannot be told apart", ErrUnsupported, runtime.GOOS)
}
