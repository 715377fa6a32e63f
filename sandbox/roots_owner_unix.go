//go:build unix

package sandbox

import (
	"os"
	"syscall"
)

// ownedByMe reports whether the folder p is there and belongs to the user
// wisp runs as.
func ownedByMe(p string) bool {
	info, err := os.Stat(p)
	if err != nil || !info.IsDir() {
		return false
	}
	st, ok := info.Sys().(*syscall.Stat_t)
	return ok && int(st.Uid) == os.Geteuid()
}
