package pending

import (
	"errors"
	"fmt"

	"golang.org/x/sys/unix"
)

// darwinZombie is SZOMB in <sys/proc.h>: a process that has ended.
const darwinZombie = 5

// processStartTime reads the process's start time from its kinfo_proc
// (sysctl kern.proc.pid), as "seconds.microseconds".
func processStartTime(pid int) (string, error) {
	k, err := unix.SysctlKinfoProc("kern.proc.pid", pid)
	// For a free pid the sysctl returns no record, which x/sys reports as EIO.
	if errors.Is(err, unix.EIO) || errors.Is(err, unix.ESRCH) {
		return "", errProcessGone
	}
	if err != nil {
		return "", fmt.Errorf("read the start time of process %d: %w", pid, err)
	}
	if int(k.Proc.P_pid) != pid || k.Proc.P_stat == darwinZombie {
		return "", errProcessGone
	}
	t := k.Proc.P_starttime
	return fmt.Sprintf("%d.%06d", t.Sec, t.Usec), nil
}
