package sandbox_test

import (
	"os"
	"testing"

	"github.com/wisp-sh/wisp/internal/testenv"
	"github.com/wisp-sh/wisp/sandbox"
	"github.com/wisp-sh/wisp/sandbox/sandboxtest"
)

// testExecutable is the test binary, which TestMain turns into the helper.
func testExecutable(t *testing.T) string {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	return exe
}

// newLandlock returns the backend with the test binary as its helper, or
// skips (fails under WISP_REQUIRE_KERNEL=1) where Landlock is missing.
func newLandlock(t testing.TB, exe string, ns sandbox.Namespace) *sandbox.Landlock {
	t.Helper()
	l, err := sandbox.NewLandlock(exe, ns)
	testenv.NeedKernel(t, err == nil, "Landlock is not available here")
	return l
}

func suiteOptions(t *testing.T, l *sandbox.Landlock) sandboxtest.Options {
	f := l.Features()
	ns, _ := l.Namespace()
	return sandboxtest.Options{
		NoReadOnlyView:  ns == sandbox.NamespaceNone,
		Probe:           testExecutable(t),
		NoNetworkRules:  !f.TCP,
		NoUDPRules:      !f.UDP && !f.SocketFilter,
		NoMPTCPRules:    !f.SocketFilter,
		NoSignalScoping: !f.Scoping, NoAbstractSockets: !f.Scoping,
		NoUnixSocketRules: !f.SocketFilter,
	}
}

// TestLandlockConformance runs the suite with each way of getting a mount
// namespace, forced, and with the one the probe picks.
func TestLandlockConformance(t *testing.T) {
	for _, tc := range []struct {
		name    string
		ns      sandbox.Namespace
		useAttr bool
		serve   bool
	}{
		{"auto", sandbox.NamespaceAuto, false, false},
		{"mount", sandbox.NamespaceMount, false, false},
		{"user", sandbox.NamespaceUser, false, false},
		{"user-started-by-the-caller", sandbox.NamespaceUser, true, false},
		{"none", sandbox.NamespaceNone, false, false},
		{"served-auto", sandbox.NamespaceAuto, false, true},
		{"served-user", sandbox.NamespaceUser, false, true},
		{"served-none", sandbox.NamespaceNone, false, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if tc.ns == sandbox.NamespaceMount && os.Geteuid() != 0 {
				t.Skip("a mount namespace of the helper's own needs root")
			}
			l := newLandlock(t, testExecutable(t), tc.ns)
			got, why := l.Namespace()
			t.Logf("namespace: %q %s", got, why)
			o := suiteOptions(t, l)
			o.UseAttr, o.Serve = tc.useAttr, tc.serve
			sandboxtest.Run(t, l, o)
		})
	}
}
