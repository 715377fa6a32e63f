package chat

import "golang.org/x/sys/unix"

// fread is <sys/fcntl.h>'s FREAD: TIOCFLUSH with it drops the input queue.
const fread = 0x1

func flushInput(fd int) error { return unix.IoctlSetPointerInt(fd, unix.TIOCFLUSH, fread) }
