//go:build linux && arm64

package sandbox

import "golang.org/x/sys/unix"

const (
	seccompArch   = unix.AUDIT_ARCH_AARCH64
	x32SyscallBit = 0
	socketFilter  = true
)
