package sandboxtest

import (
	"bytes"
	"fmt"
	"io"
	"net"
	"os"
	"syscall"
	"time"
)

// socketProbe does what a command does with Unix sockets of its own:
//
//	socketpair              a connected pair, one byte each way
//	unix-echo PATH          listen at PATH, connect to it, echo one line
//	unixgram-echo PATH      bind a datagram socket at PATH, send it one
//	dial-each PATH...       connect to each, printing "reached PATH" for
//	                        each that answers (one process for many)
//	dial-unix-later READY GO PATH
//	                        write READY, wait for GO to exist, then
//	                        connect to PATH (a socket made after the start)
func socketProbe(op string, args []string) (bool, error) {
	switch {
	case op == "socketpair" && len(args) == 0:
		return true, socketpairEcho()
	case op == "unix-echo" && len(args) == 1:
		return true, unixEcho("unix", args[0])
	case op == "unixgram-echo" && len(args) == 1:
		return true, unixgramEcho(args[0])
	case op == "dial-each" && len(args) > 0:
		for _, p := range args {
			if c, err := net.DialTimeout("unix", p, 5*time.Second); err == nil {
				fmt.Println("reached", p)
				c.Close()
			}
		}
		return true, nil
	case op == "dial-unix-later" && len(args) == 3:
		return true, dialLater(args[0], args[1], args[2])
	}
	return false, nil
}

func socketpairEcho() error {
	fds, err := syscall.Socketpair(syscall.AF_UNIX, syscall.SOCK_STREAM, 0)
	if err != nil {
		return fmt.Errorf("socketpair: %w", err)
	}
	defer syscall.Close(fds[0])
	defer syscall.Close(fds[1])
	if _, err := syscall.Write(fds[0], []byte("x")); err != nil {
		return err
	}
	buf := make([]byte, 1)
	if _, err := syscall.Read(fds[1], buf); err != nil || buf[0] != 'x' {
		return fmt.Errorf("socketpair read %q: %v", buf, err)
	}
	fmt.Println("echoed")
	return nil
}

func unixEcho(network, path string) error {
	ln, err := net.Listen(network, path)
	if err != nil {
		return err
	}
	defer ln.Close()
	go func() {
		c, err := ln.Accept()
		if err == nil {
			buf := make([]byte, 5)
			n, _ := c.Read(buf)
			_, _ = c.Write(buf[:n])
			c.Close()
		}
	}()
	c, err := net.DialTimeout(network, path, 5*time.Second)
	if err != nil {
		return err
	}
	defer c.Close()
	return helloBack(c, c)
}

func unixgramEcho(path string) error {
	srv, err := net.ListenUnixgram("unixgram", &net.UnixAddr{Name: path, Net: "unixgram"})
	if err != nil {
		return err
	}
	defer srv.Close()
	c, err := net.Dial("unixgram", path)
	if err != nil {
		return err
	}
	defer c.Close()
	return helloBack(c, srv)
}

// helloBack writes hello to w and reads it back from r: the echo, or the
// datagram's receiving end.
func helloBack(w io.Writer, r net.Conn) error {
	if _, err := w.Write([]byte("hello")); err != nil {
		return err
	}
	got := make([]byte, 5)
	_ = r.SetReadDeadline(time.Now().Add(5 * time.Second))
	if _, err := io.ReadFull(r, got); err != nil || !bytes.Equal(got, []byte("hello")) {
		return fmt.Errorf("read back %q: %v", got, err)
	}
	fmt.Println("echoed")
	return nil
}

func dialLater(ready, goFile, path string) error {
	if err := os.WriteFile(ready, nil, 0o644); err != nil {
		return err
	}
	for deadline := time.Now().Add(20 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		if _, err := os.Stat(goFile); err == nil {
			break
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("%s never appeared", goFile)
		}
	}
	return dial("unix", path)
}
