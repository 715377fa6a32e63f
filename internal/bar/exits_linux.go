package bar

import (
	"sync"

	"golang.org/x/sys/unix"

	"github.com/wisp-sh/wisp/pending"
)

// exitWatch watches processes through pidfds: one is readable once its
// process has ended. Each waits in poll(2) beside a pipe that stops it.
type exitWatch struct {
	ended func()

	mu      sync.Mutex
	waiters map[pending.Requester]*exitWaiter
}

type exitWaiter struct{ stop int } // the pipe's write end

// newExitWatch returns nil where pidfds cannot be had (Linux before 5.3):
// the Bar then lists the folder at each age refresh.
func newExitWatch(ended func()) *exitWatch {
	fd, err := unix.PidfdOpen(unix.Getpid(), 0)
	if err != nil {
		return nil
	}
	unix.Close(fd)
	return &exitWatch{ended: ended, waiters: map[pending.Requester]*exitWaiter{}}
}

// sync watches the requesters in live and stops the others; it reports
// whether it started any.
func (w *exitWatch) sync(live map[pending.Requester]bool) (started bool) {
	w.mu.Lock()
	defer w.mu.Unlock()
	for r, waiter := range w.waiters {
		if !live[r] {
			if waiter.stop >= 0 {
				unix.Close(waiter.stop)
			}
			delete(w.waiters, r)
		}
	}
	for r := range live {
		if _, ok := w.waiters[r]; ok {
			continue
		}
		waiter, err := w.start(r.PID)
		if err != nil { // gone already: the next listing drops it; not tried again
			w.waiters[r] = &exitWaiter{stop: -1}
			w.ended()
			continue
		}
		w.waiters[r] = waiter
		started = true
	}
	return started
}

func (w *exitWatch) start(pid int) (*exitWaiter, error) {
	pidfd, err := unix.PidfdOpen(pid, 0)
	if err != nil {
		return nil, err
	}
	var pipe [2]int
	if err := unix.Pipe2(pipe[:], unix.O_CLOEXEC); err != nil {
		unix.Close(pidfd)
		return nil, err
	}
	go w.wait(pidfd, pipe[0])
	return &exitWaiter{stop: pipe[1]}, nil
}

// wait blocks until the process ends (and tells the Bar) or the pipe's
// write end is closed (the Bar stopped watching it).
func (w *exitWatch) wait(pidfd, stop int) {
	defer unix.Close(pidfd)
	defer unix.Close(stop)
	fds := []unix.PollFd{{Fd: int32(pidfd), Events: unix.POLLIN}, {Fd: int32(stop), Events: unix.POLLIN}}
	for {
		_, err := unix.Poll(fds, -1)
		if err == unix.EINTR {
			continue
		}
		if err == nil && fds[0].Revents != 0 && fds[1].Revents == 0 {
			w.ended()
		}
		return
	}
}

// stopAll stops every waiter.
func (w *exitWatch) stopAll() { w.sync(nil) }
