package sandboxtest

import (
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/wisp-sh/wisp/sandbox"
)

func (s *suite) writeInsideRoot(t *testing.T) {
	s.t = t
	s.mustSucceed(s.spec(true), "echo inside > inside && mkdir -p sub/dir && mv inside sub/dir/moved")
	if got := fileContent(t, filepath.Join(s.proj, "sub/dir/moved")); got != "inside\n" {
		t.Fatalf("the file written inside the root holds %q, want %q", got, "inside\n")
	}
}

func (s *suite) writeOutsideRefused(t *testing.T) {
	s.t = t
	s.control(fmt.Sprintf("echo control > %s/control", shellQuote(s.outside)))
	for _, line := range []string{
		"echo refused > %s/refused",
		"mkdir %s/refused-dir",
		"rm %s/control",
		"mv %s/control " + shellQuote(s.proj) + "/stolen",
		"ln -s /etc/passwd %s/link",
	} {
		s.mustFail(s.spec(true), fmt.Sprintf(line, shellQuote(s.outside)))
	}
	for _, name := range []string{"refused", "refused-dir", "link"} {
		if _, err := os.Lstat(filepath.Join(s.outside, name)); err == nil {
			t.Errorf("%s was created outside the roots", name)
		}
	}
	if got := fileContent(t, filepath.Join(s.outside, "control")); got != "control\n" {
		t.Errorf("the file outside the roots was changed or removed: %q", got)
	}
}

func (s *suite) readAnywhere(t *testing.T) {
	s.t = t
	out := s.mustSucceed(s.spec(true), "cat "+shellQuote(s.outside+"/readme")+" && ls / >/dev/null")
	if !strings.Contains(out, "read me anywhere") {
		t.Fatalf("reading outside the roots gave %q", out)
	}
}

// homeRefused: wisp's home lies inside the root. A backend that cannot keep
// it unwritable must refuse the whole spec; one that runs must refuse every
// write into it, and moving it aside.
func (s *suite) homeRefused(t *testing.T) {
	s.t = t
	spec := s.specHomeInside()
	if _, err := s.b.Check(spec); err != nil {
		var unprotectable *sandbox.UnprotectableError
		if !errors.As(err, &unprotectable) {
			t.Fatalf("Check refused the spec with %v, want an *UnprotectableError", err)
		}
		if _, err := s.b.Command(spec, "true"); err == nil {
			t.Fatal("Check refused the spec, but Command did not")
		}
		t.Logf("refused as a whole, as it must be here: %v", err)
		return
	}
	s.control("echo x >> wisp-home/control && rm wisp-home/control")
	for _, line := range []string{
		"echo '{\"approval\":{\"threshold\":\"never\"}}' > wisp-home/config.json",
		"mkdir wisp-home/pending",
		"rm wisp-home/config.json",
		"mv wisp-home wisp-home-aside",
		"mv wisp-home/config.json moved.json",
	} {
		s.mustFail(spec, line)
	}
	if got := fileContent(t, filepath.Join(s.home, "config.json")); got != "{}\n" {
		t.Fatalf("wisp's home config.json was changed: %q", got)
	}
}

func (s *suite) gitObjectsWritable(t *testing.T) {
	s.t = t
	s.mustSucceed(s.spec(true), "echo blob > .git/objects/probe && touch .git/index.lock && mv .git/index.lock .git/index && mkdir -p .git/refs/heads && echo x > .git/refs/heads/main")
}

// gitProtected: .git/hooks and .git/config are refused when the backend
// says it covers them, and writable exactly when it reports them
// unprotected, so that the report can be trusted.
func (s *suite) gitProtected(t *testing.T) {
	s.t = t
	spec := s.spec(true)
	checked, err := s.b.Check(spec)
	if err != nil {
		t.Skipf("the spec is refused as a whole here (%v)", err)
	}
	unprotected := map[string]string{}
	for _, u := range checked.Unprotected {
		unprotected[u.Path] = u.Why
	}
	hooks, config := filepath.Join(s.proj, ".git/hooks"), filepath.Join(s.proj, ".git/config")
	s.control("touch .git/hooks/control .git/config && rm .git/hooks/control")
	if why, ok := unprotected[hooks]; ok {
		t.Logf(".git/hooks reported unprotected (%s); checking that the report is true", why)
		s.mustSucceed(spec, "touch .git/hooks/reported && rm .git/hooks/reported")
	} else {
		s.mustFail(spec, "echo evil > .git/hooks/pre-commit")
		s.mustFail(spec, "rm -r .git/hooks")
	}
	if why, ok := unprotected[config]; ok {
		t.Logf(".git/config reported unprotected (%s); checking that the report is true", why)
		s.mustSucceed(spec, "touch .git/config")
	} else {
		s.mustFail(spec, "echo '[core] fsmonitor = evil' >> .git/config")
	}
	if len(unprotected) == 0 {
		s.moveGitAside(t, spec)
		s.gitProtectedUnderAnOuterRoot(t)
	}
}

// gitProtectedUnderAnOuterRoot: as in wisp, where /tmp is a root and may
// hold the project, a root outside the project makes the helper bind the
// project folder itself, the command's working directory. A relative path
// from there must meet the read-only binds too.
func (s *suite) gitProtectedUnderAnOuterRoot(t *testing.T) {
	spec := s.spec(true)
	spec.Roots = append(spec.Roots, filepath.Dir(s.proj))
	if checked, err := s.b.Check(spec); err != nil || len(checked.Unprotected) > 0 {
		t.Fatalf("with an outer root the spec is refused or unprotected here (%v, %v), but not without", err, checked.Unprotected)
	}
	s.mustFail(spec, "echo evil > .git/hooks/pre-commit")
	s.mustFail(spec, "echo '[core] fsmonitor = evil' >> .git/config")
	s.mustFail(spec, "cd .git && echo evil > hooks/pre-commit")
	if _, err := os.Stat(filepath.Join(s.proj, ".git/hooks/pre-commit")); err == nil {
		t.Fatal("with an outer root, a relative path planted .git/hooks/pre-commit")
	}
}

// moveGitAside is the way around a protection tied to a folder rather than
// a path: move .git away and put a fresh one, with a hook, in its place.
// A backend that matches paths (Seatbelt) must also refuse the other way
// round: move .git aside, write the hook under the new name, move it back.
func (s *suite) moveGitAside(t *testing.T, spec sandbox.Spec) {
	for _, line := range []string{
		"mv .git .git-aside && mkdir -p .git/hooks && echo evil > .git/hooks/pre-commit",
		"mv .git .git-aside && echo evil > .git-aside/hooks/pre-commit && mv .git-aside .git",
	} {
		s.confined(spec, line)
		if _, err := os.Stat(filepath.Join(s.proj, ".git-aside")); err == nil {
			s.plain("rm -rf .git && mv .git-aside .git")
		}
		if _, err := os.Stat(filepath.Join(s.proj, ".git/hooks/pre-commit")); err == nil {
			t.Fatalf("%q planted .git/hooks/pre-commit", line)
		}
	}
	if got := fileContent(t, filepath.Join(s.proj, ".git/config")); got != "[core]\n\tbare = false\n" {
		t.Fatalf(".git/config was changed: %q", got)
	}
}

func (s *suite) networkOff(t *testing.T) {
	s.t = t
	if s.o.NoNetworkRules {
		t.Skip("the backend reports no network rules here")
	}
	t.Run("TCP", func(t *testing.T) { s.t = t; s.refusedWithNetworkOff(s.tcpListener(t, false), "dial") })
	t.Run("MPTCP", func(t *testing.T) {
		s.t = t
		if s.o.NoMPTCPRules || !mptcpAvailable() {
			t.Skip("no Multipath TCP here, or the backend reports it uncovered")
		}
		s.refusedWithNetworkOff(s.tcpListener(t, true), "dial-mptcp")
	})
	t.Run("UDP", func(t *testing.T) {
		s.t = t
		if s.o.NoUDPRules {
			t.Skip("the backend reports no UDP rules here")
		}
		s.udpRefused(t)
	})
}

// refusedWithNetworkOff runs the probe op against addr in the sandbox with
// the network on (the control: it must connect) and off (it must not).
func (s *suite) refusedWithNetworkOff(addr, op string) {
	s.t.Helper()
	dial := s.probe(op, addr)
	s.mustSucceed(s.spec(true), dial)
	s.mustFail(s.spec(false), dial)
}

func (s *suite) tcpListener(t *testing.T, multipath bool) string {
	var lc net.ListenConfig
	lc.SetMultipathTCP(multipath)
	ln, err := lc.Listen(t.Context(), "tcp4", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ln.Close() })
	go acceptAll(ln)
	return ln.Addr().String()
}

// udpRefused: a datagram sent with the network on arrives; with it off,
// the send fails and nothing arrives.
func (s *suite) udpRefused(t *testing.T) {
	conn, err := net.ListenPacket("udp4", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	send := s.probe("send-udp", conn.LocalAddr().String())
	s.mustSucceed(s.spec(true), send)
	if !received(conn) {
		t.Fatal("control: the datagram sent with the network on did not arrive")
	}
	s.mustFail(s.spec(false), send)
	if received(conn) {
		t.Fatal("a datagram sent with the network off arrived")
	}
}

func received(conn net.PacketConn) bool {
	conn.SetReadDeadline(time.Now().Add(500 * time.Millisecond))
	_, _, err := conn.ReadFrom(make([]byte, 64))
	return err == nil
}

func acceptAll(ln net.Listener) {
	for {
		c, err := ln.Accept()
		if err != nil {
			return
		}
		c.Close()
	}
}

// signalRefused: a confined command cannot signal a process outside the
// sandbox (standing for wisp, run as the same user), while it can signal
// itself.
func (s *suite) signalRefused(t *testing.T) {
	s.t = t
	if s.o.NoSignalScoping {
		t.Skip("the backend reports no signal scoping here")
	}
	pid := s.startTarget(t)
	kill := fmt.Sprintf("kill -0 %d", pid)
	s.control(kill)
	s.mustSucceed(s.spec(true), "kill -0 $$")
	s.mustFail(s.spec(true), kill)
	if s.o.Serve || s.o.Credential == nil {
		// The parent is the helper (served, or staying as the command's
		// parent until its processes have ended), confined itself; wisp
		// is the process that started it, this test.
		self := fmt.Sprintf("kill -0 %d", os.Getpid())
		s.control(self)
		s.mustFail(s.spec(true), self)
	}
}

// startTarget starts a process outside the sandbox as the commands' user.
func (s *suite) startTarget(t *testing.T) int {
	cmd := exec.Command(s.o.Probe, ProbeCommand, "wait")
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	if s.o.Credential != nil {
		cmd.SysProcAttr = &syscall.SysProcAttr{Credential: s.o.Credential}
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { stdin.Close(); cmd.Wait() })
	return cmd.Process.Pid
}

func (s *suite) abstractSocketRefused(t *testing.T) {
	s.t = t
	if runtime.GOOS != "linux" || s.o.NoAbstractSockets {
		t.Skip("no abstract Unix sockets to scope here")
	}
	name := fmt.Sprintf("wisp-sandboxtest-%d-%s", os.Getpid(), strings.ReplaceAll(t.Name(), "/", "-"))
	ln, err := net.Listen("unix", "@"+name)
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	go acceptAll(ln)
	dial := s.probe("dial-abstract", name)
	s.control(dial)
	s.mustFail(s.spec(true), dial)
}

// unixSocketRefused: a Unix socket by path, outside the roots as a
// person's systemd, tmux or docker sockets are, cannot be reached unless
// the spec allows Unix sockets; then it can.
func (s *suite) unixSocketRefused(t *testing.T) {
	s.t = t
	if (runtime.GOOS != "linux" && runtime.GOOS != "darwin") || s.o.NoUnixSocketRules {
		t.Skip("the backend reports no rules for Unix sockets here")
	}
	// A short folder of its own, outside the one root: a socket's path must
	// fit in 108 bytes (104 on macOS), which the test's own folders may not.
	dir, err := os.MkdirTemp("", "wisp-sock")
	if err != nil {
		t.Fatal(err)
	}
	defer os.RemoveAll(dir)
	path := filepath.Join(dir, "s.sock")
	ln, err := net.Listen("unix", path)
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	if s.o.Credential != nil { // reachable by the test user, so only the sandbox stands between
		_ = os.Chmod(dir, 0o755)
		_ = os.Chmod(path, 0o777)
	}
	go acceptAll(ln)
	dial := s.probe("dial-unix", path)
	s.control(dial)
	s.mustFail(s.spec(true), dial)
	allowed := s.spec(true)
	allowed.UnixSockets = true
	s.mustSucceed(allowed, dial)
}
