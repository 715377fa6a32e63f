package tools_test

import (
	"os"
	"testing"

	"github.com/wisp-sh/wisp/sandbox"
	_ "github.com/wisp-sh/wisp/sandbox/landlock" // Linux's backend registers itself, and the helper's entry
	_ "github.com/wisp-sh/wisp/sandbox/seatbelt" // macOS's backend registers itself
)

func TestMain(m *testing.M) {
	sandbox.MaybeHelperMain()
	os.Exit(m.Run())
}
