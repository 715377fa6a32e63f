package landlock

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	ll "github.com/landlock-lsm/go-landlock/landlock/syscall"
	"golang.org/x/sys/unix"
)

// Landlock confines what a command may do to files, the network and other
// processes, but not what root's capabilities allow besides: load a kernel
// module, make a device node of a disk and write it raw, reboot, set the
// clock, change the network's configuration, trace the served helper. So a
// command confined as root keeps only the capabilities that act on what
// Landlock already bounds (Docker's default set, less MKNOD, SETFCAP and
// SETPCAP; NET_RAW only with the network on).
var rootKeeps = []uintptr{
	unix.CAP_CHOWN, unix.CAP_DAC_OVERRIDE, unix.CAP_FOWNER, unix.CAP_FSETID,
	unix.CAP_KILL, unix.CAP_SETGID, unix.CAP_SETUID, unix.CAP_NET_BIND_SERVICE,
	unix.CAP_SYS_CHROOT, unix.CAP_AUDIT_WRITE,
}

// dropCapabilities runs before Landlock, in the thread that forks or execs
// the command (every thread, for a served helper). It clears the ambient
// capabilities, which a command that is not root would keep across the
// exec, and for root takes from the bounding set every capability it does
// not keep, so that the command's exec cannot hold them. It fails closed:
// a capability that cannot be dropped stops the command.
func dropCapabilities(euid int, network, allThreads bool) error {
	prctl := unix.Prctl
	if allThreads {
		prctl = ll.AllThreadsPrctl
	}
	if err := prctl(unix.PR_CAP_AMBIENT, unix.PR_CAP_AMBIENT_CLEAR_ALL, 0, 0, 0); err != nil && !errors.Is(err, unix.EINVAL) {
		return fmt.Errorf("clear ambient capabilities: %w", err)
	}
	if euid != 0 {
		return nil
	}
	keep := map[uintptr]bool{}
	for _, c := range rootKeeps {
		keep[c] = true
	}
	keep[unix.CAP_NET_RAW] = network
	last := lastCapability() // once: each read of /proc costs a file's open, poll setup and close
	for c := uintptr(0); c <= last; c++ {
		if keep[c] || !inBoundingSet(c) {
			continue // a container may have taken it already, and CAP_SETPCAP with it
		}
		if err := prctl(unix.PR_CAPBSET_DROP, c, 0, 0, 0); err != nil {
			return fmt.Errorf("drop capability %d from the bounding set: %w", c, err)
		}
	}
	return nil
}

// inBoundingSet reports whether the calling thread's bounding set holds c
// (or cannot say: then it is dropped, or the drop fails closed).
func inBoundingSet(c uintptr) bool {
	in, err := unix.PrctlRetInt(unix.PR_CAPBSET_READ, c, 0, 0, 0)
	return err != nil || in == 1
}

// lastCapability is the highest capability this kernel knows.
func lastCapability() uintptr {
	data, err := readProc("/proc/sys/kernel/cap_last_cap")
	if last, perr := strconv.Atoi(strings.TrimSpace(string(data))); err == nil && perr == nil && last > 0 {
		return uintptr(last)
	}
	return unix.CAP_LAST_CAP
}
