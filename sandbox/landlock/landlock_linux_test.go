package landlock_test

import (
	"testing"

	"github.com/wisp-sh/wisp/sandbox"
	"github.com/wisp-sh/wisp/sandbox/landlock"
	"github.com/wisp-sh/wisp/sandbox/sandboxtest"
)

// The conformance suite's runs against Landlock are packages of their own,
// under sandbox/conformance; these are the helpers this package's own
// kernel tests share.

// testExecutable is the test binary, which TestMain turns into the helper.
func testExecutable(t *testing.T) string { return sandboxtest.Executable(t) }

// newLandlock returns the backend with exe as wisp's executable, or skips
// (fails under WISP_REQUIRE_KERNEL=1) where Landlock is missing.
func newLandlock(t testing.TB, exe string, ns sandbox.Namespace) *landlock.Landlock {
	t.Helper()
	return sandboxtest.NewLandlock(t, exe, ns)
}
