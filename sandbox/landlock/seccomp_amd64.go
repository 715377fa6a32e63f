//go:build linux && amd64

package landlock

import "golang.org/x/sys/unix"

const (
	seccompArch   = unix.AUDIT_ARCH_X86_64
	x32SyscallBit = 0x40000000 // the x32 ABI's syscalls, refused outright
	// socketFilter says the network-off socket filter exists here.
	socketFilter = true
)

// modeSyscalls set a file's mode on this architecture, with the index of
// the argument that holds it.
var modeSyscalls = []modeSyscall{
	{unix.SYS_CHMOD, 1}, {unix.SYS_FCHMOD, 1}, {unix.SYS_CREAT, 1}, {unix.SYS_MKNOD, 1},
	{unix.SYS_OPEN, 2}, {unix.SYS_FCHMODAT, 2}, {unix.SYS_FCHMODAT2, 2}, {unix.SYS_MKNODAT, 2},
	{unix.SYS_OPENAT, 3},
}
