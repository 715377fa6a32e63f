package runner

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"syscall"
	"time"

	"github.com/wisp-sh/wisp/sandbox"
)

// execSpec is one process to run: argv in dir, output to out.
type execSpec struct {
	argv    []string
	dir     string
	env     []string  // nil: wisp's own environment
	stdin   io.Reader // nil: /dev/null
	out     io.Writer // stdout and stderr, in the order they were written
	timeout time.Duration
	grace   time.Duration // between SIGTERM and SIGKILL
	// terminal, when set, is the person's terminal (opened pollable): the
	// command runs on a pseudo-terminal attached to it; stdin is ignored.
	terminal *os.File
	// attr, when set, is the sandbox backend's for starting its helper;
	// execute adds the process group (or session) to it.
	attr *syscall.SysProcAttr
	// server, when set, is the served sandbox helper for this spec, tried
	// before argv (which stays the confined way to run it); serverFailed
	// is told when it could not start the command.
	server       sandbox.Server
	servedArgv   []string // the unwrapped command line for server
	serverFailed func()
	// supervised is set when the sandbox helper stays as the command's
	// parent and ends every process it leaves (landlock.WithReport): the
	// time limit's SIGTERM goes to the helper, which passes it to every
	// one of them, even those that left the group.
	supervised bool
}

// procAttr is spec's attributes with a new process group, or with a new
// session on a terminal, keeping the backend's own fields.
func (spec execSpec) procAttr(session bool) *syscall.SysProcAttr {
	a := &syscall.SysProcAttr{}
	if spec.attr != nil {
		copied := *spec.attr
		a = &copied
	}
	if session {
		a.Setsid, a.Setctty = true, true
	} else {
		a.Setpgid = true
	}
	return a
}

type execResult struct {
	exitCode int
	timedOut bool
	canceled bool
	duration time.Duration
	// stopped counts the processes the command left running, which the
	// sandbox helper stopped when it ended; leftRunning says that its
	// group still had processes when it ended, where none are stopped.
	stopped     int
	leftRunning bool
}

// defaultGrace is how long a command has to end after SIGTERM.
const defaultGrace = 2 * time.Second

// execute runs spec in a process group of its own and waits. A time limit
// or a cancelled ctx ends the whole group: SIGTERM, then SIGKILL after the
// grace period. The error is only for a command that could not start.
func execute(ctx context.Context, spec execSpec) (execResult, error) {
	if spec.terminal != nil {
		return executePTY(ctx, spec)
	}
	if spec.server != nil {
		res, err := executeServed(ctx, spec)
		if err == nil {
			return res, nil
		}
		spec.serverFailed()
		if !errors.Is(err, sandbox.ErrNotStarted) {
			// It may have started before the helper went: never launch a
			// command twice (docs/decisions.md, D2).
			return execResult{}, fmt.Errorf("the sandbox helper ended before saying whether the command started, so it is not run again: %w", err)
		}
		// It certainly did not run: the per-command helper runs it, still confined.
	}
	report, err := spec.supervise()
	if err != nil {
		return execResult{}, err
	}
	defer report.Close()
	cmd := exec.Command(spec.argv[0], spec.argv[1:]...)
	cmd.Dir, cmd.Env = spec.dir, spec.env
	cmd.SysProcAttr = spec.procAttr(false)
	cmd.ExtraFiles = report.extraFiles()
	stdin, closeStdin, err := openStdin(spec.stdin)
	if err != nil {
		return execResult{}, err
	}
	defer closeStdin()
	cmd.Stdin = stdin
	// One pipe for both streams keeps their order; the copy ends when the
	// last holder of the write end (any process of the group) goes away.
	pr, pw, err := os.Pipe()
	if err != nil {
		return execResult{}, fmt.Errorf("make the output pipe: %w", err)
	}
	cmd.Stdout, cmd.Stderr = pw, pw
	start := time.Now()
	if err := cmd.Start(); err != nil {
		pr.Close()
		pw.Close()
		return execResult{}, fmt.Errorf("start %s: %w", spec.argv[0], err)
	}
	pw.Close()
	report.started()
	copied := make(chan struct{})
	go func() { io.Copy(spec.out, pr); close(copied) }()
	res := waitGroup(ctx, cmd, spec)
	drain(pr, copied, cmd.Process.Pid)
	res.stopped = report.read()
	res.duration = time.Since(start)
	return res, nil
}

func openStdin(r io.Reader) (io.Reader, func(), error) {
	if r != nil {
		return r, func() {}, nil
	}
	f, err := os.Open(os.DevNull)
	if err != nil {
		return nil, nil, fmt.Errorf("open %s for stdin: %w", os.DevNull, err)
	}
	return f, func() { f.Close() }, nil
}

// waitGroup waits for the command, ending its group on timeout or cancel.
func waitGroup(ctx context.Context, cmd *exec.Cmd, spec execSpec) execResult {
	done := make(chan int, 1)
	go func() { done <- exitCodeOf(cmd.Wait()) }()
	return waitLeader(ctx, cmd.Process.Pid, done, spec)
}

// waitLeader waits for the group leader pid's exit code on done, ending
// its group on timeout or cancel.
func waitLeader(ctx context.Context, pid int, done <-chan int, spec execSpec) execResult {
	var limit <-chan time.Time
	if spec.timeout > 0 {
		t := time.NewTimer(spec.timeout)
		defer t.Stop()
		limit = t.C
	}
	var res execResult
	select {
	case code := <-done:
		res.exitCode = code
		res.leftRunning = pid > 0 && syscall.Kill(-pid, 0) == nil
		return res
	case <-limit:
		res.timedOut = true
	case <-ctx.Done():
		res.canceled = true
	}
	res.exitCode = endGroup(pid, done, spec.grace, spec.supervised)
	return res
}

// endGroup sends SIGTERM to the group, then SIGKILL if it is still there
// after grace, and returns the leader's exit code. A supervising helper
// gets the SIGTERM alone: it passes it to every process of the command,
// and kills them all itself before wisp would kill it with the group.
// pgid 0 is a command already reaped: no group is left to signal.
func endGroup(pgid int, done <-chan int, grace time.Duration, supervised bool) int {
	if grace <= 0 {
		grace = defaultGrace
	}
	if pgid <= 0 {
		return <-done
	}
	first := -pgid
	if supervised {
		first = pgid
	}
	_ = syscall.Kill(first, syscall.SIGTERM)
	t := time.NewTimer(grace)
	defer t.Stop()
	select {
	case code := <-done:
		_ = syscall.Kill(-pgid, syscall.SIGKILL) // stragglers that ignored TERM
		return code
	case <-t.C:
	}
	_ = syscall.Kill(-pgid, syscall.SIGKILL)
	return <-done
}

// drain waits for the output copy to finish. A process that left the
// group (setsid, a daemon) may hold the pipe open forever: after the
// leader is gone, the group is killed and a short wait ends the copy.
func drain(pr *os.File, copied <-chan struct{}, pgid int) {
	select {
	case <-copied:
		pr.Close()
		return
	case <-time.After(200 * time.Millisecond):
	}
	if pgid > 0 {
		_ = syscall.Kill(-pgid, syscall.SIGKILL)
	}
	select {
	case <-copied:
	case <-time.After(time.Second):
	}
	pr.Close()
	<-copied
}

// exitCodeOf maps Wait's error to a shell-style status: the code, or 128+N
// for a signal.
func exitCodeOf(err error) int {
	if err == nil {
		return 0
	}
	var ee *exec.ExitError
	if !errors.As(err, &ee) {
		return -1
	}
	if ws, ok := ee.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
		return 128 + int(ws.Signal())
	}
	return ee.ExitCode()
}
