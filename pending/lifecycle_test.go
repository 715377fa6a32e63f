//go:build unix

package pending

import (
	"context"
	"errors"
	"os"
	"strings"
	"syscall"
	"testing"
	"time"
)

// An outside-sandbox request answered with a wider scope is decided once,
// and says what was asked; a command request keeps the scope it offered.
func TestScopesAsTheRequesterTakesThem(t *testing.T) {
	for _, tc := range []struct {
		outside        bool
		asked, scope   string
		downgradedFrom string
	}{
		{true, ScopeAlways, ScopeOnce, ScopeAlways},
		{true, ScopeSession, ScopeOnce, ScopeSession},
		{true, ScopeOnce, ScopeOnce, ""},
		{false, ScopeProject, ScopeProject, ""},
	} {
		dir := pendingDir(t)
		r := startRequester(t, dir, childConfig{command: "cargo install ripgrep", outside: tc.outside})
		d := answerAndExpect(t, r, New(dir), r.filed.ID, DecisionApprove, tc.asked)
		if d.Scope != tc.scope || d.DowngradedFrom != tc.downgradedFrom {
			t.Errorf("outside %v, answered %s: decided %s (downgraded from %q), want %s (%q)",
				tc.outside, tc.asked, d.Scope, d.DowngradedFrom, tc.scope, tc.downgradedFrom)
		}
		assertEmpty(t, dir)
	}
}

// Silence until expiresAt is a denial, said as such, and leaves nothing.
func TestSilenceExpiresTheRequest(t *testing.T) {
	dir := pendingDir(t)
	r := startRequester(t, dir, childConfig{command: "ls", timeout: 300 * time.Millisecond})
	if e := r.expect("failed"); !e.Expired || e.Reason != ErrExpired.Error() {
		t.Errorf("the requester said %+v, want expiry: %q", e, ErrExpired)
	}
	r.finish()
	assertEmpty(t, dir)
	if _, err := New(dir).Get(r.filed.ID); !errors.Is(err, ErrGone) {
		t.Errorf("Get of the expired request = %v, want ErrGone", err)
	}
}

// Ctrl-C withdraws: the requester's signal handler cancels the wait, and
// both files go.
func TestInterruptWithdrawsTheRequest(t *testing.T) {
	dir := pendingDir(t)
	r := startRequester(t, dir, childConfig{command: "ls"})
	r.signal(os.Interrupt)
	if e := r.expect("failed"); !e.Withdrawn {
		t.Errorf("the requester said %+v, want a withdrawal", e)
	}
	r.finish()
	assertEmpty(t, dir)
}

// A request whose requester was killed is stale: a face does not list it,
// and removes its files (an answer left beside it included).
func TestAKilledRequestersRequestIsStale(t *testing.T) {
	dir := pendingDir(t)
	c := New(dir)
	r := startRequester(t, dir, childConfig{command: "ls"})
	r.signal(syscall.SIGSTOP) // hold it, so the answer stays unread
	p := mustGet(t, c, r.filed.ID)
	if _, err := c.Answer(p, DecisionApprove, ScopeOnce, "wisp-bar"); err != nil {
		t.Fatal(err)
	}
	r.signal(syscall.SIGKILL)
	<-r.done
	r.done <- nil
	l, err := c.Scan()
	if err != nil || len(l.Pending) != 0 || len(l.Skipped) != 1 || !errors.Is(l.Skipped[0].Reason, ErrStale) {
		t.Fatalf("Scan = %+v, %v; want the request skipped as stale", l, err)
	}
	assertEmpty(t, dir)
	if _, err := c.Answer(p, DecisionApprove, ScopeOnce, "wisp-bar"); !errors.Is(err, ErrGone) {
		t.Errorf("answering the stale request: %v, want ErrGone", err)
	}
	assertEmpty(t, dir)
}

// fileHere files a request from this process, for what needs no second one.
func fileHere(t *testing.T, c *Channel, req Request) *Filed {
	t.Helper()
	f, err := c.File(context.Background(), req)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { f.Withdraw() })
	return f
}

var commandRequest = Request{Command: "go test ./...", Cwd: "/work/project", Level: LevelLow, Face: FaceRun}

// The first answer wins. Answering again the same way changes nothing and
// is no error; answering otherwise is ErrAlreadyAnswered; the requester
// takes the first.
func TestTheFirstAnswerWinsAndAnsweringAgainIsIdempotent(t *testing.T) {
	c := New(pendingDir(t))
	f := fileHere(t, c, commandRequest)
	p := mustGet(t, c, f.Request.ID)
	first, err := c.Answer(p, DecisionApprove, ScopeSession, "wisp-bar")
	if err != nil {
		t.Fatal(err)
	}
	again, err := c.Answer(p, DecisionApprove, ScopeSession, "wisp approvals")
	if err != nil || again != first {
		t.Errorf("the same answer again = %+v, %v; want the first, %+v, and no error", again, err, first)
	}
	other, err := c.Answer(p, DecisionDeny, ScopeOnce, "wisp approvals")
	if !errors.Is(err, ErrAlreadyAnswered) || other != first {
		t.Errorf("another answer = %+v, %v; want the first and ErrAlreadyAnswered", other, err)
	}
	if p := mustGet(t, c, f.Request.ID); !p.Answered {
		t.Error("the listed request does not say it is answered")
	}
	d, err := f.Wait(context.Background())
	if err != nil || !d.Approved || d.Scope != ScopeSession || d.Answer.By != "wisp-bar" {
		t.Errorf("Wait = %+v, %v; want wisp-bar's approval for the session", d, err)
	}
	assertEmpty(t, c.Dir)
}

// A request no longer waiting cannot be answered, and nothing is written.
func TestAnsweringAGoneRequest(t *testing.T) {
	c := New(pendingDir(t))
	f := fileHere(t, c, commandRequest)
	p := mustGet(t, c, f.Request.ID)
	if err := f.Withdraw(); err != nil {
		t.Fatal(err)
	}
	_, err := c.Answer(p, DecisionApprove, ScopeOnce, "wisp-bar")
	if !errors.Is(err, ErrGone) || !strings.Contains(err.Error(), "answered elsewhere, withdrawn or expired") {
		t.Errorf("Answer = %v, want ErrGone", err)
	}
	assertEmpty(t, c.Dir)
	if _, err := c.Get(f.Request.ID); !errors.Is(err, ErrGone) {
		t.Errorf("Get = %v, want ErrGone", err)
	}
	if _, err := c.Get("../../etc/passwd"); err == nil || errors.Is(err, ErrGone) {
		t.Errorf("Get of a path = %v, want it refused as no id", err)
	}
}

// A face refuses to write what the requester would refuse.
func TestAnswerRefusesWhatTheRequesterWouldRefuse(t *testing.T) {
	c := New(pendingDir(t))
	f := fileHere(t, c, Request{Command: "make", Cwd: "/p", Level: LevelLow, Face: FaceChat, Scopes: []string{ScopeOnce}})
	p := mustGet(t, c, f.Request.ID)
	for _, tc := range []struct {
		decision, scope string
		p               Pending
		want            string
	}{
		{DecisionApprove, ScopeAlways, p, ErrScopeNotOffered.Error()},
		{DecisionApprove, "forever", p, ErrUnknownScope.Error()},
		{"maybe", ScopeOnce, p, "not approve or deny"},
		{DecisionApprove, ScopeOnce, Pending{Request: p.Request, Bytes: []byte("other"), Binding: p.Binding}, "not the hash"},
	} {
		if _, err := c.Answer(tc.p, tc.decision, tc.scope, "wisp-bar"); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("Answer(%s, %s) = %v, want %q", tc.decision, tc.scope, err, tc.want)
		}
	}
	if names := folderNames(t, c.Dir); len(names) != 1 {
		t.Errorf("folder holds %q, want the request alone", names)
	}
}

// Withdraw from another goroutine ends a Wait in progress.
func TestWithdrawEndsAWait(t *testing.T) {
	c := New(pendingDir(t))
	f := fileHere(t, c, commandRequest)
	done := make(chan error)
	go func() { _, err := f.Wait(context.Background()); done <- err }()
	<-f.watching
	if err := f.Withdraw(); err != nil {
		t.Fatal(err)
	}
	if err := <-done; !errors.Is(err, ErrWithdrawn) {
		t.Errorf("Wait = %v, want ErrWithdrawn", err)
	}
	assertEmpty(t, c.Dir)
}
