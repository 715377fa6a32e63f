//go:build unix

package pending

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"syscall"
)

// openNoFollow opens path for reading without following a symbolic link at
// its last component, and without blocking on a FIFO planted there.
func openNoFollow(path string) (*os.File, error) {
	f, err := os.OpenFile(path, os.O_RDONLY|syscall.O_NOFOLLOW|syscall.O_NONBLOCK, 0)
	if errors.Is(err, syscall.ELOOP) || errors.Is(err, syscall.EMLINK) {
		return nil, ErrSymlink
	}
	return f, err
}

// ownedBySelf refuses a file of another user, or one others may write.
func ownedBySelf(info fs.FileInfo) error {
	st, ok := info.Sys().(*syscall.Stat_t)
	if !ok {
		return fmt.Errorf("%w: its owner cannot be read", ErrForeignOwner)
	}
	if int(st.Uid) != os.Geteuid() {
		return fmt.Errorf("%w: uid %d, not %d", ErrForeignOwner, st.Uid, os.Geteuid())
	}
	if info.Mode().Perm()&0o022 != 0 {
		return fmt.Errorf("%w: its mode is %s", ErrLooseMode, info.Mode().Perm())
	}
	return nil
}
