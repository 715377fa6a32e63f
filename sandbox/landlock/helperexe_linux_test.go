package landlock_test

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/wisp-sh/wisp/sandbox"
	"github.com/wisp-sh/wisp/sandbox/landlock"
	"github.com/wisp-sh/wisp/sandbox/sandboxtest"
)

// TestSeparateHelperProtected: wisp-sandbox inside a root (a build under
// /tmp) is bound read-only like wisp's own executable: a command that
// replaced it would run unconfined as the next command's helper. With no
// namespace to bind it, the spec is refused.
func TestSeparateHelperProtected(t *testing.T) {
	p := newProject(t, true)
	exe := copyExecutable(t, p.dir)
	helper := sandboxtest.BuildHelper(t, p.dir, sandbox.BuildVersion)
	l := newLandlock(t, exe, sandbox.NamespaceAuto)
	if ns, why := l.Namespace(); ns == sandbox.NamespaceNone {
		t.Fatalf("no namespace here: %s", why)
	}
	for _, line := range []string{"cp /bin/true " + helper, "rm " + helper, "mv " + helper + " moved", "chmod 777 " + helper, "ln -sf /bin/true " + helper} {
		if out, err := confinedCmd(t, l, p, line).CombinedOutput(); err == nil {
			t.Errorf("confined %q succeeded:\n%s", line, out)
		}
	}
	none := newLandlock(t, exe, sandbox.NamespaceNone)
	_, err := none.Check(p.spec)
	var unprotectable *sandbox.UnprotectableError
	if !errors.As(err, &unprotectable) || (unprotectable.Path != helper && unprotectable.Path != exe) {
		t.Fatalf("with no namespace, Check = %v; want the executables refused", err)
	}
}

// TestSeparateHelperOtherVersionRefused: a wisp-sandbox from another build
// confines nothing: the two speak one set of flags, and an old helper
// beside a new wisp could mean another confinement by the same words.
func TestSeparateHelperOtherVersionRefused(t *testing.T) {
	exe, _ := sandboxtest.BesideHelper(t, "another-build")
	l := newLandlock(t, exe, sandbox.NamespaceNone)
	p := newProject(t, true)
	ran := filepath.Join(p.dir, "ran")
	out, err := confinedCmd(t, l, p, "echo ran > "+ran).CombinedOutput()
	var exit *exec.ExitError
	if !errors.As(err, &exit) || exit.ExitCode() != sandbox.HelperFailedStatus || !strings.Contains(string(out), "install both from one build") {
		t.Fatalf("a helper of another version: %v\n%s", err, out)
	}
	if _, err := os.Stat(ran); err == nil {
		t.Fatal("the command ran")
	}
}

// TestUntrustedHelperRefused: a wisp-sandbox beside wisp that someone else
// could have put or changed there is refused, with the reason, rather
// than run or passed over.
func TestUntrustedHelperRefused(t *testing.T) {
	newLandlock(t, testExecutable(t), sandbox.NamespaceNone) // skips without Landlock
	for _, tc := range []struct {
		name string
		make func(t *testing.T, dir, helper string)
		want string
	}{
		{"a symbolic link", func(t *testing.T, dir, helper string) { must(t, os.Symlink("/bin/true", helper)) }, "symbolic link"},
		{"writable by its group", func(t *testing.T, dir, helper string) { writeMode(t, helper, 0o775) }, "written by others"},
		{"writable by anyone", func(t *testing.T, dir, helper string) { writeMode(t, helper, 0o757) }, "written by others"},
		{"not executable", func(t *testing.T, dir, helper string) { writeMode(t, helper, 0o644) }, "not executable"},
		{"a folder", func(t *testing.T, dir, helper string) { must(t, os.Mkdir(helper, 0o755)) }, "not a regular file"},
		{"in a folder anyone may write", func(t *testing.T, dir, helper string) {
			writeMode(t, helper, 0o755)
			must(t, os.Chmod(dir, 0o777))
		}, "folder others may write"},
		{"another user's", func(t *testing.T, dir, helper string) {
			if os.Geteuid() != 0 {
				t.Skip("only root can give a file to another user")
			}
			writeMode(t, helper, 0o755)
			must(t, os.Chown(helper, 4242, 4242))
		}, "belongs to uid 4242"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir, err := filepath.EvalSymlinks(t.TempDir())
			must(t, err)
			exe := copyExecutable(t, dir)
			tc.make(t, dir, filepath.Join(dir, sandbox.HelperExecutable))
			_, err = landlock.NewLandlock(exe, sandbox.NamespaceNone)
			var unavailable *sandbox.UnavailableError
			if !errors.As(err, &unavailable) || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("NewLandlock = %v; want it refused: %s", err, tc.want)
			}
		})
	}
}

// TestNoHelperBesideRunsWispItself: with no wisp-sandbox beside it (go
// install, go run, a test binary), wisp is its own helper, as before.
func TestNoHelperBesideRunsWispItself(t *testing.T) {
	dir, err := filepath.EvalSymlinks(t.TempDir())
	must(t, err)
	exe := copyExecutable(t, dir)
	l := newLandlock(t, exe, sandbox.NamespaceNone)
	if got := l.Executable(); got != exe {
		t.Fatalf("the helper is %s; want wisp's own executable %s", got, exe)
	}
}

func writeMode(t *testing.T, path string, mode os.FileMode) {
	t.Helper()
	must(t, os.WriteFile(path, []byte("#!/bin/sh\n"), 0o600))
	must(t, os.Chmod(path, mode))
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}
