package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"syscall"
	"testing"

	"github.com/wisp-sh/wisp/pending"
)

var (
	buildWisp sync.Once
	wispPath  string
	wispErr   error
)

// wispBinary builds the real wisp once, beside wisp-bar.
func wispBinary(t *testing.T) string {
	t.Helper()
	buildWisp.Do(func() {
		wispPath = filepath.Join(filepath.Dir(barBinary), "wisp")
		out, err := exec.Command("go", "build", "-o", wispPath, "../wisp").CombinedOutput()
		if err != nil {
			wispErr = &buildError{err, out}
		}
	})
	if wispErr != nil {
		t.Fatal(wispErr)
	}
	return wispPath
}

type buildError struct {
	err error
	out []byte
}

func (e *buildError) Error() string { return "build wisp: " + e.err.Error() + "\n" + string(e.out) }

// outsideRoots makes a directory outside every writable root of wisp's
// sandbox (not a temporary directory, not the launch folder).
func outsideRoots(t *testing.T, prefix string) string {
	t.Helper()
	userHome, err := os.UserHomeDir()
	if err != nil {
		t.Fatal(err)
	}
	dir, err := os.MkdirTemp(userHome, prefix)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	return dir
}

// The whole path, with real processes: `wisp run --ask --outside-sandbox`
// files a request; wisp-bar raises the banner; the person's Approve once,
// sent over D-Bus, is written by wisp-bar; the waiting wisp verifies it and
// runs the command outside the sandbox; the banner is withdrawn.
func TestOutsideSandboxApprovedFromTheBanner(t *testing.T) {
	wisp := wispBinary(t)
	help, _ := exec.Command(wisp, "run", "--help").CombinedOutput()
	if !bytes.Contains(help, []byte("--ask")) {
		t.Skip("this wisp has no `wisp run --ask` yet")
	}
	d := newDesk(t, true)
	d.home = filepath.Join(outsideRoots(t, "wisp-bar-e2e-home-"), ".wisp")
	outside := outsideRoots(t, "wisp-bar-e2e-outside-")
	project := t.TempDir()
	wispCmd := func(args ...string) *exec.Cmd {
		c := exec.Command(wisp, args...)
		c.Dir = project
		c.Env = append(os.Environ(), "WISP_HOME="+d.home)
		c.SysProcAttr = &syscall.SysProcAttr{Setsid: true} // no terminal: the banner is the face
		return c
	}
	if out, err := wispCmd("config", "set", "approval.outOfBand", "true").CombinedOutput(); err != nil {
		t.Fatalf("wisp config set: %v\n%s", err, out)
	}
	d.startBar(t)

	target := filepath.Join(outside, "ran-outside")
	line := "touch " + target
	run := wispCmd("run", "--ask", "--outside-sandbox", "--", line)
	var out syncBuffer
	run.Stdout, run.Stderr = &out, &out
	if err := run.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { run.Process.Kill(); run.Wait() })

	banner := d.server.WaitNotify(t, guard)
	body := strings.Split(banner.Body, "\n")
	if banner.Summary != "wisp: approve OUTSIDE the sandbox" || body[0] != line || !slices.Contains(body, pending.OutsideReason) {
		t.Fatalf("banner %q: %q", banner.Summary, body)
	}
	d.server.Invoke(banner.ID, "approve")
	if err := run.Wait(); err != nil {
		t.Fatalf("wisp run: %v\n%s", err, out.String())
	}
	if _, err := os.Stat(target); err != nil {
		t.Errorf("the approved command did not run outside the sandbox: %v\n%s", err, out.String())
	}
	d.client.waitMenu(t, "nothing waiting", has("wisp: nothing waits for an answer"))
	if !slices.Contains(d.server.Closes(), banner.ID) {
		t.Errorf("the banner was not withdrawn (closes %v)", d.server.Closes())
	}
}
