package served_test

import (
	"testing"

	"github.com/wisp-sh/wisp/sandbox"
	"github.com/wisp-sh/wisp/sandbox/sandboxtest"
)

// TestLandlockConformance runs the suite through the served helper with
// the namespace the probe picks, a user namespace forced, and none. The
// modes share no state, so they run side by side.
func TestLandlockConformance(t *testing.T) {
	for _, tc := range []struct {
		name string
		ns   sandbox.Namespace
	}{
		{"served-auto", sandbox.NamespaceAuto},
		{"served-user", sandbox.NamespaceUser},
		{"served-none", sandbox.NamespaceNone},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			l := sandboxtest.NewLandlock(t, sandboxtest.Executable(t), tc.ns)
			got, why := l.Namespace()
			t.Logf("namespace: %q %s", got, why)
			o := sandboxtest.LandlockOptions(t, l)
			o.Serve = true
			sandboxtest.Run(t, l, o)
		})
	}
}
