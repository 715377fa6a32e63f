package main

import (
	"flag"
	"os"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"
	"github.com/wisp-sh/wisp/sandbox"
)

var update = flag.Bool("update", false, "rewrite the golden output in testdata/script")

// TestMain lets scripts run `wisp` as a real process: the test binary
// re-executes itself as wisp.
func TestMain(m *testing.M) {
	sandbox.MaybeHelperMain() // the test binary stands in for wisp's helper
	testscript.Main(m, map[string]func(){
		"wisp": func() { os.Exit(run()) },
	})
}

var realHome, _ = os.UserHomeDir()

// TestScripts runs the txtar scripts in testdata/script. Each gets its own
// WISP_HOME under $WORK, so no script sees the person's ~/.wisp.
func TestScripts(t *testing.T) {
	testscript.Run(t, testscript.Params{
		Dir:           "testdata/script",
		UpdateScripts: *update,
		Setup: func(env *testscript.Env) error {
			env.Setenv("WISP_HOME", env.WorkDir+"/.wisp-home")
			env.Setenv("HOME", env.WorkDir+"/home")
			// $WORK is under /tmp, a writable root; $OUTSIDE is a folder
			// outside every root, for writes the sandbox must refuse.
			outside, err := os.MkdirTemp(realHome, "wisp-script-outside-")
			if err != nil {
				return err
			}
			env.Defer(func() { os.RemoveAll(outside) })
			env.Setenv("OUTSIDE", outside)
			return os.MkdirAll(env.WorkDir+"/home", 0o755)
		},
		Condition: scriptCondition,
	})
}
