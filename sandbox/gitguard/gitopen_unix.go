//go:build unix

package gitguard

import (
	"os"
	"syscall"
)

// openNoFollow opens path for reading without following a link at its
// last component or waiting for a FIFO's writer.
func openNoFollow(path string) (*os.File, error) {
	return os.OpenFile(path, os.O_RDONLY|syscall.O_NOFOLLOW|syscall.O_NONBLOCK, 0)
}
