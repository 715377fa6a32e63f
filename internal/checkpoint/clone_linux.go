package checkpoint

import (
	"os"

	"golang.org/x/sys/unix"
)

// cloneFile makes path a copy-on-write clone of src (FICLONE: btrfs, XFS,
// bcachefs), which costs no data blocks until one side changes. It reports
// false, with nothing left at path, where the file system (or the pair of
// file systems) cannot clone; the caller then copies.
func cloneFile(src *os.File, path string) bool {
	dst, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return false
	}
	err = unix.IoctlFileClone(int(dst.Fd()), int(src.Fd()))
	if cerr := dst.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		os.Remove(path)
		return false
	}
	return true
}
