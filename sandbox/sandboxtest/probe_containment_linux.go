package sandboxtest

import (
	"fmt"
	"net/netip"
	"strconv"

	"golang.org/x/sys/unix"
)

// containmentProbe does what a shell cannot, for the containment cases:
//
//	setxattr PATH          set the extended attribute user.wisp on PATH
//	create-mode PATH MODE  create PATH with open(O_CREAT) and MODE (octal)
//	mknod-mode PATH MODE   create the regular file PATH with mknod and MODE
//	listen                 listen() on a TCP socket that was never bound
//	fastopen ADDR          send with MSG_FASTOPEN to ADDR, which connects
//	socket FAMILY TYPE     open a socket of that family and type (numbers)
//	openpty                make a pseudo-terminal and open its other end by name
//
// It reports whether op was one of its own.
func containmentProbe(op string, args []string) (bool, error) {
	switch {
	case op == "setxattr" && len(args) == 1:
		return true, unix.Setxattr(args[0], "user.wisp", []byte("1"), 0)
	case op == "create-mode" && len(args) == 2:
		return true, createMode(args[0], args[1], false)
	case op == "mknod-mode" && len(args) == 2:
		return true, createMode(args[0], args[1], true)
	case op == "listen" && len(args) == 0:
		return true, listenUnbound()
	case op == "fastopen" && len(args) == 1:
		return true, fastOpen(args[0])
	case op == "socket" && len(args) == 2:
		return true, openSocket(args[0], args[1])
	case op == "openpty" && len(args) == 0:
		return true, openPTY()
	}
	return false, nil
}

func createMode(path, mode string, mknod bool) error {
	m, err := strconv.ParseUint(mode, 8, 32)
	if err != nil {
		return err
	}
	unix.Umask(0)
	if mknod {
		return unix.Mknod(path, unix.S_IFREG|uint32(m), 0)
	}
	fd, err := unix.Open(path, unix.O_CREAT|unix.O_WRONLY|unix.O_CLOEXEC, uint32(m))
	if err == nil {
		unix.Close(fd)
	}
	return err
}

func listenUnbound() error {
	fd, err := unix.Socket(unix.AF_INET, unix.SOCK_STREAM, 0)
	if err != nil {
		return fmt.Errorf("socket: %w", err)
	}
	defer unix.Close(fd)
	if err := unix.Listen(fd, 1); err != nil {
		return fmt.Errorf("listen: %w", err)
	}
	fmt.Println("listening")
	return nil
}

func fastOpen(addr string) error {
	ap, err := netip.ParseAddrPort(addr)
	if err != nil {
		return err
	}
	family, sa := unix.AF_INET6, unix.Sockaddr(&unix.SockaddrInet6{Port: int(ap.Port()), Addr: ap.Addr().As16()})
	if ap.Addr().Is4() {
		family, sa = unix.AF_INET, &unix.SockaddrInet4{Port: int(ap.Port()), Addr: ap.Addr().As4()}
	}
	fd, err := unix.Socket(family, unix.SOCK_STREAM, 0)
	if err != nil {
		return fmt.Errorf("socket: %w", err)
	}
	defer unix.Close(fd)
	if err := unix.Sendto(fd, []byte("probe"), unix.MSG_FASTOPEN, sa); err != nil {
		return fmt.Errorf("sendto with MSG_FASTOPEN: %w", err)
	}
	fmt.Println("connected")
	return nil
}

func openSocket(family, typ string) error {
	f, err1 := strconv.Atoi(family)
	t, err2 := strconv.Atoi(typ)
	if err1 != nil || err2 != nil {
		return fmt.Errorf("socket FAMILY TYPE takes two numbers")
	}
	fd, err := unix.Socket(f, t, 0)
	if err != nil {
		return fmt.Errorf("socket(%d, %d): %w", f, t, err)
	}
	return unix.Close(fd)
}

func openPTY() error {
	master, err := unix.Open("/dev/ptmx", unix.O_RDWR|unix.O_NOCTTY|unix.O_CLOEXEC, 0)
	if err != nil {
		return fmt.Errorf("open /dev/ptmx: %w", err)
	}
	defer unix.Close(master)
	n, err := unix.IoctlGetInt(master, unix.TIOCGPTN)
	if err == nil {
		err = unix.IoctlSetPointerInt(master, unix.TIOCSPTLCK, 0)
	}
	if err != nil {
		return fmt.Errorf("unlock the pseudo-terminal: %w", err)
	}
	name := fmt.Sprintf("/dev/pts/%d", n)
	slave, err := unix.Open(name, unix.O_RDWR|unix.O_NOCTTY|unix.O_CLOEXEC, 0)
	if err != nil {
		return fmt.Errorf("open %s: %w", name, err)
	}
	fmt.Println("opened", name)
	return unix.Close(slave)
}
