package testenv

import (
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// Rerun is this test binary copied where the unprivileged test user can
// run it: our machines run tests as root, and where root changes the
// outcome (owners, modes, namespaces, signals) the tests run again as a
// person's account.
type Rerun struct {
	UID, GID int
	// Dir is root's, 0755 (t.TempDir's parent is closed to others): it
	// holds the binary, and what the caller prepares for the run.
	Dir string
	// Tmp is the user's own folder in Dir: the run's TMPDIR, and its HOME
	// unless the caller's environment says otherwise.
	Tmp string
	bin string
}

// NewRerun skips when the test already runs unprivileged (the tests
// themselves then cover this user), and needs an unprivileged test user
// (NeedUnprivileged).
func NewRerun(t *testing.T) *Rerun {
	t.Helper()
	if os.Geteuid() != 0 {
		t.Skip("already unprivileged: the other tests ran as this user")
	}
	uid, gid := NeedUnprivileged(t)
	dir, err := os.MkdirTemp("", "wisp-unprivileged-")
	if err == nil {
		err = os.Chmod(dir, 0o755)
	}
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	r := &Rerun{UID: uid, GID: gid, Dir: dir, bin: filepath.Join(dir, filepath.Base(os.Args[0]))}
	CopyExecutable(t, r.bin)
	r.Tmp = r.OwnedDir(t, "tmp")
	return r
}

// OwnedDir makes the folder name in Dir, 0700, the user's.
func (r *Rerun) OwnedDir(t *testing.T, name string) string {
	t.Helper()
	p := filepath.Join(r.Dir, name)
	if err := os.Mkdir(p, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.Chown(p, r.UID, r.GID); err != nil {
		t.Fatal(err)
	}
	return p
}

// Run runs the tests that pattern matches as the user, with env added to
// the environment (after TMPDIR and HOME, so that it may set HOME), and
// returns their output. A failed run fails t, and so does each test of
// mustPass that did not pass; the run's test lines are logged.
func (r *Rerun) Run(t *testing.T, pattern string, env []string, mustPass ...string) string {
	t.Helper()
	cmd := exec.Command(r.bin, "-test.count=1", "-test.v", "-test.run", pattern)
	cmd.Dir = r.Tmp
	cmd.Env = append(append(os.Environ(), "TMPDIR="+r.Tmp, "HOME="+r.Tmp), env...)
	cmd.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: uint32(r.UID), Gid: uint32(r.GID)}}
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("as uid %d: %v\n%s", r.UID, err, out)
	}
	for _, name := range mustPass {
		if !strings.Contains(string(out), "--- PASS: "+name) {
			t.Errorf("as uid %d, %s did not pass:\n%s", r.UID, name, out)
		}
	}
	for _, line := range strings.Split(string(out), "\n") {
		if strings.Contains(line, "--- ") {
			t.Logf("as uid %d: %s", r.UID, strings.TrimSpace(line))
		}
	}
	return string(out)
}

// CopyExecutable copies this test binary to the path to, mode 0755.
func CopyExecutable(t testing.TB, to string) {
	t.Helper()
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	src, err := os.Open(self)
	if err != nil {
		t.Fatal(err)
	}
	defer src.Close()
	dst, err := os.OpenFile(to, os.O_CREATE|os.O_WRONLY|os.O_TRUNC, 0o755)
	if err == nil {
		_, err = io.Copy(dst, src)
	}
	if err == nil {
		err = dst.Close()
	}
	if err != nil {
		t.Fatal(err)
	}
}
