package landlock

import (
	"errors"
	"fmt"
	"os"
	"strconv"

	"golang.org/x/sys/unix"
)

// closeInherited marks every descriptor the helper inherited but its three
// standard streams (and, for a served helper, wisp's end of the socket)
// close-on-exec, so that none reaches a command. A descriptor that wisp
// was started with, such as `wisp mcp 9>>/outside/leak` or a shell's own,
// would otherwise be a way to write outside the roots that Landlock never
// sees: it checks paths when they are opened, not descriptors already open.
func closeInherited(serve bool) error {
	first := 3
	if serve {
		first = serverFD + 1
		if _, err := unix.FcntlInt(serverFD, unix.F_SETFD, unix.FD_CLOEXEC); err != nil {
			return fmt.Errorf("keep wisp's socket from the commands: %w", err)
		}
	}
	err := unix.CloseRange(uint(first), ^uint(0), unix.CLOSE_RANGE_CLOEXEC)
	if errors.Is(err, unix.ENOSYS) || errors.Is(err, unix.EINVAL) {
		return closeInheritedByList(first) // kernels before 5.11
	}
	if err != nil {
		return fmt.Errorf("keep inherited descriptors from the command: %w", err)
	}
	return nil
}

// closeInheritedByList is closeInherited for kernels without close_range's
// CLOEXEC flag: one fcntl for each descriptor /proc lists.
func closeInheritedByList(first int) error {
	entries, err := os.ReadDir("/proc/self/fd")
	if err != nil {
		return fmt.Errorf("list inherited descriptors: %w", err)
	}
	for _, e := range entries {
		fd, err := strconv.Atoi(e.Name())
		if err != nil || fd < first {
			continue
		}
		if _, err := unix.FcntlInt(uintptr(fd), unix.F_SETFD, unix.FD_CLOEXEC); err != nil && !errors.Is(err, unix.EBADF) {
			return fmt.Errorf("keep descriptor %d from the command: %w", fd, err)
		}
	}
	return nil
}
