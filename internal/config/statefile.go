package config

import (
	"errors"
	"fmt"
	"io"
	"os"
	"syscall"
)

// ReadStateFile reads a state file of wisp's home (config.json,
// approvals.json) as Check would have it: the file it opens is never a link
// (O_NOFOLLOW), and the open file itself is checked, so what was checked is
// what is read even if the path changes in between. A missing file is an
// error that wraps fs.ErrNotExist; an unsafe one is an *UnsafeError.
func ReadStateFile(path string) ([]byte, error) {
	f, err := os.OpenFile(path, os.O_RDONLY|syscall.O_NOFOLLOW|syscall.O_NONBLOCK, 0)
	if errors.Is(err, syscall.ELOOP) || errors.Is(err, syscall.EMLINK) {
		return nil, linkedFileError(path)
	}
	if err != nil {
		return nil, err
	}
	defer f.Close()
	info, err := f.Stat()
	if err != nil {
		return nil, fmt.Errorf("inspect %s: %w", path, err)
	}
	if err := checkStateFile(path, info, os.Geteuid()); err != nil {
		return nil, err
	}
	return io.ReadAll(f)
}
