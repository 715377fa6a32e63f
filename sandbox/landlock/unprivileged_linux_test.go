package landlock_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/wisp-sh/wisp/internal/testenv"
	"github.com/wisp-sh/wisp/sandbox"
)

// innerEnv marks the test binary's run as the unprivileged user.
const innerEnv = "WISP_SANDBOX_TEST_UNPRIVILEGED"

// TestHelperUnprivileged runs, as an unprivileged user, the helper's tests
// whose answer root would change: a mount namespace it cannot have, and
// signals passed on from a helper that is not root's. (The conformance
// suite's runs as that user are package sandbox/conformance/person.)
func TestHelperUnprivileged(t *testing.T) {
	if os.Getenv(innerEnv) == "1" {
		t.Run("mount-fails-closed", mountFailsClosed)
		t.Run("signals-passed", helperPassesSignals)
		return
	}
	r := testenv.NewRerun(t)
	r.Run(t, "^TestHelperUnprivileged$", []string{innerEnv + "=1"}, "TestHelperUnprivileged")
}

// mountFailsClosed: asked for a mount namespace it cannot have, the helper
// refuses instead of running the command unprotected.
func mountFailsClosed(t *testing.T) {
	dir := t.TempDir()
	mustWriteFile(t, filepath.Join(dir, "protected"), "keep\n")
	out, code := runHelper(t, "--root", dir, "--protect", filepath.Join(dir, "protected"), "--ns", "mount",
		"--", "/bin/sh", "-c", "echo ran > "+filepath.Join(dir, "ran"))
	if code != sandbox.HelperFailedStatus || !strings.Contains(out, "unshare a mount namespace") {
		t.Fatalf("status %d, output %q; want %d and the reason", code, out, sandbox.HelperFailedStatus)
	}
	if _, err := os.Stat(filepath.Join(dir, "ran")); err == nil {
		t.Fatal("the command ran although the helper could not protect the path")
	}
}

// copyExecutable copies the test binary into dir, where another user can
// run it, and returns the copy's path.
func copyExecutable(t *testing.T, dir string) string {
	t.Helper()
	path := filepath.Join(dir, "sandbox.test")
	testenv.CopyExecutable(t, path)
	return path
}

func mustWriteFile(t *testing.T, path, data string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
}

// runHelper runs the test binary as the helper and returns its combined
// output and exit status.
func runHelper(t *testing.T, args ...string) (string, int) {
	t.Helper()
	cmd := exec.Command(testExecutable(t), append([]string{sandbox.HelperCommand}, args...)...)
	out, err := cmd.CombinedOutput()
	if _, ok := err.(*exec.ExitError); err != nil && !ok {
		t.Fatal(err)
	}
	return string(out), cmd.ProcessState.ExitCode()
}
