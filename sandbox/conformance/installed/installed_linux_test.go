package installed_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/wisp-sh/wisp/internal/testenv"
	"github.com/wisp-sh/wisp/sandbox"
	"github.com/wisp-sh/wisp/sandbox/sandboxtest"
)

// innerEnv marks the run of TestSeparateHelperConformance as the
// unprivileged user, beside the helper the run as root built.
const innerEnv = "WISP_SEPARATE_HELPER_INNER"

// TestSeparateHelperConformance runs the conformance suite with
// wisp-sandbox as the helper, one command's and served, as the
// installation has it: beside wisp's executable. It runs the helper's
// cases (Options.HelperCases): the runner's put-back and the build tools'
// roots do not depend on which binary confines, and the other packages
// run them in every mode. The two share no state, so they run side by side.
func TestSeparateHelperConformance(t *testing.T) {
	var exe, helper string
	if os.Getenv(innerEnv) == "1" {
		exe = sandboxtest.Executable(t)
		helper = filepath.Join(filepath.Dir(exe), sandbox.HelperExecutable)
	} else {
		exe, helper = sandboxtest.BesideHelper(t, sandbox.BuildVersion)
	}
	for _, serve := range []bool{false, true} {
		t.Run(map[bool]string{false: "one-command", true: "served"}[serve], func(t *testing.T) {
			t.Parallel()
			l := sandboxtest.NewLandlock(t, exe, sandbox.NamespaceAuto)
			if got := l.Executable(); got != helper {
				t.Fatalf("the backend runs %s as its helper; want %s beside wisp", got, helper)
			}
			o := sandboxtest.LandlockOptions(t, l)
			o.Serve, o.HelperCases = serve, true
			sandboxtest.Run(t, l, o)
		})
	}
}

// TestSeparateHelperUnprivileged: the same as a person's account, with the
// helper root installed (root's, as make install leaves it).
func TestSeparateHelperUnprivileged(t *testing.T) {
	r := testenv.NewRerun(t)
	sandboxtest.BuildHelper(t, r.Dir, sandbox.BuildVersion)
	r.Run(t, "^TestSeparateHelperConformance$", []string{innerEnv + "=1"}, "TestSeparateHelperConformance")
}
