package person_test

import (
	"os"
	"testing"

	"github.com/wisp-sh/wisp/internal/testenv"
	"github.com/wisp-sh/wisp/sandbox"
	"github.com/wisp-sh/wisp/sandbox/landlock"
	"github.com/wisp-sh/wisp/sandbox/sandboxtest"
)

// innerEnv marks the test binary's run as the unprivileged user.
const innerEnv = "WISP_SANDBOX_TEST_UNPRIVILEGED"

// TestLandlockUnprivileged runs the suite as an unprivileged user, where
// root's answers do not hold: no mount namespace of the helper's own, so
// the probe must find a user namespace (or none). The test binary runs
// itself again as that user (NewRerun skips where the test already runs
// unprivileged: package oneshot covers that user); all the work happens in
// that run.
func TestLandlockUnprivileged(t *testing.T) {
	if os.Getenv(innerEnv) == "1" {
		unprivilegedSuite(t)
		return
	}
	r := testenv.NewRerun(t)
	r.Run(t, "^TestLandlockUnprivileged$", []string{innerEnv + "=1"}, "TestLandlockUnprivileged")
}

// unprivilegedSuite is the part that runs as the unprivileged user: the
// suite with the namespace the probe finds (started by the helper, by the
// caller and served), and with none. The modes share no state, so they
// run side by side.
func unprivilegedSuite(t *testing.T) {
	if os.Geteuid() == 0 {
		t.Fatal("the unprivileged run is running as root")
	}
	auto := sandboxtest.NewLandlock(t, sandboxtest.Executable(t), sandbox.NamespaceAuto)
	ns, why := auto.Namespace()
	t.Logf("as uid %d the probe found namespace %q %s", os.Geteuid(), ns, why)
	if ns == sandbox.NamespaceMount {
		t.Fatal("the probe claims a mount namespace of the helper's own without root")
	}
	none := sandboxtest.NewLandlock(t, sandboxtest.Executable(t), sandbox.NamespaceNone)
	for _, tc := range []struct {
		name           string
		l              *landlock.Landlock
		useAttr, serve bool
	}{
		{"auto", auto, false, false},
		{"auto-started-by-the-caller", auto, true, false},
		{"served", auto, false, true},
		{"none", none, false, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			o := sandboxtest.LandlockOptions(t, tc.l)
			o.UseAttr, o.Serve = tc.useAttr, tc.serve
			sandboxtest.Run(t, tc.l, o)
		})
	}
}
