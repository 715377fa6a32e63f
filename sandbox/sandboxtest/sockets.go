package sandboxtest

import (
	"errors"
	"fmt"
	"io/fs"
	"net"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/wisp-sh/wisp/sandbox"
)

// The person's Unix sockets, each where its program makes it, must stay
// out of a confined command's reach however it goes about it, while the
// command's own sockets work wherever the mode can tell them apart
// (sandbox.UnixGuard): the cases below.

func runSockets(t *testing.T, s *suite) {
	t.Run("OwnUnixSocketsWork", s.ownSockets)
	t.Run("PersonsSocketsUnreachable", s.personsSockets)
	t.Run("PersonsSocketWaysAround", s.socketWaysAround)
	t.Run("SocketBoundAfterStartUnreachable", s.socketAfterStart)
}

// guards says whether the backend keeps the person's sockets here while
// letting the command's own work, refuses every socket, or neither.
func (s *suite) socketGuard(t *testing.T) sandbox.UnixGuard {
	t.Helper()
	if runtime.GOOS != "linux" || s.o.UnixGuard == sandbox.UnixUnguarded {
		t.Skip("the backend reports no rules for Unix sockets here")
	}
	return s.o.UnixGuard
}

func ownSocketsWork(g sandbox.UnixGuard) bool {
	return g == sandbox.UnixHidden || g == sandbox.UnixByDomain
}

// ownSockets: socketpair always works; a socket the command binds in its
// project, in its temporary folder (a root with a short path, as /tmp is)
// or in /tmp/.X11-unix (an X server of its own, as xvfb-run starts), and
// Python's multiprocessing.Manager (a server process and its clients), work
// where the mode tells its own sockets from the person's, and are refused
// as the sandbox's where it cannot.
func (s *suite) ownSockets(t *testing.T) {
	s.t = t
	g := s.socketGuard(t)
	spec, tmp := s.specWithTemp(t)
	s.mustSucceed(spec, s.probe("socketpair"))
	lines := []string{
		s.probe("unix-echo", "own.sock"),
		s.probe("unixgram-echo", filepath.Join(tmp, "g.sock")),
	}
	if spec.Roots[len(spec.Roots)-1] == "/tmp" {
		lines = append(lines, s.probe("unix-echo", fmt.Sprintf("/tmp/.X11-unix/X%d", 7000+socketSeq.Add(1)%1000)))
	}
	if py := "/usr/bin/python3"; isExecutable(py) {
		lines = append(lines, "TMPDIR="+shellQuote(tmp)+" "+py+` -c 'import multiprocessing as mp
m = mp.Manager(); d = m.dict(); d["k"] = "shared"; print(d["k"]); m.shutdown()'`)
	}
	for _, line := range lines {
		if ownSocketsWork(g) {
			s.mustSucceed(spec, line)
			continue
		}
		out := s.mustFail(spec, line)
		if !strings.Contains(strings.ToLower(out), "operation not permitted") {
			t.Errorf("%q was refused, but not as the sandbox refuses a socket (EPERM):\n%s", line, out)
		}
	}
}

// personSocket is one of the person's sockets: what it stands for, and
// where its program makes it.
type personSocket struct {
	kind, path string
}

// personsSockets: ssh-agent's, the D-Bus session bus, Wayland's, systemd's
// (the user's and the system's), podman's (rootless and root), docker's
// (by /run and by /var/run), the X server's, tmux's and gpg-agent's, each
// made where its program makes it and reachable unconfined, cannot be
// connected to, whatever the mode; with the real ones this machine runs.
func (s *suite) personsSockets(t *testing.T) {
	s.t = t
	s.socketGuard(t)
	spec, _ := s.specWithTemp(t)
	uid := s.commandUID()
	tok := fmt.Sprintf("%d-%d", os.Getpid(), socketSeq.Add(1))
	run := fmt.Sprintf("/run/user/%d", uid)
	sockets := []personSocket{
		{"ssh-agent", filepath.Join(s.personDir(t, "/tmp", "ssh-"), "agent."+tok)},
		{"the D-Bus session bus", run + "/bus-" + tok},
		{"Wayland", run + "/wayland-" + tok},
		{"systemd --user", run + "/systemd/private-" + tok},
		{"podman, rootless", run + "/podman/podman-" + tok + ".sock"},
		{"gpg-agent", run + "/gnupg/S.gpg-agent-" + tok},
		{"podman", "/run/podman/podman-" + tok + ".sock"},
		{"docker", "/run/docker-" + tok + ".sock"},
		{"systemd", "/run/systemd/private-" + tok},
		{"the X server", freeDisplaySocket()},
		{"tmux", fmt.Sprintf("/tmp/tmux-%d/wisp-%s", uid, tok)},
	}
	var made []personSocket
	for _, p := range sockets {
		err := s.makeFolders(filepath.Dir(p.path))
		if err == nil {
			err = s.listenAsPersonQuiet(t, p.path)
		}
		if err != nil && os.Geteuid() != 0 {
			// Unprivileged, the test cannot make a system folder or bind
			// in one: package oneshot, as root, makes every one of them.
			t.Logf("not as uid %d: %s's socket %s (%v)", os.Geteuid(), p.kind, p.path, err)
			continue
		}
		if err != nil {
			t.Fatal(err)
		}
		made = append(made, p)
	}
	sockets = made
	if _, err := os.Stat("/run/docker-" + tok + ".sock"); err == nil {
		sockets = append(sockets, personSocket{"docker, by /var/run", "/var/run/docker-" + tok + ".sock"})
	}
	for _, real := range []string{"/run/systemd/private", "/run/docker.sock", "/run/dbus/system_bus_socket", "/run/podman/podman.sock"} {
		if out, code := s.plain(s.probe("dial-unix", real)); code == 0 && strings.Contains(out, "connected") {
			sockets = append(sockets, personSocket{"this machine's " + real, real})
		}
	}
	// One command dials them all: a helper's start each would cost the
	// suite's time limit more than it proves.
	var all []string
	for _, p := range sockets {
		all = append(all, p.path)
	}
	dial := s.probe(append([]string{"dial-each"}, all...)...)
	if out, _ := s.plain(dial); strings.Count(out, "reached ") != len(all) {
		t.Fatalf("control: unconfined, not every socket answered, so the case proves nothing:\n%s", out)
	}
	out := s.mustSucceed(spec, dial)
	for _, p := range sockets {
		if strings.Contains(out, "reached "+p.path+"\n") {
			t.Errorf("a confined command reached %s's socket %s", p.kind, p.path)
		}
	}
}

// socketWaysAround: ssh-agent's socket in /tmp (a root, as it is for
// wisp), and a server of the person's listening inside the project, cannot
// be reached through a symbolic link, a hard link made in the root,
// /proc/PID/root of a process outside the sandbox, or a relative path.
func (s *suite) socketWaysAround(t *testing.T) {
	s.t = t
	s.socketGuard(t)
	spec, _ := s.specWithTemp(t)
	agent := filepath.Join(s.personDir(t, "/tmp", "ssh-"), "agent.1")
	s.listenAsPerson(t, agent)
	inProject := filepath.Join(s.proj, ".person.sock")
	if len(inProject) < 100 {
		s.listenAsPerson(t, inProject)
	} else {
		inProject = ""
	}
	var attempts []string
	for i, target := range []string{agent, inProject} {
		if target == "" {
			continue
		}
		s.control(s.probe("dial-unix", target))
		hard := fmt.Sprintf("/tmp/hard-%d-%d", os.Getpid(), socketSeq.Add(1))
		t.Cleanup(func() { os.Remove(hard) })
		attempts = append(attempts,
			fmt.Sprintf("ln -s %s sym%d && %s", shellQuote(target), i, s.probe("dial-unix", fmt.Sprintf("sym%d", i))),
			fmt.Sprintf("ln %s hard%d; %s", shellQuote(target), i, s.probe("dial-unix", fmt.Sprintf("hard%d", i))),
			fmt.Sprintf("ln %s %s; %s", shellQuote(target), hard, s.probe("dial-unix", hard)),
			s.probe("dial-unix", fmt.Sprintf("/proc/%d/root%s", os.Getpid(), target)),
			fmt.Sprintf("cd %s && %s", shellQuote(filepath.Dir(target)), s.probe("dial-unix", filepath.Base(target))),
		)
	}
	// One command tries every way, saying which got through.
	var line strings.Builder
	for i, way := range attempts {
		fmt.Fprintf(&line, "( %s ) >/dev/null 2>&1 && echo 'got through: %d'; ", way, i)
	}
	line.WriteString("true")
	out := s.mustSucceed(spec, line.String())
	for i, way := range attempts {
		if strings.Contains(out, fmt.Sprintf("got through: %d\n", i)) {
			t.Errorf("a confined command reached the person's socket with %q", way)
		}
	}
}

// socketAfterStart: a socket the person binds while a command runs, in
// their runtime folder, is out of its reach; and a served helper started
// before a socket was bound anywhere does not serve the next command
// without hiding it. One bound after the start in a new folder of a root
// is reachable only where the report says so (sandbox.UnixHidden).
func (s *suite) socketAfterStart(t *testing.T) {
	s.t = t
	g := s.socketGuard(t)
	spec, _ := s.specWithTemp(t)
	tok := fmt.Sprintf("%d-%d", os.Getpid(), socketSeq.Add(1))
	inHome := fmt.Sprintf("/run/user/%d/late-%s", s.commandUID(), tok)
	if err := s.makeFolders(filepath.Dir(inHome)); err != nil {
		inHome = fmt.Sprintf("/tmp/tmux-%d/late-%s", s.commandUID(), tok) // unprivileged: no runtime folder to make
	}
	if out, code := s.dialAfterStart(t, spec, inHome); code == 0 {
		t.Errorf("a confined command reached a socket bound in a folder of the person's sockets after it started:\n%s", out)
	}
	s.mustSucceed(spec, "true") // a served helper, started now, before the socket
	late := filepath.Join(s.personDir(t, "/tmp", "wisp-late-"), "s.sock")
	s.listenAsPerson(t, late)
	dial := s.probe("dial-unix", late)
	s.control(dial)
	if out, code := s.confined(spec, dial); code == 0 {
		t.Errorf("a command reached a socket bound after its served helper started:\n%s", out)
	}
	anywhere := filepath.Join("/tmp", "wisp-later-"+tok, "s.sock")
	t.Cleanup(func() { os.RemoveAll(filepath.Dir(anywhere)) })
	if out, code := s.dialAfterStart(t, spec, anywhere); code == 0 {
		if g != sandbox.UnixHidden {
			t.Errorf("a confined command reached a socket bound in a new folder after it started, which the report does not name:\n%s", out)
		}
		t.Logf("reachable, as the report names for this mode: a socket bound after the start in a new folder of a root")
	}
}

// dialAfterStart runs a command that dials path once told to, and binds
// path as the person after the command has started.
func (s *suite) dialAfterStart(t *testing.T, spec sandbox.Spec, path string) (string, int) {
	t.Helper()
	ready, goFile := filepath.Join(s.proj, "ready-"+filepath.Base(path)), filepath.Join(s.proj, "go-"+filepath.Base(path))
	done := make(chan struct{})
	defer func() { <-done }()
	go func() {
		defer close(done)
		for deadline := time.Now().Add(20 * time.Second); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
			if _, err := os.Stat(ready); err == nil {
				break
			}
		}
		if err := s.makeFolders(filepath.Dir(path)); err == nil {
			_ = s.listenAsPersonQuiet(t, path)
		}
		_ = os.WriteFile(goFile, nil, 0o644)
	}()
	return s.confined(spec, s.probe("dial-unix-later", ready, goFile, path))
}

// specWithTemp is the suite's spec with /tmp as a root too, as wisp's is
// (where the backend keeps wisp's home, which lies under it, unwritable),
// or else a short temporary folder of the command's own; and that folder.
func (s *suite) specWithTemp(t *testing.T) (sandbox.Spec, string) {
	t.Helper()
	tmp := s.personDir(t, "/tmp", "wisp-own-")
	if s.o.Credential != nil {
		_ = os.Chown(tmp, int(s.o.Credential.Uid), int(s.o.Credential.Gid))
	}
	spec := s.spec(true)
	withTmp := spec
	withTmp.Roots = append(append([]string{}, spec.Roots...), tmp, "/tmp")
	if _, err := s.b.Check(withTmp); err == nil {
		return withTmp, tmp
	}
	spec.Roots = append(spec.Roots, tmp)
	return spec, tmp
}

// personDir makes a folder of the person's under parent, removed after.
func (s *suite) personDir(t *testing.T, parent, prefix string) string {
	t.Helper()
	d, err := os.MkdirTemp(parent, prefix)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(d) })
	s.giveToUser(d, 0o700)
	return d
}

// listenAsPerson listens at path, making the folders it lacks (owned by
// the command's user, as a runtime folder is; they stay, as the system's
// would, since other runs may be using them), so that unconfined the
// command's user can connect: only the sandbox stands between.
func (s *suite) listenAsPerson(t *testing.T, path string) {
	t.Helper()
	if len(path) >= 108 {
		t.Fatalf("sandboxtest: the socket path %s is too long", path)
	}
	if err := s.makeFolders(filepath.Dir(path)); err != nil {
		t.Fatalf("make the folders for %s: %v", path, err)
	}
	if err := s.listenAsPersonQuiet(t, path); err != nil {
		t.Fatal(err)
	}
}

func (s *suite) listenAsPersonQuiet(t *testing.T, path string) error {
	ln, err := net.Listen("unix", path)
	if err != nil {
		return fmt.Errorf("listen as the person at %s: %w", path, err)
	}
	t.Cleanup(func() { ln.Close() })
	_ = os.Chmod(path, 0o777)
	go acceptAll(ln)
	return nil
}

// makeFolders makes dir and what it lacks above it, each given to the
// command's user when under /run/user or /tmp, as their programs make them.
func (s *suite) makeFolders(dir string) error {
	if _, err := os.Stat(dir); err == nil {
		return nil
	}
	if err := s.makeFolders(filepath.Dir(dir)); err != nil {
		return err
	}
	err := os.Mkdir(dir, 0o755)
	switch {
	case errors.Is(err, fs.ErrExist):
		return nil
	case err != nil:
		return err
	}
	if strings.HasPrefix(dir, "/run/user/") || strings.HasPrefix(dir, "/tmp/") {
		s.giveToUser(dir, 0o700)
	}
	return nil
}

func (s *suite) giveToUser(p string, mode os.FileMode) {
	_ = os.Chmod(p, mode)
	if s.o.Credential != nil {
		_ = os.Chown(p, int(s.o.Credential.Uid), int(s.o.Credential.Gid))
	}
}

// commandUID is the uid commands run as.
func (s *suite) commandUID() int {
	if s.o.Credential != nil {
		return int(s.o.Credential.Uid)
	}
	return os.Geteuid()
}

// socketSeq tells apart the sockets of suites run side by side in one
// process.
var socketSeq atomic.Int64

func isExecutable(p string) bool {
	info, err := os.Stat(p)
	return err == nil && info.Mode()&0o111 != 0
}

// freeDisplaySocket names an X server's socket no one has bound: display
// numbers are few, the conformance packages run side by side as processes
// of their own, and a socket file outlives a killed test; so the search
// starts at a number of this process's own and skips any that exists.
func freeDisplaySocket() string {
	start := 8000 + (os.Getpid()%400)*50 + int(socketSeq.Add(1)%50)
	for n := start; ; n++ {
		path := fmt.Sprintf("/tmp/.X11-unix/X%d", n)
		if _, err := os.Lstat(path); errors.Is(err, fs.ErrNotExist) {
			return path
		}
	}
}
