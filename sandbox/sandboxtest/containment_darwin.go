//go:build darwin

package sandboxtest

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/sys/unix"
)

// The containment cases as macOS has them: the same attempts as on Linux,
// with macOS's tools and its errno text ("Operation not permitted"), and a
// skip that names the reason where a case has no macOS counterpart.

// macDenied is the text of Seatbelt's EPERM, as the tools print it (Go's
// probe in lower case).
const macDenied = "operation not permitted"

// metadataOutsideRefused: outside the roots nothing changes, metadata
// included: a mode, an owner, a time, an extended attribute, wisp's home's
// mode. Seatbelt's file-write* covers each.
func (s *suite) metadataOutsideRefused(t *testing.T) {
	s.t = t
	target := filepath.Join(s.outside, "meta")
	mustWrite(t, target, "meta\n")
	before := statOf(t, target)
	lines := []string{
		"chmod 777 " + shellQuote(target),
		"touch -t 200001010000 " + shellQuote(target),
		"chown $(id -u):$(id -g) " + shellQuote(target),
		"chmod 777 " + shellQuote(s.away),
		s.probe("setxattr", target),
	}
	restore := func() {
		_ = os.Chmod(target, 0o644)
		_ = os.Chtimes(target, before.mtime, before.mtime)
		_ = os.Chmod(s.away, 0o755)
		_ = unix.Removexattr(target, macXattr)
	}
	for _, line := range lines {
		s.control(line)
	}
	restore()
	for _, line := range lines {
		if out := s.mustFail(s.spec(true), line); !strings.Contains(strings.ToLower(out), macDenied) {
			t.Errorf("%q was refused, but not with %q: %q", line, macDenied, out)
		}
	}
	if after := statOf(t, target); after != before {
		t.Errorf("metadata outside the roots changed: %+v, was %+v", after, before)
	}
	if _, err := unix.Getxattr(target, macXattr, make([]byte, 8)); err == nil {
		t.Error("a confined command set an extended attribute outside the roots")
	}
	restore()
}

// setuidRefused: no command makes a file setuid or setgid, even inside the
// roots, while chmod +x and a sticky folder still work.
func (s *suite) setuidRefused(t *testing.T) {
	s.t = t
	s.control("cp /bin/sh control-sh && chmod 4755 control-sh && chmod 2755 control-sh && rm control-sh")
	s.mustSucceed(s.spec(true), "cp /bin/sh suid-sh && chmod 755 suid-sh && chmod +x suid-sh && chmod 1777 .")
	_ = os.Chmod(s.proj, 0o755)
	for _, line := range []string{"chmod 4755 suid-sh", "chmod u+s suid-sh", "chmod g+s suid-sh"} {
		s.mustFail(s.spec(true), line)
	}
	info, err := os.Stat(filepath.Join(s.proj, "suid-sh"))
	if err == nil && info.Mode()&(os.ModeSetuid|os.ModeSetgid) != 0 {
		t.Errorf("suid-sh was made %v inside the root", info.Mode())
	}
}

// listenRefused: with the network off, listen() on a socket never bound
// (the kernel binds it to a free port) is refused.
func (s *suite) listenRefused(t *testing.T) {
	s.t = t
	listen := s.probe("listen")
	s.mustSucceed(s.spec(true), listen)
	s.mustFail(s.spec(false), listen)
}

func (s *suite) fastOpenRefused(t *testing.T) {
	t.Skip("macOS sends Fast Open through connectx(2), not sendto(MSG_FASTOPEN): NetworkOffRefusesTCP covers its connect")
}

func (s *suite) otherFamiliesRefused(t *testing.T) {
	t.Skip("the families Linux's filter refuses (AF_VSOCK, AF_TIPC, AF_RDS) do not exist on macOS")
}

func (s *suite) otherTerminalRefused(t *testing.T) {
	t.Skip("not covered on macOS: the profile cannot tell the command's own terminal from another of the person's (docs/trust.md)")
}

// macXattr is the extended attribute the setxattr probe sets.
const macXattr = "com.wisp.sandboxtest"
