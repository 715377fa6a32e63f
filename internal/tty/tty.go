// Package tty owns what wisp does to a terminal it reads with deadlines:
// raw mode, the quiet mode between the chat's lines, dropping what was
// typed ahead, and the window size, reached through File.SyscallConn. File.Fd
// would put the file in blocking mode, and a read that must stop (a
// withdrawn approval dialog, a command's input forwarding) could then never
// be stopped.
package tty

import (
	"errors"
	"os"

	"golang.org/x/term"
)

// Control runs fn on f's descriptor without making f blocking.
func Control(f *os.File, fn func(fd int)) error {
	rc, err := f.SyscallConn()
	if err != nil {
		return err
	}
	return rc.Control(func(fd uintptr) { fn(int(fd)) })
}

// Raw puts the terminal f in raw mode and returns what restores it.
func Raw(f *os.File) (restore func(), err error) {
	var old *term.State
	var rawErr error
	if err := Control(f, func(fd int) { old, rawErr = term.MakeRaw(fd) }); err != nil {
		return nil, err
	}
	if rawErr != nil {
		return nil, rawErr
	}
	return func() { Control(f, func(fd int) { term.Restore(fd, old) }) }, nil
}

// Size returns the terminal's width and height in characters.
func Size(f *os.File) (width, height int, err error) {
	var sizeErr error
	if err := Control(f, func(fd int) { width, height, sizeErr = term.GetSize(fd) }); err != nil {
		return 0, 0, err
	}
	return width, height, errors.Join(sizeErr)
}
