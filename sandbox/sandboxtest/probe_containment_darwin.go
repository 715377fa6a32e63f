//go:build darwin

package sandboxtest

import "golang.org/x/sys/unix"

// containmentProbe does what a shell cannot, for the macOS containment
// cases:
//
//	setxattr PATH   set the extended attribute com.wisp.sandboxtest on PATH
//	listen          listen() on a TCP socket that was never bound
//
// It reports whether op was one of its own.
func containmentProbe(op string, args []string) (bool, error) {
	switch {
	case op == "setxattr" && len(args) == 1:
		return true, unix.Setxattr(args[0], macXattr, []byte("1"), 0)
	case op == "listen" && len(args) == 0:
		return true, listenUnbound()
	}
	return false, nil
}

func listenUnbound() error {
	fd, err := unix.Socket(unix.AF_INET, unix.SOCK_STREAM, 0)
	if err != nil {
		return err
	}
	defer unix.Close(fd)
	return unix.Listen(fd, 1)
}
