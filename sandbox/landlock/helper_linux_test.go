package landlock_test

import (
	"bufio"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/creack/pty"
	"github.com/wisp-sh/wisp/sandbox"
	"github.com/wisp-sh/wisp/sandbox/sandboxtest"
	"golang.org/x/sys/unix"
)

// project is a scratch repository with wisp's home outside it, and the spec
// that makes the repository the only root.
type project struct {
	dir, home string
	spec      sandbox.Spec
}

func newProject(t *testing.T, network bool) project {
	t.Helper()
	base, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	p := project{dir: base + "/proj", home: base + "/wisp-home"}
	sandboxtest.Mkdirs(t, p.dir+"/.git/hooks", p.home)
	sandboxtest.WriteFile(t, p.dir+"/.git/config", "[core]\n")
	p.spec, err = sandbox.NewSpec(sandbox.SpecOptions{LaunchDir: p.dir, WispHome: p.home, UserHome: base,
		AllowNetwork: network, Getenv: func(string) string { return "" }})
	if err != nil {
		t.Fatal(err)
	}
	p.spec.Roots = p.spec.Roots[:1]
	return p
}

// confinedCmd returns the exec.Cmd that runs line confined, in the project.
func confinedCmd(t *testing.T, b sandbox.Backend, p project, line string) *exec.Cmd {
	t.Helper()
	argv, err := b.Command(p.spec, line)
	if err != nil {
		t.Fatalf("Command: %v", err)
	}
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Dir = p.dir
	return cmd
}

// TestHelperFailsClosed: whatever goes wrong before the exec, the helper
// says why, exits 125, and the command never runs.
func TestHelperFailsClosed(t *testing.T) {
	newLandlock(t, testExecutable(t), sandbox.NamespaceNone) // skips without Landlock
	dir := t.TempDir()
	ran := filepath.Join(dir, "ran")
	run := []string{"--", "/bin/sh", "-c", "echo ran > " + ran}
	sandboxtest.WriteFile(t, dir+"/protected", "")
	for _, tc := range []struct {
		name string
		args []string
		want string
	}{
		{"a protected path in a root without a namespace", append([]string{"--root", dir, "--protect", dir + "/protected", "--ns", "none"}, run...), "--ns none forbids one"},
		{"a root that does not exist", append([]string{"--root", dir + "/missing"}, run...), "writable root"},
		{"a relative root", append([]string{"--root", "rel"}, run...), "not a clean absolute path"},
		{"an unknown flag", append([]string{"--root", dir, "--allow-everything"}, run...), "unknown flag"},
		{"a program by name", []string{"--root", dir, "--", "sh", "-c", "echo ran > " + ran}, "absolute path"},
		{"the second stage outside a user namespace", append([]string{"--root", dir, "--protect", dir + "/protected", "--ns", "entered"}, run...), "--ns entered is for the helper's second stage"},
		{"a protected path that does not exist", append([]string{"--root", dir, "--protect", dir + "/missing", "--ns", "mount"}, run...), "missing"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if tc.name == "a protected path that does not exist" && os.Geteuid() != 0 {
				t.Skip("needs root for a mount namespace")
			}
			out, code := runHelper(t, tc.args...)
			if code != sandbox.HelperFailedStatus || !strings.Contains(out, tc.want) || !strings.HasPrefix(out, "wisp: error: sandbox: ") {
				t.Fatalf("status %d, output %q; want %d and %q", code, out, sandbox.HelperFailedStatus, tc.want)
			}
			if _, err := os.Stat(ran); err == nil {
				t.Fatal("the command ran")
			}
		})
	}
}

// TestHelperExecutableProtected: when wisp's executable lies in a root (go
// run builds it under /tmp), a command could replace it and run unconfined
// as the next command's helper. It is bound read-only, or, with no
// namespace, the spec is refused.
func TestHelperExecutableProtected(t *testing.T) {
	p := newProject(t, true)
	exe := copyExecutable(t, p.dir)
	l := newLandlock(t, exe, sandbox.NamespaceAuto)
	if ns, why := l.Namespace(); ns == sandbox.NamespaceNone {
		t.Skipf("no namespace here: %s", why)
	}
	for _, line := range []string{"cp /bin/true " + exe, "rm " + exe, "mv " + exe + " moved", "chmod 777 " + exe} {
		if out, err := confinedCmd(t, l, p, line).CombinedOutput(); err == nil {
			t.Errorf("confined %q succeeded:\n%s", line, out)
		}
	}
	none := newLandlock(t, exe, sandbox.NamespaceNone)
	_, err := none.Check(p.spec)
	var unprotectable *sandbox.UnprotectableError
	if !errors.As(err, &unprotectable) || unprotectable.Path != exe {
		t.Fatalf("with no namespace, Check = %v; want the executable refused", err)
	}
}

// TestMountsStayPrivate: the read-only binds exist in the command's mount
// namespace and nowhere else.
func TestMountsStayPrivate(t *testing.T) {
	for _, ns := range []sandbox.Namespace{sandbox.NamespaceMount, sandbox.NamespaceUser} {
		t.Run(string(ns), func(t *testing.T) {
			if ns == sandbox.NamespaceMount && os.Geteuid() != 0 {
				t.Skip("needs root")
			}
			p := newProject(t, true)
			cmd := confinedCmd(t, newLandlock(t, testExecutable(t), ns), p, "echo ready; cat /proc/self/mountinfo; echo done; read wait")
			lines := startReading(t, cmd)
			inside := readUntilDone(lines)
			hooks := p.dir + "/.git/hooks"
			if !strings.Contains(inside, hooks) {
				t.Fatalf("the command's mounts do not include %s:\n%s", hooks, inside)
			}
			own, err := os.ReadFile("/proc/self/mountinfo")
			if err != nil {
				t.Fatal(err)
			}
			if strings.Contains(string(own), hooks) {
				t.Fatalf("the bind of %s leaked into wisp's mount namespace", hooks)
			}
		})
	}
}

// startReading starts cmd with a pipe for stdin kept open (closed at the
// end of the test) and returns its stdout lines after the "ready" line.
func startReading(t *testing.T, cmd *exec.Cmd) *bufio.Scanner {
	t.Helper()
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { stdin.Close(); cmd.Wait() })
	lines := bufio.NewScanner(stdout)
	if !lines.Scan() || lines.Text() != "ready" {
		t.Fatalf("the command did not start: %q", lines.Text())
	}
	return lines
}

// readUntilDone collects the lines before a "done" line.
func readUntilDone(lines *bufio.Scanner) string {
	var b strings.Builder
	for lines.Scan() && lines.Text() != "done" {
		b.WriteString(lines.Text() + "\n")
	}
	return b.String()
}

// TestRootCannotReachAroundTheMounts: run as root, a confined command has
// lost CAP_SYS_ADMIN and CAP_DAC_READ_SEARCH (setns, open_by_handle_at),
// and cannot reach the protected path through /proc/PID/root.
func TestRootCannotReachAroundTheMounts(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("root's capabilities are what this checks")
	}
	p := newProject(t, true)
	l := newLandlock(t, testExecutable(t), sandbox.NamespaceMount)
	out, err := confinedCmd(t, l, p, "grep CapBnd /proc/self/status").CombinedOutput()
	if err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	bounding, err := strconv.ParseUint(strings.TrimSpace(strings.TrimPrefix(string(out), "CapBnd:")), 16, 64)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []uint{unix.CAP_SYS_ADMIN, unix.CAP_DAC_READ_SEARCH} {
		if bounding&(1<<c) != 0 {
			t.Errorf("the confined command kept capability %d (bounding set %x)", c, bounding)
		}
	}
	through := fmt.Sprintf("/proc/%d/root%s/.git/hooks/pre-commit", os.Getpid(), p.dir)
	if out, err := confinedCmd(t, l, p, "echo evil > "+through).CombinedOutput(); err == nil {
		t.Fatalf("writing through %s succeeded:\n%s", through, out)
	}
	if _, err := os.Stat(p.dir + "/.git/hooks/pre-commit"); err == nil {
		t.Fatal("a hook was planted through /proc")
	}
}

// TestExitStatusPassesThrough: the runner sees the command's own status,
// and its death by a signal, through every kind of helper.
func TestExitStatusPassesThrough(t *testing.T) {
	for _, ns := range []sandbox.Namespace{sandbox.NamespaceNone, sandbox.NamespaceMount, sandbox.NamespaceUser} {
		t.Run(string(ns), func(t *testing.T) {
			if ns == sandbox.NamespaceMount && os.Geteuid() != 0 {
				t.Skip("needs root")
			}
			l := newLandlock(t, testExecutable(t), ns)
			p := newProject(t, true)
			if ns == sandbox.NamespaceNone {
				p.spec.Protected = nil // nothing to bind, so no namespace
			}
			err := confinedCmd(t, l, p, "exit 7").Run()
			if code := exitCodeOf(err); code != 7 {
				t.Errorf("exit 7 gave status %d (%v)", code, err)
			}
			err = confinedCmd(t, l, p, "kill -TERM $$").Run()
			var exit *exec.ExitError
			// The init of a PID namespace cannot die of its own signal: the
			// helper exits 128+N instead, which the runner reads the same.
			if !errors.As(err, &exit) || (exit.Sys().(syscall.WaitStatus).Signal() != syscall.SIGTERM && exit.ExitCode() != 128+int(syscall.SIGTERM)) {
				t.Errorf("a command killed by SIGTERM gave %v", err)
			}
		})
	}
}

// TestHelperOutlivesTheSignalsItPasses: a terminal's Ctrl-C, sent to the
// whole foreground group, reaches the command and leaves the helper (the
// command's status comes back, its trap ran); a SIGTERM to the helper, as
// a time limit sends it, reaches the command too. The helper watches these
// signals from its start, while it sets up the sandbox.
// TestHelperUnprivileged runs it again as the unprivileged user.
func TestHelperOutlivesTheSignalsItPasses(t *testing.T) { helperPassesSignals(t) }

func helperPassesSignals(t *testing.T) {
	for _, ns := range []sandbox.Namespace{sandbox.NamespaceNone, sandbox.NamespaceMount, sandbox.NamespaceUser} {
		for _, tc := range []struct {
			sig   syscall.Signal
			group bool // to the whole group, as a terminal sends it
			trap  string
			code  int
		}{
			{syscall.SIGINT, true, "INT", 3},
			{syscall.SIGTERM, false, "TERM", 4},
		} {
			t.Run(string(ns)+"/"+tc.trap, func(t *testing.T) {
				if ns == sandbox.NamespaceMount && os.Geteuid() != 0 {
					t.Skip("needs root")
				}
				l := newLandlock(t, testExecutable(t), ns)
				p := newProject(t, true)
				if ns == sandbox.NamespaceNone {
					p.spec.Protected = nil
				}
				line := fmt.Sprintf("trap 'echo caught; exit %d' %s; echo ready; while :; do sleep 0.05; done", tc.code, tc.trap)
				cmd := confinedCmd(t, l, p, line)
				cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
				out, err := cmd.StdoutPipe()
				if err != nil {
					t.Fatal(err)
				}
				if err := cmd.Start(); err != nil {
					t.Fatal(err)
				}
				lines := bufio.NewScanner(out)
				if !lines.Scan() || lines.Text() != "ready" {
					t.Fatalf("the command did not start: %q", lines.Text())
				}
				target := cmd.Process.Pid
				if tc.group {
					target = -target
				}
				if err := syscall.Kill(target, tc.sig); err != nil {
					t.Fatal(err)
				}
				type ending struct {
					caught bool
					err    error
				}
				ended := make(chan ending, 1)
				go func() {
					caught := lines.Scan() && lines.Text() == "caught"
					ended <- ending{caught, cmd.Wait()}
				}()
				select {
				case e := <-ended:
					if code := exitCodeOf(e.err); !e.caught || code != tc.code {
						t.Errorf("after %v the command's trap ran %v and the status is %d (%v); want its trap's %d", tc.sig, e.caught, code, e.err, tc.code)
					}
				case <-time.After(10 * time.Second):
					_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
					t.Errorf("10 s after %v the command still runs: the helper did not pass it on", tc.sig)
				}
			})
		}
	}
}

func exitCodeOf(err error) int {
	var exit *exec.ExitError
	if errors.As(err, &exit) {
		return exit.ExitCode()
	}
	if err != nil {
		return -1
	}
	return 0
}

// TestEnvironmentAndDirectoryPassThrough: the helper adds nothing to the
// command's environment and leaves its working directory as the runner set.
func TestEnvironmentAndDirectoryPassThrough(t *testing.T) {
	l := newLandlock(t, testExecutable(t), sandbox.NamespaceAuto)
	p := newProject(t, true)
	sandboxtest.Mkdirs(t, p.dir+"/sub")
	cmd := confinedCmd(t, l, p, "env; echo cwd=$(pwd)")
	cmd.Dir = p.dir + "/sub"
	cmd.Env = []string{"PATH=/usr/bin:/bin", "WISP_TEST_VALUE=a b'c"}
	out, err := cmd.Output()
	if err != nil {
		t.Fatal(err)
	}
	got := string(out)
	for _, want := range []string{"WISP_TEST_VALUE=a b'c\n", "cwd=" + p.dir + "/sub\n"} {
		if !strings.Contains(got, want) {
			t.Errorf("output lacks %q:\n%s", want, got)
		}
	}
	for _, line := range strings.Split(strings.TrimSpace(got), "\n") {
		if name, _, _ := strings.Cut(line, "="); !strings.HasPrefix(line, "cwd=") && name != "PATH" && name != "WISP_TEST_VALUE" && name != "PWD" {
			t.Errorf("the command's environment gained %q", line)
		}
	}
}

// TestTerminalWorks: an interactive program opens /dev/tty and sets its
// modes (ioctl), as stty, less and ssh's prompts do.
func TestTerminalWorks(t *testing.T) {
	l := newLandlock(t, testExecutable(t), sandbox.NamespaceAuto)
	p := newProject(t, true)
	cmd := confinedCmd(t, l, p, "stty size < /dev/tty && stty -echo < /dev/tty && echo typed-ok > /dev/tty")
	tty, err := pty.StartWithSize(cmd, &pty.Winsize{Rows: 33, Cols: 77})
	if err != nil {
		t.Fatal(err)
	}
	defer tty.Close()
	var b strings.Builder
	buf := make([]byte, 256)
	for {
		n, err := tty.Read(buf)
		b.Write(buf[:n])
		if err != nil {
			break
		}
	}
	if err := cmd.Wait(); err != nil {
		t.Fatalf("%v:\n%s", err, b.String())
	}
	if !strings.Contains(b.String(), "33 77") || !strings.Contains(b.String(), "typed-ok") {
		t.Fatalf("the terminal output was %q", b.String())
	}
}
