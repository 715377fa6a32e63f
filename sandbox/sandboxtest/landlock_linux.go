package sandboxtest

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/wisp-sh/wisp/internal/testenv"
	"github.com/wisp-sh/wisp/sandbox"
	"github.com/wisp-sh/wisp/sandbox/landlock"
)

// Executable is the test binary, which Main turns into the helper.
func Executable(t testing.TB) string {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	return exe
}

// NewLandlock returns the backend with exe as wisp's executable, or skips
// (fails under WISP_REQUIRE_KERNEL=1) where Landlock is missing.
func NewLandlock(t testing.TB, exe string, ns sandbox.Namespace) *landlock.Landlock {
	t.Helper()
	l, err := landlock.NewLandlock(exe, ns)
	testenv.NeedKernel(t, err == nil, "Landlock is not available here")
	return l
}

// LandlockOptions are the suite's options for l: what it cannot enforce
// here, from its own report, and the test binary as the probe.
func LandlockOptions(t testing.TB, l *landlock.Landlock) Options {
	f := l.Features()
	ns, _ := l.Namespace()
	return Options{
		NoReadOnlyView:  ns == sandbox.NamespaceNone,
		Probe:           Executable(t),
		NoNetworkRules:  !f.TCP,
		NoUDPRules:      !f.UDP && !f.SocketFilter,
		NoMPTCPRules:    !f.SocketFilter,
		NoSignalScoping: !f.Scoping, NoAbstractSockets: !f.Scoping,
		NoUnixSocketRules: !f.SocketFilter,
		UnixGuard:         f.UnixGuard(false, ns != sandbox.NamespaceNone),
	}
}

// BuildHelper builds cmd/wisp-sandbox into dir, stamped with version, as
// the Makefile builds it beside wisp (-trimpath, so that the build cache
// make build filled serves it), and returns its path.
func BuildHelper(t testing.TB, dir, version string) string {
	t.Helper()
	goTool, err := exec.LookPath("go")
	if err != nil {
		t.Fatalf("no go tool to build %s with: %v", sandbox.HelperExecutable, err)
	}
	out := filepath.Join(dir, sandbox.HelperExecutable)
	cmd := exec.Command(goTool, "build", "-trimpath", "-o", out,
		"-ldflags", "-X github.com/wisp-sh/wisp/sandbox.BuildVersion="+version, "github.com/wisp-sh/wisp/cmd/wisp-sandbox")
	cmd.Env = append(os.Environ(), "CGO_ENABLED=0")
	if msg, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("build %s: %v\n%s", sandbox.HelperExecutable, err, msg)
	}
	return out
}

// BesideHelper is wisp's executable (a copy of the test binary, which can
// also be the helper) with wisp-sandbox built beside it, in a new folder.
func BesideHelper(t testing.TB, version string) (exe, helper string) {
	t.Helper()
	dir, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	exe = filepath.Join(dir, filepath.Base(os.Args[0]))
	testenv.CopyExecutable(t, exe)
	return exe, BuildHelper(t, dir, version)
}
