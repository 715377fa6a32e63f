//go:build linux || darwin

package tty

import (
	"os"

	"golang.org/x/sys/unix"
)

// Quiet stops the terminal f from echoing keys and from holding them for
// a whole line, keeping signals (Ctrl-C, Ctrl-Z) and output processing:
// the chat's terminal between the lines it reads. Keys typed while the
// model writes are then not printed into its words; they wait, unread,
// for the next line or are dropped by a dialog. The returned function
// restores the terminal as it was.
func Quiet(f *os.File) (restore func(), err error) {
	var old *unix.Termios
	var ioErr error
	if err := Control(f, func(fd int) {
		old, ioErr = unix.IoctlGetTermios(fd, getTermios)
		if ioErr != nil {
			return
		}
		quiet := *old
		quiet.Lflag &^= unix.ECHO | unix.ECHONL | unix.ICANON
		quiet.Cc[unix.VMIN], quiet.Cc[unix.VTIME] = 1, 0
		ioErr = unix.IoctlSetTermios(fd, setTermios, &quiet)
	}); err != nil {
		return nil, err
	}
	if ioErr != nil {
		return nil, ioErr
	}
	return func() { Control(f, func(fd int) { unix.IoctlSetTermios(fd, setTermios, old) }) }, nil
}
