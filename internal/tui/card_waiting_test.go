package tui

import (
	"strings"
	"testing"
	"time"

	"github.com/wisp-sh/wisp/internal/agent"
	"github.com/wisp-sh/wisp/internal/approval"
	"github.com/wisp-sh/wisp/policy"
)

// While the gate asks the person, the command's card says it waits for
// them, not that it runs; once approved, its clock starts from the start.
func TestCardWaitsForTheAnswer(t *testing.T) {
	m, _, c := newTestModel(false)
	feed(m, evMsg{agent.Event{Type: agent.EventToolCall, ID: "c1", Name: "run_command", Command: "rm -r build"}})
	reply := make(chan approval.Answer, 1)
	m.Update(askMsg{req: approval.Request{ID: "b2", Line: "rm -r build", Dir: "/p", Level: policy.High,
		Reasons: []string{"deletes files"}, Scopes: []approval.Scope{approval.Once}}, reply: reply})
	c.add(16 * time.Second)
	screen := screenOf(m)
	if got := cardState(screen, "rm -r build"); got != "waiting for your answer" {
		t.Errorf("the card of a command the person is asked about says %q:\n%s", got, screen)
	}
	feed(m, typing("y")...)
	if a := <-reply; !a.Approve {
		t.Fatalf("y answered %+v", a)
	}
	feed(m, evMsg{agent.Event{Type: agent.EventCommandStart, Command: "rm -r build", Origin: "model"}})
	c.add(2 * time.Second)
	screen = screenOf(m)
	if got := cardState(screen, "rm -r build"); got != "running 2.0s" {
		t.Errorf("the card of the approved command says %q:\n%s", got, screen)
	}
}

// cardState is the line under the card of command: its state, without
// the spinner's frame.
func cardState(screen, command string) string {
	lines := strings.Split(screen, "\n")
	for i, l := range lines {
		if strings.TrimSpace(l) == "● "+command && i+1 < len(lines) {
			_, state, _ := strings.Cut(strings.TrimSpace(lines[i+1]), " ")
			return state
		}
	}
	return ""
}
