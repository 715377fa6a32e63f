package runner_test

import (
	"testing"

	"github.com/wisp-sh/wisp/internal/testenv"
)

// TestOutliveUnprivileged runs the tests of processes that outlive their
// command again as an unprivileged user, where the helper's PID namespace
// comes with a user namespace (or there is none) instead of root's.
func TestOutliveUnprivileged(t *testing.T) {
	needLinux(t)
	testenv.NewRerun(t).Run(t, "^(TestDaemonEndsWithTheRun|TestTimeoutEndsSetsidChild|TestBackgroundAllowed|TestWispKilled|TestCtrlCReachesTheCommand)$", nil,
		"TestDaemonEndsWithTheRun", "TestTimeoutEndsSetsidChild", "TestBackgroundAllowed", "TestWispKilled", "TestCtrlCReachesTheCommand")
}
