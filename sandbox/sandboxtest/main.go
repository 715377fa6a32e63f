package sandboxtest

import (
	"os"
	"testing"

	"github.com/wisp-sh/wisp/sandbox"
	_ "github.com/wisp-sh/wisp/sandbox/landlock" // Linux's backend registers itself, and the helper's entry
	_ "github.com/wisp-sh/wisp/sandbox/seatbelt" // macOS's backend registers itself with sandbox.Detect
)

// Main is the TestMain of a package that runs the suite: the test binary
// stands in for wisp, so run as the sandbox helper it confines a command
// as `wisp __sandbox-exec` does, and run as the suite's probe it dials and
// waits. Before any test runs it holds the descriptor the inherited
// descriptor case uses, so that modes can run side by side.
func Main(m *testing.M) {
	sandbox.MaybeHelperMain()
	MaybeProbe()
	HoldInheritedFD()
	os.Exit(m.Run())
}
