// Package sandboxtest is the conformance suite every sandbox backend runs:
// what a confined command may and may not do, checked with real processes
// on the real kernel. Each refusal is checked against the same command run
// unconfined, which must succeed, so that no case passes for the wrong
// reason.
package sandboxtest

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"

	"github.com/wisp-sh/wisp/sandbox"
)

// Options say how to run the suite.
type Options struct {
	// Probe is the test binary, whose TestMain calls MaybeProbe.
	Probe string
	// Dir holds the scratch folders (a fresh t.TempDir when empty). With a
	// Credential it must be reachable by that user.
	Dir string
	// Credential runs every command as another user (nil: as the test).
	Credential *syscall.Credential
	// UseAttr starts commands through the backend's CommandAttr, when it
	// has one, with the process attributes it asks for.
	UseAttr bool
	// Serve runs every confined command through the backend's served
	// helper (sandbox.Serving), started for that command's spec.
	Serve bool
	// NoNetworkRules, NoUDPRules, NoMPTCPRules, NoSignalScoping and
	// NoAbstractSockets skip what the backend says it cannot enforce here
	// (from its own report).
	NoNetworkRules, NoUDPRules, NoMPTCPRules, NoSignalScoping, NoAbstractSockets bool
	// NoUnixSocketRules skips the case for Unix sockets by path, which a
	// backend without the seccomp filter leaves open.
	NoUnixSocketRules bool
	// UnixGuard is how the backend keeps the person's Unix sockets from a
	// command here, and whether the command's own work (from its report);
	// UnixUnguarded skips the socket cases.
	UnixGuard sandbox.UnixGuard
	// NoReadOnlyView says the backend reports no read-only view of what
	// lies outside the roots here (Landlock without a mount namespace), so
	// a file's metadata outside them can change: the case checks that.
	NoReadOnlyView bool
	// NoProcessContainment says the backend lets a process that leaves the
	// command's group outlive the run (Seatbelt), as its report says.
	NoProcessContainment bool
	// HelperCases runs only the cases where the helper binary does the
	// work, for a suite whose point is which binary is the helper (the
	// installed wisp-sandbox): it leaves out runnerCases, which check the
	// runner's put-back of git's files and the roots the spec gives build
	// tools, the same whichever binary confines, and which the suites of
	// the test binary as the helper run in every mode.
	HelperCases bool
}

// runnerCases are the cases HelperCases leaves out: half of a run's time,
// in git and build tools' processes.
var runnerCases = []string{"GitWritesPutBack", "FreshAccountBuilds", "BuildToolsKeepWorkingWithTheRealHome"}

// Run runs the suite against b.
func Run(t *testing.T, b sandbox.Backend, o Options) {
	t.Helper()
	if o.Probe == "" {
		t.Fatal("sandboxtest: Options.Probe must name the test binary")
	}
	s := newSuite(t, b, o)
	if o.HelperCases {
		t.Logf("the helper's cases only: %s run where the test binary is the helper", strings.Join(runnerCases, ", "))
	}
	t.Run("WriteInsideRoot", s.writeInsideRoot)
	t.Run("WriteOutsideRefused", s.writeOutsideRefused)
	t.Run("ReadAnywhere", s.readAnywhere)
	t.Run("WispHomeInsideRootRefused", s.homeRefused)
	t.Run("GitObjectsWritable", s.gitObjectsWritable)
	t.Run("GitHooksAndConfigRefused", s.gitProtected)
	s.run(t, "GitWritesPutBack", s.gitPutBack)
	t.Run("NetworkOffRefusesTCP", s.networkOff)
	t.Run("OnlyTheProxyReachable", s.onlyTheProxy)
	t.Run("SignalOutsideRefused", s.signalRefused)
	t.Run("AbstractSocketOutsideRefused", s.abstractSocketRefused)
	t.Run("UnixSocketRefusedUnlessAllowed", s.unixSocketRefused)
	runSockets(t, s)
	t.Run("MetadataOutsideRefused", s.metadataOutsideRefused)
	t.Run("SetuidRefused", s.setuidRefused)
	t.Run("InheritedDescriptorsClosed", s.inheritedDescriptorsClosed)
	t.Run("ListenRefusedWithNetworkOff", s.listenRefused)
	t.Run("FastOpenRefusedWithNetworkOff", s.fastOpenRefused)
	t.Run("OtherSocketFamiliesRefusedWithNetworkOff", s.otherFamiliesRefused)
	t.Run("OtherTerminalRefused", s.otherTerminalRefused)
	t.Run("ProcessesEndWithTheRun", s.outlive)
	runSecrets(t, s)
	t.Run("WispHomeUnreadable", s.homeUnreadable)
	t.Run("SecretsWatchedSeeNothing", s.secretsWatched)
	t.Run("ProxyRefusesThisMachine", s.proxyRefusesThisMachine)
}

type suite struct {
	t       *testing.T
	b       sandbox.Backend
	o       Options
	proj    string // the one writable root, a git repository
	home    string // wisp's home for the case that puts it inside the root
	away    string // wisp's home for every other case, outside the root
	outside string // a folder outside every root

	// served is the served helper kept across commands (Options.Serve), and
	// the spec it was started for.
	served     sandbox.Server
	servedSpec sandbox.Spec
}

// run runs a case unless o.HelperCases leaves it out.
func (s *suite) run(t *testing.T, name string, f func(*testing.T)) {
	if s.o.HelperCases && slices.Contains(runnerCases, name) {
		return
	}
	t.Run(name, f)
}

func newSuite(t *testing.T, b sandbox.Backend, o Options) *suite {
	dir := o.Dir
	if dir == "" {
		dir = t.TempDir()
	}
	s := &suite{t: t, b: b, o: o,
		proj: filepath.Join(dir, "proj"), outside: filepath.Join(dir, "outside")}
	s.home, s.away = filepath.Join(s.proj, "wisp-home"), filepath.Join(dir, "wisp-home")
	secretInEnvironment() // before any helper starts: a served one keeps the environment it started with
	t.Cleanup(s.closeServer)
	for _, d := range []string{s.proj + "/.git/hooks", s.proj + "/.git/objects", s.proj + "/.git/refs", s.home, s.away, s.outside} {
		mustMkdir(t, d)
	}
	mustWrite(t, s.proj+"/.git/HEAD", "ref: refs/heads/main\n")
	mustWrite(t, s.proj+"/.git/config", "[core]\n\tbare = false\n")
	mustWrite(t, s.home+"/config.json", "{}\n")
	mustWrite(t, s.outside+"/readme", "read me anywhere\n")
	if o.Credential != nil {
		chownTree(t, dir, int(o.Credential.Uid), int(o.Credential.Gid))
	}
	return s
}

// spec is the suite's spec: the project as the only root (NewSpec would add
// the temporary folders, which hold the scratch folders), with the
// protected paths NewSpec finds, and wisp's home outside the root.
func (s *suite) spec(network bool) sandbox.Spec { return s.newSpec(network, s.away) }

// specHomeInside is the spec with wisp's home inside the root.
func (s *suite) specHomeInside() sandbox.Spec { return s.newSpec(true, s.home) }

func (s *suite) newSpec(network bool, home string) sandbox.Spec {
	s.t.Helper()
	spec, err := sandbox.NewSpec(sandbox.SpecOptions{
		LaunchDir: s.proj, WispHome: home, UserHome: filepath.Dir(s.proj),
		AllowNetwork: network, Getenv: func(string) string { return "" },
	})
	if err != nil {
		s.t.Fatalf("NewSpec: %v", err)
	}
	spec.Roots = spec.Roots[:1]
	return spec
}

// confined runs line under the sandbox and returns its output and status.
func (s *suite) confined(spec sandbox.Spec, line string) (string, int) {
	s.t.Helper()
	argv, attr, err := s.command(spec, line)
	if err != nil {
		s.t.Fatalf("Command(%q): %v", line, err)
	}
	if s.o.Serve {
		return s.servedRun(spec, line)
	}
	return s.execAttr(argv, attr)
}

func (s *suite) command(spec sandbox.Spec, line string) ([]string, *syscall.SysProcAttr, error) {
	if ac, ok := s.b.(sandbox.AttrCommander); ok && s.o.UseAttr {
		return ac.CommandAttr(spec, line)
	}
	argv, err := s.b.Command(spec, line)
	return argv, nil, err
}

// plain runs line unconfined: the control every refusal is checked against.
func (s *suite) plain(line string) (string, int) {
	s.t.Helper()
	return s.exec(sandbox.Plain(line))
}

func (s *suite) exec(argv []string) (string, int) {
	s.t.Helper()
	return s.execAttr(argv, nil)
}

func (s *suite) execAttr(argv []string, attr *syscall.SysProcAttr) (string, int) {
	s.t.Helper()
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Dir = s.proj
	cmd.SysProcAttr = attr
	if s.o.Credential != nil {
		if attr != nil {
			s.t.Fatal("sandboxtest: Credential with the backend's own process attributes is not supported")
		}
		cmd.SysProcAttr = &syscall.SysProcAttr{Credential: s.o.Credential}
	}
	out, err := cmd.CombinedOutput()
	var exit *exec.ExitError
	if err != nil && !errors.As(err, &exit) {
		s.t.Fatalf("run %v: %v", argv, err)
	}
	return string(out), cmd.ProcessState.ExitCode()
}

// mustSucceed and mustFail run line confined and check its status.
func (s *suite) mustSucceed(spec sandbox.Spec, line string) string {
	s.t.Helper()
	out, code := s.confined(spec, line)
	if code != 0 {
		s.t.Fatalf("confined %q failed with status %d, want success:\n%s", line, code, out)
	}
	return out
}

func (s *suite) mustFail(spec sandbox.Spec, line string) string {
	s.t.Helper()
	out, code := s.confined(spec, line)
	if code == 0 {
		s.t.Fatalf("confined %q succeeded, want it refused:\n%s", line, out)
	}
	return out
}

// control checks that line succeeds unconfined, so that its refusal under
// the sandbox is the sandbox's doing.
func (s *suite) control(line string) {
	s.t.Helper()
	if out, code := s.plain(line); code != 0 {
		s.t.Fatalf("control: unconfined %q failed with status %d, so the case proves nothing:\n%s", line, code, out)
	}
}

func (s *suite) probe(args ...string) string {
	return shellQuote(append([]string{s.o.Probe, ProbeCommand}, args...)...)
}

func shellQuote(words ...string) string {
	q := make([]string, len(words))
	for i, w := range words {
		q[i] = "'" + strings.ReplaceAll(w, "'", `'\''`) + "'"
	}
	return strings.Join(q, " ")
}

func mustMkdir(t *testing.T, d string) {
	t.Helper()
	if err := os.MkdirAll(d, 0o755); err != nil {
		t.Fatal(err)
	}
}

func mustWrite(t *testing.T, path, data string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
}

func chownTree(t *testing.T, dir string, uid, gid int) {
	t.Helper()
	err := filepath.Walk(dir, func(p string, _ os.FileInfo, err error) error {
		if err != nil {
			return err
		}
		return os.Lchown(p, uid, gid)
	})
	if err != nil {
		t.Fatalf("give the scratch folders to uid %d: %v", uid, err)
	}
}

func fileContent(t *testing.T, path string) string {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		return fmt.Sprintf("<%v>", err)
	}
	return string(data)
}
