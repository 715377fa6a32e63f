//go:build linux

package sandboxtest

import (
	"fmt"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"golang.org/x/sys/unix"
)

// metadataOutsideRefused: outside the roots nothing changes, metadata
// included: a mode, an owner, a time, an extended attribute, wisp's home's
// mode. Where the backend has no read-only view of what lies outside the
// roots it reports that as a gap, and the case checks the report is true:
// then only extended attributes are refused.
func (s *suite) metadataOutsideRefused(t *testing.T) {
	s.t = t
	target := filepath.Join(s.outside, "meta")
	mustWrite(t, target, "meta\n")
	s.chownForCommands(target)
	before := statOf(t, target)
	lines := []string{
		"chmod 777 " + shellQuote(target),
		"touch -d 2000-01-01 " + shellQuote(target),
		"chown $(id -u):$(id -g) " + shellQuote(target),
		"chmod 777 " + shellQuote(s.away),
	}
	for _, line := range lines {
		s.control(line)
	}
	restore := func() {
		_ = os.Chmod(target, 0o644)
		_ = os.Chtimes(target, before.mtime, before.mtime)
		_ = os.Chmod(s.away, 0o755)
	}
	restore()
	for _, line := range lines {
		if s.o.NoReadOnlyView {
			t.Logf("no read-only view here (reported): %q is expected to change what lies outside", line)
			s.mustSucceed(s.spec(true), line)
			continue
		}
		out := s.mustFail(s.spec(true), line)
		if !strings.Contains(out, "Read-only file system") {
			t.Errorf("%q was refused, but not as a read-only file system: %q", line, out)
		}
	}
	restore()
	if after := statOf(t, target); !s.o.NoReadOnlyView && after != before {
		t.Errorf("metadata outside the roots changed: %+v, was %+v", after, before)
	}
	s.xattrOutsideRefused(t, target)
}

// xattrOutsideRefused: an extended attribute outside the roots, refused in
// every mode (the view, or the filter where there is none).
func (s *suite) xattrOutsideRefused(t *testing.T, target string) {
	set := s.probe("setxattr", target)
	if out, code := s.plain(set); code != 0 {
		t.Logf("this filesystem takes no user extended attributes (%s): nothing to refuse", strings.TrimSpace(out))
		return
	}
	_ = unix.Removexattr(target, "user.wisp")
	s.mustFail(s.spec(true), set)
	if _, err := unix.Getxattr(target, "user.wisp", make([]byte, 8)); err == nil {
		t.Error("a confined command set an extended attribute outside the roots")
	}
}

// listenRefused: with the network off, listen() on a socket never bound
// (the kernel binds it to a free port on every address) is refused.
func (s *suite) listenRefused(t *testing.T) {
	s.t = t
	if s.o.NoMPTCPRules {
		t.Skip("the backend reports no socket filter here")
	}
	listen := s.probe("listen")
	s.mustSucceed(s.spec(true), listen)
	s.mustFail(s.spec(false), listen)
}

// fastOpenRefused: with the network off, a TCP Fast Open send, which
// connects without connect(), reaches nothing, on IPv4 or IPv6.
func (s *suite) fastOpenRefused(t *testing.T) {
	s.t = t
	if s.o.NoMPTCPRules {
		t.Skip("the backend reports no socket filter here")
	}
	for _, network := range []string{"tcp4", "tcp6"} {
		got := make(chan string, 4)
		addr, ok := listenReading(t, network, got)
		if !ok {
			t.Logf("no %s loopback here", network)
			continue
		}
		send := s.probe("fastopen", addr)
		s.mustSucceed(s.spec(true), send)
		if !arrived(got) {
			t.Fatalf("control: the Fast Open send to %s with the network on did not arrive", addr)
		}
		s.mustFail(s.spec(false), send)
		if arrived(got) {
			t.Fatalf("with the network off, a Fast Open send reached %s", addr)
		}
	}
}

// listenReading listens on the loopback of network and sends what each
// connection carries to got.
func listenReading(t *testing.T, network string, got chan<- string) (string, bool) {
	host := "127.0.0.1:0"
	if network == "tcp6" {
		host = "[::1]:0"
	}
	ln, err := net.Listen(network, host)
	if err != nil {
		return "", false
	}
	t.Cleanup(func() { ln.Close() })
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			c.SetReadDeadline(time.Now().Add(2 * time.Second))
			buf := make([]byte, 16)
			n, _ := c.Read(buf)
			c.Close()
			got <- string(buf[:n])
		}
	}()
	return ln.Addr().String(), true
}

func arrived(got <-chan string) bool {
	select {
	case <-got:
		return true
	case <-time.After(500 * time.Millisecond):
		return false
	}
}

// otherFamiliesRefused: with the network off, no socket of a family that
// reaches beyond the machine (AF_VSOCK reaches the hypervisor's host).
func (s *suite) otherFamiliesRefused(t *testing.T) {
	s.t = t
	if s.o.NoMPTCPRules {
		t.Skip("the backend reports no socket filter here")
	}
	for _, f := range []struct {
		name         string
		family, kind int
	}{{"AF_VSOCK", unix.AF_VSOCK, unix.SOCK_STREAM}, {"AF_TIPC", unix.AF_TIPC, unix.SOCK_RDM}, {"AF_RDS", unix.AF_RDS, unix.SOCK_SEQPACKET}} {
		open := s.probe("socket", fmt.Sprint(f.family), fmt.Sprint(f.kind))
		if out, code := s.plain(open); code != 0 {
			t.Logf("%s: not to be had here even unconfined (%s)", f.name, strings.TrimSpace(out))
			continue
		}
		s.mustSucceed(s.spec(true), open)
		s.mustFail(s.spec(false), open)
	}
}

// chownForCommands gives path to the user the commands run as.
func (s *suite) chownForCommands(path string) {
	if s.o.Credential != nil {
		_ = os.Lchown(path, int(s.o.Credential.Uid), int(s.o.Credential.Gid))
	}
}

// otherTerminalRefused: a command reaches its own terminal at most, never
// another session's: a fake `Password: ` printed on /dev/pts/N reads back
// what the person types there.
func (s *suite) otherTerminalRefused(t *testing.T) {
	s.t = t
	ptmx, err := os.OpenFile("/dev/ptmx", os.O_RDWR|unix.O_NOCTTY, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer ptmx.Close()
	n, err := unix.IoctlGetInt(int(ptmx.Fd()), unix.TIOCGPTN)
	if err == nil {
		err = unix.IoctlSetPointerInt(int(ptmx.Fd()), unix.TIOCSPTLCK, 0)
	}
	if err != nil {
		t.Fatal(err)
	}
	other := fmt.Sprintf("/dev/pts/%d", n)
	s.chownForCommands(other)
	for _, line := range []string{": < " + other, "echo 'Password: ' > " + other} {
		s.control(line)
		s.mustFail(s.spec(true), line)
	}
	s.ownPseudoTerminals(t)
}

// ownPseudoTerminals: with a view of its own, a command makes
// pseudo-terminals and opens them by name (script, expect, a test suite's
// pty); without one it cannot (reported), since by name its terminals and
// another session's are one folder.
func (s *suite) ownPseudoTerminals(t *testing.T) {
	open := s.probe("openpty")
	s.control(open)
	if s.o.NoReadOnlyView {
		t.Log("no view of its own here (reported): a command cannot open a new pseudo-terminal by name")
		s.mustFail(s.spec(true), open)
		return
	}
	s.mustSucceed(s.spec(true), open)
}
