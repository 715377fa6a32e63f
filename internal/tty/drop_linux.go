package tty

import "golang.org/x/sys/unix"

func flushInput(fd int) error { return unix.IoctlSetInt(fd, unix.TCFLSH, unix.TCIFLUSH) }

func queued(fd int) (int, error) { return unix.IoctlGetInt(fd, unix.TIOCINQ) }
