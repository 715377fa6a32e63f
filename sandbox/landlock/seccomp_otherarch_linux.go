//go:build linux && !amd64 && !arm64

package landlock

// The network-off socket filter is written for amd64 and arm64 only; here
// Report lists MPTCP and UDP as not covered.
const (
	seccompArch   = 0
	x32SyscallBit = 0
	socketFilter  = false
)

var modeSyscalls []modeSyscall
