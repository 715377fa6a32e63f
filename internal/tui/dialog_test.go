package tui

import (
	"context"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/wisp-sh/wisp/internal/approval"
	"github.com/wisp-sh/wisp/pending"
	"github.com/wisp-sh/wisp/policy"
)

func outsideRequest() approval.Request {
	return approval.Request{ID: "a1", Line: "brew upgrade", Dir: "/home/ana/shop", OutsideSandbox: true,
		Level: policy.Moderate, Reasons: []string{pending.OutsideReason}, Scopes: []approval.Scope{approval.Once}}
}

// The OUTSIDE dialog: its words, no key before the settle time, y alone
// never approves, y Enter does, n denies.
func TestOutsideDialog(t *testing.T) {
	m, _, c := newTestModel(false)
	reply := make(chan approval.Answer, 1)
	m.Update(askMsg{req: outsideRequest(), reply: reply})
	screen := screenOf(m)
	for _, want := range []string{outsideTitle, "brew upgrade", outsideRuns, outsideOnce, "reading keys in a moment"} {
		if !strings.Contains(screen, want) {
			t.Errorf("the dialog lacks %q:\n%s", want, screen)
		}
	}
	feed(m, typing("y")...)
	m.Update(kEnter)
	if len(reply) != 0 {
		t.Fatal("a y Enter typed before the dialog listened answered it")
	}
	c.add(600 * time.Millisecond)
	if !strings.Contains(screenOf(m), outsideKeys) {
		t.Errorf("the settled dialog does not show its keys:\n%s", screenOf(m))
	}
	feed(m, typing("y")...)
	if len(reply) != 0 {
		t.Fatal("y alone approved a run outside the sandbox")
	}
	feed(m, typing("s")...) // not a key here
	m.Update(kEnter)
	if a := <-reply; !a.Approve || a.Scope != approval.Once {
		t.Fatalf("y Enter answered %+v", a)
	}
	if !strings.Contains(screenOf(m), "you approved once, outside the sandbox: brew upgrade") || m.dialogs != nil {
		t.Errorf("after the answer:\n%s", screenOf(m))
	}

	m.Update(askMsg{req: outsideRequest(), reply: reply})
	c.add(time.Second)
	feed(m, typing("n")...)
	if a := <-reply; a.Approve {
		t.Fatalf("n answered %+v", a)
	}
}

// An ordinary dialog shows the level, the reasons and the scopes offered,
// and takes one key among them.
func TestOrdinaryDialog(t *testing.T) {
	m, _, _ := newTestModel(false)
	reply := make(chan approval.Answer, 1)
	req := approval.Request{ID: "b2", Line: "rm -r build", Dir: "/p", Level: policy.High,
		Reasons: []string{"deletes files"}, Scopes: []approval.Scope{approval.Once, approval.Session}}
	m.Update(askMsg{req: req, reply: reply})
	screen := screenOf(m)
	for _, want := range []string{"approve this command? (high risk)", "rm -r build", "· deletes files", "[y] once   [s] session   [n] no"} {
		if !strings.Contains(screen, want) {
			t.Errorf("the dialog lacks %q:\n%s", want, screen)
		}
	}
	feed(m, typing("p")...) // not offered
	if len(reply) != 0 {
		t.Fatal("a scope not offered answered")
	}
	feed(m, typing("s")...)
	if a := <-reply; !a.Approve || a.Scope != approval.Session {
		t.Fatalf("s answered %+v", a)
	}
}

// A question answered elsewhere first leaves the dialog, which says who
// answered; the next question waiting shows.
func TestDialogAnsweredElsewhere(t *testing.T) {
	m, _, _ := newTestModel(false)
	first, second := outsideRequest(), outsideRequest()
	second.ID, second.Line = "a2", "rustup update"
	m.Update(askMsg{req: first, reply: make(chan approval.Answer, 1)})
	m.Update(askMsg{req: second, reply: make(chan approval.Answer, 1)})
	m.Update(closeMsg{id: "a1", why: "· answered elsewhere: approved once by wisp approvals"})
	screen := screenOf(m)
	if !strings.Contains(screen, "answered elsewhere: approved once by wisp approvals") || !strings.Contains(screen, "rustup update") {
		t.Errorf("after the answer elsewhere:\n%s", screen)
	}
}

// The Approver is the gate's: it asks through the face and takes the
// dialog's answer; withdrawn, it says who answered.
func TestApproverAsksThroughTheFace(t *testing.T) {
	f := NewFace()
	a := &Approver{Face: f}
	got := make(chan tea.Msg, 4)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go f.pump(ctx, func(m tea.Msg) { got <- m })
	done := make(chan approval.Answer)
	go func() { ans, _ := a.Ask(ctx, outsideRequest()); done <- ans }()
	ask := (<-got).(askMsg)
	ask.reply <- approval.Answer{Approve: true, Scope: approval.Once, By: "tui"}
	if ans := <-done; !ans.Approve || ans.By != "tui" {
		t.Fatalf("the approver returned %+v", ans)
	}

	actx, acancel := context.WithCancelCause(context.Background())
	go func() { ans, _ := a.Ask(actx, outsideRequest()); done <- ans }()
	<-got
	acancel(approval.Answered{Answer: approval.Answer{Approve: false, By: "wisp-bar"}})
	<-done
	if c := (<-got).(closeMsg); c.why != "· answered elsewhere: denied by wisp-bar" {
		t.Errorf("the withdrawal says %q", c.why)
	}
}

// Where the gate offers a prefix, e switches s, p and a between the line
// and the prefix, and the menu says which one they hold.
func TestDialogHoldsAPrefix(t *testing.T) {
	m, _, _ := newTestModel(false)
	reply := make(chan approval.Answer, 1)
	req := approval.Request{ID: "p1", Line: "go test ./pkg/...", Dir: "/p", Level: policy.High, Prefixes: []string{"go test …"},
		Scopes: []approval.Scope{approval.Once, approval.Session, approval.Project}}
	m.Update(askMsg{req: req, reply: reply})
	if !strings.Contains(screenOf(m), "[e] hold go test …") {
		t.Fatalf("the prefix is not offered:\n%s", screenOf(m))
	}
	feed(m, typing("e")...)
	if !strings.Contains(screenOf(m), "hold go test …: [y] once") {
		t.Fatalf("e did not switch to the prefix:\n%s", screenOf(m))
	}
	feed(m, typing("p")...)
	if a := <-reply; !a.Approve || a.Scope != approval.Project || !a.Prefix {
		t.Fatalf("p after e answered %+v", a)
	}
	if !strings.Contains(screenOf(m), "you approved project, holding go test …") {
		t.Errorf("the answer note:\n%s", screenOf(m))
	}
}

// A connection to a host in neither domain list asks in the same dialog.
func TestDialogAsksAboutAHost(t *testing.T) {
	f := NewFace()
	got := make(chan tea.Msg, 2)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go f.pump(ctx, func(msg tea.Msg) { got <- msg })
	done := make(chan approval.Answer, 1)
	go func() {
		ans, _ := (&Approver{Face: f}).AskHost(ctx, approval.HostRequest{ID: "h1", Host: "example.org", Port: 443,
			Line: "curl https://example.org", Dir: "/p", Scopes: []approval.Scope{approval.Once, approval.Project}})
		done <- ans
	}()
	m, _, _ := newTestModel(false)
	m.Update(<-got)
	if s := screenOf(m); !strings.Contains(s, "allow a connection to example.org:443?") || !strings.Contains(s, "curl https://example.org") {
		t.Fatalf("the host dialog:\n%s", s)
	}
	feed(m, typing("p")...)
	if a := <-done; !a.Approve || a.Scope != approval.Project {
		t.Fatalf("p answered %+v", a)
	}
}
