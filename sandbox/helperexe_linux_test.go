package sandbox_test

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/wisp-sh/wisp/internal/testenv"
	"github.com/wisp-sh/wisp/sandbox"
	"github.com/wisp-sh/wisp/sandbox/sandboxtest"
)

// separateInnerEnv marks the run of TestSeparateHelperConformance as the
// unprivileged user, beside the helper the run as root built.
const separateInnerEnv = "WISP_SEPARATE_HELPER_INNER"

// buildHelper builds cmd/wisp-sandbox into dir, stamped with version (the
// test binary's own sandbox.BuildVersion unless told otherwise), as the
// Makefile builds it beside wisp.
func buildHelper(t *testing.T, dir, version string) string {
	t.Helper()
	goTool, err := exec.LookPath("go")
	if err != nil {
		t.Fatalf("no go tool to build %s with: %v", sandbox.HelperExecutable, err)
	}
	out := filepath.Join(dir, sandbox.HelperExecutable)
	cmd := exec.Command(goTool, "build", "-trimpath", "-o", out,
		"-ldflags", "-X github.com/wisp-sh/wisp/sandbox.BuildVersion="+version, "github.com/wisp-sh/wisp/cmd/wisp-sandbox")
	cmd.Env = append(os.Environ(), "CGO_ENABLED=0")
	if msg, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("build %s: %v\n%s", sandbox.HelperExecutable, err, msg)
	}
	return out
}

// besideHelper is wisp's executable (a copy of the test binary, which can
// also be the helper) with wisp-sandbox built beside it.
func besideHelper(t *testing.T, version string) (exe, helper string) {
	t.Helper()
	dir, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	return copyExecutable(t, dir), buildHelper(t, dir, version)
}

// TestSeparateHelperConformance runs the conformance suite with
// wisp-sandbox as the helper, one command's and served, as the
// installation has it: beside wisp's executable.
func TestSeparateHelperConformance(t *testing.T) {
	var exe, helper string
	if os.Getenv(separateInnerEnv) == "1" {
		exe = testExecutable(t)
		helper = filepath.Join(filepath.Dir(exe), sandbox.HelperExecutable)
	} else {
		exe, helper = besideHelper(t, sandbox.BuildVersion)
	}
	for _, serve := range []bool{false, true} {
		t.Run(map[bool]string{false: "one-command", true: "served"}[serve], func(t *testing.T) {
			l := newLandlock(t, exe, sandbox.NamespaceAuto)
			if got := l.Executable(); got != helper {
				t.Fatalf("the backend runs %s as its helper; want %s beside wisp", got, helper)
			}
			o := suiteOptions(t, l)
			o.Serve = serve
			sandboxtest.Run(t, l, o)
		})
	}
}

// TestSeparateHelperUnprivileged: the same as a person's account, with the
// helper root installed (root's, as make install leaves it).
func TestSeparateHelperUnprivileged(t *testing.T) {
	r := testenv.NewRerun(t)
	buildHelper(t, r.Dir, sandbox.BuildVersion)
	r.Run(t, "^TestSeparateHelperConformance$", []string{separateInnerEnv + "=1"}, "TestSeparateHelperConformance")
}

// TestSeparateHelperProtected: wisp-sandbox inside a root (a build under
// /tmp) is bound read-only like wisp's own executable: a command that
// replaced it would run unconfined as the next command's helper. With no
// namespace to bind it, the spec is refused.
func TestSeparateHelperProtected(t *testing.T) {
	p := newProject(t, true)
	exe := copyExecutable(t, p.dir)
	helper := buildHelper(t, p.dir, sandbox.BuildVersion)
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
	exe, _ := besideHelper(t, "another-build")
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
			_, err = sandbox.NewLandlock(exe, sandbox.NamespaceNone)
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
