package sandboxtest

import (
	"errors"
	"fmt"
	"os"
	"time"
	"unsafe"

	"golang.org/x/sys/unix"
)

// watchProbe is the probe's
//
//	watch READY DONE PATH...  watch each PATH with inotify, make READY once
//	                          watching, print each event until DONE exists
//
// It reports whether op was its own.
func watchProbe(op string, args []string) (bool, error) {
	if op != "watch" || len(args) < 3 {
		return false, nil
	}
	return true, watchPaths(args[0], args[1], args[2:])
}

func watchPaths(ready, done string, paths []string) error {
	fd, err := unix.InotifyInit1(unix.IN_CLOEXEC | unix.IN_NONBLOCK)
	if err != nil {
		return err
	}
	defer unix.Close(fd)
	watched := map[int32]string{}
	for _, p := range paths {
		wd, err := unix.InotifyAddWatch(fd, p, unix.IN_ALL_EVENTS)
		if err != nil {
			fmt.Printf("watch %s refused: %v\n", p, err)
			continue
		}
		watched[int32(wd)] = p
	}
	if err := os.WriteFile(ready, nil, 0o644); err != nil {
		return err
	}
	for deadline := time.Now().Add(30 * time.Second); time.Now().Before(deadline); {
		finished := exists(done) // read what came before DONE, then stop
		if err := printEvents(fd, watched); err != nil {
			return err
		}
		if finished {
			return nil
		}
	}
	return errors.New("DONE never came")
}

// printEvents waits a moment for events and prints each: the watched
// path, the name in it, the mask.
func printEvents(fd int, watched map[int32]string) error {
	fds := []unix.PollFd{{Fd: int32(fd), Events: unix.POLLIN}}
	n, err := unix.Poll(fds, 20)
	switch {
	case errors.Is(err, unix.EINTR), err == nil && n == 0:
		return nil
	case err != nil:
		return err
	}
	buf := make([]byte, 64*1024)
	n, err = unix.Read(fd, buf)
	if errors.Is(err, unix.EAGAIN) {
		return nil
	}
	if err != nil {
		return err
	}
	for off := 0; off+unix.SizeofInotifyEvent <= n; {
		ev := (*unix.InotifyEvent)(unsafe.Pointer(&buf[off]))
		name := buf[off+unix.SizeofInotifyEvent : off+unix.SizeofInotifyEvent+int(ev.Len)]
		fmt.Printf("event %s %s %#x\n", watched[ev.Wd], trimNUL(name), ev.Mask)
		off += unix.SizeofInotifyEvent + int(ev.Len)
	}
	return nil
}

func trimNUL(b []byte) string {
	for i, c := range b {
		if c == 0 {
			return string(b[:i])
		}
	}
	return string(b)
}

func exists(p string) bool {
	_, err := os.Stat(p)
	return err == nil
}
