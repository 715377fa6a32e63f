package landlock_test

import (
	"errors"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/wisp-sh/wisp/sandbox"
	"github.com/wisp-sh/wisp/sandbox/landlock"
)

// servedFor starts a served helper (exe, or the test binary when "") for a
// fresh project folder, ended with the test.
func servedFor(t testing.TB, exe string) (sandbox.Server, string) {
	t.Helper()
	return servedIn(t, exe, sandbox.NamespaceAuto)
}

// servedIn is servedFor with the namespace asked for.
func servedIn(t testing.TB, exe string, ns sandbox.Namespace) (sandbox.Server, string) {
	t.Helper()
	if exe == "" {
		var err error
		if exe, err = os.Executable(); err != nil {
			t.Fatal(err)
		}
	}
	l := newLandlock(t, exe, ns)
	dir := t.TempDir()
	home := t.TempDir()
	if ns == sandbox.NamespaceNone { // outside every root: no namespace to bind it read-only
		userHome, _ := os.UserHomeDir()
		h, err := os.MkdirTemp(userHome, "wisp-served-home-")
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { os.RemoveAll(h) })
		home = h
	}
	spec, err := sandbox.NewSpec(sandbox.SpecOptions{LaunchDir: dir, WispHome: home,
		UserHome: dir, AllowNetwork: true, Getenv: os.Getenv})
	if err != nil {
		t.Fatal(err)
	}
	if ns == sandbox.NamespaceNone {
		spec.Roots = spec.Roots[:1] // not the temporary folders, which hold the test binary
	}
	sv, err := l.Serve(spec)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { sv.Close() })
	return sv, dir
}

// Without a PID namespace, a command can stop the served helper that
// started it (they share a Landlock domain). wisp must not wait for it
// forever: the command's end is seen from the kernel, the stopped helper is ended, and the next
// command is refused as not started, so the runner starts it another way.
func TestStoppedHelperIsEnded(t *testing.T) {
	landlock.ShortenServeTimeouts(t, 2*time.Second, 500*time.Millisecond)
	sv, dir := servedIn(t, "", sandbox.NamespaceNone) // in a PID namespace it cannot be stopped: TestHelperInitCannotBeStopped
	// The command lives on a moment after the stop, as any real one would.
	err := endsWithin(t, 20*time.Second, func() error {
		_, err := serveAndWaitErr(sv, dir, []string{sandbox.Shell, "-c", "kill -STOP $PPID; sleep 0.05"})
		return err
	})
	if !errors.Is(err, landlock.ErrServerGone) {
		t.Fatalf("the run through a stopped helper ended with %v, want ErrServerGone", err)
	}
	if _, _, err := sv.Start(sandbox.ServeRequest{Argv: sandbox.Plain("true"), Dir: dir, Env: os.Environ(),
		Stdin: os.Stdin, Stdout: os.Stdout, Stderr: os.Stderr}); !errors.Is(err, sandbox.ErrNotStarted) {
		t.Fatalf("the next command through the ended helper: %v, want ErrNotStarted", err)
	}
}

// A command that exits the instant it has sent the stop: the helper may
// have reaped it before it stopped, but it cannot say so, and the run ends
// as the one above. This once hung, when the command's pidfd had turned
// readable before wisp began to watch it (TestExitWatchOfAnAlreadyEndedProcess).
func TestHelperStoppedByAnExitingCommandDoesNotHang(t *testing.T) {
	landlock.ShortenServeTimeouts(t, 2*time.Second, 500*time.Millisecond)
	sv, dir := servedIn(t, "", sandbox.NamespaceNone) // in a PID namespace it cannot be stopped: TestHelperInitCannotBeStopped
	err := endsWithin(t, 20*time.Second, func() error {
		_, err := serveAndWaitErr(sv, dir, []string{sandbox.Shell, "-c", "kill -STOP $PPID"})
		return err
	})
	if !errors.Is(err, landlock.ErrServerGone) {
		t.Fatalf("the run ended with %v, want ErrServerGone", err)
	}
}

// endsWithin runs f and fails the test if it has not returned by limit.
func endsWithin(t *testing.T, limit time.Duration, f func() error) error {
	t.Helper()
	done := make(chan error, 1)
	go func() { done <- f() }()
	select {
	case err := <-done:
		return err
	case <-time.After(limit):
		t.Fatal("wisp still waits on a helper its command stopped")
		return nil
	}
}

// A helper stopped while one command runs on does not answer a request to
// start another: that request gives up, and says the command may have
// started (so it is not run twice).
func TestStoppedHelperMissesTheStartDeadline(t *testing.T) {
	landlock.ShortenServeTimeouts(t, time.Second, time.Second)
	sv, dir := servedIn(t, "", sandbox.NamespaceNone) // in a PID namespace it cannot be stopped: TestHelperInitCannotBeStopped
	devNull, _ := os.Open(os.DevNull)
	defer devNull.Close()
	_, wait, err := sv.Start(sandbox.ServeRequest{Argv: []string{sandbox.Shell, "-c", "sleep 0.2; kill -STOP $PPID; sleep 5"},
		Dir: dir, Env: os.Environ(), Stdin: devNull, Stdout: devNull, Stderr: devNull})
	if err != nil {
		t.Fatal(err)
	}
	time.Sleep(700 * time.Millisecond) // the helper has said "started", then stops
	start := time.Now()
	_, _, err = sv.Start(sandbox.ServeRequest{Argv: sandbox.Plain("true"), Dir: dir, Env: os.Environ(),
		Stdin: devNull, Stdout: devNull, Stderr: devNull})
	if !errors.Is(err, landlock.ErrServerGone) || errors.Is(err, sandbox.ErrNotStarted) {
		t.Fatalf("starting through a stopped helper: %v, want ErrServerGone and not ErrNotStarted", err)
	}
	if waited := time.Since(start); waited > 10*time.Second {
		t.Fatalf("the start waited %v", waited)
	}
	if _, err := wait(); !errors.Is(err, landlock.ErrServerGone) {
		t.Fatalf("the first command's wait: %v, want ErrServerGone", err)
	}
}

func serveAndWaitErr(sv sandbox.Server, dir string, argv []string) (int, error) {
	devNull, err := os.Open(os.DevNull)
	if err != nil {
		return 0, err
	}
	defer devNull.Close()
	_, wait, err := sv.Start(sandbox.ServeRequest{Argv: argv, Dir: dir, Env: os.Environ(),
		Stdin: devNull, Stdout: devNull, Stderr: devNull})
	if err != nil {
		return 0, err
	}
	ws, err := wait()
	return ws.ExitStatus(), err
}

// In its PID namespace, the served helper is the init, which no process in
// the namespace can stop or kill: the command's SIGSTOP is lost, the
// command ends as it would, and the helper serves the next one.
func TestHelperInitCannotBeStopped(t *testing.T) {
	sv, dir := servedFor(t, "")
	if landlock.ServingPid(sv) <= 0 {
		t.Fatal("the served helper's pid is unknown")
	}
	out, status := serveAndWait(t, sv, dir, []string{sandbox.Shell, "-c", "echo $PPID; kill -STOP $PPID; kill -KILL $PPID; echo sent"})
	if strings.TrimSpace(out) != "1\nsent" || status != 0 {
		if strings.HasPrefix(out, "1") {
			t.Fatalf("the command's signals to its helper, the init: status %d:\n%s", status, out)
		}
		t.Skipf("the helper is not the init of a PID namespace here (the command's parent is %q)", out)
	}
	if _, status := serveAndWait(t, sv, dir, []string{sandbox.Shell, "-c", "true"}); status != 0 {
		t.Fatalf("the next command through the helper its command tried to stop: status %d", status)
	}
}
