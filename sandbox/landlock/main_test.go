package landlock_test

import (
	"testing"

	"github.com/wisp-sh/wisp/sandbox/sandboxtest"
)

// TestMain lets the test binary stand in for wisp: run as the sandbox
// helper, it confines a command as `wisp __sandbox-exec` does, and run as
// the suite's probe, it dials and waits.
func TestMain(m *testing.M) { sandboxtest.Main(m) }
