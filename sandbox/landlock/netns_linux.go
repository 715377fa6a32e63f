package landlock

import (
	"fmt"
	"io"
	"net"
	"os"
	"strconv"

	"golang.org/x/sys/unix"
)

// With the network through wisp's proxy, where the helper has a namespace
// and stays beside the command, the command also gets a network namespace
// of its own: in it there is only a loopback, on which the helper listens
// at the proxy's port and passes every connection on to the proxy. No
// other host answers from inside, even on the proxy's port number, which
// Landlock's port rule alone would let through.
//
// Only this thread, the one that starts the command, enters the new
// namespace; the Go runtime's other threads stay in wisp's (it starts new
// threads from a template thread made before), so the forwarding
// goroutines reach the proxy on wisp's loopback, under the same Landlock
// rule and seccomp filter as the command: a TCP connection to the proxy's
// port and nothing else.

// wantsNetworkNamespace says whether the helper makes one: the network
// through the proxy, a namespace for the mounts (viewed), and a helper
// that stays (a command run with --background has no one to forward).
func wantsNetworkNamespace(h helperArgs, viewed bool) bool {
	return viewed && h.noNetwork && h.proxyPort > 0 && h.confinesAllThreads()
}

// enterNetworkNamespace makes the namespace, brings its loopback up,
// listens there on the proxy's port and forwards to the proxy. It must
// run before Landlock and seccomp (which refuse listen), on the thread
// that starts the command.
func enterNetworkNamespace(h helperArgs, viewed bool) error {
	if !wantsNetworkNamespace(h, viewed) {
		return nil
	}
	if err := unix.Unshare(unix.CLONE_NEWNET); err != nil {
		return fmt.Errorf("unshare a network namespace for the proxy: %w", err)
	}
	if err := loopbackUp(); err != nil {
		return fmt.Errorf("bring up the loopback of the command's network namespace: %w", err)
	}
	ln, err := listenInside(h.proxyPort)
	if err != nil {
		return fmt.Errorf("listen for the proxy in the command's network namespace: %w", err)
	}
	go forwardToProxy(ln, net.JoinHostPort("127.0.0.1", strconv.Itoa(h.proxyPort)))
	return nil
}

// loopbackUp sets IFF_UP on lo, which a new namespace has down.
func loopbackUp() error {
	fd, err := unix.Socket(unix.AF_INET, unix.SOCK_DGRAM|unix.SOCK_CLOEXEC, 0)
	if err != nil {
		return err
	}
	defer unix.Close(fd)
	ifr, err := unix.NewIfreq("lo")
	if err != nil {
		return err
	}
	if err := unix.IoctlIfreq(fd, unix.SIOCGIFFLAGS, ifr); err != nil {
		return err
	}
	ifr.SetUint16(ifr.Uint16() | unix.IFF_UP)
	return unix.IoctlIfreq(fd, unix.SIOCSIFFLAGS, ifr)
}

// listenInside listens on 127.0.0.1:port from this thread, so in its
// namespace: the socket keeps it wherever it is accepted from.
func listenInside(port int) (net.Listener, error) {
	fd, err := unix.Socket(unix.AF_INET, unix.SOCK_STREAM|unix.SOCK_CLOEXEC, 0)
	if err != nil {
		return nil, err
	}
	f := os.NewFile(uintptr(fd), "proxy-listener")
	defer f.Close()
	if err := unix.Bind(fd, &unix.SockaddrInet4{Port: port, Addr: [4]byte{127, 0, 0, 1}}); err != nil {
		return nil, err
	}
	if err := unix.Listen(fd, 128); err != nil {
		return nil, err
	}
	return net.FileListener(f)
}

// forwardToProxy passes every connection to the proxy until the helper
// ends.
func forwardToProxy(ln net.Listener, proxy string) {
	for {
		c, err := ln.Accept()
		if err != nil {
			return
		}
		go func() {
			defer c.Close()
			up, err := net.Dial("tcp", proxy)
			if err != nil {
				return
			}
			defer up.Close()
			done := make(chan struct{})
			go func() { _, _ = io.Copy(up, c); closeWriteTCP(up); close(done) }()
			_, _ = io.Copy(c, up)
			closeWriteTCP(c)
			<-done
		}()
	}
}

func closeWriteTCP(c net.Conn) {
	if tc, ok := c.(*net.TCPConn); ok {
		_ = tc.CloseWrite()
	}
}
