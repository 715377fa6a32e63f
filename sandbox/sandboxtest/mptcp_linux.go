package sandboxtest

import (
	"fmt"
	"net/netip"
	"syscall"
)

const ipprotoMPTCP = 262

// dialMPTCP connects with a Multipath TCP socket, by hand: Go's dialer
// falls back to plain TCP when MPTCP is refused, which would hide what is
// tested.
func dialMPTCP(addr string) error {
	ap, err := netip.ParseAddrPort(addr)
	if err != nil || !ap.Addr().Is4() {
		return fmt.Errorf("dial-mptcp needs an IPv4 address and port, not %q", addr)
	}
	fd, err := syscall.Socket(syscall.AF_INET, syscall.SOCK_STREAM, ipprotoMPTCP)
	if err != nil {
		return fmt.Errorf("socket: %w", err)
	}
	defer syscall.Close(fd)
	if err := syscall.Connect(fd, &syscall.SockaddrInet4{Port: int(ap.Port()), Addr: ap.Addr().As4()}); err != nil {
		return fmt.Errorf("connect: %w", err)
	}
	fmt.Println("connected")
	return nil
}

// listenMPTCP reports whether this kernel offers Multipath TCP at all.
func mptcpAvailable() bool {
	fd, err := syscall.Socket(syscall.AF_INET, syscall.SOCK_STREAM, ipprotoMPTCP)
	if err != nil {
		return false
	}
	syscall.Close(fd)
	return true
}
