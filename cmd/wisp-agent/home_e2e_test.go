package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"
	"testing"

	"github.com/wisp-sh/wisp/internal/cli"
	"github.com/wisp-sh/wisp/internal/testenv"
)

// homeE2E runs real wisp processes in project with WISP_HOME as given.
type homeE2E struct {
	t                     *testing.T
	bin, project, outside string
}

func newHomeE2E(t *testing.T) *homeE2E {
	t.Helper()
	ok, err := scriptCondition("landlock")
	if err != nil {
		t.Fatal(err)
	}
	if !ok && runtime.GOOS != "linux" {
		t.Skip("these cases drive wisp under Landlock; macOS's Seatbelt runs the sandbox's conformance suite")
	}
	testenv.NeedKernel(t, ok, "Landlock is missing here")
	userHome, _ := os.UserHomeDir()
	outside, err := os.MkdirTemp(userHome, "wisp-home-e2e-outside-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(outside) })
	return &homeE2E{t: t, bin: wispBin(t), project: t.TempDir(), outside: outside}
}

// run runs wisp with WISP_HOME=home in the project; it returns the
// combined output and the exit code.
func (e *homeE2E) run(home string, args ...string) (string, int) {
	e.t.Helper()
	c := exec.Command(e.bin, args...)
	c.Dir = e.project
	c.Env = append(os.Environ(), "WISP_HOME="+home)
	c.SysProcAttr = &syscall.SysProcAttr{Setsid: true} // no terminal to ask on
	out, err := c.CombinedOutput()
	if _, isExit := err.(*exec.ExitError); err != nil && !isExit {
		e.t.Fatalf("wisp %s: %v", strings.Join(args, " "), err)
	}
	return string(out), c.ProcessState.ExitCode()
}

func (e *homeE2E) path(p ...string) string {
	return filepath.Join(append([]string{e.project}, p...)...)
}

// The attack of issue 11, item 4: wisp's home is reached through a link
// inside the project, and a confined command swaps the link for one to a
// home whose config turns the sandbox off. wisp refuses a home behind a
// link it cannot trust, so no wisp ever runs from the swapped one; at the
// real path (the hint's), the swap changes nothing, the folders above the
// home cannot be moved, and the next run is confined and reads the real
// home's config.
func TestHomeLinkSwappedByAConfinedCommand(t *testing.T) {
	e := newHomeE2E(t)
	real, fake, link := e.path("real", "home"), e.path("fake", "home"), e.path("link", "home")
	for _, d := range []string{real, fake} {
		if err := os.MkdirAll(d, 0o700); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(fake, "config.json"), []byte(`{"commandPolicy": {"sandbox": {"enabled": false}}}`), 0o600); err != nil {
		t.Fatal(err)
	}
	os.Symlink("real", e.path("link"))
	if out, code := e.run(real, "config", "set", "approval.threshold", "high"); code != 0 {
		t.Fatalf("config set: exit %d\n%s", code, out)
	}

	before := filepath.Join(e.outside, "before")
	out, code := e.run(link, "run", "--", "touch "+before)
	if code != cli.ExitUsage || !strings.Contains(out, "wisp: error: wisp's home "+link+" is reached through the symbolic link "+e.path("link")) ||
		!strings.Contains(out, "wisp: hint: set WISP_HOME to the real path, which has no link on the way: export WISP_HOME="+real) {
		t.Fatalf("a home behind a link in the project: exit %d, want %d and the refusal\n%s", code, cli.ExitUsage, out)
	}
	mustNotExist(t, before)

	// A confined command, in a session at the real path, swaps the link
	// (it may: the link is the project's), and tries to move the home's
	// folder aside (it may not).
	out, code = e.run(real, "run", "--", "ln -sfn fake link.new && mv -T link.new link && readlink link; mv real real.moved || echo kept")
	if code != 0 || !strings.Contains(out, "fake\n") || !strings.Contains(out, "kept") {
		t.Fatalf("the swap: exit %d\n%s", code, out)
	}
	if _, err := os.Stat(filepath.Join(real, "config.json")); err != nil {
		t.Fatalf("the real home is gone: %v", err)
	}

	// Through the swapped link: still refused, never run unconfined.
	after := filepath.Join(e.outside, "after")
	if out, code := e.run(link, "run", "--", "touch "+after); code != cli.ExitUsage || !strings.Contains(out, "is reached through the symbolic link") {
		t.Fatalf("through the swapped link: exit %d\n%s", code, out)
	}
	mustNotExist(t, after)

	// At the real path: confined, and the real config is the one read.
	confined := filepath.Join(e.outside, "confined")
	if out, code := e.run(real, "run", "--", "touch "+confined); code == 0 || !strings.Contains(out, "· the sandbox refused writing to "+confined) {
		t.Fatalf("the next run at the real path was not confined: exit %d\n%s", code, out)
	}
	mustNotExist(t, confined)
	if out, _ := e.run(real, "config", "get", "approval.threshold"); strings.TrimSpace(out) != `"high"` {
		t.Errorf("config read at the real path: %s", out)
	}
}

func mustNotExist(t *testing.T, p string) {
	t.Helper()
	if _, err := os.Lstat(p); err == nil {
		t.Errorf("%s was made: a command ran unconfined", p)
	}
}

// A home others can write is refused before anything runs, exit 2, and
// its mode is left as it was.
func TestHomeLooseRefusedBeforeAnyRun(t *testing.T) {
	e := newHomeE2E(t)
	home := e.path("home")
	os.Mkdir(home, 0o700)
	os.Chmod(home, 0o777)
	escaped := filepath.Join(e.outside, "escaped")
	out, code := e.run(home, "run", "--unsafe", "--", "touch "+escaped)
	if code != cli.ExitUsage || !strings.Contains(out, "wisp: error: wisp's home "+home+" is writable by others (mode 0777)") ||
		!strings.Contains(out, "wisp: hint: run: chmod 700 "+home) {
		t.Fatalf("exit %d, want %d and the refusal\n%s", code, cli.ExitUsage, out)
	}
	mustNotExist(t, escaped)
	if info, _ := os.Stat(home); info.Mode().Perm() != 0o777 {
		t.Errorf("wisp changed the home's mode to %04o", info.Mode().Perm())
	}
}
