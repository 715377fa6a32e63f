package sandbox_test

import (
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/wisp-sh/wisp/internal/testenv"
	"github.com/wisp-sh/wisp/sandbox"
	"github.com/wisp-sh/wisp/sandbox/sandboxtest"
)

// innerEnv marks the test binary's run as the unprivileged user.
const innerEnv = "WISP_SANDBOX_TEST_UNPRIVILEGED"

// TestLandlockUnprivileged runs the suite as an unprivileged user, where
// root's answers do not hold: no mount namespace of the helper's own, so
// the probe must find a user namespace (or none). The test binary runs
// itself again as that user; all the work happens in that run.
func TestLandlockUnprivileged(t *testing.T) {
	if os.Getenv(innerEnv) == "1" {
		unprivilegedSuite(t)
		return
	}
	if os.Geteuid() != 0 {
		t.Skip("already unprivileged: TestLandlockConformance covers this user")
	}
	uid, gid := testenv.NeedUnprivileged(t)
	dir := sharedDir(t)
	exe := copyExecutable(t, dir)
	cmd := exec.Command(exe, "-test.run=^TestLandlockUnprivileged$", "-test.v", "-test.count=1")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), innerEnv+"=1", "TMPDIR="+dir, "HOME="+dir)
	cmd.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: uint32(uid), Gid: uint32(gid)}}
	out, err := cmd.CombinedOutput()
	t.Logf("as uid %d:\n%s", uid, out)
	if err != nil {
		t.Fatalf("the run as uid %d failed: %v", uid, err)
	}
	if !strings.Contains(string(out), "--- PASS: TestLandlockUnprivileged") {
		t.Fatal("the run as the unprivileged user did not pass")
	}
}

// unprivilegedSuite is the part that runs as the unprivileged user: the
// namespace the probe finds, the suite with it, and the suite with none.
func unprivilegedSuite(t *testing.T) {
	if os.Geteuid() == 0 {
		t.Fatal("the unprivileged run is running as root")
	}
	auto := newLandlock(t, testExecutable(t), sandbox.NamespaceAuto)
	ns, why := auto.Namespace()
	t.Logf("as uid %d the probe found namespace %q %s", os.Geteuid(), ns, why)
	if ns == sandbox.NamespaceMount {
		t.Fatal("the probe claims a mount namespace of the helper's own without root")
	}
	t.Run("auto", func(t *testing.T) { sandboxtest.Run(t, auto, suiteOptions(t, auto)) })
	t.Run("auto-started-by-the-caller", func(t *testing.T) {
		o := suiteOptions(t, auto)
		o.UseAttr = true
		sandboxtest.Run(t, auto, o)
	})
	t.Run("served", func(t *testing.T) {
		o := suiteOptions(t, auto)
		o.Serve = true
		sandboxtest.Run(t, auto, o)
	})
	none := newLandlock(t, testExecutable(t), sandbox.NamespaceNone)
	t.Run("none", func(t *testing.T) { sandboxtest.Run(t, none, suiteOptions(t, none)) })
	t.Run("mount-fails-closed", func(t *testing.T) { mountFailsClosed(t) })
	t.Run("signals-passed", helperPassesSignals)
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

// sharedDir is a scratch folder that another user can reach and write.
func sharedDir(t *testing.T) string {
	t.Helper()
	dir, err := os.MkdirTemp("", "wisp-sandbox-shared-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	if err := os.Chmod(dir, 0o1777); err != nil {
		t.Fatal(err)
	}
	return dir
}

// copyExecutable copies the test binary where another user can run it.
func copyExecutable(t *testing.T, dir string) string {
	t.Helper()
	src, err := os.Open(testExecutable(t))
	if err != nil {
		t.Fatal(err)
	}
	defer src.Close()
	path := filepath.Join(dir, "sandbox.test")
	dst, err := os.OpenFile(path, os.O_CREATE|os.O_WRONLY|os.O_TRUNC, 0o755)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := io.Copy(dst, src); err != nil {
		t.Fatal(err)
	}
	if err := dst.Close(); err != nil {
		t.Fatal(err)
	}
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
