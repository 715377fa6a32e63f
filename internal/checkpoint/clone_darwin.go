package checkpoint

import (
	"os"

	"golang.org/x/sys/unix"
)

// cloneFile makes path a copy-on-write clone of src (APFS clonefile),
// which costs no data blocks until one side changes. It reports false,
// with nothing left at path, where the file system (or the pair of file
// systems) cannot clone; the caller then copies.
func cloneFile(src *os.File, path string) bool {
	err := unix.Fclonefileat(int(src.Fd()), unix.AT_FDCWD, path, unix.CLONE_NOFOLLOW|unix.CLONE_NOOWNERCOPY)
	if err != nil {
		if err != unix.EEXIST {
			os.Remove(path) // a clone cut short
		}
		return false
	}
	return true
}
