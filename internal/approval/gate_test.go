package approval

import (
	"context"
	"errors"
	"os"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/wisp-sh/wisp/audit"
	"github.com/wisp-sh/wisp/internal/config"
	"github.com/wisp-sh/wisp/internal/runner"
	"github.com/wisp-sh/wisp/pending"
	"github.com/wisp-sh/wisp/policy"
)

// scripted answers every question with the same answer and counts them.
type scripted struct {
	name   string
	person bool
	answer Answer
	asked  atomic.Int32
	last   Request
}

func (s *scripted) Name() string      { return s.name }
func (s *scripted) AsksAPerson() bool { return s.person }
func (s *scripted) Ask(ctx context.Context, req Request) (Answer, error) {
	s.asked.Add(1)
	s.last = req
	return s.answer, nil
}

// waiting never answers; it records that it was withdrawn.
type waiting struct{ withdrawn chan struct{} }

func (w *waiting) Name() string      { return "waiting" }
func (w *waiting) AsksAPerson() bool { return true }
func (w *waiting) Ask(ctx context.Context, req Request) (Answer, error) {
	<-ctx.Done()
	close(w.withdrawn)
	return Answer{}, ctx.Err()
}

func newGate(t *testing.T, threshold string, approvers ...Approver) (*Gate, config.Home) {
	t.Helper()
	home := config.Home{Dir: t.TempDir()}
	return &Gate{
		Threshold: threshold, Held: NewHeld(home), Approvers: approvers, Project: "/proj",
		Audit: audit.New(home, "test", os.Getpid(), time.Now),
	}, home
}

func ask(t *testing.T, g *Gate, line string, outside bool) runner.Clearance {
	t.Helper()
	p, err := policy.New(nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	c, err := g.Clear(context.Background(), runner.GateRequest{Line: line, Dir: "/proj", Origin: runner.Model, OutsideSandbox: outside, Decision: p.Check(line)})
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func TestBelowThresholdAsksNobody(t *testing.T) {
	person := &scripted{name: "terminal", person: true, answer: Answer{Approve: false, By: "terminal"}}
	g, _ := newGate(t, "moderate", person)
	if c := ask(t, g, "ls -la", false); !c.Approved {
		t.Errorf("a low-risk line was not cleared: %+v", c)
	}
	if person.asked.Load() != 0 {
		t.Error("a line below the threshold asked the person")
	}
}

func TestSessionApprovalCoversTheSameLineOnly(t *testing.T) {
	person := &scripted{name: "terminal", person: true, answer: Answer{Approve: true, Scope: Session, By: "terminal"}}
	g, _ := newGate(t, "moderate", person)
	ask(t, g, "rm -r build", false)
	ask(t, g, "rm -r build", false)
	if n := person.asked.Load(); n != 1 {
		t.Errorf("asked %d times; a session approval should cover the same line", n)
	}
	ask(t, g, "rm -r build2", false)
	if n := person.asked.Load(); n != 2 {
		t.Errorf("a different line was covered by the session approval")
	}
}

func TestProjectAndAlwaysApprovalsPersist(t *testing.T) {
	person := &scripted{name: "terminal", person: true, answer: Answer{Approve: true, Scope: Project, By: "terminal"}}
	g, home := newGate(t, "moderate", person)
	ask(t, g, "rm -r build", false)
	// A new process (a new Held) in the same project is covered.
	g2 := &Gate{Threshold: "moderate", Held: NewHeld(home), Approvers: []Approver{person}, Project: "/proj"}
	ask(t, g2, "rm -r build", false)
	if n := person.asked.Load(); n != 1 {
		t.Errorf("project approval not held across processes: asked %d times", n)
	}
	g3 := &Gate{Threshold: "moderate", Held: NewHeld(home), Approvers: []Approver{person}, Project: "/other"}
	ask(t, g3, "rm -r build", false)
	if n := person.asked.Load(); n != 2 {
		t.Errorf("project approval leaked into another project")
	}
}

func TestOutsideSandboxAlwaysAsksAndKeepsNothing(t *testing.T) {
	person := &scripted{name: "terminal", person: true, answer: Answer{Approve: true, Scope: Always, By: "wisp approvals"}}
	g, home := newGate(t, "never", person)
	for i := range 2 {
		c := ask(t, g, "ls", true)
		if !c.Approved || c.Scope != string(Once) {
			t.Fatalf("run %d: %+v, want approved once", i, c)
		}
	}
	if n := person.asked.Load(); n != 2 {
		t.Errorf("outside-sandbox asked %d times over 2 runs; it must ask every time, threshold never included", n)
	}
	req := person.last
	if req.Level != policy.Moderate || req.Reasons[0] != pending.OutsideReason || len(req.Scopes) != 1 || req.Scopes[0] != Once {
		t.Errorf("outside request = %+v; want moderate, OUTSIDE reason first, once only", req)
	}
	if held, _ := NewHeld(home).List(); len(held) != 0 {
		t.Errorf("an outside-sandbox answer was kept: %v", held)
	}
	// An ordinary approval held for the line does not cover it outside.
	NewHeld(home).Keep("ls", "/proj", Always)
	ask(t, g, "ls", true)
	if n := person.asked.Load(); n != 3 {
		t.Error("a held always approval covered an outside-sandbox request")
	}
	assertAudited(t, home, `"downgradedFrom":"always"`)
}

func TestOutsideSandboxWithNoPersonIsRefused(t *testing.T) {
	tests := []struct {
		name      string
		approvers []Approver
		want      string
	}{
		{"--yes", []Approver{Auto{}}, "running outside the sandbox is asked of a person every time, and no one can be asked here (--yes does not answer it); run it without outsideSandbox, or ask the person to run it themselves"},
		{"denying", []Approver{Denying{}}, "no one can be asked here; run it without outsideSandbox"},
		{"none", nil, "no one can be asked here; run it without outsideSandbox"},
	}
	for _, tt := range tests {
		g, _ := newGate(t, "moderate", tt.approvers...)
		c := ask(t, g, "touch /etc/x", true)
		if c.Approved || !strings.HasPrefix(c.Message, "error: command not approved: ") || !strings.Contains(c.Message, tt.want) {
			t.Errorf("%s: %+v, want refusal containing %q", tt.name, c, tt.want)
		}
	}
}

func TestAutoApprovesOrdinaryCommands(t *testing.T) {
	g, _ := newGate(t, "low", Auto{})
	if c := ask(t, g, "rm -r build", false); !c.Approved || c.By != "--yes" {
		t.Errorf("--yes did not approve: %+v", c)
	}
}

func TestFirstAnswerWinsAndOthersAreWithdrawn(t *testing.T) {
	w := &waiting{withdrawn: make(chan struct{})}
	person := &scripted{name: "wisp-bar", person: true, answer: Answer{Approve: true, Scope: Once, By: "wisp-bar"}}
	g, _ := newGate(t, "moderate", w, person)
	c := ask(t, g, "rm -r build", false)
	if !c.Approved || c.By != "wisp-bar" {
		t.Errorf("clearance %+v", c)
	}
	select {
	case <-w.withdrawn:
	default:
		t.Error("the other approver was not withdrawn before Clear returned")
	}
}

func TestDenialSaysSo(t *testing.T) {
	person := &scripted{name: "terminal", person: true, answer: Answer{Approve: false, By: "terminal"}}
	g, home := newGate(t, "moderate", person)
	c := ask(t, g, "rm -r build", false)
	if c.Approved || c.Message != "error: command not approved: the person denied it; it did not run" {
		t.Errorf("%+v", c)
	}
	expired := &scripted{name: "pending", person: true, answer: Answer{Approve: false, By: "pending", Reason: "expired"}}
	g.Approvers = []Approver{expired}
	c = ask(t, g, "rm -r build", false)
	if !strings.Contains(c.Message, "silence is a denial") {
		t.Errorf("expiry not said as a denial: %q", c.Message)
	}
	assertAudited(t, home, `"decision":"expired"`)
}

func TestInvalidApprovalsFileIsNeverOverwritten(t *testing.T) {
	person := &scripted{name: "terminal", person: true, answer: Answer{Approve: true, Scope: Always, By: "terminal"}}
	g, home := newGate(t, "moderate", person)
	bad := []byte(`{"version": 1, "always": "not a list"}`)
	os.WriteFile(home.ApprovalsFile(), bad, 0o600)
	_, err := g.Clear(context.Background(), runner.GateRequest{Line: "rm -r x", Decision: policy.Decision{Allowed: true, Risk: policy.Assessment{Level: policy.High}}})
	var invalid *InvalidFileError
	if !errors.As(err, &invalid) {
		t.Fatalf("Clear over an invalid approvals.json = %v", err)
	}
	if got, _ := os.ReadFile(home.ApprovalsFile()); string(got) != string(bad) {
		t.Errorf("approvals.json was rewritten: %s", got)
	}
}

func assertAudited(t *testing.T, home config.Home, want string) {
	t.Helper()
	found := false
	audit.Read(home, audit.Filter{}, func(r audit.Record) error {
		if strings.Contains(string(r.Raw), want) {
			found = true
		}
		return nil
	})
	if !found {
		t.Errorf("audit log has no event with %s", want)
	}
}

func TestYesAnswersBeforeAPersonIsAsked(t *testing.T) {
	person := &scripted{name: "terminal", person: true, answer: Answer{Approve: false, By: "terminal"}}
	g, _ := newGate(t, "low", person, Auto{})
	if c := ask(t, g, "rm -r build", false); !c.Approved || c.By != "--yes" {
		t.Errorf("clearance %+v", c)
	}
	if person.asked.Load() != 0 {
		t.Error("a person was asked although --yes answers ordinary requests")
	}
	// Outside the sandbox --yes never answers: the person is asked.
	person.answer = Answer{Approve: true, Scope: Once, By: "terminal"}
	if c := ask(t, g, "true", true); !c.Approved || c.By != "terminal" || person.asked.Load() != 1 {
		t.Errorf("outside-sandbox with --yes: %+v, asked %d", c, person.asked.Load())
	}
}
