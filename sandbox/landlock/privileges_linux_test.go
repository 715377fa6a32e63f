package landlock_test

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"os/exec"
	"runtime"
	"strconv"
	"strings"
	"syscall"
	"testing"

	"github.com/creack/pty"
	"golang.org/x/sys/unix"

	"github.com/wisp-sh/wisp/sandbox"
	"github.com/wisp-sh/wisp/sandbox/landlock"
	"github.com/wisp-sh/wisp/sandbox/sandboxtest"
)

// A command the served helper starts shares its Landlock domain with the
// helper's serving thread, and a trace of that thread would reach the
// helper's other threads, which Landlock does not confine: a way out of
// the sandbox. The helper is undumpable and the commands hold no
// CAP_SYS_PTRACE, so no command can trace it, root's included.
func TestServedHelperCannotBeTraced(t *testing.T) {
	exe := testExecutable(t)
	seize := []string{exe, sandboxtest.ProbeCommand, "seize-parent"}
	if out, err := exec.Command(seize[0], seize[1:]...).CombinedOutput(); err != nil {
		t.Fatalf("control: unconfined, the probe could not trace its parent, so the case proves nothing: %v\n%s", err, out)
	}
	sv, dir := servedFor(t, exe)
	out, status := serveAndWait(t, sv, dir, seize)
	if status == 0 {
		t.Fatalf("a command traced the served helper that started it:\n%s", out)
	}
	if !strings.Contains(out, "could be traced") {
		t.Fatalf("the probe failed for another reason (status %d):\n%s", status, out)
	}
}

// As root, a confined command keeps only the capabilities that act on
// what Landlock bounds anyway (files, its own processes, a low port),
// through the served helper and the per-command one alike: no
// CAP_SYS_PTRACE to trace the helper, no CAP_SYS_MODULE, CAP_MKNOD,
// CAP_SYS_BOOT, CAP_NET_ADMIN and the rest to reach around the sandbox.
func TestRootCommandsKeepOnlyFileCapabilities(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("root's capabilities are what this checks")
	}
	exe := testExecutable(t)
	want := uint64(0)
	for _, c := range keptByRoot {
		want |= 1 << c
	}
	for _, ns := range []sandbox.Namespace{sandbox.NamespaceNone, sandbox.NamespaceMount} {
		for _, network := range []bool{true, false} {
			t.Run(fmt.Sprintf("%s/network=%v", ns, network), func(t *testing.T) {
				l := newLandlock(t, exe, ns)
				p := newProject(t, network)
				if ns == sandbox.NamespaceNone {
					p.spec.Protected = nil
				}
				want := want
				if network {
					want |= 1 << unix.CAP_NET_RAW
				}
				out, err := confinedCmd(t, l, p, "grep CapBnd /proc/self/status").CombinedOutput()
				if err != nil {
					t.Fatalf("%v: %s", err, out)
				}
				checkBounding(t, "the per-command helper's", string(out), want)
				sv, err := l.Serve(p.spec)
				if err != nil {
					t.Fatal(err)
				}
				defer sv.Close()
				served, status := serveAndWait(t, sv, p.dir, []string{sandbox.Shell, "-c", "grep CapBnd /proc/self/status"})
				if status != 0 {
					t.Fatalf("status %d: %s", status, served)
				}
				checkBounding(t, "the served helper's", served, want)
			})
		}
	}
}

// keptByRoot are the capabilities a command confined as root keeps, as
// docs/trust.md lists them (NET_RAW besides, with the network on).
var keptByRoot = []uintptr{unix.CAP_CHOWN, unix.CAP_DAC_OVERRIDE, unix.CAP_FOWNER, unix.CAP_FSETID,
	unix.CAP_KILL, unix.CAP_SETGID, unix.CAP_SETUID, unix.CAP_NET_BIND_SERVICE,
	unix.CAP_SYS_CHROOT, unix.CAP_AUDIT_WRITE}

func checkBounding(t *testing.T, whose, capBnd string, want uint64) {
	t.Helper()
	bounding, err := strconv.ParseUint(strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(capBnd), "CapBnd:")), 16, 64)
	if err != nil {
		t.Fatalf("%q: %v", capBnd, err)
	}
	if bounding != want {
		t.Errorf("%s command's bounding set is %x, want %x (kept %x, lacks %x)", whose, bounding, want, bounding&^want, want&^bounding)
	}
}

// No confined command makes a device node, even in its project and as
// root: a node of a disk, written raw, would reach every file. A FIFO is
// still fine.
func TestDeviceNodesRefusedInRoots(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("only root can make device nodes to begin with")
	}
	control := t.TempDir()
	for _, node := range []string{"b 7 0", "c 1 3"} {
		if out, err := exec.Command("mknod", control+"/node"+node[:1], node[:1], node[2:3], node[4:]).CombinedOutput(); err != nil {
			t.Fatalf("control: unconfined, root could not make a device node, so the case proves nothing: %v\n%s", err, out)
		}
	}
	l := newLandlock(t, testExecutable(t), sandbox.NamespaceAuto)
	p := newProject(t, true)
	for _, line := range []string{"mknod disk b 7 0", "mknod zero c 1 3"} {
		if out, err := confinedCmd(t, l, p, line).CombinedOutput(); err == nil {
			t.Errorf("confined %q made a device node:\n%s", line, out)
		}
	}
	if out, err := confinedCmd(t, l, p, "mkfifo pipe").CombinedOutput(); err != nil {
		t.Errorf("confined mkfifo failed: %v\n%s", err, out)
	}
}

func serveAndWait(t *testing.T, sv sandbox.Server, dir string, argv []string) (string, int) {
	t.Helper()
	devNull, err := os.Open(os.DevNull)
	if err != nil {
		t.Fatal(err)
	}
	defer devNull.Close()
	pr, pw, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer pr.Close()
	_, wait, err := sv.Start(sandbox.ServeRequest{Argv: argv, Dir: dir, Env: os.Environ(),
		Stdin: devNull, Stdout: pw, Stderr: pw})
	pw.Close()
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	out.ReadFrom(pr)
	ws, err := wait()
	if err != nil {
		t.Fatal(err)
	}
	return out.String(), ws.ExitStatus()
}

// The served helper lives on with the Go runtime's threads, not only the
// one that starts the commands: every one of them is confined (no_new_privs
// and the socket filter, set with Landlock on all threads at once) and in
// the mount namespace that binds the protected paths, so nothing a command
// could make the helper run is less confined than the command.
func TestServedHelperConfinesEveryThread(t *testing.T) {
	exe := testExecutable(t)
	for _, ns := range []sandbox.Namespace{sandbox.NamespaceMount, sandbox.NamespaceUser, sandbox.NamespaceNone} {
		t.Run(string(ns), func(t *testing.T) {
			if ns == sandbox.NamespaceMount && os.Geteuid() != 0 {
				t.Skip("needs root")
			}
			l := newLandlock(t, exe, ns)
			p := newProject(t, false)
			if ns == sandbox.NamespaceNone {
				p.spec.Protected = nil
			}
			sv, err := l.Serve(p.spec)
			if err != nil {
				t.Fatal(err)
			}
			defer sv.Close()
			out, status := serveAndWait(t, sv, p.dir, []string{sandbox.Shell, "-c", "echo $PPID"})
			parent, err := strconv.Atoi(strings.TrimSpace(out))
			if status != 0 || err != nil {
				t.Fatalf("the served command's parent: %q (status %d)", out, status)
			}
			// In its own PID namespace the helper is 1 to its commands.
			pid := landlock.ServingPid(sv)
			if parent != pid && parent != 1 {
				t.Fatalf("the served command's parent is %d, not the helper (%d)", parent, pid)
			}
			ownMnt, _ := os.Readlink("/proc/self/ns/mnt")
			tasks, err := os.ReadDir(fmt.Sprintf("/proc/%d/task", pid))
			if err != nil || len(tasks) < 2 {
				t.Fatalf("the helper's threads: %v (%v)", tasks, err)
			}
			for _, task := range tasks {
				dir := fmt.Sprintf("/proc/%d/task/%s", pid, task.Name())
				status, err := os.ReadFile(dir + "/status")
				if err != nil {
					t.Fatal(err)
				}
				for _, want := range []string{"NoNewPrivs:\t1", "Seccomp:\t2"} {
					if !strings.Contains(string(status), want) {
						t.Errorf("thread %s of the served helper lacks %q", task.Name(), want)
					}
				}
				mnt, _ := os.Readlink(dir + "/ns/mnt")
				if ns != sandbox.NamespaceNone && mnt == ownMnt {
					t.Errorf("thread %s of the served helper is in wisp's mount namespace, without the binds", task.Name())
				}
			}
		})
	}
}

// withBoundingSet runs f on a thread whose bounding set has lost drop, so
// that processes f starts inherit that set (as in a container that took
// them); the thread is discarded afterwards.
func withBoundingSet(t *testing.T, drop []uintptr, f func()) {
	t.Helper()
	done := make(chan struct{})
	go func() {
		defer close(done)
		runtime.LockOSThread() // never unlocked: the thread dies with the goroutine
		for _, c := range drop {
			if err := unix.Prctl(unix.PR_CAPBSET_DROP, c, 0, 0, 0); err != nil {
				t.Errorf("drop %d: %v", c, err)
				return
			}
		}
		f()
	}()
	<-done
}

// In a container that has already taken the dangerous capabilities and
// CAP_SETPCAP with them, there is nothing left to drop and commands run.
// Where one is left that cannot be dropped, the helper refuses to run the
// command and names it: it fails closed.
func TestRootCapabilitiesInAContainer(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("root's capabilities are what this checks")
	}
	exe := testExecutable(t)
	l := newLandlock(t, exe, sandbox.NamespaceNone)
	p := newProject(t, false)
	p.spec.Protected = nil
	keep := map[uintptr]bool{}
	for _, c := range keptByRoot {
		keep[c] = true
	}
	last := uintptr(unix.CAP_LAST_CAP)
	if data, err := os.ReadFile("/proc/sys/kernel/cap_last_cap"); err == nil {
		n, _ := strconv.Atoi(strings.TrimSpace(string(data)))
		last = uintptr(n)
	}
	var all []uintptr
	for c := uintptr(0); c <= last; c++ {
		if !keep[c] && c != unix.CAP_SETPCAP {
			all = append(all, c)
		}
	}
	withBoundingSet(t, append(all, unix.CAP_SETPCAP), func() {
		if out, err := confinedCmd(t, l, p, "true").CombinedOutput(); err != nil {
			t.Errorf("with nothing left to drop, the command failed: %v\n%s", err, out)
		}
	})
	withBoundingSet(t, []uintptr{unix.CAP_SETPCAP}, func() {
		out, err := confinedCmd(t, l, p, "echo ran").CombinedOutput()
		if exitCodeOf(err) != sandbox.HelperFailedStatus || strings.Contains(string(out), "ran") ||
			!strings.Contains(string(out), "from the bounding set") {
			t.Errorf("with capabilities it cannot drop, the helper gave %v:\n%s", err, out)
		}
	})
}

// A confined command cannot type into its terminal with TIOCSTI: the line
// would reach wisp chat (where `!!` runs outside the sandbox) or the
// person's shell once wisp exits. Checked on a pseudo-terminal that is the
// command's controlling terminal, through both helpers, with the network
// on and off; unconfined, the same probe types.
func TestTerminalInjectionRefused(t *testing.T) {
	exe := testExecutable(t)
	probe := []string{exe, sandboxtest.ProbeCommand, "tiocsti"}
	onTerminal := func(t *testing.T, argv []string) (string, error) {
		ptmx, tty, err := pty.Open()
		if err != nil {
			t.Fatal(err)
		}
		defer ptmx.Close()
		defer tty.Close()
		cmd := exec.Command(argv[0], argv[1:]...)
		cmd.Stdin, cmd.Stdout, cmd.Stderr = tty, tty, tty
		cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true, Setctty: true}
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		tty.Close()
		out, _ := io.ReadAll(ptmx) // EIO once the command is gone
		return string(out), cmd.Wait()
	}
	if out, err := onTerminal(t, probe); err != nil {
		t.Fatalf("control: unconfined, the probe could not type into its terminal, so the case proves nothing: %v\n%s", err, out)
	}
	for _, network := range []bool{true, false} {
		t.Run(fmt.Sprintf("network=%v", network), func(t *testing.T) {
			l := newLandlock(t, exe, sandbox.NamespaceNone)
			p := newProject(t, network)
			p.spec.Protected = nil
			argv, err := l.Command(p.spec, strings.Join(probe, " "))
			if err != nil {
				t.Fatal(err)
			}
			if out, err := onTerminal(t, argv); err == nil || !strings.Contains(out, "operation not permitted") {
				t.Errorf("through the per-command helper the probe gave %v:\n%s", err, out)
			}
			sv, err := l.Serve(p.spec)
			if err != nil {
				t.Fatal(err)
			}
			defer sv.Close()
			ptmx, tty, err := pty.Open()
			if err != nil {
				t.Fatal(err)
			}
			defer ptmx.Close()
			_, wait, err := sv.Start(sandbox.ServeRequest{Argv: probe, Dir: p.dir, Env: os.Environ(),
				Stdin: tty, Stdout: tty, Stderr: tty, Session: true})
			tty.Close()
			if err != nil {
				t.Fatal(err)
			}
			out, _ := io.ReadAll(ptmx)
			if ws, err := wait(); err != nil || ws.ExitStatus() == 0 || !strings.Contains(string(out), "operation not permitted") {
				t.Errorf("through the served helper the probe gave %v %v:\n%s", ws, err, out)
			}
		})
	}
}
