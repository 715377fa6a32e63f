package main

import (
	"context"
	"flag"
	"os"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"
)

var update = flag.Bool("update", false, "rewrite the golden output in testdata/script")

// TestMain lets scripts run `wisp` as a real process: the test binary
// re-executes itself as wisp.
func TestMain(m *testing.M) {
	testscript.Main(m, map[string]func(){
		"wisp": func() { os.Exit(run(context.Background(), newApp(), os.Args[1:])) },
	})
}

// TestScripts runs the txtar scripts in testdata/script. Each gets its own
// WISP_HOME under $WORK, so no script sees the person's ~/.wisp.
func TestScripts(t *testing.T) {
	testscript.Run(t, testscript.Params{
		Dir:           "testdata/script",
		UpdateScripts: *update,
		Setup: func(env *testscript.Env) error {
			env.Setenv("WISP_HOME", env.WorkDir+"/.wisp-home")
			env.Setenv("HOME", env.WorkDir+"/home")
			return os.MkdirAll(env.WorkDir+"/home", 0o755)
		},
		Condition: scriptCondition,
	})
}
