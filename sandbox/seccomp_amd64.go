//go:build linux && amd64

package sandbox

import "golang.org/x/sys/unix"

const (
	seccompArch   = unix.AUDIT_ARCH_X86_64
	x32SyscallBit = 0x40000000 // the x32 ABI's syscalls, refused outright
	// socketFilter says the network-off socket filter exists here.
	socketFilter = true
)
