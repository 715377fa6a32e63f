package tty

import "golang.org/x/sys/unix"

// fread is <sys/fcntl.h>'s FREAD: TIOCFLUSH with it drops the input queue.
const fread = 0x1

func flushInput(fd int) error { return unix.IoctlSetPointerInt(fd, unix.TIOCFLUSH, fread) }

// fionread is <sys/filio.h>'s FIONREAD: the bytes waiting to be read.
const fionread = 0x4004667f

func queued(fd int) (int, error) { return unix.IoctlGetInt(fd, fionread) }
