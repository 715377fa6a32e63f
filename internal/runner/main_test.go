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
	sandbox.MaybeHelperMain()
	if v := os.Getenv(childEnv); v != "" {
		os.Exit(childWisp(v == "true"))
	}
	os.Exit(m.Run())
}
