package runner_test

import (
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/wisp-sh/wisp/internal/testenv"
)

// unprivilegedEnv marks the test binary's run as the unprivileged user.
const unprivilegedEnv = "WISP_RUNNER_TEST_UNPRIVILEGED"

// TestOutliveUnprivileged runs the tests of processes that outlive their
// command again as an unprivileged user, where the helper's PID namespace
// comes with a user namespace (or there is none) instead of root's.
func TestOutliveUnprivileged(t *testing.T) {
	needLinux(t)
	if os.Getenv(unprivilegedEnv) == "1" {
		t.Skip("this is the unprivileged run")
	}
	if os.Geteuid() != 0 {
		t.Skip("already unprivileged: the tests themselves cover this user")
	}
	uid, gid := testenv.NeedUnprivileged(t)
	dir, err := os.MkdirTemp("", "wisp-runner-shared-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	if err := os.Chmod(dir, 0o1777); err != nil {
		t.Fatal(err)
	}
	exe := copyTo(t, dir)
	cmd := exec.Command(exe, "-test.run=^(TestDaemonEndsWithTheRun|TestTimeoutEndsSetsidChild|TestBackgroundAllowed|TestWispKilled|TestCtrlCReachesTheCommand)$", "-test.v", "-test.count=1")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), unprivilegedEnv+"=1", "TMPDIR="+dir, "HOME="+dir)
	cmd.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: uint32(uid), Gid: uint32(gid)}}
	out, err := cmd.CombinedOutput()
	t.Logf("as uid %d:\n%s", uid, out)
	if err != nil || !strings.Contains(string(out), "--- PASS: TestWispKilled") {
		t.Fatalf("the run as uid %d failed: %v", uid, err)
	}
}

// copyTo copies the test binary where another user can run it.
func copyTo(t *testing.T, dir string) string {
	t.Helper()
	self, _ := os.Executable()
	src, err := os.Open(self)
	if err != nil {
		t.Fatal(err)
	}
	defer src.Close()
	path := filepath.Join(dir, "runner.test")
	dst, err := os.OpenFile(path, os.O_CREATE|os.O_WRONLY|os.O_TRUNC, 0o755)
	if err == nil {
		_, err = io.Copy(dst, src)
	}
	if err == nil {
		err = dst.Close()
	}
	if err != nil {
		t.Fatal(err)
	}
	return path
}
