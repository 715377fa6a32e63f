package sandbox

import (
	"os"

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
	w.file = os.NewFile(uintptr(fd), "pidfd")
	rc, err := w.file.SyscallConn()
	if err != nil {
		return w
	}
	go func() {
		waited := false
		// The first call returns false so that Read waits for the pidfd
		// to turn readable; the second says that it has. Close ends the
		// wait with an error instead.
		if rc.Read(func(uintptr) bool { ok := waited; waited = true; return ok }) == nil {
			close(w.ended)
		}
	}()
	return w
}

// Close stops watching.
func (w *exitWatch) Close() {
	if w.file != nil {
		w.file.Close()
	}
}
