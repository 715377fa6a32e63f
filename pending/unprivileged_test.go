//go:build unix

package pending

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

// Our machines run tests as root; people do not. File owners and modes
// are where root changes outcomes, so the cross-process tests run again as
// an unprivileged user (the test binary re-run under that uid).
func TestAsAnUnprivilegedUser(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("already unprivileged: the other tests ran as this user")
	}
	uid, gid := testenv.NeedUnprivileged(t)
	bin, tmp := binaryFor(t, uid, gid)
	cmd := exec.Command(bin, "-test.count=1", "-test.v", "-test.run",
		"^(TestHostile|TestAnAnswer|TestAReplayed|TestAKilled|TestInterrupt|TestListSkips|TestFileRefuses|TestFifty)")
	cmd.Env = append(os.Environ(), "TMPDIR="+tmp, "HOME="+tmp)
	cmd.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: uint32(uid), Gid: uint32(gid)}}
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("as uid %d: %v\n%s", uid, err, out)
	}
	for _, line := range strings.Split(string(out), "\n") {
		if strings.Contains(line, "--- ") {
			t.Logf("as uid %d: %s", uid, strings.TrimSpace(line))
		}
	}
}

// binaryFor copies this test binary where uid can run it, and makes it a
// temporary folder of its own.
func binaryFor(t *testing.T, uid, gid int) (bin, tmp string) {
	dir, err := os.MkdirTemp("", "pending-unprivileged-") // t.TempDir's parent is closed to others
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	os.Chmod(dir, 0o755)
	bin = filepath.Join(dir, "pending.test")
	src, err := os.Open(os.Args[0])
	if err != nil {
		t.Fatal(err)
	}
	defer src.Close()
	dst, err := os.OpenFile(bin, os.O_CREATE|os.O_WRONLY, 0o755)
	if err == nil {
		_, err = io.Copy(dst, src)
		dst.Close()
	}
	tmp = filepath.Join(dir, "tmp")
	if err == nil {
		err = os.Mkdir(tmp, 0o700)
	}
	if err == nil {
		err = os.Chown(tmp, uid, gid)
	}
	if err != nil {
		t.Fatal(err)
	}
	return bin, tmp
}
