//go:build linux && arm64

package landlock

import "golang.org/x/sys/unix"

const (
	seccompArch   = unix.AUDIT_ARCH_AARCH64
	x32SyscallBit = 0
	socketFilter  = true
)

// modeSyscalls set a file's mode on this architecture, with the index of
// the argument that holds it.
var modeSyscalls = []modeSyscall{
	{unix.SYS_FCHMOD, 1}, {unix.SYS_FCHMODAT, 2}, {unix.SYS_FCHMODAT2, 2}, {unix.SYS_MKNODAT, 2},
	{unix.SYS_OPENAT, 3},
}
