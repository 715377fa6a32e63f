package runner_test

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/wisp-sh/wisp/internal/config"
	"github.com/wisp-sh/wisp/internal/runner"
	"github.com/wisp-sh/wisp/policy"
	"github.com/wisp-sh/wisp/sandbox"
)

// daemon is a process a command leaves behind: setsid, out of the
// command's group and session, holding a lock (flock) that the kernel
// releases once the last of its processes has ended, which the test checks
// from outside without waiting on a clock. The line waits until the lock
// is held ("up" names its pids), then does what follows.
type daemon struct{ lock, up string }

func newDaemon(t *testing.T, dir string) daemon {
	return daemon{lock: filepath.Join(dir, "daemon.lock"), up: filepath.Join(dir, "daemon.up")}
}

func (d daemon) line(how, then string) string {
	return how + " flock " + d.lock + " sh -c 'echo $PPID $$ > " + d.up + "; exec sleep 1000' </dev/null >/dev/null 2>&1 & " +
		"while [ ! -s " + d.up + " ]; do sleep 0.01; done; " + then
}

// held reports whether some process holds the daemon's lock.
func (d daemon) held(t *testing.T) bool {
	t.Helper()
	f, err := os.Open(d.lock)
	if err != nil {
		t.Fatalf("the daemon's lock: %v", err)
	}
	defer f.Close()
	err = syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB)
	if errors.Is(err, syscall.EWOULDBLOCK) {
		return true
	}
	if err != nil {
		t.Fatal(err)
	}
	return false
}

// waitFree blocks until the lock is free (the test's time limit bounds it).
func (d daemon) waitFree(t *testing.T) {
	t.Helper()
	f, err := os.Open(d.lock)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX); err != nil {
		t.Fatal(err)
	}
}

// kill ends a daemon left running unconfined (the controls), by the pids
// it wrote.
func (d daemon) kill(t *testing.T) {
	t.Helper()
	data, _ := os.ReadFile(d.up)
	for _, f := range strings.Fields(string(data)) {
		if pid, err := strconv.Atoi(f); err == nil && pid > 1 {
			_ = syscall.Kill(pid, syscall.SIGKILL)
		}
	}
	d.waitFree(t)
	os.Remove(d.up)
}

// survivesUnconfined is the control: run without the sandbox, the daemon
// outlives the run, so the confined case can fail.
func survivesUnconfined(t *testing.T, line string, timeout time.Duration) {
	t.Helper()
	f := newFixture(t, false)
	d := newDaemon(t, f.project)
	res := f.run(t, runner.Request{Line: strings.ReplaceAll(line, "DIR", f.project), Origin: runner.Person, Timeout: timeout})
	if !d.held(t) {
		t.Fatalf("control: unconfined, the daemon is gone after the run (%s), so the test proves nothing", res.StatusLine())
	}
	d.kill(t)
}

func TestDaemonEndsWithTheRun(t *testing.T) {
	needLinux(t)
	line := "setsid flock DIR/daemon.lock sh -c 'echo $PPID $$ > DIR/daemon.up; exec sleep 1000' </dev/null >/dev/null 2>&1 & " +
		"while [ ! -s DIR/daemon.up ]; do sleep 0.01; done"
	survivesUnconfined(t, line, 0)
	for _, served := range []bool{false, true} {
		t.Run(map[bool]string{false: "helper", true: "served"}[served], func(t *testing.T) {
			f := newFixture(t, true)
			f.r.OneShot = !served
			defer f.r.Close()
			d := newDaemon(t, f.project)
			res := f.run(t, runner.Request{Line: d.line("setsid", "true"), Origin: runner.Model})
			if res.ExitCode != 0 {
				t.Fatalf("the command failed: %s\n%s", res.StatusLine(), res.Output)
			}
			if d.held(t) {
				t.Fatal("a setsid daemon the command started outlived its run")
			}
			if want := "sandbox: 2 processes the command left running were stopped"; res.SandboxLine != want {
				t.Errorf("the sandbox line is %q, want %q", res.SandboxLine, want)
			}
		})
	}
}

// TestTimeoutEndsSetsidChild: the time limit's message says the command
// and its processes were stopped; it must be true of one that left the
// group, and ignores SIGTERM.
func TestTimeoutEndsSetsidChild(t *testing.T) {
	needLinux(t)
	line := "setsid sh -c 'trap \"\" TERM; exec flock DIR/daemon.lock sh -c \"echo \\$PPID \\$\\$ > DIR/daemon.up; exec sleep 1000\"' </dev/null >/dev/null 2>&1 & " +
		"while [ ! -s DIR/daemon.up ]; do sleep 0.01; done; sleep 1000"
	survivesUnconfined(t, line, time.Second)
	for _, served := range []bool{false, true} {
		t.Run(map[bool]string{false: "helper", true: "served"}[served], func(t *testing.T) {
			f := newFixture(t, true)
			f.r.OneShot = !served
			defer f.r.Close()
			d := newDaemon(t, f.project)
			res := f.run(t, runner.Request{Line: strings.ReplaceAll(line, "DIR", f.project), Origin: runner.Model, Timeout: time.Second})
			if !res.TimedOut {
				t.Fatalf("the command was not timed out: %s", res.StatusLine())
			}
			if d.held(t) {
				t.Fatalf("%s, but a setsid child of it still runs", res.StatusLine())
			}
		})
	}
}

// TestBackgroundAllowed: with commandPolicy.sandbox.allowBackground the
// daemon runs on, and the result says so.
func TestBackgroundAllowed(t *testing.T) {
	needLinux(t)
	f := newFixture(t, true)
	f.r.OneShot = true
	f.r.Spec.Background = true
	d := newDaemon(t, f.project)
	res := f.run(t, runner.Request{Line: d.line("nohup", "true"), Origin: runner.Model})
	if !d.held(t) {
		t.Fatalf("allowBackground is set, but the daemon was stopped (%s)", res.SandboxLine)
	}
	d.kill(t)
	if !strings.Contains(res.SandboxLine, "commandPolicy.sandbox.allowBackground") {
		t.Errorf("the sandbox line %q does not say the processes run on", res.SandboxLine)
	}
}

// childEnv makes the test binary a wisp that runs one confined command
// (TestMain), so that a test can kill it with SIGKILL.
const childEnv = "WISP_RUNNER_TEST_WISP"

// TestWispKilled: wisp killed with SIGKILL while its command runs: the
// command and the daemon it started end too (the helper is the init of a
// PID namespace, which dies with wisp). Without a namespace (none) the
// helper ends them on its parent's death; a SIGKILL of the helper itself
// is the gap docs/trust.md names.
func TestWispKilled(t *testing.T) {
	needLinux(t)
	for _, confined := range []bool{false, true} {
		t.Run(map[bool]string{false: "control-unconfined", true: "confined"}[confined], func(t *testing.T) {
			dir := t.TempDir()
			d := newDaemon(t, dir)
			exe, _ := os.Executable()
			cmd := exec.Command(exe, "-test.run=^$")
			shell := filepath.Join(dir, "shell.pid") // the command's own shell, which the control must end too
			// The child's home is made and removed here: the child is killed
			// before it could remove one of its own.
			userHome, _ := os.UserHomeDir()
			home, err := os.MkdirTemp(userHome, "wisp-runner-home-")
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { os.RemoveAll(home) })
			cmd.Env = append(os.Environ(), childEnv+"="+strconv.FormatBool(confined), "WISP_RUNNER_TEST_DIR="+dir,
				"WISP_RUNNER_TEST_HOME="+home,
				"WISP_RUNNER_TEST_LINE="+d.line("setsid", "echo $$ > "+shell+"; exec sleep 1000"))
			cmd.Stdout, cmd.Stderr = os.Stderr, os.Stderr
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			for !(daemon{up: shell}).upIn() { // written after the daemon's; bounded by the test's time limit
				time.Sleep(10 * time.Millisecond)
			}
			_ = cmd.Process.Kill()
			_ = cmd.Wait()
			if !confined {
				held := d.held(t)
				d.kill(t)
				(daemon{lock: d.lock, up: shell}).kill(t)
				if !held {
					t.Fatal("control: unconfined, the daemon died with wisp, so the test proves nothing")
				}
				return
			}
			d.waitFree(t) // returns once every process of it has ended; hangs (the test's limit) if one is left
		})
	}
}

// needLinux skips where no helper stays as the command's parent: on
// macOS, Seatbelt has no such containment (docs/trust.md).
func needLinux(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("only the Linux helper ends the processes a command leaves")
	}
}

func (d daemon) upIn() bool {
	info, err := os.Stat(d.up)
	return err == nil && info.Size() > 0
}

// childWisp is the wisp TestWispKilled kills: it runs one line, confined
// or not, and would wait for it forever.
func childWisp(confined bool) int {
	dir, line := os.Getenv("WISP_RUNNER_TEST_DIR"), os.Getenv("WISP_RUNNER_TEST_LINE")
	userHome, _ := os.UserHomeDir()
	home := os.Getenv("WISP_RUNNER_TEST_HOME")
	cfg := config.Default()
	cfg.CommandPolicy.Sandbox.Enabled = confined
	pol, _ := policy.New(nil, nil)
	r := &runner.Runner{Config: cfg, Home: config.Home{Dir: home}, Dir: dir, Policy: pol, OneShot: true,
		Store: &runner.Store{Dir: filepath.Join(home, "outputs"), FileBytes: 1 << 20, MaxBytes: 4 << 20, Now: time.Now}}
	if confined {
		spec, err := sandbox.NewSpec(sandbox.SpecOptions{LaunchDir: dir, WispHome: home, UserHome: userHome,
			AllowNetwork: true, Getenv: os.Getenv})
		if err != nil {
			return 1
		}
		exe, _ := os.Executable()
		r.Spec = spec
		if r.Backend, err = sandbox.Detect(exe); err != nil {
			return 1
		}
	}
	_, _ = r.Run(context.Background(), runner.Request{Line: line, Origin: runner.Person})
	return 0
}
