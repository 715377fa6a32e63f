package landlock

import (
	"fmt"
	"os"
	"strconv"
	"strings"

	"golang.org/x/sys/unix"
)

// exitWatch learns from the kernel when a process that is not wisp's child
// (a command the served helper started) has ended: a pidfd turns readable
// then. ended stays open when the process cannot be watched; the waits on
// the helper's own word then have no deadline, as before.
type exitWatch struct {
	ended chan struct{}
	file  *os.File
}

// watchExit watches pid, which the helper has just named as its child.
// Once the command has ended and been reaped, pidfd_open fails: that too
// says it has ended.
func watchExit(pid int) *exitWatch {
	w := &exitWatch{ended: make(chan struct{})}
	fd, err := unix.PidfdOpen(pid, unix.PIDFD_NONBLOCK)
	if err == unix.ESRCH {
		close(w.ended)
		return w
	}
	if err != nil {
		return w
	}
	return watchPidfd(os.NewFile(uintptr(fd), "pidfd"))
}

// watchPidfd watches the process pidfd (opened non-blocking, so that it
// is pollable) refers to, and closes pidfd when closed. A pidfd passed by
// the served helper works across its PID namespace, and names its process
// even once the pid is reused.
func watchPidfd(pidfd *os.File) *exitWatch {
	w := &exitWatch{ended: make(chan struct{}), file: pidfd}
	rc, err := w.file.SyscallConn()
	if err != nil {
		return w
	}
	go func() {
		// Read waits for the pidfd to turn readable until hasEnded says
		// it is; Close ends the wait with an error instead.
		if rc.Read(hasEnded) == nil {
			close(w.ended)
		}
	}()
	return w
}

// hasEnded asks the kernel whether the process pidfd refers to has ended (its
// pidfd is readable). It must ask, not assume: Read forgets a readiness
// the poller saw before Read began, and a pidfd that was readable when it
// was registered (the command ended before wisp heard it had started)
// never turns readable again, so a wait for the next edge would never end.
func hasEnded(pidfd uintptr) bool {
	fds := []unix.PollFd{{Fd: int32(pidfd), Events: unix.POLLIN}}
	n, err := unix.Poll(fds, 0)
	return err == nil && n > 0 && fds[0].Revents&(unix.POLLIN|unix.POLLHUP) != 0
}

// Close stops watching.
func (w *exitWatch) Close() {
	if w.file != nil {
		w.file.Close()
	}
}

// pidfdPid is the pid of the process pidfd refers to, as this process
// sees it (its fdinfo's Pid), or 0 when that process has been reaped or
// lies outside what this process can see.
func pidfdPid(pidfd int) int {
	data, err := os.ReadFile(fmt.Sprintf("/proc/self/fdinfo/%d", pidfd))
	if err != nil {
		return 0
	}
	for _, line := range strings.Split(string(data), "\n") {
		if v, ok := strings.CutPrefix(line, "Pid:"); ok {
			n, err := strconv.Atoi(strings.TrimSpace(v))
			if err != nil || n < 0 {
				return 0
			}
			return n
		}
	}
	return 0
}
