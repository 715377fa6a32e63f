package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/wisp-sh/wisp/pending"
)

// The test binary doubles as a requester, a process that files one request
// and waits for its answer as a waiting wisp does. wisp-bar itself is built
// once, with go build, and run as the real program: systray.Run needs a
// process's main goroutine, and a binary without -race keeps systray's own
// data races (menuVersion, in v1.12.2) out of this package's results.
const roleEnv = "WISP_BAR_TEST_ROLE"

// barBinary is the wisp-bar built for these tests.
var barBinary string

// barBinaryEnv names a wisp-bar already built, for a rerun of these tests
// as the unprivileged user (who cannot build it).
const barBinaryEnv = "WISP_BAR_TEST_BINARY"

func TestMain(m *testing.M) {
	if os.Getenv(roleEnv) == "requester" {
		os.Exit(runRequester())
	}
	if bin := os.Getenv(barBinaryEnv); bin != "" { // a rerun as another user: built already
		barBinary = bin
		os.Exit(m.Run())
	}
	dir, err := os.MkdirTemp("", "wisp-bar-test-")
	if err != nil {
		panic(err)
	}
	barBinary = filepath.Join(dir, "wisp-bar")
	build := exec.Command("go", "build", "-o", barBinary, ".")
	build.Stdout, build.Stderr = os.Stderr, os.Stderr
	if err := build.Run(); err != nil {
		fmt.Fprintf(os.Stderr, "build wisp-bar: %v\n", err)
		os.Exit(1)
	}
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// guard bounds every wait; it catches a hang and measures nothing.
const guard = 30 * time.Second

// barProcess is wisp-bar running as a child.
type barProcess struct {
	cmd    *exec.Cmd
	stderr *syncBuffer
	done   chan struct{}
	err    error
}

// startBar runs wisp-bar with wisp's home at home on the bus at address.
func startBar(t *testing.T, home, address string) *barProcess {
	t.Helper()
	cmd := exec.Command(barBinary)
	cmd.Env = append(os.Environ(), "WISP_HOME="+home, "DBUS_SESSION_BUS_ADDRESS="+address, "HOME="+filepath.Dir(home))
	p := &barProcess{cmd: cmd, stderr: &syncBuffer{}, done: make(chan struct{})}
	cmd.Stderr = p.stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() { p.err = cmd.Wait(); close(p.done) }()
	t.Cleanup(func() {
		cmd.Process.Kill()
		<-p.done
		if t.Failed() {
			t.Logf("wisp-bar's stderr:\n%s", p.stderr.String())
		}
	})
	return p
}

// stop sends SIGTERM, as logging out does, and waits for a clean exit.
func (p *barProcess) stop(t *testing.T) {
	t.Helper()
	p.cmd.Process.Signal(syscall.SIGTERM)
	p.wait(t)
}

func (p *barProcess) wait(t *testing.T) {
	t.Helper()
	select {
	case <-p.done:
	case <-time.After(guard):
		t.Fatal("wisp-bar did not exit")
	}
	if p.err != nil {
		t.Errorf("wisp-bar exited: %v\n%s", p.err, p.stderr.String())
	}
}

type syncBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// requesterEvent is one line a requester prints.
type requesterEvent struct {
	Event    string `json:"event"` // filed, decided, failed
	ID       string `json:"id,omitempty"`
	Approved bool   `json:"approved,omitempty"`
	Scope    string `json:"scope,omitempty"`
	By       string `json:"by,omitempty"`
	Reason   string `json:"reason,omitempty"`
}

func runRequester() int {
	out := json.NewEncoder(os.Stdout)
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	var opts []pending.Option
	if d, err := time.ParseDuration(os.Getenv("PENDING_TIMEOUT")); err == nil {
		opts = append(opts, pending.WithTimeout(d))
	}
	c := pending.New(os.Getenv("PENDING_DIR"), opts...)
	f, err := c.File(ctx, pending.Request{
		Command: os.Getenv("PENDING_COMMAND"), Cwd: "/srv/project", Level: pending.LevelModerate,
		OutsideSandbox: os.Getenv("PENDING_OUTSIDE") == "1", Reasons: []string{"the sandbox refused it"}, Face: pending.FaceChat,
	})
	if err != nil {
		out.Encode(requesterEvent{Event: "failed", Reason: err.Error()})
		return 1
	}
	out.Encode(requesterEvent{Event: "filed", ID: f.Request.ID})
	d, err := f.Wait(ctx)
	if err != nil {
		out.Encode(requesterEvent{Event: "failed", Reason: err.Error()})
		return 0
	}
	out.Encode(requesterEvent{Event: "decided", ID: d.Answer.ID, Approved: d.Approved, Scope: d.Scope, By: d.Answer.By})
	return 0
}

type requester struct {
	events chan requesterEvent
	id     string
	cmd    *exec.Cmd
}

// fileRequest starts a requester filing command in home's pending folder
// and returns once it is filed.
func fileRequest(t *testing.T, home, command string, outside bool, env ...string) *requester {
	t.Helper()
	cmd := exec.Command(os.Args[0])
	cmd.Env = append(os.Environ(), roleEnv+"=requester", "PENDING_DIR="+filepath.Join(home, "pending"), "PENDING_COMMAND="+command)
	cmd.Env = append(cmd.Env, env...)
	if outside {
		cmd.Env = append(cmd.Env, "PENDING_OUTSIDE=1")
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	r := &requester{events: make(chan requesterEvent, 8), cmd: cmd}
	go func() {
		sc := bufio.NewScanner(stdout)
		for sc.Scan() {
			var e requesterEvent
			json.Unmarshal(sc.Bytes(), &e)
			r.events <- e
		}
		close(r.events)
	}()
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	r.id = r.next(t, "filed").ID
	return r
}

func (r *requester) next(t *testing.T, want string) requesterEvent {
	t.Helper()
	select {
	case e, ok := <-r.events:
		if !ok || e.Event != want {
			t.Fatalf("the requester said %+v (open %v), want %q", e, ok, want)
		}
		return e
	case <-time.After(guard):
		t.Fatalf("the requester did not say %q", want)
	}
	return requesterEvent{}
}

// decided waits for the requester's decision.
func (r *requester) decided(t *testing.T) requesterEvent {
	t.Helper()
	return r.next(t, "decided")
}

func wispHome(t *testing.T) string {
	t.Helper()
	home := filepath.Join(t.TempDir(), ".wisp")
	if err := os.MkdirAll(filepath.Join(home, "pending"), 0o700); err != nil {
		t.Fatal(err)
	}
	return home
}

// TestLooseHomeRefused: wisp-bar answers for the person, so it trusts a
// home no more than wisp does: one that others may write stops it, with
// the fix, before it shows or answers anything.
func TestLooseHomeRefused(t *testing.T) {
	home := t.TempDir()
	if err := os.Chmod(home, 0o777); err != nil {
		t.Fatal(err)
	}
	t.Setenv("WISP_HOME", home)
	var stdout, stderr strings.Builder
	if code := run(nil, &stdout, &stderr); code != 1 {
		t.Fatalf("exit %d, want 1; stderr:\n%s", code, stderr.String())
	}
	if got := stderr.String(); !strings.Contains(got, "wisp-bar: error:") || !strings.Contains(got, "wisp-bar: hint: ") || !strings.Contains(got, "chmod") {
		t.Fatalf("stderr does not say what is wrong and how to fix it:\n%s", got)
	}
}

// --help and --version are answers, not errors: they print to stdout and
// exit 0; a flag or an argument wisp-bar does not take exits 2 with usage.
func TestHelpAndVersionExitZero(t *testing.T) {
	for _, tc := range []struct {
		args   []string
		code   int
		stdout string
	}{
		{[]string{"--help"}, 0, "usage: wisp-bar [--help] [--version]"},
		{[]string{"-h"}, 0, "usage: wisp-bar"},
		{[]string{"--version"}, 0, "wisp-bar dev"},
		{[]string{"--bogus"}, 2, ""},
		{[]string{"extra"}, 2, ""},
	} {
		var stdout, stderr strings.Builder
		code := run(tc.args, &stdout, &stderr)
		if code != tc.code || !strings.HasPrefix(stdout.String(), tc.stdout) || (tc.code == 2 && !strings.Contains(stderr.String(), "usage: wisp-bar")) {
			t.Errorf("wisp-bar %q: exit %d, stdout %q, stderr %q; want exit %d and %q", tc.args, code, stdout.String(), stderr.String(), tc.code, tc.stdout)
		}
	}
}
