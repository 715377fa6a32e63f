//go:build unix

package audit

import (
	"fmt"
	"io"
	"os"

	"golang.org/x/sys/unix"
)

// lockFile takes an flock on path (exclusive or shared), creating the file
// 0600 when missing, and returns the function that releases it.
func lockFile(path string, exclusive bool) (unlock func(), err error) {
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return nil, err
	}
	how := unix.LOCK_SH
	if exclusive {
		how = unix.LOCK_EX
	}
	if err := flock(f, how); err != nil {
		f.Close()
		return nil, fmt.Errorf("lock %s: %w", path, err)
	}
	return func() { f.Close() }, nil // closing the last descriptor releases the lock
}

func flock(f *os.File, how int) error {
	for {
		err := unix.Flock(int(f.Fd()), how)
		if err != unix.EINTR {
			return err
		}
	}
}

// appendLine writes line with exactly one write(2). os.File.Write would
// retry a short write with a second call, whose bytes another process's line
// could come between; here a short write is an error instead, and the
// fragment is ended with a newline so that it spoils only itself.
func appendLine(f *os.File, line []byte) error {
	conn, err := f.SyscallConn()
	if err != nil {
		return err
	}
	var n int
	var werr error
	err = conn.Write(func(fd uintptr) bool {
		n, werr = unix.Write(int(fd), line)
		if werr == nil && n < len(line) {
			unix.Write(int(fd), []byte("\n"))
		}
		return true
	})
	if err == nil {
		err = werr
	}
	if err == nil && n < len(line) {
		err = fmt.Errorf("wrote %d of %d bytes (is the disk full?): %w", n, len(line), io.ErrShortWrite)
	}
	return err
}
