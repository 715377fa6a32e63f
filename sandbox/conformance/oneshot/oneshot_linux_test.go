package oneshot_test

import (
	"os"
	"testing"

	"github.com/wisp-sh/wisp/sandbox"
	"github.com/wisp-sh/wisp/sandbox/sandboxtest"
)

// TestLandlockConformance runs the suite with each way of getting a mount
// namespace, forced, and with the one the probe picks. The modes share no
// state (each its own backend and scratch folders), so they run side by
// side.
func TestLandlockConformance(t *testing.T) {
	for _, tc := range []struct {
		name    string
		ns      sandbox.Namespace
		useAttr bool
	}{
		{"auto", sandbox.NamespaceAuto, false},
		{"mount", sandbox.NamespaceMount, false},
		{"user", sandbox.NamespaceUser, false},
		{"user-started-by-the-caller", sandbox.NamespaceUser, true},
		{"none", sandbox.NamespaceNone, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if tc.ns == sandbox.NamespaceMount && os.Geteuid() != 0 {
				t.Skip("a mount namespace of the helper's own needs root")
			}
			t.Parallel()
			l := sandboxtest.NewLandlock(t, sandboxtest.Executable(t), tc.ns)
			if tc.ns == sandbox.NamespaceMount && probed(t) == sandbox.NamespaceMount {
				t.Skip("the probe picks a mount namespace here, so the run \"auto\" is this one, with the same flags")
			}
			got, why := l.Namespace()
			t.Logf("namespace: %q %s", got, why)
			o := sandboxtest.LandlockOptions(t, l)
			o.UseAttr = tc.useAttr
			sandboxtest.Run(t, l, o)
		})
	}
}

// probed is the namespace the probe picks here.
func probed(t *testing.T) sandbox.Namespace {
	ns, _ := sandboxtest.NewLandlock(t, sandboxtest.Executable(t), sandbox.NamespaceAuto).Namespace()
	return ns
}
