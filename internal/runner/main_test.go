package runner_test

import (
	"os"
	"testing"

	"github.com/wisp-sh/wisp/sandbox"
	_ "github.com/wisp-sh/wisp/sandbox/landlock" // Linux's backend registers itself, and the helper's entry
	_ "github.com/wisp-sh/wisp/sandbox/seatbelt" // macOS's backend registers itself
)

// TestMain lets the test binary stand in for wisp's sandbox helper.
func TestMain(m *testing.M) {
	if len(os.Args) > 1 && os.Args[1] == sandbox.HelperCommand {
		os.Exit(sandbox.HelperMain(os.Args[2:]))
	}
	if v := os.Getenv(childEnv); v != "" {
		os.Exit(childWisp(v == "true"))
	}
	os.Exit(m.Run())
}
