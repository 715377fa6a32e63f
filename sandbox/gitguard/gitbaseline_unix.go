//go:build unix

package gitguard

import (
	"errors"
	"fmt"
	"io"
	"os"
	"syscall"
	"time"
)

// canShareBaselines: wisps on this system share their baselines through
// wisp's home.
const canShareBaselines = true

// lockTimeout bounds the wait for another wisp's snapshot or put-back,
// which take milliseconds: a lock held longer is a wisp stopped mid-way.
const lockTimeout = 10 * time.Second

// lockFile takes an exclusive flock on path, made if need be, and returns
// what gives it back. The file is opened for writing only, mode 0200, so
// that a process that cannot write wisp's home cannot open it to hold it.
func lockFile(path string) (unlock func(), err error) {
	deadline := time.Now().Add(lockTimeout)
	for {
		f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|syscall.O_NOFOLLOW, 0o200)
		if err != nil {
			return nil, fmt.Errorf("sandbox: wisp could not open the lock on its record of git's files: %w", err)
		}
		for {
			err = syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB)
			if !errors.Is(err, syscall.EWOULDBLOCK) || time.Now().After(deadline) {
				break
			}
			time.Sleep(2 * time.Millisecond)
		}
		if err != nil {
			f.Close()
			if errors.Is(err, syscall.EWOULDBLOCK) {
				err = fmt.Errorf("another process has held it for %s", lockTimeout)
			}
			return nil, fmt.Errorf("sandbox: wisp could not take the lock on its record of git's files, %s: %w", path, err)
		}
		if sameFileAt(f, path) {
			return func() { f.Close() }, nil
		}
		f.Close() // removed meanwhile: a lock on it orders nothing
	}
}

func sameFileAt(f *os.File, path string) bool {
	a, err := f.Stat()
	if err != nil {
		return false
	}
	b, err := os.Lstat(path)
	return err == nil && os.SameFile(a, b)
}

// readOwnFile reads a regular file of at most limit bytes that this
// process's user owns, through no link.
func readOwnFile(path string, limit int64) ([]byte, error) {
	f, err := os.OpenFile(path, os.O_RDONLY|syscall.O_NOFOLLOW|syscall.O_NONBLOCK, 0)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	info, err := f.Stat()
	if err != nil {
		return nil, err
	}
	st, ok := info.Sys().(*syscall.Stat_t)
	switch {
	case !info.Mode().IsRegular():
		return nil, errNotRegular
	case !ok || int(st.Uid) != os.Geteuid():
		return nil, errors.New("another user owns it")
	case info.Size() > limit:
		return nil, fmt.Errorf("it is %s, more than a record can be", sizeText(info.Size()))
	}
	return io.ReadAll(io.LimitReader(f, limit))
}

// processRuns reports whether pid still runs and is the process that
// started at start. When unsure it says yes: a lease taken for gone would
// let a snapshot take a running command's work for the person's.
func processRuns(pid int, start string) bool {
	if pid <= 0 {
		return false
	}
	if err := syscall.Kill(pid, 0); err != nil && !errors.Is(err, syscall.EPERM) {
		return false
	}
	now := processStart(pid)
	return start == "" || now == "" || now == start
}
