package sandbox_test

import (
	"os"
	"testing"

	"github.com/wisp-sh/wisp/sandbox"
	"github.com/wisp-sh/wisp/sandbox/sandboxtest"
)

// TestMain lets the test binary stand in for wisp: run as the sandbox
// helper, it confines a command as `wisp __sandbox-exec` does, and run as
// the suite's probe, it dials and waits.
func TestMain(m *testing.M) {
	if len(os.Args) > 1 && os.Args[1] == sandbox.HelperCommand {
		os.Exit(sandbox.HelperMain(os.Args[2:]))
	}
	sandboxtest.MaybeProbe()
	os.Exit(m.Run())
}
