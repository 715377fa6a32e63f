//go:build unix

package pending

import (
	"bufio"
	"bytes"
	"context"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"os/signal"
	"strings"
	"syscall"
	"testing"
	"time"
)

// The test binary doubles as a requester: a real process that files a
// request and waits for its answer, as a waiting `wisp` does. It reports
// what happens as JSON lines on stdout.
const childEnv = "PENDING_TEST_REQUESTER"

func TestMain(m *testing.M) {
	if os.Getenv(childEnv) != "" {
		os.Exit(runRequester())
	}
	os.Exit(m.Run())
}

// childEvent is one line a requester child prints.
type childEvent struct {
	Event          string `json:"event"` // filed, refused, decided, failed
	ID             string `json:"id,omitempty"`
	Binding        string `json:"binding,omitempty"`
	File           string `json:"file,omitempty"`
	Reason         string `json:"reason,omitempty"`
	Approved       bool   `json:"approved,omitempty"`
	Scope          string `json:"scope,omitempty"`
	DowngradedFrom string `json:"downgradedFrom,omitempty"`
	By             string `json:"by,omitempty"`
	Expired        bool   `json:"expired,omitempty"`
	Withdrawn      bool   `json:"withdrawn,omitempty"`
}

func runRequester() int {
	out := json.NewEncoder(os.Stdout)
	say := func(e childEvent) { out.Encode(e) }
	// Ctrl-C withdraws: the caller cancels the context from its signal handler.
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	c := New(os.Getenv("PENDING_DIR"), childOptions(say)...)
	filed, err := c.File(ctx, childRequest())
	if err != nil {
		say(childEvent{Event: "failed", Reason: err.Error()})
		return 1
	}
	say(childEvent{Event: "filed", ID: filed.Request.ID, Binding: filed.Binding})
	d, err := filed.Wait(ctx)
	if err != nil {
		say(childEvent{Event: "failed", Reason: err.Error(), Expired: errors.Is(err, ErrExpired), Withdrawn: errors.Is(err, ErrWithdrawn)})
		return 0
	}
	say(childEvent{Event: "decided", ID: d.Answer.ID, Approved: d.Approved, Scope: d.Scope, DowngradedFrom: d.DowngradedFrom, By: d.Answer.By})
	return 0
}

func childOptions(say func(childEvent)) []Option {
	opts := []Option{WithRefusals(func(file string, reason error) {
		say(childEvent{Event: "refused", File: file, Reason: reason.Error()})
	})}
	if t := os.Getenv("PENDING_TIMEOUT"); t != "" {
		d, _ := time.ParseDuration(t)
		opts = append(opts, WithTimeout(d))
	}
	if id := os.Getenv("PENDING_ID"); id != "" {
		raw, _ := hex.DecodeString(id)
		opts = append(opts, WithIDSource(bytes.NewReader(bytes.Repeat(raw, 3))))
	}
	return opts
}

func childRequest() Request {
	req := Request{
		Command: os.Getenv("PENDING_COMMAND"), Cwd: "/work/project", Level: LevelModerate,
		Reasons: []string{"writes outside the project"}, Face: FaceChat,
		OutsideSandbox: os.Getenv("PENDING_OUTSIDE") == "1",
	}
	if s := os.Getenv("PENDING_SCOPES"); s != "" {
		req.Scopes = strings.Split(s, ",")
	}
	return req
}

// requester is a child process filing one request.
type requester struct {
	t      testing.TB
	cmd    *exec.Cmd
	events chan childEvent
	done   chan error
	filed  childEvent
}

type childConfig struct {
	command string
	outside bool
	timeout time.Duration
	id      string
	scopes  []string
}

// startRequester starts a child that files cfg's request in dir, and waits
// until it says it has filed it.
func startRequester(t testing.TB, dir string, cfg childConfig) *requester {
	t.Helper()
	r := launchRequester(t, dir, cfg)
	r.filed = r.expect("filed")
	return r
}

func launchRequester(t testing.TB, dir string, cfg childConfig) *requester {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), childEnv+"=1", "PENDING_DIR="+dir, "PENDING_COMMAND="+cfg.command,
		"PENDING_TIMEOUT="+cfg.timeout.String(), "PENDING_ID="+cfg.id, "PENDING_SCOPES="+strings.Join(cfg.scopes, ","))
	if cfg.outside {
		cmd.Env = append(cmd.Env, "PENDING_OUTSIDE=1")
	}
	if cfg.timeout == 0 {
		cmd.Env = append(cmd.Env, "PENDING_TIMEOUT=1m")
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	r := &requester{t: t, cmd: cmd, events: make(chan childEvent, 64), done: make(chan error, 1)}
	go r.read(stdout)
	t.Cleanup(func() { cmd.Process.Kill(); <-r.done })
	return r
}

func (r *requester) read(stdout interface{ Read([]byte) (int, error) }) {
	sc := bufio.NewScanner(stdout)
	for sc.Scan() {
		var e childEvent
		if err := json.Unmarshal(sc.Bytes(), &e); err != nil {
			e = childEvent{Event: "garbled", Reason: sc.Text()}
		}
		r.events <- e
	}
	close(r.events)
	r.done <- r.cmd.Wait()
}

// expect returns the child's next event, which must be of kind.
func (r *requester) expect(kind string) childEvent {
	r.t.Helper()
	select {
	case e, ok := <-r.events:
		if !ok {
			r.t.Fatalf("the requester ended without saying %q", kind)
		}
		if e.Event != kind {
			r.t.Fatalf("the requester said %+v, want %q", e, kind)
		}
		return e
	case <-time.After(30 * time.Second): // a hang guard, not a timing assertion
		r.t.Fatalf("the requester did not say %q in 30s", kind)
	}
	return childEvent{}
}

// finish waits for the child to exit cleanly.
func (r *requester) finish() {
	r.t.Helper()
	for e := range r.events {
		r.t.Errorf("the requester said more: %+v", e)
	}
	if err := <-r.done; err != nil {
		r.t.Errorf("the requester exited: %v", err)
	}
	r.done <- nil
}

func (r *requester) signal(sig os.Signal) {
	r.t.Helper()
	if err := r.cmd.Process.Signal(sig); err != nil {
		r.t.Fatal(err)
	}
}

// folderNames lists what is in dir, dot-files included.
func folderNames(t testing.TB, dir string) []string {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	return names
}

func assertEmpty(t testing.TB, dir string) {
	t.Helper()
	if names := folderNames(t, dir); len(names) != 0 {
		t.Errorf("files left behind in the pending folder: %q", names)
	}
}

// pendingDir is a fresh pending folder, as wisp's home has it.
func pendingDir(t testing.TB) string {
	dir := t.TempDir() + "/pending"
	if err := os.Mkdir(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	return dir
}

// mustGet reads request id as a face would.
func mustGet(t testing.TB, c *Channel, id string) Pending {
	t.Helper()
	p, err := c.Get(id)
	if err != nil {
		t.Fatalf("get request %s: %v", id, err)
	}
	return p
}

var _ = fmt.Sprint
var _ = syscall.SIGINT
